/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/units.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GIB (UINT64_C(1) << 30)
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

struct size_case {
	const char *s;
	uint64_t max, want;
};

START_TEST(test_size_valid)
{
	static const struct size_case cases[] = {
		{ "64", GIB, 64 },
		{ "0", GIB, 0 },
		{ "007", GIB, 7 },
		{ "128K", GIB, 128 << 10 },
		{ "128k", GIB, 128 << 10 },
		{ "4m", GIB, 4 << 20 },
		{ "4M", GIB, 4 << 20 },
		{ "1G", GIB, GIB },
		{ "1g", GIB, GIB },
		{ "1073741824", GIB, GIB },
		{ "17179869183G", UINT64_MAX, UINT64_C(17179869183) << 30 },
		{ "17592186044415M", UINT64_MAX, UINT64_C(17592186044415) << 20 },
		{ "18446744073709551615", UINT64_MAX, UINT64_MAX },
	};
	struct xp_err err;
	uint64_t out;
	size_t i;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		out = 12345;
		ck_assert_msg(xp_parse_size(cases[i].s, cases[i].max, "-m", &out,
					    &err) == 0,
			      "'%s' rejected", cases[i].s);
		ck_assert_uint_eq(out, cases[i].want);
	}
}
END_TEST

START_TEST(test_size_invalid)
{
	static const char *const bad[] = {
		"", "-1", "+5", "1.5K", "12x", "K", "k", "x12", " 64", "64 ",
		"1KB", "1KK", "1 K", "0x10", "1e3", "1T", "--1", "1G\n", "١",
	};
	struct xp_err err;
	uint64_t out = 777;
	size_t i;

	for (i = 0; i < ARRAY_LEN(bad); i++) {
		err.msg[0] = '\0';
		ck_assert_msg(xp_parse_size(bad[i], UINT64_MAX, "-m", &out,
					    &err) == -1,
			      "'%s' accepted", bad[i]);
		ck_assert_uint_eq(out, 777);
		ck_assert_msg(strstr(err.msg, "-m: invalid size '") == err.msg,
			      "'%s': message '%s'", bad[i], err.msg);
		ck_assert_ptr_nonnull(strstr(err.msg, bad[i]));
	}
	xp_parse_size("x12", 100, "-m", &out, &err);
	ck_assert_str_eq(err.msg, "-m: invalid size 'x12' (expected a number "
				  "with optional K/M/G suffix)");
}
END_TEST

START_TEST(test_size_too_large)
{
	static const struct size_case cases[] = {
		{ "5G", GIB, 0 },
		{ "1073741825", GIB, 0 },
		{ "1025M", GIB, 0 },
		{ "1", 0, 0 },
		{ "18446744073709551616", UINT64_MAX, 0 },
		{ "99999999999999999999999999", UINT64_MAX, 0 },
		/* the suffix's shift, not the digits, overflows 64 bits */
		{ "17179869184G", UINT64_MAX, 0 },
		{ "17592186044416M", UINT64_MAX, 0 },
		{ "18014398509481984K", UINT64_MAX, 0 },
	};
	struct xp_err err;
	uint64_t out = 777;
	size_t i;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		ck_assert_msg(xp_parse_size(cases[i].s, cases[i].max, "-m", &out,
					    &err) == -1,
			      "'%s' accepted", cases[i].s);
		ck_assert_ptr_nonnull(strstr(err.msg, "exceeds the maximum"));
		ck_assert_ptr_nonnull(strstr(err.msg, cases[i].s));
	}
	ck_assert_uint_eq(out, 777);
	xp_parse_size("5G", GIB, "-m", &out, &err);
	ck_assert_str_eq(err.msg, "-m: size 5G exceeds the maximum 1073741824");
}
END_TEST

