/* SPDX-License-Identifier: BSD-2-Clause */
/* Arithmetic over the delay line's counters, from lab/wan/counters.def. */
#include "lab/wan/line.h"

#define SUM_DELTA(a, b) ((a) - (b))
#define MAX_DELTA(a, b) (a)
#define SUM_ADD(a, b) ((a) + (b))
#define MAX_ADD(a, b) ((a) > (b) ? (a) : (b))

void xp_wan_stats_delta(struct xp_wan_stats *out, const struct xp_wan_stats *after,
			const struct xp_wan_stats *before)
{
	int d;

	for (d = 0; d < XP_WAN_DIRS; d++) {
#define XP_WAN_CTR(field, merge, help) \
	out->d[d].field = merge##_DELTA(after->d[d].field, before->d[d].field);
#include "lab/wan/counters.def"
#undef XP_WAN_CTR
	}
}

void xp_wan_stats_add(struct xp_wan_stats *out, const struct xp_wan_stats *s)
{
	int d;

	for (d = 0; d < XP_WAN_DIRS; d++) {
#define XP_WAN_CTR(field, merge, help) \
	out->d[d].field = merge##_ADD(out->d[d].field, s->d[d].field);
#include "lab/wan/counters.def"
#undef XP_WAN_CTR
	}
}
