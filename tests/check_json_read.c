/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/json.h"
#include "common/json_read.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct xp_jdoc *parse_lim(const char *text, size_t len,
				 const struct xp_jlimits *lim)
{
	struct xp_err err = { "" };
	struct xp_jdoc *d = xp_jdoc_parse(text, len, lim, &err);

	ck_assert_msg(d != NULL, "refused %.60s: %s", text, err.msg);
	return d;
}

static struct xp_jdoc *parse(const char *text)
{
	return parse_lim(text, strlen(text), NULL);
}

/* Parse must fail; returns the message, which must name the offset. */
static const char *refuse_lim(const char *text, size_t len,
			      const struct xp_jlimits *lim, const char *want)
{
	static struct xp_err err;
	struct xp_jdoc *d;

	err.msg[0] = '\0';
	d = xp_jdoc_parse(text, len, lim, &err);
	ck_assert_msg(d == NULL, "accepted invalid %.60s", text);
	ck_assert_msg(strstr(err.msg, want), "%.60s: message '%s' lacks '%s'",
		      text, err.msg, want);
	return err.msg;
}

static void refuse(const char *text, const char *want)
{
	refuse_lim(text, strlen(text), NULL, want);
}

START_TEST(test_scalars)
{
	struct xp_jdoc *d;
	const char *s;
	size_t len;
	int b;

	d = parse(" \t\r\n null \n");
	ck_assert_int_eq(xp_jval_type(xp_jdoc_root(d)), XP_JNULL);
	xp_jdoc_free(d);
	d = parse("true");
	ck_assert_int_eq(xp_jval_bool(xp_jdoc_root(d), &b), 0);
	ck_assert_int_eq(b, 1);
	xp_jdoc_free(d);
	d = parse("false");
	ck_assert_int_eq(xp_jval_bool_or(xp_jdoc_root(d), 7), 0);
	xp_jdoc_free(d);
	d = parse("\"hi\"");
	ck_assert_int_eq(xp_jval_str(xp_jdoc_root(d), &s, &len), 0);
	ck_assert_str_eq(s, "hi");
	ck_assert_uint_eq(len, 2);
	xp_jdoc_free(d);
	d = parse("\xef\xbb\xbf[]"); /* one BOM is skipped */
	ck_assert_int_eq(xp_jval_type(xp_jdoc_root(d)), XP_JARR);
	ck_assert_uint_eq(xp_jval_len(xp_jdoc_root(d)), 0);
	ck_assert_ptr_null(xp_jval_first(xp_jdoc_root(d)));
	xp_jdoc_free(d);
}
END_TEST

