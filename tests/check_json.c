/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/json.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A strict RFC 8259 validator, so the test needs no external parser.
 * Each parse_* returns the position after the value, or NULL. */
static const char *parse_value(const char *p, int depth);

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static const char *parse_digits(const char *p)
{
	if (!is_digit(*p))
		return NULL;
	while (is_digit(*p))
		p++;
	return p;
}

static const char *parse_number(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (!(p = parse_digits(p)))
		return NULL;
	if (*p == '.' && !(p = parse_digits(p + 1)))
		return NULL;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		p = parse_digits(p);
	}
	return p;
}

/* Valid UTF-8 sequence length at s, or 0; written independently of the
 * writer's so that a shared misunderstanding cannot hide a bug. */
static int utf8_seq(const unsigned char *s)
{
	uint32_t cp;
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	cp = s[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000))
		return 0;
	return n;
}

static const char *parse_escape(const char *p)
{
	int i;

	if (*p && strchr("\"\\/bfnrt", *p))
		return p + 1;
	if (*p != 'u')
		return NULL;
	for (i = 1; i <= 4; i++)
		if (!p[i] || !strchr("0123456789abcdefABCDEF", p[i]))
			return NULL;
	return p + 5;
}

static const char *parse_string(const char *p)
{
	int n;

	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20) /* includes the NUL */
			return NULL;
		if (*p == '\\') {
			if (!(p = parse_escape(p + 1)))
				return NULL;
			continue;
		}
		n = utf8_seq((const unsigned char *)p);
		if (!n)
			return NULL;
		p += n;
	}
	return p + 1;
}

