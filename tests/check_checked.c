/* SPDX-License-Identifier: BSD-2-Clause */
/* Checked arithmetic on wire values: every overflow detected at its exact
 * boundary, errors naming the field, the value and the bound. */
#include "common/checked.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static void assert_err_has(const struct xp_err *err, const char *part)
{
	ck_assert_msg(strstr(err->msg, part) != NULL, "'%s' not in '%s'", part,
		      err->msg);
}

START_TEST(test_add)
{
	uint64_t out = 7;
	struct xp_err err;

	ck_assert_int_eq(xp_u64_add(UINT64_MAX - 1, 1, &out), 0);
	ck_assert_uint_eq(out, UINT64_MAX);
	ck_assert_int_eq(xp_u64_add(UINT64_MAX, 0, &out), 0);
	out = 7;
	ck_assert_int_eq(xp_u64_add(UINT64_MAX, 1, &out), -1);
	ck_assert_int_eq(xp_u64_add(1ull << 63, 1ull << 63, &out), -1);
	ck_assert_uint_eq(out, 7); /* untouched on overflow */
	ck_assert_int_eq(xp_u64_add_checked(UINT64_MAX, 2, "bytes_sent", &out,
					    &err), -1);
	assert_err_has(&err, "bytes_sent 18446744073709551615 + 2 overflows");
	ck_assert_int_eq(xp_u64_add_checked(40, 2, "x", &out, &err), 0);
	ck_assert_uint_eq(out, 42);
}
END_TEST

START_TEST(test_mul)
{
	uint64_t out = 7;
	struct xp_err err;

	ck_assert_int_eq(xp_u64_mul(0, UINT64_MAX, &out), 0);
	ck_assert_uint_eq(out, 0);
	ck_assert_int_eq(xp_u64_mul(1, UINT64_MAX, &out), 0);
	ck_assert_uint_eq(out, UINT64_MAX);
	ck_assert_int_eq(xp_u64_mul(1ull << 32, (1ull << 32) - 1, &out), 0);
	ck_assert_uint_eq(out, (1ull << 32) * ((1ull << 32) - 1));
	out = 7;
	ck_assert_int_eq(xp_u64_mul(1ull << 32, 1ull << 32, &out), -1);
	ck_assert_int_eq(xp_u64_mul(3, 6148914691236517206ull, &out), -1);
	ck_assert_uint_eq(out, 7);
	ck_assert_int_eq(xp_u64_mul(3, 6148914691236517205ull, &out), 0);
	ck_assert_uint_eq(out, UINT64_MAX);
	ck_assert_int_eq(xp_u64_mul_checked(1ull << 40, 1ull << 30, "flows",
					    &out, &err), -1);
	assert_err_has(&err, "flows 1099511627776 * 1073741824 overflows 64 bits");
}
END_TEST

/* The value from the issue: wraps to 953472 ns if unchecked. */
START_TEST(test_ms_to_ns)
{
	uint64_t ns = 7;
	struct xp_err err;

	ck_assert_uint_eq(27356521461311266ull * 1000000ull, 953472);
	ck_assert_int_eq(xp_ms_to_ns_checked(27356521461311266ull, "duration_ms",
					     &ns, &err), -1);
	ck_assert_uint_eq(ns, 7);
	assert_err_has(&err, "duration_ms 27356521461311266: more than "
			     "18446744073709 ms does not fit");
	ck_assert_int_eq(xp_ms_to_ns_checked(18446744073709ull, "d", &ns, &err), 0);
	ck_assert_uint_eq(ns, 18446744073709000000ull);
	ck_assert_int_eq(xp_ms_to_ns_checked(18446744073710ull, "d", &ns, &err), -1);
	ck_assert_int_eq(xp_ms_to_ns_checked(UINT64_MAX, "d", &ns, NULL), -1);
	ck_assert_int_eq(xp_ms_to_ns_checked(10000, "d", &ns, &err), 0);
	ck_assert_uint_eq(ns, 10000000000ull);
}
END_TEST

START_TEST(test_us_to_ns)
{
	uint64_t ns = 7;
	struct xp_err err;

	ck_assert_int_eq(xp_us_to_ns_checked(18446744073709551ull, "busy_poll_us",
					     &ns, &err), 0);
	ck_assert_uint_eq(ns, 18446744073709551000ull);
	ck_assert_int_eq(xp_us_to_ns_checked(18446744073709552ull, "busy_poll_us",
					     &ns, &err), -1);
	assert_err_has(&err, "busy_poll_us 18446744073709552: more than "
			     "18446744073709551 us");
}
END_TEST

START_TEST(test_range)
{
	struct xp_err err;

	ck_assert_int_eq(xp_check_range(1, 1, 1024, "threads", &err), 0);
	ck_assert_int_eq(xp_check_range(1024, 1, 1024, "threads", &err), 0);
	ck_assert_int_eq(xp_check_range(0, 1, 1024, "threads", &err), -1);
	assert_err_has(&err, "threads 0: out of range [1, 1024]");
	ck_assert_int_eq(xp_check_range(1025, 1, 1024, "threads", &err), -1);
	assert_err_has(&err, "threads 1025: out of range [1, 1024]");
	ck_assert_int_eq(xp_check_range(UINT64_MAX, 0, UINT64_MAX, "x", &err), 0);
	ck_assert_int_eq(xp_check_range(UINT64_MAX, 0, UINT64_MAX - 1, "x", NULL), -1);
}
END_TEST

static Suite *checked_suite(void)
{
	Suite *s = suite_create("checked");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_add);
	tcase_add_test(tc, test_mul);
	tcase_add_test(tc, test_ms_to_ns);
	tcase_add_test(tc, test_us_to_ns);
	tcase_add_test(tc, test_range);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(checked_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
