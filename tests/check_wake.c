/* SPDX-License-Identifier: BSD-2-Clause */
/* The precise sleeps' estimate of a worker's timer lateness
 * (xp_wake_late_update, common/engine/worker.h). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/engine/worker.h"

static uint64_t feed(uint64_t est, uint64_t late, int n)
{
	while (n-- > 0)
		est = xp_wake_late_update(est, late);
	return est;
}

START_TEST(steady)
{
	/* from the start value to a steady lateness, either way */
	ck_assert_uint_le(feed(XP_WAKE_EARLY_NS, 30000, 1000), 30100);
	ck_assert_uint_ge(feed(XP_WAKE_EARLY_NS, 30000, 1000), 30000);
	ck_assert_uint_ge(feed(XP_WAKE_EARLY_NS, 200000, 20), 199000);
	ck_assert_uint_le(feed(XP_WAKE_EARLY_NS, 200000, 20), 200000);
	ck_assert_uint_eq(xp_wake_late_update(5000, 5000), 5000);
}
END_TEST

START_TEST(asymmetric)
{
	uint64_t e;

	/* a late wake raises it fast, an early one lowers it slowly */
	ck_assert_uint_eq(xp_wake_late_update(100000, 500000), 200000);
	ck_assert_uint_eq(xp_wake_late_update(100000, 36000), 99000);
	/* one outlier among steady wakes: up, then back within 1% in 600 */
	e = xp_wake_late_update(feed(10000, 10000, 10), 1000000);
	ck_assert_uint_ge(e, 250000);
	ck_assert_uint_le(feed(e, 10000, 600), 10100);
}
END_TEST

START_TEST(bounded)
{
	/* never outside what it started from and what it saw */
	uint64_t e = 50000;
	uint32_t x = 12345;
	int i;

	for (i = 0; i < 10000; i++) {
		uint64_t late;

		x = x * 1103515245u + 12345u;
		late = 20000 + (x >> 8) % 180000;
		e = xp_wake_late_update(e, late);
		ck_assert_uint_ge(e, 20000);
		ck_assert_uint_le(e, 200000);
	}
	/* no overflow at the ends of the range */
	ck_assert_uint_eq(xp_wake_late_update(0, UINT64_MAX), UINT64_MAX / 4);
	ck_assert_uint_eq(xp_wake_late_update(UINT64_MAX, 0), UINT64_MAX - UINT64_MAX / 64);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("wake");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, steady);
	tcase_add_test(tc, asymmetric);
	tcase_add_test(tc, bounded);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