/* Elements of an object (members) or array, after the opening bracket. */
static const char *parse_elements(const char *p, char close, int depth)
{
	p = skip_ws(p);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (close == '}') {
			if (!(p = parse_string(skip_ws(p))))
				return NULL;
			p = skip_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		if (!(p = parse_value(p, depth + 1)))
			return NULL;
		p = skip_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *parse_value(const char *p, int depth)
{
	static const char *const lits[] = { "true", "false", "null" };
	size_t i;

	if (depth > 64)
		return NULL;
	p = skip_ws(p);
	if (*p == '{' || *p == '[')
		return parse_elements(p + 1, *p == '{' ? '}' : ']', depth);
	if (*p == '"')
		return parse_string(p);
	if (*p == '-' || is_digit(*p))
		return parse_number(p);
	for (i = 0; i < 3; i++)
		if (!strncmp(p, lits[i], strlen(lits[i])))
			return p + strlen(lits[i]);
	return NULL;
}

/* One or more documents separated by whitespace (JSON lines). */
static int json_valid(const char *doc)
{
	const char *p = skip_ws(doc), *end;

	if (!*p)
		return 0;
	while (*p) {
		if (!(end = parse_value(p, 0)))
			return 0;
		p = skip_ws(end);
		if (*p && p == end) /* "01" is not "0" then "1" */
			return 0;
	}
	return 1;
}

#define ASSERT_VALID(doc) \
	ck_assert_msg(json_valid(doc), "invalid JSON: %.300s", doc)

/* The validator must be able to fail, or every test below proves nothing. */
START_TEST(test_validator)
{
	static const char *const good[] = {
		"{}", "[]", "0", "-0", "1e+20", "1.5E-3", "\"a\\u00e9\\n\"",
		"{\"a\":[1,{\"b\":null}],\"c\":true}", " [ 1 , 2 ] \n",
		"\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"", "{}\n{}\n",
	};
	static const char *const bad[] = {
		"", "{", "}", "[1,]", "{\"a\":}", "{\"a\" 1}", "{1:2}", "01",
		"1.", ".5", "+1", "1e", "-", "nan", "NaN", "inf", "-inf",
		"Infinity", "\"\x01\"", "\"\\x\"", "\"\\u12\"", "\"abc",
		"[1 2]", "tru", "\"\xff\"", "\"\xc3\"", "\"\xc0\xaf\"",
		"\"\xed\xa0\x80\"", "{\"a\":1,}", "[1]]",
	};
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(json_valid(good[i]), "rejected: %s", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!json_valid(bad[i]), "accepted: %s", bad[i]);
}
END_TEST

static void build_nested(struct xp_json *j)
{
	xp_json_obj_open(j, NULL);
	xp_json_str_val(j, "name", "xperf");
	xp_json_u64(j, "bytes", UINT64_MAX);
	xp_json_i64(j, "delta", INT64_MIN);
	xp_json_obj_open(j, "rr");
	xp_json_dbl(j, "p50", 12.5);
	xp_json_arr_open(j, "cpus");
	xp_json_u64(j, NULL, 0);
	xp_json_u64(j, NULL, 3);
	xp_json_arr_close(j);
	xp_json_obj_close(j);
	xp_json_arr_open(j, "empty_arr");
	xp_json_arr_close(j);
	xp_json_obj_open(j, "empty_obj");
	xp_json_obj_close(j);
	xp_json_arr_open(j, "mixed");
	xp_json_obj_open(j, NULL);
	xp_json_bool(j, "ok", 1);
	xp_json_obj_close(j);
	xp_json_arr_open(j, NULL);
	xp_json_arr_close(j);
	xp_json_bool(j, NULL, 0);
	xp_json_null(j, NULL);
	xp_json_arr_close(j);
	xp_json_obj_close(j);
}

START_TEST(test_compact)
{
	struct xp_json j;

	xp_json_init(&j, 0);
	build_nested(&j);
	ck_assert_int_eq(j.oom, 0);
	ck_assert_int_eq(j.depth, 0);
	ck_assert_str_eq(xp_json_str(&j),
			 "{\"name\":\"xperf\",\"bytes\":18446744073709551615,"
			 "\"delta\":-9223372036854775808,"
			 "\"rr\":{\"p50\":12.5,\"cpus\":[0,3]},"
			 "\"empty_arr\":[],\"empty_obj\":{},"
			 "\"mixed\":[{\"ok\":true},[],false,null]}\n");
	ASSERT_VALID(xp_json_str(&j));
	xp_json_free(&j);
}
END_TEST

START_TEST(test_pretty)
{
	struct xp_json j;

	xp_json_init(&j, 1);
	build_nested(&j);
	ck_assert_str_eq(xp_json_str(&j),
			 "{\n"
			 "  \"name\": \"xperf\",\n"
			 "  \"bytes\": 18446744073709551615,\n"
			 "  \"delta\": -9223372036854775808,\n"
			 "  \"rr\": {\n"
			 "    \"p50\": 12.5,\n"
			 "    \"cpus\": [\n"
			 "      0,\n"
			 "      3\n"
			 "    ]\n"
			 "  },\n"
			 "  \"empty_arr\": [],\n"
			 "  \"empty_obj\": {},\n"
			 "  \"mixed\": [\n"
			 "    {\n"
			 "      \"ok\": true\n"
			 "    },\n"
			 "    [],\n"
			 "    false,\n"
			 "    null\n"
			 "  ]\n"
			 "}\n");
	ASSERT_VALID(xp_json_str(&j));
	xp_json_free(&j);
}
END_TEST

/* Consecutive top-level values come out as JSON lines, without commas. */
START_TEST(test_top_level)
{
	struct xp_json j;

	xp_json_init(&j, 0);
	ck_assert_str_eq(xp_json_str(&j), "");
	xp_json_obj_open(&j, NULL);
	xp_json_u64(&j, "t", 1);
	xp_json_obj_close(&j);
	xp_json_obj_open(&j, NULL);
	xp_json_u64(&j, "t", 2);
	xp_json_obj_close(&j);
	xp_json_obj_close(&j); /* unbalanced: ignored */
	xp_json_u64(&j, "ignored_key", 7);
	ck_assert_str_eq(xp_json_str(&j), "{\"t\":1}\n{\"t\":2}\n7\n");
	ASSERT_VALID(xp_json_str(&j));
	xp_json_free(&j);
	ck_assert_str_eq(xp_json_str(&j), "");
}
END_TEST

static char *one_string(const char *s, int pretty)
{
	struct xp_json j;
	char *copy;

	xp_json_init(&j, pretty);
	xp_json_str_val(&j, NULL, s);
	copy = strdup(xp_json_str(&j));
	xp_json_free(&j);
	ck_assert_ptr_nonnull(copy);
	return copy;
}

START_TEST(test_escaping)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "plain", "\"plain\"\n" },
		{ "", "\"\"\n" },
		{ "q\"b\\s/", "\"q\\\"b\\\\s/\"\n" },
		{ "\n\r\t", "\"\\n\\r\\t\"\n" },
		{ "\x01\x08\x0c\x1f", "\"\\u0001\\u0008\\u000c\\u001f\"\n" },
		{ "\x7f", "\"\x7f\"\n" },
		/* valid UTF-8 is kept byte for byte */
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		  "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"\n" },
		/* invalid bytes, truncated, overlong and surrogate forms */
		{ "a\xff" "b", "\"a\\ufffdb\"\n" },
		{ "\xc3", "\"\\ufffd\"\n" },
		{ "\xe2\x82", "\"\\ufffd\\ufffd\"\n" },
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"\n" },
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"\n" },
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"\n" },
	};
	size_t i;
	char *got;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		got = one_string(cases[i].in, 0);
		ck_assert_str_eq(got, cases[i].out);
		ASSERT_VALID(got);
		free(got);
	}
}
END_TEST

