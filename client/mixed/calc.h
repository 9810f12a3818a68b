/* SPDX-License-Identifier: BSD-2-Clause */
/* The arithmetic of -t RRUL's report (pure): a phase's latency figures
 * from its histogram, the inflation (loaded minus idle, per figure), and
 * the responsiveness draft's round trips per minute. */
#ifndef XP_MIXED_CALC_H
#define XP_MIXED_CALC_H

#include <stdint.h>

#include "common/hist.h"

/* The share of the smallest samples a trimmed mean keeps: the draft's
 * "95th percentile trimmed mean" drops the largest 5%. */
#define XP_MIXED_TRIM_KEEP 95.0

/* One probe kind's round trips in one phase, in milliseconds. */
struct xp_mixed_lat {
	uint64_t count;  /* probes answered */
	double p50, p90, p99, p999, mean;
	double tm;       /* trimmed mean (XP_MIXED_TRIM_KEEP) */
};

/* The figures of h (ns); all 0 when h is empty or NULL. */
void xp_mixed_lat_from_hist(const struct xp_hist *h, struct xp_mixed_lat *l);
/* --one-way: the figures of a histogram of delay + bias (common/owd.h)
 * made the delays': bias_ms off each (not off count). */
void xp_mixed_lat_unbias(struct xp_mixed_lat *l, double bias_ms);
/* Mean of the smallest keep_pct percent of h's samples (ceil(keep/100 *
 * count) of them, each at its bucket's midpoint clamped to [min, max]),
 * ns; 0 if h is empty. */
double xp_mixed_trimmed_mean(const struct xp_hist *h, double keep_pct);
/* out = loaded - idle, figure by figure (count: the loaded one's); all 0
 * when either phase has no answered probe. */
void xp_mixed_inflation(const struct xp_mixed_lat *idle, const struct xp_mixed_lat *loaded,
			struct xp_mixed_lat *out);
/* Round trips per minute as the draft defines them: 60000 ms over the
 * mean of the foreign and the self probes' trimmed means (ms); 0 when
 * either is not positive. */
double xp_mixed_rpm(double tm_foreign_ms, double tm_self_ms);
/* Probes a fixed schedule of one every interval_ns owes in duration_ns
 * less those answered: the ones never answered (0 if none). */
uint64_t xp_mixed_unanswered(uint64_t duration_ns, uint64_t interval_ns, uint64_t answered);

#endif
