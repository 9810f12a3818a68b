/* SPDX-License-Identifier: BSD-2-Clause */
/* JSON reader: round trips with the project's writer (common/json.h), and
 * numbers under a decimal-comma locale.  Parsing itself is tested in
 * check_json_read.c. */
#include "common/json.h"
#include "common/json_read.h"

#include <check.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct xp_jdoc *parse(const char *text)
{
	struct xp_err err = { "" };
	struct xp_jdoc *d = xp_jdoc_parse(text, strlen(text), NULL, &err);

	ck_assert_msg(d != NULL, "refused %.60s: %s", text, err.msg);
	return d;
}

static const struct xp_jval *root_of(struct xp_jdoc **d, const char *json)
{
	*d = parse(json);
	return xp_jdoc_root(*d);
}

/* A locale whose decimal point is ',' (built with localedef into a temp
 * folder when none is installed): NULL if there is no way to get one. */
static const char *comma_locale(char *dir, size_t size)
{
	static const char *names[] = { "de_DE.UTF-8", "fr_FR.UTF-8", "de_DE" };
	char cmd[256];
	size_t i;

	dir[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (setlocale(LC_NUMERIC, names[i]))
			return names[i];
	snprintf(dir, size, "/tmp/check_json_read.XXXXXX");
	if (!mkdtemp(dir))
		return NULL;
	snprintf(cmd, sizeof(cmd), "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8"
		 " >/dev/null 2>&1", dir);
	if (system(cmd) != 0 && system(cmd) != 0) /* warnings exit 1 */
		return NULL;
	setenv("LOCPATH", dir, 1);
	return setlocale(LC_NUMERIC, "de_DE.UTF-8");
}

/* A decimal comma locale must not change what "1.5" means. */
START_TEST(test_locale)
{
	struct xp_jdoc *d;
	char dir[64], cmd[128];
	const char *name = comma_locale(dir, sizeof(dir));

	if (!name || localeconv()->decimal_point[0] != ',')
		fprintf(stderr, "check_json_read: no decimal-comma locale "
			"here (localedef missing?): tested in C only\n");
	ck_assert_double_eq(xp_jval_dbl_or(xp_jval_at(root_of(&d, "[1.5,-2.25e1]"),
						      0), 0), 1.5);
	ck_assert_double_eq(xp_jval_dbl_or(xp_jval_at(xp_jdoc_root(d), 1), 0),
			    -22.5);
	xp_jdoc_free(d);
	setlocale(LC_NUMERIC, "C");
	unsetenv("LOCPATH");
	if (dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		ck_assert_int_eq(system(cmd), 0);
	}
}
END_TEST

/* splitmix64 */
static uint64_t rng(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* A document that uses every writer call, with extreme values. */
static void write_sample(struct xp_json *j, uint64_t seed, int high)
{
	char str[256];
	double x;
	int i;

	xp_json_obj_open(j, NULL);
	xp_json_u64(j, "u64_max", UINT64_MAX);
	xp_json_i64(j, "i64_min", INT64_MIN);
	xp_json_dbl(j, "tiny", 4.9406564584124654e-324);
	xp_json_dbl(j, "huge", 1.7976931348623157e308);
	xp_json_dbl(j, "inf", INFINITY);
	xp_json_bool(j, "t", 1);
	xp_json_null(j, "n");
	/* Controls, ASCII and, with high, lone bytes that are invalid UTF-8
	 * (the writer escapes those as \ufffd, the reader gives U+FFFD back
	 * as UTF-8, so the texts then differ). */
	for (i = 1; i < (high ? 256 : 128); i++)
		str[i - 1] = (char)i;
	str[i - 1] = '\0';
	xp_json_str_val(j, "bytes", str);
	xp_json_str_val(j, "utf8 \xe2\x82\xac \xf0\x9f\x98\x80", "\"\\/\n");
	xp_json_arr_open(j, "random");
	for (i = 0; i < 2000; i++) {
		uint64_t r = rng(&seed);

		memcpy(&x, &r, sizeof(x));
		/* Integral doubles come back as integers ("1e+17" ->
		 * 100000000000000000): same value, other text. */
		if (i % 3 == 0)
			xp_json_dbl(j, NULL, x == trunc(x) ? -0.25 : x);
		else if (i % 3 == 1)
			xp_json_u64(j, NULL, r >> (r % 64));
		else
			xp_json_i64(j, NULL, -(int64_t)(r >> (1 + r % 63)));
	}
	xp_json_arr_close(j);
	xp_json_obj_open(j, "empty");
	xp_json_obj_close(j);
	xp_json_arr_open(j, "nested");
	xp_json_arr_open(j, NULL);
	xp_json_arr_close(j);
	xp_json_arr_close(j);
	xp_json_obj_close(j);
}

/* Equal texts, or a message showing where they differ (Check cannot
 * carry a whole document in a failure message). */
static void same_text(const char *a, const char *b)
{
	size_t i = 0;

	while (a[i] && a[i] == b[i])
		i++;
	ck_assert_msg(a[i] == b[i], "texts differ at %zu: '%.40s' vs '%.40s'",
		      i, a + i, b + i);
}

/* writer -> reader -> writer gives the same text, compact and pretty. */
START_TEST(test_round_trip_writer)
{
	struct xp_json a, b;
	struct xp_jdoc *d;
	const struct xp_jval *r;

	xp_json_init(&a, _i);
	write_sample(&a, 42 + (uint64_t)_i, 0);
	ck_assert(!a.oom);
	r = root_of(&d, xp_json_str(&a));
	ck_assert_uint_eq(xp_jval_u64_or(xp_jval_member(r, "u64_max"), 0),
			  UINT64_MAX);
	ck_assert(xp_jval_i64_or(xp_jval_member(r, "i64_min"), 0) == INT64_MIN);
	ck_assert_double_eq(xp_jval_dbl_or(xp_jval_member(r, "tiny"), 0),
			    4.9406564584124654e-324);
	ck_assert_int_eq(xp_jval_type(xp_jval_member(r, "inf")), XP_JNULL);
	ck_assert_uint_eq(xp_jval_len(xp_jval_member(r, "random")), 2000);
	ck_assert_str_eq(xp_jval_str_or(xp_jval_member(r,
		"utf8 \xe2\x82\xac \xf0\x9f\x98\x80"), ""), "\"\\/\n");
	xp_json_init(&b, _i);
	xp_jval_write(&b, NULL, r);
	same_text(xp_json_str(&a), xp_json_str(&b));
	xp_jdoc_free(d);
	xp_json_free(&a);
	xp_json_free(&b);
}
END_TEST

/* Invalid UTF-8 given to the writer comes back as U+FFFD, and a second
 * pass is stable. */
START_TEST(test_round_trip_replacement)
{
	struct xp_json a, b, c;
	struct xp_jdoc *d1, *d2;
	const char *s;
	size_t len, i;

	xp_json_init(&a, 0);
	write_sample(&a, 7, 1);
	d1 = parse(xp_json_str(&a));
	ck_assert_int_eq(xp_jval_str(xp_jval_member(xp_jdoc_root(d1), "bytes"),
				     &s, &len), 0);
	ck_assert_uint_eq(len, 127 + 128 * 3);
	for (i = 127; i < len; i += 3)
		ck_assert_int_eq(memcmp(s + i, "\xef\xbf\xbd", 3), 0);
	xp_json_init(&b, 0);
	xp_jval_write(&b, NULL, xp_jdoc_root(d1));
	d2 = parse(xp_json_str(&b));
	xp_json_init(&c, 0);
	xp_jval_write(&c, NULL, xp_jdoc_root(d2));
	same_text(xp_json_str(&b), xp_json_str(&c));
	xp_jdoc_free(d1);
	xp_jdoc_free(d2);
	xp_json_free(&a);
	xp_json_free(&b);
	xp_json_free(&c);
}
END_TEST

static Suite *json_read_rt_suite(void)
{
	Suite *s = suite_create("json_read_rt");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_locale);
	tcase_add_loop_test(tc, test_round_trip_writer, 0, 2);
	tcase_add_test(tc, test_round_trip_replacement);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(json_read_rt_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
