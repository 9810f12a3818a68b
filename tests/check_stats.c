/* SPDX-License-Identifier: BSD-2-Clause */
#include "client/report/stats.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define TOL 1e-9
#define Z95 1.959963984540054
#define Z99 2.575829303548901

/* Expected values below were worked out by hand from the definitions
 * (sample stddev, ci_half = t * stddev / sqrt(n)) and the printed t
 * table; the t quantiles for df > 30 come from the exact t distribution
 * (regularized incomplete beta function), not from the code under test. */

START_TEST(test_three_values_95)
{
	const double v[] = { 10, 12, 14 };
	struct xp_stats s;

	ck_assert_int_eq(xp_stats_compute(v, 3, 95, &s), 0);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_int_eq(s.level, 95);
	ck_assert_double_eq_tol(s.mean, 12, TOL);
	ck_assert_double_eq_tol(s.median, 12, TOL);
	ck_assert_double_eq_tol(s.stddev, 2, TOL);
	ck_assert_double_eq(s.min, 10);
	ck_assert_double_eq(s.max, 14);
	/* 4.303 * 2 / sqrt(3) */
	ck_assert_double_eq_tol(s.ci_half, 4.96867641664592, TOL);
	/* 100 * 4.9686... / 12 */
	ck_assert_double_eq_tol(s.ci_percent, 41.40563680538267, TOL);
}
END_TEST

START_TEST(test_three_values_99)
{
	const double v[] = { 14, 10, 12 };
	struct xp_stats s;

	ck_assert_int_eq(xp_stats_compute(v, 3, 99, &s), 0);
	ck_assert_int_eq(s.level, 99);
	ck_assert_double_eq_tol(s.mean, 12, TOL);
	ck_assert_double_eq_tol(s.median, 12, TOL);
	ck_assert_double_eq_tol(s.stddev, 2, TOL);
	/* 9.925 * 2 / sqrt(3) */
	ck_assert_double_eq_tol(s.ci_half, 11.460402843414073, TOL);
	ck_assert_double_eq_tol(s.ci_percent, 100 * 11.460402843414073 / 12,
				TOL);
}
END_TEST

START_TEST(test_even_median)
{
	const double v[] = { 4, 1, 3, 2 };
	struct xp_stats s;

	ck_assert_int_eq(xp_stats_compute(v, 4, 95, &s), 0);
	ck_assert_double_eq_tol(s.mean, 2.5, TOL);
	ck_assert_double_eq_tol(s.median, 2.5, TOL);
	/* sqrt((2.25 + 0.25 + 0.25 + 2.25) / 3) = sqrt(5/3) */
	ck_assert_double_eq_tol(s.stddev, 1.2909944487358056, TOL);
	ck_assert_double_eq(s.min, 1);
	ck_assert_double_eq(s.max, 4);
	/* 3.182 * sqrt(5/3) / 2 */
	ck_assert_double_eq_tol(s.ci_half, 2.053972167938667, TOL);
}
END_TEST

START_TEST(test_odd_median_unsorted)
{
	double v[] = { 5, 1, 9, 3, 7 };
	const double orig[] = { 5, 1, 9, 3, 7 };
	struct xp_stats s;

	ck_assert_int_eq(xp_stats_compute(v, 5, 95, &s), 0);
	ck_assert_double_eq_tol(s.mean, 5, TOL);
	ck_assert_double_eq_tol(s.median, 5, TOL);
	/* sqrt((16 + 16 + 4 + 4 + 0) / 4) = sqrt(10) */
	ck_assert_double_eq_tol(s.stddev, 3.1622776601683795, TOL);
	/* 2.776 * sqrt(10) / sqrt(5) = 2.776 * sqrt(2) */
	ck_assert_double_eq_tol(s.ci_half, 3.9258568491477117, TOL);
	ck_assert_double_eq(s.min, 1);
	ck_assert_double_eq(s.max, 9);
	/* the input is not sorted in place */
	ck_assert_int_eq(memcmp(v, orig, sizeof(v)), 0);
}
END_TEST

