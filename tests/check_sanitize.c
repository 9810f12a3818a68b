/* SPDX-License-Identifier: BSD-2-Clause */
/* Peer text escaping: what is escaped and how, truncation, bounds. */
#include "common/sanitize.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void assert_san(const char *src, size_t len, const char *want)
{
	char out[256];
	size_t n = xp_sanitize(out, sizeof(out), src, len);

	ck_assert_str_eq(out, want);
	ck_assert_uint_eq(n, strlen(want));
}

START_TEST(test_escapes)
{
	assert_san("hello, world 0-9 ~", 18, "hello, world 0-9 ~");
	assert_san("a\nb\rc\td", 7, "a\\nb\\rc\\td");
	assert_san("\x1b[31mred\x1b[0m", 12, "\\x1b[31mred\\x1b[0m");
	assert_san("\x7f\x01\x00z", 4, "\\x7f\\x01\\x00z");
	assert_san("back\\slash", 10, "back\\\\slash");
	assert_san("caf\xc3\xa9", 5, "caf\\xc3\\xa9");        /* UTF-8 too */
	assert_san("\xc2\x9b" "2J", 4, "\\xc2\\x9b2J");        /* C1 CSI */
	assert_san("\xff\x80", 2, "\\xff\\x80");
	assert_san(NULL, 0, "");
}
END_TEST

/* A peer cannot start a new log line or send a terminal control. */
START_TEST(test_every_byte)
{
	char src[256], out[4 * 256 + 1];
	size_t i, n, want = 0;

	for (i = 0; i < 256; i++) {
		src[i] = (char)i;
		want += i == '\\' || i == '\n' || i == '\r' || i == '\t' ? 2 :
			i >= 0x20 && i < 0x7f ? 1 : 4;
	}
	n = xp_sanitize(out, sizeof(out), src, sizeof(src));
	ck_assert_uint_eq(n, want);
	ck_assert_uint_eq(strlen(out), want);
	for (i = 0; i < n; i++)
		ck_assert_msg(out[i] >= 0x20 && out[i] < 0x7f,
			      "byte 0x%02x at %zu", (unsigned char)out[i], i);
}
END_TEST

START_TEST(test_truncation)
{
	char out[16];
	size_t n;

	/* fits exactly, NUL included */
	n = xp_sanitize(out, 8, "abc\x1b", 4);
	ck_assert_uint_eq(n, 7);
	ck_assert_str_eq(out, "abc\\x1b");
	/* one short: the escape is not split, the mark shows the cut */
	n = xp_sanitize(out, 7, "abc\x1b", 4);
	ck_assert_uint_eq(n, 7);
	ck_assert_str_eq(out, "ab" XP_SANITIZE_MORE);
	n = xp_sanitize(out, 10, "abcdefghijkl", 12);
	ck_assert_uint_eq(n, 12);
	ck_assert_str_eq(out, "abcde" XP_SANITIZE_MORE);
	/* smaller than the mark: the mark itself is cut, still terminated */
	n = xp_sanitize(out, 3, "abcdef", 6);
	ck_assert_uint_eq(n, 6);
	ck_assert_str_eq(out, "\\.");
	n = xp_sanitize(out, 1, "abcdef", 6);
	ck_assert_str_eq(out, "");
	memset(out, 'Z', sizeof(out));
	n = xp_sanitize(out, 0, "abc", 3);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(out[0], 'Z');
}
END_TEST

/* For every cap: nothing written at or past cap, NUL-terminated, result
 * the full length, truncated exactly when result >= cap. */
START_TEST(test_every_cap)
{
	const char src[] = "x\n\\\x1b\x80yz\t";
	char full[64], out[64];
	size_t cap, total = xp_sanitize(full, sizeof(full), src, sizeof(src) - 1);

	for (cap = 0; cap <= total + 2; cap++) {
		memset(out, 'Z', sizeof(out));
		ck_assert_uint_eq(xp_sanitize(out, cap, src, sizeof(src) - 1), total);
		ck_assert_int_eq(out[cap], 'Z');
		if (!cap)
			continue;
		ck_assert_ptr_nonnull(memchr(out, '\0', cap));
		if (cap > total) {
			ck_assert_str_eq(out, full);
		} else if (cap < sizeof(XP_SANITIZE_MORE)) {
			ck_assert(strncmp(out, XP_SANITIZE_MORE, cap - 1) == 0);
			ck_assert_uint_eq(strlen(out), cap - 1);
		} else {
			size_t o = strlen(out), p = o - strlen(XP_SANITIZE_MORE);

			ck_assert_str_eq(out + p, XP_SANITIZE_MORE);
			ck_assert(strncmp(out, full, p) == 0);
			/* the longest prefix: the next escape would not fit */
			ck_assert_uint_gt(p + 4 + strlen(XP_SANITIZE_MORE) + 1, cap);
		}
	}
}
END_TEST

/* The inverse, to show the escaping loses nothing. */
static size_t unescape(const char *s, char *out)
{
	size_t n = 0;

	while (*s) {
		if (*s != '\\') {
			out[n++] = *s++;
			continue;
		}
		switch (s[1]) {
		case 'n': out[n++] = '\n'; break;
		case 'r': out[n++] = '\r'; break;
		case 't': out[n++] = '\t'; break;
		case '\\': out[n++] = '\\'; break;
		default:
			ck_assert_int_eq(s[1], 'x');
			out[n++] = (char)strtoul((char[]){ s[2], s[3], 0 }, NULL, 16);
			s += 2;
		}
		s += 2;
	}
	return n;
}

START_TEST(test_round_trip)
{
	char src[200], out[4 * 200 + 1], back[200];
	uint32_t x = 12345;
	size_t i, len;
	int iter;

	for (iter = 0; iter < 500; iter++) {
		len = (size_t)iter % sizeof(src);
		for (i = 0; i < len; i++) {
			x = x * 1103515245u + 12345u;
			src[i] = (char)(x >> 16);
		}
		ck_assert_uint_lt(xp_sanitize(out, sizeof(out), src, len), sizeof(out));
		ck_assert_uint_eq(unescape(out, back), len);
		ck_assert(memcmp(src, back, len) == 0);
	}
}
END_TEST

static Suite *sanitize_suite(void)
{
	Suite *s = suite_create("sanitize");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_escapes);
	tcase_add_test(tc, test_every_byte);
	tcase_add_test(tc, test_truncation);
	tcase_add_test(tc, test_every_cap);
	tcase_add_test(tc, test_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sanitize_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