/* Every byte value in keys and values, in both modes. */
START_TEST(test_all_bytes_valid)
{
	struct xp_json j;
	char s[256];
	int c, pretty;

	for (c = 1; c < 256; c++)
		s[c - 1] = (char)c;
	s[255] = '\0';
	for (pretty = 0; pretty <= 1; pretty++) {
		xp_json_init(&j, pretty);
		xp_json_obj_open(&j, NULL);
		xp_json_str_val(&j, s, s);
		xp_json_str_val(&j, "null_str", NULL);
		xp_json_obj_close(&j);
		ASSERT_VALID(xp_json_str(&j));
		ck_assert_ptr_nonnull(strstr(xp_json_str(&j), "\"null_str\":"));
		xp_json_free(&j);
	}
}
END_TEST

START_TEST(test_doubles)
{
	static const struct {
		double v;
		const char *out;
	} cases[] = {
		{ 0.0, "0" },     { -0.0, "-0" },   { 0.1, "0.1" },
		{ 12.5, "12.5" }, { 1e20, "1e+20" }, { 1e-5, "1e-05" },
		{ -2.5e-300, "-2.5e-300" }, { 123456.789, "123456.789" },
		{ NAN, "null" },  { INFINITY, "null" }, { -INFINITY, "null" },
	};
	struct xp_json j;
	char want[64];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		xp_json_init(&j, 0);
		xp_json_dbl(&j, NULL, cases[i].v);
		snprintf(want, sizeof(want), "%s\n", cases[i].out);
		ck_assert_str_eq(xp_json_str(&j), want);
		ASSERT_VALID(xp_json_str(&j));
		xp_json_free(&j);
	}
}
END_TEST

/* Doubles must read back as the same value (17 digits where needed). */
START_TEST(test_doubles_round_trip)
{
	static const double vals[] = { 1.0 / 3, 2.0 / 3, 0.1 + 0.2, M_PI,
				       1.7976931348623157e308, 4.9e-324,
				       123456789012345678.0, 1e-7 };
	struct xp_json j;
	size_t i;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		xp_json_init(&j, 0);
		xp_json_dbl(&j, NULL, vals[i]);
		ASSERT_VALID(xp_json_str(&j));
		ck_assert_msg(strtod(xp_json_str(&j), NULL) == vals[i],
			      "%.17g printed as %s", vals[i], xp_json_str(&j));
		xp_json_free(&j);
	}
}
END_TEST

START_TEST(test_non_finite_in_object)
{
	struct xp_json j;

	xp_json_init(&j, 1);
	xp_json_obj_open(&j, NULL);
	xp_json_dbl(&j, "nan", NAN);
	xp_json_dbl(&j, "inf", -INFINITY);
	xp_json_arr_open(&j, "a");
	xp_json_dbl(&j, NULL, INFINITY);
	xp_json_dbl(&j, NULL, 1.5);
	xp_json_arr_close(&j);
	xp_json_obj_close(&j);
	ck_assert_str_eq(xp_json_str(&j), "{\n  \"nan\": null,\n"
					  "  \"inf\": null,\n  \"a\": [\n"
					  "    null,\n    1.5\n  ]\n}\n");
	ASSERT_VALID(xp_json_str(&j));
	xp_json_free(&j);
}
END_TEST

/* Enough output to grow the buffer many times, nested deeply. */
START_TEST(test_large)
{
	struct xp_json j;
	int i, pretty;

	for (pretty = 0; pretty <= 1; pretty++) {
		xp_json_init(&j, pretty);
		xp_json_arr_open(&j, NULL);
		for (i = 0; i < 50; i++)
			xp_json_obj_open(&j, i ? "k" : NULL);
		for (i = 0; i < 20000; i++)
			xp_json_dbl(&j, "x", i * 1.25);
		for (i = 0; i < 50; i++)
			xp_json_obj_close(&j);
		xp_json_arr_close(&j);
		ck_assert_int_eq(j.oom, 0);
		ck_assert_uint_eq(strlen(xp_json_str(&j)), j.len);
		ck_assert_uint_lt(j.len, j.cap);
		ASSERT_VALID(xp_json_str(&j));
		xp_json_free(&j);
	}
}
END_TEST

START_TEST(test_oom_flag)
{
	struct xp_json j;

	/* Simulate a failed allocation: later writes are dropped and the
	 * document reads as "" rather than as truncated JSON. */
	xp_json_init(&j, 0);
	xp_json_obj_open(&j, NULL);
	j.oom = 1;
	xp_json_u64(&j, "a", 1);
	xp_json_obj_close(&j);
	ck_assert_str_eq(xp_json_str(&j), "");
	ck_assert_uint_eq(j.len, 1);
	xp_json_free(&j);
}
END_TEST

static Suite *json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_validator);
	tcase_add_test(tc, test_compact);
	tcase_add_test(tc, test_pretty);
	tcase_add_test(tc, test_top_level);
	tcase_add_test(tc, test_escaping);
	tcase_add_test(tc, test_all_bytes_valid);
	tcase_add_test(tc, test_doubles);
	tcase_add_test(tc, test_doubles_round_trip);
	tcase_add_test(tc, test_non_finite_in_object);
	tcase_add_test(tc, test_large);
	tcase_add_test(tc, test_oom_flag);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(json_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