START_TEST(test_uint)
{
	static const char *const bad[] = { "", "-1", "+1", "1.0", "1k", " 1",
					   "1 ", "0x1", "abc" };
	struct xp_err err;
	uint64_t out = 0;
	size_t i;

	ck_assert_int_eq(xp_parse_uint("5", 1, 10, "-P", &out, &err), 0);
	ck_assert_uint_eq(out, 5);
	ck_assert_int_eq(xp_parse_uint("1", 1, 10, "-P", &out, &err), 0);
	ck_assert_uint_eq(out, 1);
	ck_assert_int_eq(xp_parse_uint("10", 1, 10, "-P", &out, &err), 0);
	ck_assert_uint_eq(out, 10);
	ck_assert_int_eq(xp_parse_uint("18446744073709551615", 0, UINT64_MAX,
				       "-n", &out, &err), 0);
	ck_assert_uint_eq(out, UINT64_MAX);

	out = 42;
	ck_assert_int_eq(xp_parse_uint("0", 1, 10, "-P", &out, &err), -1);
	ck_assert_str_eq(err.msg, "-P: 0 is out of range (expected 1 to 10)");
	ck_assert_int_eq(xp_parse_uint("11", 1, 10, "-P", &out, &err), -1);
	ck_assert_int_eq(xp_parse_uint("18446744073709551616", 0, UINT64_MAX,
				       "-n", &out, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "out of range"));
	for (i = 0; i < ARRAY_LEN(bad); i++) {
		ck_assert_msg(xp_parse_uint(bad[i], 0, UINT64_MAX, "-P", &out,
					    &err) == -1,
			      "'%s' accepted", bad[i]);
		ck_assert_ptr_nonnull(strstr(err.msg, "-P: invalid number"));
	}
	ck_assert_uint_eq(out, 42);
}
END_TEST

START_TEST(test_secs_valid)
{
	static const struct {
		const char *s;
		uint64_t ns;
	} cases[] = {
		{ "10", UINT64_C(10000000000) },
		{ "0.5", 500000000 },
		{ "1.25", 1250000000 },
		{ "0.000000001", 1 },
		{ "0.0000000019", 1 }, /* below ns resolution: truncated */
		{ "3600", UINT64_C(3600000000000) },
		{ "007.10", 7100000000 },
	};
	struct xp_err err;
	uint64_t out;
	size_t i;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		out = 0;
		ck_assert_msg(xp_parse_secs(cases[i].s, 3600, "-l", &out,
					    &err) == 0,
			      "'%s': %s", cases[i].s, err.msg);
		ck_assert_uint_eq(out, cases[i].ns);
	}
}
END_TEST

START_TEST(test_secs_invalid)
{
	static const char *const bad[] = {
		"", "-1", "+1", ".5", "5.", "1e-3", "1e3", "nan", "inf", "NaN",
		"-inf", "10s", "1.2.3", " 1", "1 ", "0x10", ".", "1,5",
	};
	static const char *const zero[] = { "0", "0.0", "000", "0.0000000001" };
	struct xp_err err;
	uint64_t out = 99;
	size_t i;

	for (i = 0; i < ARRAY_LEN(bad); i++) {
		ck_assert_msg(xp_parse_secs(bad[i], 3600, "-l", &out, &err) == -1,
			      "'%s' accepted", bad[i]);
		ck_assert_ptr_nonnull(strstr(err.msg, "-l: invalid duration"));
	}
	for (i = 0; i < ARRAY_LEN(zero); i++) {
		ck_assert_msg(xp_parse_secs(zero[i], 3600, "-l", &out, &err) == -1,
			      "'%s' accepted", zero[i]);
		ck_assert_ptr_nonnull(strstr(err.msg, zero[i]));
	}
	ck_assert_int_eq(xp_parse_secs("3600.000000001", 3600, "-l", &out, &err),
			 -1);
	ck_assert_str_eq(err.msg,
			 "-l: duration 3600.000000001 exceeds the maximum 3600 s");
	ck_assert_int_eq(xp_parse_secs("99999999999999999999", 1e30, "-l", &out,
				       &err), -1);
	ck_assert_int_eq(xp_parse_secs("18446744074", 1e30, "-l", &out, &err),
			 -1);
	ck_assert_int_eq(xp_parse_secs("1", NAN, "-l", &out, &err), -1);
	ck_assert_uint_eq(out, 99);
	/* the largest representable duration is accepted */
	ck_assert_int_eq(xp_parse_secs("18446744073.709551615", 1e30, "-l", &out,
				       &err), 0);
	ck_assert_uint_eq(out, UINT64_MAX);
}
END_TEST

