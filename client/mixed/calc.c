/* SPDX-License-Identifier: BSD-2-Clause */
#include "client/mixed/calc.h"

#include <math.h>
#include <string.h>

double xp_mixed_trimmed_mean(const struct xp_hist *h, double keep_pct)
{
	uint64_t n = h ? xp_hist_count(h) : 0, left, take, c;
	double lo, hi, mid, sum = 0;
	uint32_t i, nb = xp_hist_buckets();

	if (!n || !(keep_pct > 0))
		return 0;
	left = (uint64_t)ceil((keep_pct > 100 ? 100 : keep_pct) / 100.0 * (double)n);
	left = left ? left : 1;
	take = left;
	lo = (double)xp_hist_min(h);
	hi = (double)xp_hist_max(h);
	for (i = 0; i < nb && left; i++) {
		c = xp_hist_bucket_count(h, i);
		if (!c)
			continue;
		c = c < left ? c : left;
		mid = ((double)xp_hist_bucket_low(i) + (double)xp_hist_bucket_high(i)) / 2;
		mid = mid < lo ? lo : mid > hi ? hi : mid;
		sum += mid * (double)c;
		left -= c;
	}
	return sum / (double)(take - left);
}

void xp_mixed_lat_from_hist(const struct xp_hist *h, struct xp_mixed_lat *l)
{
	memset(l, 0, sizeof(*l));
	if (!h || !xp_hist_count(h))
		return;
	l->count = xp_hist_count(h);
	l->p50 = xp_hist_percentile(h, 50) / 1e6;
	l->p90 = xp_hist_percentile(h, 90) / 1e6;
	l->p99 = xp_hist_percentile(h, 99) / 1e6;
	l->p999 = xp_hist_percentile(h, 99.9) / 1e6;
	l->mean = xp_hist_mean(h) / 1e6;
	l->tm = xp_mixed_trimmed_mean(h, XP_MIXED_TRIM_KEEP) / 1e6;
}

void xp_mixed_lat_unbias(struct xp_mixed_lat *l, double bias_ms)
{
	if (!l->count)
		return;
	l->p50 -= bias_ms;
	l->p90 -= bias_ms;
	l->p99 -= bias_ms;
	l->p999 -= bias_ms;
	l->mean -= bias_ms;
	l->tm -= bias_ms;
}

void xp_mixed_inflation(const struct xp_mixed_lat *idle, const struct xp_mixed_lat *loaded,
			struct xp_mixed_lat *out)
{
	memset(out, 0, sizeof(*out));
	if (!idle->count || !loaded->count)
		return; /* a phase without answers: no inflation to tell */
	out->count = loaded->count;
	out->p50 = loaded->p50 - idle->p50;
	out->p90 = loaded->p90 - idle->p90;
	out->p99 = loaded->p99 - idle->p99;
	out->p999 = loaded->p999 - idle->p999;
	out->mean = loaded->mean - idle->mean;
	out->tm = loaded->tm - idle->tm;
}

double xp_mixed_rpm(double tm_foreign_ms, double tm_self_ms)
{
	if (!(tm_foreign_ms > 0) || !(tm_self_ms > 0))
		return 0;
	return 60000.0 / ((tm_foreign_ms + tm_self_ms) / 2);
}

uint64_t xp_mixed_unanswered(uint64_t duration_ns, uint64_t interval_ns, uint64_t answered)
{
	uint64_t owed = interval_ns ? duration_ns / interval_ns : 0;

	return owed > answered ? owed - answered : 0;
}
