/* SPDX-License-Identifier: BSD-2-Clause */
#include "client/report/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define T_TABLE_DF 30

/* Two-sided Student t quantiles for df 1..30, as printed in the usual
 * tables (3 decimals).  Above 30 degrees of freedom the Cornish-Fisher
 * expansion below is accurate to about 1e-5 and falls monotonically
 * toward the normal quantile, so no further rows are needed. */
static const double t95[T_TABLE_DF] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

static const double t99[T_TABLE_DF] = {
	63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169,
	3.106,  3.055, 3.012, 2.977, 2.947, 2.921, 2.898, 2.878, 2.861, 2.845,
	2.831,  2.819, 2.807, 2.797, 2.787, 2.779, 2.771, 2.763, 2.756, 2.750,
};

/* Cornish-Fisher expansion of the t quantile in powers of 1/df around
 * the normal quantile z (Abramowitz & Stegun 26.7.5). */
static double t_cornish_fisher(double z, double df)
{
	double z2 = z * z;
	double g1 = (z2 + 1) * z / 4;
	double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
	double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
	double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) *
		    z / 92160;

	return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
}

double xp_t_quantile(int level, size_t df)
{
	const double *table;
	double z;

	if (level == 95) {
		table = t95;
		z = 1.959963984540054;
	} else if (level == 99) {
		table = t99;
		z = 2.575829303548901;
	} else {
		return -1;
	}
	if (df == 0)
		return -1;
	if (df <= T_TABLE_DF)
		return table[df - 1];
	return t_cornish_fisher(z, (double)df);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of v[0..n) from a sorted copy; v itself is const.  0 or -1. */
static int median(const double *v, size_t n, double *out)
{
	double *c;

	if (n > SIZE_MAX / sizeof(*c))
		return -1;
	c = malloc(n * sizeof(*c));
	if (!c)
		return -1;
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	*out = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return 0;
}

/* Mean, min, max, then the sample standard deviation in a second pass
 * (sum of squared deviations from the mean: no cancellation as with
 * sum(x^2) - n * mean^2). */
static void moments(const double *v, size_t n, struct xp_stats *s)
{
	double sum = 0, ss = 0;
	size_t i;

	s->min = s->max = v[0];
	for (i = 0; i < n; i++) {
		sum += v[i];
		s->min = v[i] < s->min ? v[i] : s->min;
		s->max = v[i] > s->max ? v[i] : s->max;
	}
	s->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	s->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
}

static int all_finite(const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return 0;
	return 1;
}

/* Also -1 for NaN or infinite samples: they would make every field
 * meaningless, and NaN breaks the sort order behind the median. */
int xp_stats_compute(const double *v, size_t n, int level, struct xp_stats *s)
{
	struct xp_stats r = { .n = n, .level = level };

	if (!v || !s || n == 0 || xp_t_quantile(level, 1) < 0 ||
	    !all_finite(v, n))
		return -1;
	if (median(v, n, &r.median) < 0)
		return -1;
	moments(v, n, &r);
	if (n > 1)
		r.ci_half = xp_t_quantile(level, n - 1) * r.stddev /
			    sqrt((double)n);
	if (r.mean != 0)
		r.ci_percent = 100 * r.ci_half / fabs(r.mean);
	*s = r;
	return 0;
}