static const struct {
	const char *text;
	const char *want;
} bad[] = {
	{ "", "offset 0: expected a value, got end of input" },
	{ "   ", "offset 3: expected a value" },
	{ "[1,]", "offset 3: expected a value" },
	{ "{\"a\":1,}", "offset 7: expected a string key after ','" },
	{ "{,}", "offset 1: expected a string key or '}'" },
	{ "{1:2}", "expected a string key or '}', got '1'" },
	{ "{\"a\" 1}", "offset 5: expected ':' after an object key" },
	{ "[1 2]", "offset 3: expected ',' or ']' after an array element" },
	{ "{\"a\":1 \"b\":2}", "expected ',' or '}' after an object member" },
	{ "[1,2", "offset 4: expected ',' or ']'" },
	{ "{", "offset 1: expected a string key or '}', got end of input" },
	{ "[1]x", "offset 3: expected end of input after the top-level value" },
	{ "1 2", "offset 2: expected end of input" },
	{ "01", "offset 0: leading zero" },
	{ "-01", "offset 1: leading zero" },
	{ "1.", "offset 2: expected a digit after '.'" },
	{ ".5", "offset 0: expected a value" },
	{ "+1", "offset 0: expected a value" },
	{ "-", "offset 1: expected a digit after '-'" },
	{ "- 1", "expected a digit after '-'" },
	{ "1e", "offset 2: expected a digit in the exponent" },
	{ "1e+", "offset 3: expected a digit in the exponent" },
	{ "0x10", "offset 1: expected end of input" },
	{ "tru", "offset 0: expected a value" },
	{ "nul", "expected a value" },
	{ "True", "expected a value" },
	{ "NaN", "expected a value" },
	{ "Infinity", "expected a value" },
	{ "-Infinity", "expected a digit after '-'" },
	{ "'a'", "expected a value" },
	{ "\"abc", "offset 0: unterminated string" },
	{ "[\"abc]", "offset 1: unterminated string" },
	{ "\"\\x\"", "offset 2: expected one of" },
	{ "\"\\", "offset 1: expected an escape after '\\'" },
	{ "\"\\u12\"", "offset 1: expected 4 hex digits after \\u" },
	{ "\"\\u12G4\"", "expected 4 hex digits" },
	{ "\"\\uD800\"", "offset 1: expected a low surrogate" },
	{ "\"\\uD800\\u0041\"", "expected a low surrogate" },
	{ "\"\\uD800\\uD800\"", "expected a low surrogate" },
	{ "\"\\uDC00\"", "offset 1: lone low surrogate" },
	{ "\"a\x01\"", "offset 2: expected a string character (control" },
	{ "\"a\tb\"", "control characters must be escaped" },
	{ "\"\xff\"", "offset 1: expected valid UTF-8" },
	{ "\"\xc0\xaf\"", "expected valid UTF-8" },     /* overlong '/' */
	{ "\"\xe0\x80\xaf\"", "expected valid UTF-8" }, /* overlong */
	{ "\"\xed\xa0\x80\"", "expected valid UTF-8" }, /* U+D800 */
	{ "\"\xf4\x90\x80\x80\"", "expected valid UTF-8" }, /* > U+10FFFF */
	{ "\"\xe2\x82\"", "expected valid UTF-8" },	     /* truncated */
	{ "\"\x80\"", "expected valid UTF-8" },		     /* lone tail */
	{ "// c\n1", "expected a value" },
	{ "1 /* c */", "expected end of input" },
	{ "[1,,2]", "offset 3: expected a value" },
	{ "\xef\xbb\xbf\xef\xbb\xbf" "1", "offset 3: expected a value" },
	{ "\v1", "or '{'), got byte 0x0b" },
	{ "\xc2\xa0" "1", "got byte 0xc2" }, /* no-break space */
};

START_TEST(test_invalid)
{
	refuse(bad[_i].text, bad[_i].want);
}
END_TEST

START_TEST(test_nul_bytes)
{
	refuse_lim("[1]\0", 4, NULL, "offset 3: expected end of input "
		   "after the top-level value, got byte 0x00");
	refuse_lim("\"a\0\"", 4, NULL, "offset 2: expected a string char");
}
END_TEST

START_TEST(test_unterminated_input)
{
	/* Not NUL-terminated: a copy in a buffer exactly its size, so ASan
	 * catches any read past the end. */
	static const char *texts[] = { "123", "-1.5e3", "true", "\"ab\"",
				       "[1,2]", "{\"a\":[]}" };
	size_t i, n;
	char *buf;
	struct xp_jdoc *d;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		n = strlen(texts[i]);
		buf = malloc(n);
		ck_assert_ptr_nonnull(buf);
		memcpy(buf, texts[i], n);
		d = parse_lim(buf, n, NULL);
		xp_jdoc_free(d);
		/* Every proper prefix but "12" of "123" is refused or
		 * parses, without reading past its end. */
		for (size_t k = 0; k < n; k++)
			xp_jdoc_free(xp_jdoc_parse(buf, k, NULL, NULL));
		free(buf);
	}
}
END_TEST

static void check_str(const char *json, const char *want, size_t want_len)
{
	struct xp_jdoc *d = parse(json);
	const char *s;
	size_t len;

	ck_assert_int_eq(xp_jval_str(xp_jdoc_root(d), &s, &len), 0);
	ck_assert_uint_eq(len, want_len);
	ck_assert_msg(memcmp(s, want, len) == 0, "%s decoded wrong", json);
	ck_assert_int_eq(s[len], '\0');
	xp_jdoc_free(d);
}

