/* SPDX-License-Identifier: BSD-2-Clause */
/* -t RRUL's arithmetic (client/mixed/calc.c): the trimmed mean, RPM as
 * the responsiveness draft defines it, the inflation per figure, the
 * probes a fixed schedule owes; and its --slo names (client/report/slo.c). */
#include "client/mixed/calc.h"
#include "client/report/slo.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

#define MS 1000000ull

/* |a - b| within rel of b (the histogram's buckets: < 0.8%). */
static int near(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fabs(b);
}

START_TEST(test_trimmed_mean_drops_top_5pct)
{
	struct xp_hist *h = xp_hist_new();

	/* 95 probes of 10 ms and 5 stalled ones of 1 s: the 95% trimmed
	 * mean is 10 ms, the plain mean 59.5 ms */
	xp_hist_add_n(h, 10 * MS, 95);
	xp_hist_add_n(h, 1000 * MS, 5);
	ck_assert(near(xp_mixed_trimmed_mean(h, 95) / 1e6, 10, 0.008));
	ck_assert(near(xp_hist_mean(h) / 1e6, 59.5, 1e-9));
	/* 94 of 10 ms, 6 of 1 s: one stalled probe stays in */
	xp_hist_reset(h);
	xp_hist_add_n(h, 10 * MS, 94);
	xp_hist_add_n(h, 1000 * MS, 6);
	ck_assert(near(xp_mixed_trimmed_mean(h, 95) / 1e6, (94 * 10 + 1000) / 95.0, 0.008));
	/* keep 100%: the mean; an empty histogram: 0 */
	ck_assert(near(xp_mixed_trimmed_mean(h, 100), xp_hist_mean(h), 0.008));
	xp_hist_reset(h);
	ck_assert(xp_mixed_trimmed_mean(h, 95) == 0);
	xp_hist_add(h, 7 * MS);
	ck_assert(near(xp_mixed_trimmed_mean(h, 95) / 1e6, 7, 1e-9)); /* one sample: kept */
	xp_hist_free(h);
}
END_TEST

START_TEST(test_rpm)
{
	/* 60000 ms per minute over the mean of foreign and self */
	ck_assert(near(xp_mixed_rpm(10, 10), 6000, 1e-12));
	ck_assert(near(xp_mixed_rpm(10, 20), 4000, 1e-12));
	ck_assert(near(xp_mixed_rpm(0.5, 0.5), 120000, 1e-12));
	ck_assert(xp_mixed_rpm(0, 10) == 0);
	ck_assert(xp_mixed_rpm(10, -1) == 0);
	ck_assert(xp_mixed_rpm(NAN, 10) == 0);
}
END_TEST

START_TEST(test_lat_and_inflation)
{
	struct xp_hist *hi = xp_hist_new(), *hl = xp_hist_new();
	struct xp_mixed_lat idle, loaded, inf;
	uint64_t i;

	for (i = 1; i <= 1000; i++) {
		xp_hist_add(hi, i * MS / 100);      /* 0.01 .. 10 ms */
		xp_hist_add(hl, 20 * MS + i * MS / 10); /* 20.1 .. 120 ms */
	}
	xp_mixed_lat_from_hist(hi, &idle);
	xp_mixed_lat_from_hist(hl, &loaded);
	ck_assert_uint_eq(idle.count, 1000);
	ck_assert(near(idle.p50, 5, 0.01) && near(idle.p99, 9.9, 0.01));
	ck_assert(near(loaded.p50, 70, 0.01) && near(loaded.p999, 119.9, 0.01));
	xp_mixed_inflation(&idle, &loaded, &inf);
	ck_assert(inf.p50 == loaded.p50 - idle.p50);
	ck_assert(inf.p90 == loaded.p90 - idle.p90);
	ck_assert(inf.p99 == loaded.p99 - idle.p99);
	ck_assert(inf.p999 == loaded.p999 - idle.p999);
	ck_assert(inf.mean == loaded.mean - idle.mean);
	ck_assert(near(inf.mean, 70.05 - 5.005, 1e-9));
	ck_assert_uint_eq(inf.count, loaded.count);
	/* inflation of an idle path over itself: 0 */
	xp_mixed_inflation(&idle, &idle, &inf);
	ck_assert(inf.p50 == 0 && inf.p99 == 0 && inf.mean == 0);
	xp_mixed_lat_from_hist(NULL, &idle);
	ck_assert(idle.count == 0 && idle.p99 == 0);
	/* no idle answers (or no loaded ones): no inflation, not -idle */
	xp_mixed_inflation(&idle, &loaded, &inf);
	ck_assert(inf.count == 0 && inf.p50 == 0 && inf.mean == 0);
	xp_mixed_inflation(&loaded, &idle, &inf);
	ck_assert(inf.count == 0 && inf.p99 == 0);
	xp_hist_free(hi);
	xp_hist_free(hl);
}
END_TEST

START_TEST(test_unanswered)
{
	/* 10 s at one per 10 ms owes 1000 */
	ck_assert_uint_eq(xp_mixed_unanswered(10000 * MS, 10 * MS, 990), 10);
	ck_assert_uint_eq(xp_mixed_unanswered(10000 * MS, 10 * MS, 1001), 0);
	ck_assert_uint_eq(xp_mixed_unanswered(10000 * MS, 0, 5), 0);
}
END_TEST

START_TEST(test_slo_names)
{
	struct xp_slo slo;
	struct xp_err err = { "" };

	ck_assert_int_eq(xp_slo_parse("loaded_p99<=5ms,rpm>=2000,udp_inflation_p99.9<1s,"
				      "idle_mean<1ms,throughput_up>=40M", &slo, &err), 0);
	ck_assert_int_eq(slo.n, 5);
	ck_assert_str_eq(slo.b[0].name, "loaded_p99");
	ck_assert_int_eq(slo.b[0].phase, XP_SLO_LOADED);
	ck_assert(slo.b[0].limit == 5000);
	ck_assert_int_eq(slo.b[1].metric, XP_SLO_RPM);
	ck_assert(slo.b[1].limit == 2000);
	ck_assert_str_eq(slo.b[2].name, "udp_inflation_p99.9");
	ck_assert(slo.b[2].udp && slo.b[2].phase == XP_SLO_INFLATION && slo.b[2].pct == 99.9);
	ck_assert_int_eq(slo.b[3].phase, XP_SLO_IDLE);
	ck_assert_int_eq(slo.b[4].metric, XP_SLO_THROUGHPUT_UP);
	ck_assert(slo.b[4].limit == 40e6);
	/* the same percentile in two phases is two bounds */
	ck_assert_int_eq(xp_slo_parse("idle_p99<1ms,loaded_p99<1ms", &slo, &err), 0);
	ck_assert_int_eq(xp_slo_parse("udp_rpm>=1", &slo, &err), -1);
	ck_assert_int_eq(xp_slo_parse("loaded_rate>=1", &slo, &err), -1);
	ck_assert_int_eq(xp_slo_parse("udp_p99<1ms", &slo, &err), -1);
	ck_assert_int_eq(xp_slo_parse("loaded_<1ms", &slo, &err), -1);
}
END_TEST

static Suite *mixed_suite(void)
{
	Suite *s = suite_create("mixed");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_trimmed_mean_drops_top_5pct);
	tcase_add_test(tc, test_rpm);
	tcase_add_test(tc, test_lat_and_inflation);
	tcase_add_test(tc, test_unanswered);
	tcase_add_test(tc, test_slo_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(mixed_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
