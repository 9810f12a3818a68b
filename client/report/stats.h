/* SPDX-License-Identifier: BSD-2-Clause */
/* Statistics over repeated runs (--iterations, netperf -i/-I): mean,
 * median, sample standard deviation and the confidence interval of the
 * mean from Student's t distribution.  Pure functions. */
#ifndef XP_STATS_H
#define XP_STATS_H

#include <stddef.h>

struct xp_stats {
	size_t n;
	double mean, median, stddev; /* stddev: sample (n - 1); 0 when n < 2 */
	double min, max;
	double ci_half;      /* half-width of the confidence interval of the mean */
	double ci_percent;   /* ci_half as a percentage of the mean (0 if mean 0) */
	int level;           /* confidence level used: 95 or 99 */
};

/* level: 95 or 99 (anything else: -1).  v is not modified.  n >= 1. */
int xp_stats_compute(const double *v, size_t n, int level, struct xp_stats *s);

/* Two-sided Student t quantile for the given level and degrees of
 * freedom (df >= 1), e.g. xp_t_quantile(95, 2) = 4.303. */
double xp_t_quantile(int level, size_t df);

#endif