START_TEST(test_strings)
{
	check_str("\"\"", "", 0);
	check_str("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\b\f\n\r\t", 8);
	check_str("\"a\\u0000b\"", "a\0b", 3);
	check_str("\"\\u0041\\u00e9\\u20AC\"", "A\xc3\xa9\xe2\x82\xac", 6);
	check_str("\"\\uD83D\\uDE00\"", "\xf0\x9f\x98\x80", 4); /* U+1F600 */
	check_str("\"\\udbff\\udfff\"", "\xf4\x8f\xbf\xbf", 4); /* U+10FFFF */
	check_str("\"\\uFFFF\\u07ff\\u0080\"", "\xef\xbf\xbf\xdf\xbf\xc2\x80",
		  7);
	/* Raw UTF-8 passes through unchanged, up to 4-byte sequences. */
	check_str("\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\x7f\"",
		  "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\x7f", 10);
}
END_TEST

static const struct xp_jval *root_of(struct xp_jdoc **d, const char *json)
{
	*d = parse(json);
	return xp_jdoc_root(*d);
}

START_TEST(test_integers)
{
	struct xp_jdoc *d;
	uint64_t u;
	int64_t i;

	ck_assert_uint_eq(xp_jval_u64_or(root_of(&d, "18446744073709551615"),
					 0), UINT64_MAX);
	xp_jdoc_free(d);
	ck_assert_int_eq(xp_jval_u64(root_of(&d, "18446744073709551616"), &u),
			 -1);
	ck_assert_double_eq(xp_jval_dbl_or(xp_jdoc_root(d), 0), 18446744073709551616.0);
	xp_jdoc_free(d);
	/* 2^53 + 1 has no double: the integer stays exact. */
	ck_assert_uint_eq(xp_jval_u64_or(root_of(&d, "9007199254740993"), 0),
			  UINT64_C(9007199254740993));
	ck_assert_double_eq(xp_jval_dbl_or(xp_jdoc_root(d), 0), 9007199254740992.0);
	xp_jdoc_free(d);
	ck_assert_int_eq(xp_jval_i64(root_of(&d, "-9223372036854775808"), &i), 0);
	ck_assert(i == INT64_MIN);
	ck_assert_int_eq(xp_jval_u64(xp_jdoc_root(d), &u), -1);
	xp_jdoc_free(d);
	ck_assert_int_eq(xp_jval_i64(root_of(&d, "-9223372036854775809"), &i), -1);
	xp_jdoc_free(d);
	ck_assert(xp_jval_i64_or(root_of(&d, "9223372036854775807"), 0) == INT64_MAX);
	xp_jdoc_free(d);
	ck_assert_int_eq(xp_jval_i64(root_of(&d, "9223372036854775808"), &i), -1);
	ck_assert_uint_eq(xp_jval_u64_or(xp_jdoc_root(d), 0), UINT64_C(1) << 63);
	xp_jdoc_free(d);
	/* "-0" is the integer 0 for both getters, -0.0 as a double. */
	ck_assert_uint_eq(xp_jval_u64_or(root_of(&d, "-0"), 9), 0);
	ck_assert_int_eq(xp_jval_i64_or(xp_jdoc_root(d), 9), 0);
	ck_assert(signbit(xp_jval_dbl_or(xp_jdoc_root(d), 1)));
	xp_jdoc_free(d);
}
END_TEST

/* Integral whatever the spelling, exactly; fractional ones are not. */
static const struct {
	const char *text;
	int integral;
	uint64_t mag;
} spellings[] = {
	{ "0", 1, 0 },
	{ "0.000e5", 1, 0 },
	{ "0e-999999999999999", 1, 0 },
	{ "1.0", 1, 1 },
	{ "1.5e1", 1, 15 },
	{ "100e-2", 1, 1 },
	{ "1E3", 1, 1000 },
	{ "1e+19", 1, UINT64_C(10000000000000000000) },
	{ "12345678901234567890e-1", 1, UINT64_C(1234567890123456789) },
	{ "1.8446744073709551615e19", 1, UINT64_MAX },
	{ "0.00000000000000000000000018446744073709551615e44", 1, UINT64_MAX },
	{ "1e20", 0, 0 },
	{ "1.8446744073709551616e19", 0, 0 },
	{ "1.25e1", 0, 0 },
	{ "0.5", 0, 0 },
	{ "1e-1", 0, 0 },
	{ "1e-400", 0, 0 },
	{ "123456789012345678901234567890e-10", 0, 0 },
	{ "1e99999999999999999999999", 0, 0 },
};