static void assert_cpus(const char *s, const int *want, int n)
{
	struct xp_err err;
	int cpus[XP_CPUS_MAX + 1], i, got;

	memset(cpus, 0xff, sizeof(cpus));
	got = xp_parse_cpus(s, cpus, XP_CPUS_MAX, "-C", &err);
	ck_assert_msg(got == n, "'%s': got %d, want %d (%s)", s, got, n,
		      got < 0 ? err.msg : "");
	for (i = 0; i < n; i++)
		ck_assert_msg(cpus[i] == want[i], "'%s'[%d] = %d, want %d", s, i,
			      cpus[i], want[i]);
	ck_assert_int_eq(cpus[n], -1); /* nothing written past the count */
}

START_TEST(test_cpus_valid)
{
	static const int a[] = { 0, 2, 3, 4, 7 };
	static const int b[] = { 7, 0, 1, 2 };
	static const int c[] = { 5 };
	static const int d[] = { 1023, 0 };
	static const int e[] = { 3, 10, 11 };
	int all[XP_CPUS_MAX], i;

	assert_cpus("0,2-4,7", a, 5);
	assert_cpus("7,0-2", b, 4); /* order preserved, not sorted */
	assert_cpus("5", c, 1);
	assert_cpus("5-5", c, 1);
	assert_cpus("1023,0", d, 2);
	assert_cpus("03,10-011", e, 3);
	for (i = 0; i < XP_CPUS_MAX; i++)
		all[i] = i;
	assert_cpus("0-1023", all, XP_CPUS_MAX);
}
END_TEST

START_TEST(test_cpus_invalid)
{
	static const char *const bad[] = {
		"", ",", "0,", ",0", "0,,1", "a", "1a", "0-", "-1", "1--3",
		"1-2-3", "0 ,1", " 0", "0;1", "+1", "1.0", "0-2,", "x-1",
	};
	struct xp_err err;
	int cpus[8];
	size_t i;

	for (i = 0; i < ARRAY_LEN(bad); i++) {
		ck_assert_msg(xp_parse_cpus(bad[i], cpus, 8, "-C", &err) == -1,
			      "'%s' accepted", bad[i]);
		ck_assert_msg(strstr(err.msg, "-C: invalid CPU list") == err.msg,
			      "'%s': %s", bad[i], err.msg);
	}
	ck_assert_int_eq(xp_parse_cpus("1024", cpus, 8, "-C", &err), -1);
	ck_assert_str_eq(err.msg, "-C: CPU 1024 in '1024' exceeds the maximum 1023");
	ck_assert_int_eq(xp_parse_cpus("0-1024", cpus, 8, "-C", &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "CPU 1024"));
	ck_assert_int_eq(xp_parse_cpus("99999999999999999999999", cpus, 8, "-C",
				       &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "too large"));
	ck_assert_int_eq(xp_parse_cpus("4-2", cpus, 8, "-C", &err), -1);
	ck_assert_str_eq(err.msg, "-C: reversed CPU range 4-2 in '4-2'");
	ck_assert_int_eq(xp_parse_cpus("1,2,1", cpus, 8, "-C", &err), -1);
	ck_assert_str_eq(err.msg, "-C: CPU 1 listed twice in '1,2,1'");
	ck_assert_int_eq(xp_parse_cpus("0-3,2", cpus, 8, "-C", &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "CPU 2 listed twice"));
	ck_assert_int_eq(xp_parse_cpus("3,3", cpus, 8, "-C", &err), -1);
}
END_TEST

