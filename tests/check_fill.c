/* SPDX-License-Identifier: BSD-2-Clause */
/* --fill: the file's bytes as loaded, and repeated over a send buffer. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fill.h"

START_TEST(cycle_repeats_from_the_start)
{
	const uint8_t src[] = "abc";
	uint8_t dst[11];
	size_t n;

	memset(dst, 'z', sizeof(dst));
	xp_fill_cycle(dst, 10, src, 3);
	ck_assert_int_eq(memcmp(dst, "abcabcabca", 10), 0);
	ck_assert_int_eq(dst[10], 'z'); /* nothing past dstlen */
	/* shorter than the source: a prefix */
	memset(dst, 'z', sizeof(dst));
	xp_fill_cycle(dst, 2, src, 3);
	ck_assert_int_eq(memcmp(dst, "abz", 3), 0);
	/* no source: untouched (the zeroed buffer stays zeros) */
	memset(dst, 0, sizeof(dst));
	xp_fill_cycle(dst, sizeof(dst), NULL, 0);
	xp_fill_cycle(dst, sizeof(dst), src, 0);
	for (n = 0; n < sizeof(dst); n++)
		ck_assert_int_eq(dst[n], 0);
}
END_TEST

/* Every length and period against the byte-by-byte definition. */
START_TEST(cycle_matches_definition)
{
	uint8_t src[37], dst[1000];
	size_t len, per, i;

	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 7 + 1);
	for (per = 1; per <= sizeof(src); per++)
		for (len = 0; len <= sizeof(dst); len += 13) {
			size_t bad = len;

			memset(dst, 0, sizeof(dst));
			xp_fill_cycle(dst, len, src, per);
			for (i = 0; i < len && bad == len; i++)
				if (dst[i] != src[i % per])
					bad = i;
			ck_assert_msg(bad == len, "period %zu, length %zu: byte %zu differs", per,
				      len, bad);
		}
}
END_TEST

static char *temp_file(const void *data, size_t len)
{
	char *path = strdup("/tmp/xperf-fill-XXXXXX");
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
	return path;
}

START_TEST(load)
{
	struct xp_err err;
	uint8_t *buf;
	size_t len;
	char *p = temp_file("pattern!", 8), *big;
	uint8_t *blob = malloc(XP_FILL_MAX + 100);

	ck_assert_int_eq(xp_fill_load(p, &buf, &len, &err), 0);
	ck_assert_uint_eq(len, 8);
	ck_assert_int_eq(memcmp(buf, "pattern!", 8), 0);
	free(buf);
	unlink(p);
	free(p);
	/* the first 4 MiB of a longer file */
	ck_assert_ptr_nonnull(blob);
	memset(blob, 'x', XP_FILL_MAX + 100);
	blob[XP_FILL_MAX - 1] = 'y';
	big = temp_file(blob, XP_FILL_MAX + 100);
	ck_assert_int_eq(xp_fill_load(big, &buf, &len, &err), 0);
	ck_assert_uint_eq(len, XP_FILL_MAX);
	ck_assert_int_eq(buf[XP_FILL_MAX - 1], 'y');
	free(buf);
	unlink(big);
	free(big);
	free(blob);
	/* errors name the file and what failed */
	p = temp_file("", 0);
	ck_assert_int_eq(xp_fill_load(p, &buf, &len, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, p));
	ck_assert_ptr_nonnull(strstr(err.msg, "empty"));
	ck_assert_ptr_null(buf);
	unlink(p);
	free(p);
	ck_assert_int_eq(xp_fill_load("/nonexistent/xperf-fill", &buf, &len, &err), -1);
	ck_assert_str_eq(err.msg, "--fill /nonexistent/xperf-fill: open: No such file or "
			 "directory");
	ck_assert_int_eq(xp_fill_load("/", &buf, &len, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "--fill /: read"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fill");
	TCase *tc = tcase_create("fill");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, cycle_repeats_from_the_start);
	tcase_add_test(tc, cycle_matches_definition);
	tcase_add_test(tc, load);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