START_TEST(test_integral_spellings)
{
	struct xp_jdoc *d;
	const struct xp_jval *v = root_of(&d, spellings[_i].text);
	uint64_t u = 77;

	ck_assert_int_eq(xp_jval_is_int(v), spellings[_i].integral);
	ck_assert_int_eq(xp_jval_u64(v, &u), spellings[_i].integral ? 0 : -1);
	if (spellings[_i].integral)
		ck_assert_uint_eq(u, spellings[_i].mag);
	else
		ck_assert_uint_eq(u, 77); /* untouched on failure */
	xp_jdoc_free(d);
}
END_TEST

START_TEST(test_doubles)
{
	struct xp_jdoc *d;
	double x = 5;
	char big[400];

	ck_assert_double_eq(xp_jval_dbl_or(root_of(&d, "-1.5e-3"), 0), -1.5e-3);
	xp_jdoc_free(d);
	ck_assert_double_eq(xp_jval_dbl_or(root_of(&d, "0.1"), 0), 0.1);
	xp_jdoc_free(d);
	ck_assert_double_eq(xp_jval_dbl_or(root_of(&d, "1e-400"), 5), 0);
	xp_jdoc_free(d);
	ck_assert_double_eq(xp_jval_dbl_or(root_of(&d, "4.9406564584124654e-324"),
					   0), 4.9406564584124654e-324);
	xp_jdoc_free(d);
	/* Too large for a double: parses, but no finite value to give. */
	ck_assert_int_eq(xp_jval_dbl(root_of(&d, "-1e400"), &x), -1);
	ck_assert_double_eq(x, 5);
	ck_assert_int_eq(xp_jval_type(xp_jdoc_root(d)), XP_JNUM);
	xp_jdoc_free(d);
	/* A 300-digit integer (the heap path for long tokens). */
	memset(big, '0', sizeof(big));
	big[0] = '1';
	snprintf(big + 301, sizeof(big) - 301, "e-300");
	ck_assert_uint_eq(xp_jval_u64_or(root_of(&d, big), 0), 1);
	ck_assert_double_eq(xp_jval_dbl_or(xp_jdoc_root(d), 0), 1);
	xp_jdoc_free(d);
	big[301] = '\0';
	ck_assert_double_eq(xp_jval_dbl_or(root_of(&d, big), 0), 1e300);
	xp_jdoc_free(d);
}
END_TEST

START_TEST(test_depth)
{
	struct xp_jlimits lim = { 0, 3, 0 };
	char deep[200001];
	struct xp_jdoc *d;
	size_t i;

	xp_jdoc_free(parse_lim("[[[1]]]", 7, &lim));
	xp_jdoc_free(parse_lim("[{\"a\":[]}]", 10, &lim));
	refuse_lim("[[[[1]]]]", 9, &lim, "offset 3: nesting deeper than the "
		   "limit of 3");
	refuse_lim("{\"a\":{\"b\":[{}]}}", 16, &lim, "offset 11: nesting");
	/* Default 64: 64 levels pass, 65 and 100000 are refused (no stack
	 * overflow, whatever the input). */
	for (i = 0; i < 100000; i++) {
		deep[i] = '[';
		deep[200000 - 1 - i] = ']';
	}
	deep[200000] = '\0';
	d = parse_lim(deep + 100000 - 64, 128, NULL);
	ck_assert_uint_eq(xp_jdoc_nodes(d), 64);
	xp_jdoc_free(d);
	refuse_lim(deep + 100000 - 65, 130, NULL, "offset 64: nesting deeper "
		   "than the limit of 64");
	refuse_lim(deep, 200000, NULL, "nesting deeper");
	lim.max_depth = 100000; /* capped at XP_JREAD_DEPTH_CAP */
	refuse_lim(deep, 200000, &lim, "limit of 4096");
}
END_TEST