START_TEST(test_skewed_median)
{
	const double v[] = { 1, 2, 1000, 3, 2, 2 };
	struct xp_stats s;

	ck_assert_int_eq(xp_stats_compute(v, 6, 95, &s), 0);
	ck_assert_double_eq_tol(s.median, 2, TOL);
	ck_assert_double_eq_tol(s.mean, 1010.0 / 6, TOL);
}
END_TEST

START_TEST(test_single_value)
{
	const double v[] = { 42 };
	struct xp_stats s;

	ck_assert_int_eq(xp_stats_compute(v, 1, 95, &s), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_double_eq(s.mean, 42);
	ck_assert_double_eq(s.median, 42);
	ck_assert_double_eq(s.stddev, 0);
	ck_assert_double_eq(s.min, 42);
	ck_assert_double_eq(s.max, 42);
	ck_assert_double_eq(s.ci_half, 0);
	ck_assert_double_eq(s.ci_percent, 0);
	ck_assert_int_eq(s.level, 95);
}
END_TEST

START_TEST(test_constant_values)
{
	const double v[] = { 7, 7, 7, 7 };
	struct xp_stats s;

	ck_assert_int_eq(xp_stats_compute(v, 4, 99, &s), 0);
	ck_assert_double_eq(s.mean, 7);
	ck_assert_double_eq(s.stddev, 0);
	ck_assert_double_eq(s.ci_half, 0);
	ck_assert_double_eq(s.ci_percent, 0);
}
END_TEST

START_TEST(test_zero_and_negative_mean)
{
	const double zero[] = { -1, 1 };
	const double neg[] = { -10, -12, -14 };
	struct xp_stats s;

	ck_assert_int_eq(xp_stats_compute(zero, 2, 95, &s), 0);
	ck_assert_double_eq(s.mean, 0);
	ck_assert_double_eq(s.median, 0);
	ck_assert_double_eq_tol(s.stddev, sqrt(2), TOL);
	/* 12.706 * sqrt(2) / sqrt(2) */
	ck_assert_double_eq_tol(s.ci_half, 12.706, TOL);
	ck_assert_double_eq(s.ci_percent, 0);

	/* the percentage is of |mean|: positive for a negative mean */
	ck_assert_int_eq(xp_stats_compute(neg, 3, 95, &s), 0);
	ck_assert_double_eq_tol(s.mean, -12, TOL);
	ck_assert_double_eq_tol(s.ci_percent, 41.40563680538267, TOL);
}
END_TEST

/* 1..1000: mean 500.5, sample stddev sqrt(n(n+1)/12). */
START_TEST(test_thousand_values)
{
	double v[1000];
	struct xp_stats s;
	size_t i;

	for (i = 0; i < ARRAY_LEN(v); i++)
		v[i] = (double)(ARRAY_LEN(v) - i); /* descending */
	ck_assert_int_eq(xp_stats_compute(v, 1000, 95, &s), 0);
	ck_assert_double_eq_tol(s.mean, 500.5, TOL);
	ck_assert_double_eq_tol(s.median, 500.5, TOL);
	ck_assert_double_eq_tol(s.stddev, 288.8194360957494, 1e-9);
	ck_assert_double_eq(s.min, 1);
	ck_assert_double_eq(s.max, 1000);
	/* exact t(0.975, 999) = 1.9623414611... */
	ck_assert_double_eq_tol(s.ci_half,
				1.9623414611334495 * 288.8194360957494 /
					sqrt(1000),
				1e-4);
}
END_TEST

START_TEST(test_compute_errors)
{
	const double v[] = { 1, 2, 3 };
	const double bad[] = { 1, NAN, 3 };
	const double inf[] = { 1, INFINITY };
	struct xp_stats s = { .n = 77 };

	ck_assert_int_eq(xp_stats_compute(v, 3, 90, &s), -1);
	ck_assert_int_eq(xp_stats_compute(v, 3, 0, &s), -1);
	ck_assert_int_eq(xp_stats_compute(v, 3, 100, &s), -1);
	ck_assert_int_eq(xp_stats_compute(v, 0, 95, &s), -1);
	ck_assert_int_eq(xp_stats_compute(bad, 3, 95, &s), -1);
	ck_assert_int_eq(xp_stats_compute(inf, 2, 95, &s), -1);
	ck_assert_int_eq(xp_stats_compute(NULL, 3, 95, &s), -1);
	ck_assert_uint_eq(s.n, 77); /* untouched on error */
}
END_TEST

START_TEST(test_t_table)
{
	static const struct {
		size_t df;
		double t95, t99;
	} rows[] = {
		{ 1, 12.706, 63.657 }, { 2, 4.303, 9.925 }, { 3, 3.182, 5.841 },
		{ 4, 2.776, 4.604 },   { 5, 2.571, 4.032 }, { 10, 2.228, 3.169 },
		{ 20, 2.086, 2.845 },  { 29, 2.045, 2.756 }, { 30, 2.042, 2.750 },
	};
	size_t i;

	for (i = 0; i < ARRAY_LEN(rows); i++) {
		ck_assert_double_eq_tol(xp_t_quantile(95, rows[i].df), rows[i].t95,
					5e-4);
		ck_assert_double_eq_tol(xp_t_quantile(99, rows[i].df), rows[i].t99,
					5e-4);
	}
}
END_TEST

/* Beyond the table, against the exact t distribution. */
START_TEST(test_t_large_df)
{
	static const struct {
		size_t df;
		double t95, t99;
	} rows[] = {
		{ 31, 2.039513446396408, 2.744041919294269 },
		{ 40, 2.021075390306273, 2.704459267433162 },
		{ 60, 2.000297822014260, 2.660283028855037 },
		{ 120, 1.979930405082440, 2.617421145106866 },
		{ 999, 1.962341461133450, 2.580759637267637 },
		{ 1000, 1.962339080826408, 2.580754698065951 },
	};
	size_t i;

	for (i = 0; i < ARRAY_LEN(rows); i++) {
		ck_assert_double_eq_tol(xp_t_quantile(95, rows[i].df), rows[i].t95,
					1e-4);
		ck_assert_double_eq_tol(xp_t_quantile(99, rows[i].df), rows[i].t99,
					1e-4);
	}
	ck_assert_double_eq_tol(xp_t_quantile(95, 1000000000), Z95, 1e-6);
	ck_assert_double_eq_tol(xp_t_quantile(99, 1000000000), Z99, 1e-6);
}
END_TEST

static void check_monotonic(int level, double z)
{
	double prev = xp_t_quantile(level, 1), t;
	size_t df;

	for (df = 2; df <= 1000; df++) {
		t = xp_t_quantile(level, df);
		ck_assert_msg(t < prev, "level %d: t(%zu) = %f >= t(%zu) = %f",
			      level, df, t, df - 1, prev);
		ck_assert_msg(t > z, "level %d: t(%zu) = %f <= z", level, df, t);
		prev = t;
	}
	ck_assert_double_eq_tol(prev, z, 6e-3);
}

START_TEST(test_t_monotonic)
{
	check_monotonic(95, Z95);
	check_monotonic(99, Z99);
}
END_TEST

START_TEST(test_t_unsupported)
{
	ck_assert_double_eq(xp_t_quantile(90, 10), -1);
	ck_assert_double_eq(xp_t_quantile(0, 10), -1);
	ck_assert_double_eq(xp_t_quantile(-95, 10), -1);
	ck_assert_double_eq(xp_t_quantile(100, 10), -1);
	ck_assert_double_eq(xp_t_quantile(95, 0), -1);
	ck_assert_double_eq(xp_t_quantile(99, 0), -1);
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_three_values_95);
	tcase_add_test(tc, test_three_values_99);
	tcase_add_test(tc, test_even_median);
	tcase_add_test(tc, test_odd_median_unsorted);
	tcase_add_test(tc, test_skewed_median);
	tcase_add_test(tc, test_single_value);
	tcase_add_test(tc, test_constant_values);
	tcase_add_test(tc, test_zero_and_negative_mean);
	tcase_add_test(tc, test_thousand_values);
	tcase_add_test(tc, test_compute_errors);
	tcase_add_test(tc, test_t_table);
	tcase_add_test(tc, test_t_large_df);
	tcase_add_test(tc, test_t_monotonic);
	tcase_add_test(tc, test_t_unsupported);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(stats_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