START_TEST(test_cpus_cap)
{
	struct xp_err err;
	int cpus[5] = { -1, -1, -1, -1, -1 };

	ck_assert_int_eq(xp_parse_cpus("0-3", cpus, 4, "-C", &err), 4);
	ck_assert_int_eq(xp_parse_cpus("0-4", cpus, 4, "-C", &err), -1);
	ck_assert_str_eq(err.msg, "-C: more than 4 CPUs in '0-4'");
	ck_assert_int_eq(cpus[4], -1); /* the cap is never overrun */
	ck_assert_int_eq(xp_parse_cpus("1,2,3,4,5", cpus, 4, "-C", &err), -1);
	ck_assert_int_eq(cpus[4], -1);
	ck_assert_int_eq(xp_parse_cpus("0", cpus, 0, "-C", &err), -1);
	/* a NULL err is allowed: the failure is still reported */
	ck_assert_int_eq(xp_parse_cpus("0-4", cpus, 4, "-C", NULL), -1);
}
END_TEST

START_TEST(test_format_cpus)
{
	static const int c[] = { 0, 1, 2, 10, 1023 };
	char buf[64];

	ck_assert_str_eq(xp_format_cpus(c, 5, buf, sizeof(buf)), "0,1,2,10,1023");
	ck_assert_str_eq(xp_format_cpus(c, 1, buf, sizeof(buf)), "0");
	ck_assert_str_eq(xp_format_cpus(c, 0, buf, sizeof(buf)), "");
	ck_assert_ptr_eq(xp_format_cpus(c, 5, buf, sizeof(buf)), buf);
	/* exactly fits: "0,1,2,10" plus NUL */
	ck_assert_str_eq(xp_format_cpus(c, 5, buf, 9), "0,1,2,10");
	/* too small: whole numbers only, never "0,1,2,1" */
	ck_assert_str_eq(xp_format_cpus(c, 5, buf, 8), "0,1,2");
	ck_assert_str_eq(xp_format_cpus(c, 5, buf, 1), "");
	memset(buf, 'x', sizeof(buf));
	xp_format_cpus(c, 5, buf, 0); /* writes nothing at all */
	ck_assert_int_eq(buf[0], 'x');
}
END_TEST

/* Parse, format and parse again: the list survives unchanged. */
START_TEST(test_cpus_round_trip)
{
	int a[XP_CPUS_MAX], b[XP_CPUS_MAX], n, i;
	char buf[8192];
	struct xp_err err;

	n = xp_parse_cpus("9,3-6,0,100-120,1023", a, XP_CPUS_MAX, "-C", &err);
	ck_assert_int_eq(n, 28);
	xp_format_cpus(a, n, buf, sizeof(buf));
	ck_assert_int_eq(xp_parse_cpus(buf, b, XP_CPUS_MAX, "-C", &err), n);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(a[i], b[i]);
}
END_TEST

/* Near 2^64 the double rounds up to 2^64 itself: rejected, not converted
 * (found by tests/fuzz/units.c). */
START_TEST(test_rate_max)
{
	struct xp_err err;
	uint64_t out = 7;

	ck_assert_int_eq(xp_parse_rate("18446744073709551615", UINT64_MAX, "-b",
				       &out, &err), -1);
	ck_assert_uint_eq(out, 7);
	ck_assert_int_eq(xp_parse_rate("1000G", UINT64_MAX, "-b", &out, &err), 0);
	ck_assert_uint_eq(out, 1000000000000ull);
}
END_TEST

static Suite *units_suite(void)
{
	Suite *s = suite_create("units");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_size_valid);
	tcase_add_test(tc, test_size_invalid);
	tcase_add_test(tc, test_size_too_large);
	tcase_add_test(tc, test_uint);
	tcase_add_test(tc, test_secs_valid);
	tcase_add_test(tc, test_secs_invalid);
	tcase_add_test(tc, test_cpus_valid);
	tcase_add_test(tc, test_cpus_invalid);
	tcase_add_test(tc, test_cpus_cap);
	tcase_add_test(tc, test_format_cpus);
	tcase_add_test(tc, test_cpus_round_trip);
	tcase_add_test(tc, test_rate_max);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(units_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