START_TEST(test_size_limits)
{
	struct xp_jlimits lim = { 10, 0, 0 };
	struct xp_jlimits nodes = { 0, 0, 3 };

	xp_jdoc_free(parse_lim("[1,2,3,45]", 10, &lim));
	refuse_lim("[1,2,3,456]", 11, &lim, "JSON document of 11 bytes is "
		   "larger than the limit of 10");
	xp_jdoc_free(parse_lim("[1,2]", 5, &nodes));
	refuse_lim("[1,2,3]", 7, &nodes, "offset 5: more than 3 values");
	refuse_lim(NULL, 5, NULL, "NULL");
}
END_TEST

static const char iperf_like[] =
	"{\"start\":{\"version\":\"iperf 3.12\",\"test_start\":{\"protocol\":"
	"\"TCP\",\"num_streams\":2,\"duration\":2}},\n"
	"\"intervals\":[{\"streams\":[{\"socket\":5,\"bytes\":100}],"
	"\"sum\":{\"start\":0,\"end\":1.000041,\"bytes\":4831838208,"
	"\"bits_per_second\":38654705664.0}},{\"streams\":[],\"sum\":"
	"{\"bytes\":12}}],\n"
	"\"end\":{\"sum_received\":{\"bytes\":9663676416,"
	"\"bits_per_second\":3.8654e10,\"sender\":true},"
	"\"a.b\":1,\"\":{\"x\":2},\"dup\":1,\"dup\":2}}";

START_TEST(test_access)
{
	struct xp_jdoc *d;
	const struct xp_jval *r = root_of(&d, iperf_like), *v;
	const char *k;
	size_t n = 0, len;

	ck_assert_uint_eq(xp_jval_len(r), 3);
	for (v = xp_jval_first(r); v; v = xp_jval_next(v))
		n++;
	ck_assert_uint_eq(n, 3);
	k = xp_jval_key(xp_jval_at(xp_jval_member(r, "intervals"), 1), &len);
	ck_assert_ptr_null(k);
	k = xp_jval_key(xp_jval_member(r, "end"), &len);
	ck_assert_str_eq(k, "end");
	ck_assert_uint_eq(len, 3);
	ck_assert_uint_eq(xp_jval_len(xp_jval_path(r, "intervals")), 2);
	ck_assert_uint_eq(xp_jval_u64_or(xp_jval_path(r, "intervals.0.sum.bytes"),
					 0), UINT64_C(4831838208));
	ck_assert_uint_eq(xp_jval_u64_or(xp_jval_path(r, "intervals.1.sum.bytes"),
					 0), 12);
	ck_assert_uint_eq(xp_jval_u64_or(xp_jval_path(r,
		"intervals.0.streams.0.socket"), 0), 5);
	ck_assert_ptr_null(xp_jval_path(r, "intervals.2.sum"));
	ck_assert_ptr_null(xp_jval_path(r, "intervals.-1"));
	ck_assert_ptr_null(xp_jval_path(r, "intervals.x"));
	ck_assert_ptr_null(xp_jval_path(r, "start.version.x"));
	ck_assert_ptr_eq(xp_jval_path(r, ""), r);
	ck_assert_str_eq(xp_jval_str_or(xp_jval_path(r, "start.version"), "?"),
			 "iperf 3.12");
	ck_assert_str_eq(xp_jval_str_or(xp_jval_path(r, "start.nope"), "?"), "?");
	ck_assert_int_eq(xp_jval_bool_or(xp_jval_path(r,
		"end.sum_received.sender"), 0), 1);
	ck_assert_double_eq(xp_jval_dbl_or(xp_jval_path(r,
		"end.sum_received.bits_per_second"), 0), 3.8654e10);
	/* Keys with a dot are members, not paths; "" is a key too. */
	ck_assert_ptr_null(xp_jval_path(r, "end.a.b"));
	ck_assert_uint_eq(xp_jval_u64_or(xp_jval_member(xp_jval_member(r, "end"),
							"a.b"), 0), 1);
	ck_assert_uint_eq(xp_jval_u64_or(xp_jval_path(r, "end..x"), 0), 2);
	ck_assert_uint_eq(xp_jval_u64_or(xp_jval_path(r, "end.dup"), 0), 1);
	xp_jdoc_free(d);
}
END_TEST

