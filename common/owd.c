/* SPDX-License-Identifier: BSD-2-Clause */
/* The clock offset from NTP-style exchanges (common/owd.h). */
#include "common/owd.h"

/* (a + b) / 2 without overflow, whatever a peer's stamps say. */
static int64_t half_sum(int64_t a, int64_t b)
{
	return a / 2 + b / 2 + (a % 2 + b % 2) / 2;
}

int xp_clock_estimate(const struct xp_clock_sample *s, size_t n, struct xp_clock_est *e)
{
	uint64_t best = UINT64_MAX;
	size_t i;

	e->samples = 0;
	for (i = 0; i < n; i++) {
		uint64_t out = s[i].t4 - s[i].t1, held = s[i].t3 - s[i].t2;

		if (s[i].t4 < s[i].t1 || s[i].t3 < s[i].t2 || held > out)
			continue;
		e->samples++;
		if (out - held >= best)
			continue;
		best = out - held;
		e->offset_ns = half_sum((int64_t)(s[i].t2 - s[i].t1), (int64_t)(s[i].t3 - s[i].t4));
		e->rtt_ns = best;
		e->unc_ns = (best + 1) / 2;
	}
	return e->samples ? 0 : -1;
}