/* Typed path getters explain what they found. */
START_TEST(test_path_getters)
{
	struct xp_jdoc *d;
	const struct xp_jval *r = root_of(&d, iperf_like);
	struct xp_err err = { "" };
	uint64_t u;
	double x;

	ck_assert_int_eq(xp_jval_path_u64(r, "end.sum_received.bytes", &u, &err),
			 0);
	ck_assert_uint_eq(u, UINT64_C(9663676416));
	ck_assert_int_eq(xp_jval_path_u64(r, "start.version", &u, &err), -1);
	ck_assert_str_eq(err.msg, "start.version: expected an unsigned "
			 "integer, got string");
	ck_assert_int_eq(xp_jval_path_u64(r, "intervals.0.sum.end", &u, &err),
			 -1);
	ck_assert_str_eq(err.msg, "intervals.0.sum.end: expected an unsigned "
			 "integer, got a number that is not an integer or not "
			 "below 2^64");
	/* 3.8654e10 is an integer, however written. */
	ck_assert_int_eq(xp_jval_path_u64(r, "end.sum_received.bits_per_second",
					  &u, &err), 0);
	ck_assert_uint_eq(u, UINT64_C(38654000000));
	ck_assert_int_eq(xp_jval_path_dbl(r, "end.sum_received.bytes", &x, &err),
			 0);
	ck_assert_int_eq(xp_jval_path_dbl(r, "end.sum", &x, &err), -1);
	ck_assert_str_eq(err.msg, "end.sum: expected a finite number, got "
			 "nothing (missing)");
	xp_jdoc_free(d);
}
END_TEST

START_TEST(test_wrong_types_and_null)
{
	struct xp_jdoc *d;
	const struct xp_jval *r = root_of(&d, "[\"1\",true,null,{},[]]");
	const char *s;
	uint64_t u;

	ck_assert_int_eq(xp_jval_u64(xp_jval_at(r, 0), &u), -1);
	ck_assert_uint_eq(xp_jval_u64_or(xp_jval_at(r, 1), 3), 3);
	ck_assert_int_eq(xp_jval_str(xp_jval_at(r, 2), &s, NULL), -1);
	ck_assert_int_eq(xp_jval_type(xp_jval_at(r, 2)), XP_JNULL);
	ck_assert_int_eq(xp_jval_type(xp_jval_at(r, 3)), XP_JOBJ);
	ck_assert_ptr_null(xp_jval_at(r, 5));
	ck_assert_ptr_null(xp_jval_at(xp_jval_at(r, 3), 0));
	ck_assert_ptr_null(xp_jval_member(r, "0"));
	ck_assert_ptr_null(xp_jval_first(NULL));
	ck_assert_ptr_null(xp_jval_next(NULL));
	ck_assert_ptr_null(xp_jval_path(NULL, "a"));
	ck_assert_uint_eq(xp_jval_len(NULL), 0);
	ck_assert_str_eq(xp_jtype_name(xp_jval_type(r)), "array");
	ck_assert_ptr_null(xp_jdoc_root(NULL));
	xp_jdoc_free(NULL);
	xp_jdoc_free(d);
}
END_TEST

static Suite *json_read_suite(void)
{
	Suite *s = suite_create("json_read");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_scalars);
	tcase_add_loop_test(tc, test_invalid, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_nul_bytes);
	tcase_add_test(tc, test_unterminated_input);
	tcase_add_test(tc, test_strings);
	tcase_add_test(tc, test_integers);
	tcase_add_loop_test(tc, test_integral_spellings, 0,
			    sizeof(spellings) / sizeof(spellings[0]));
	tcase_add_test(tc, test_doubles);
	tcase_add_test(tc, test_depth);
	tcase_add_test(tc, test_size_limits);
	tcase_add_test(tc, test_access);
	tcase_add_test(tc, test_path_getters);
	tcase_add_test(tc, test_wrong_types_and_null);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(json_read_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
