/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/hist.h"
#include "common/hist_codec.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ULL(v) ((unsigned long long)(v))

/* splitmix64: fixed seeds make every failure reproducible. */
static uint64_t rng(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Log-uniform over the whole 64-bit range. */
static uint64_t rng_log(uint64_t *s)
{
	unsigned bits = (unsigned)(rng(s) % 65);
	uint64_t r = rng(s);

	return bits == 64 ? r : r & ((UINT64_C(1) << bits) - 1);
}

static struct xp_hist *new_hist(void)
{
	struct xp_hist *h = xp_hist_new();

	ck_assert_ptr_nonnull(h);
	return h;
}

/* Everything a reader can see is identical, bit for bit. */
static void assert_same(const struct xp_hist *a, const struct xp_hist *b)
{
	struct xp_hist_sums sa, sb;
	uint32_t i;
	double p;

	for (i = 0; i < xp_hist_buckets(); i++)
		if (xp_hist_bucket_count(a, i) != xp_hist_bucket_count(b, i))
			ck_abort_msg("bucket %u: %llu vs %llu", i,
				     ULL(xp_hist_bucket_count(a, i)),
				     ULL(xp_hist_bucket_count(b, i)));
	ck_assert_uint_eq(xp_hist_count(a), xp_hist_count(b));
	ck_assert_uint_eq(xp_hist_min(a), xp_hist_min(b));
	ck_assert_uint_eq(xp_hist_max(a), xp_hist_max(b));
	ck_assert(xp_hist_mean(a) == xp_hist_mean(b));
	ck_assert(xp_hist_stddev(a) == xp_hist_stddev(b));
	xp_hist_get_sums(a, &sa);
	xp_hist_get_sums(b, &sb);
	ck_assert(memcmp(&sa, &sb, sizeof(sa)) == 0);
	for (p = 0.125; p <= 100; p += 0.125)
		if (xp_hist_percentile(a, p) != xp_hist_percentile(b, p))
			ck_abort_msg("p%g: %.17g vs %.17g", p,
				     xp_hist_percentile(a, p),
				     xp_hist_percentile(b, p));
	ck_assert(xp_hist_percentile(a, 99.999) == xp_hist_percentile(b, 99.999));
	ck_assert(xp_hist_percentile(a, 0.001) == xp_hist_percentile(b, 0.001));
}

/* Encode into a buffer exactly the announced size; the text must not
 * need JSON escaping. */
static char *encode(const struct xp_hist *h)
{
	size_t n = xp_hist_encode(h, NULL, 0), i;
	char *buf = malloc(n + 1);

	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_lt(n, xp_hist_encoded_max());
	ck_assert_uint_eq(xp_hist_encode(h, buf, n), n); /* one too small */
	ck_assert_str_eq(buf, "");
	ck_assert_uint_eq(xp_hist_encode(h, buf, n + 1), n);
	ck_assert_uint_eq(strlen(buf), n);
	for (i = 0; i < n; i++)
		ck_assert_msg(buf[i] > 0x20 && buf[i] < 0x7f && buf[i] != '"' &&
			      buf[i] != '\\', "character 0x%02x", buf[i]);
	return buf;
}

static void round_trip(const struct xp_hist *h)
{
	struct xp_hist *back = new_hist();
	struct xp_err err = { "" };
	char *text = encode(h);

	xp_hist_add(back, 12345); /* decode replaces whatever was there */
	ck_assert_msg(xp_hist_decode(back, text, strlen(text), &err) == 0,
		      "%s", err.msg);
	assert_same(h, back);
	free(text);
	xp_hist_free(back);
}

START_TEST(test_empty)
{
	struct xp_hist *h = new_hist();
	char *text = encode(h);

	ck_assert_str_eq(text, "xph1:7:ns:AAARdpfN"); /* count 0, 0 buckets */
	round_trip(h);
	free(text);
	xp_hist_free(h);
}
END_TEST

START_TEST(test_one_sample)
{
	static const uint64_t v[] = { 0, 1, 127, 128, 255, 256, 1000, 12345,
				      UINT64_C(1) << 40, UINT64_MAX - 1,
				      UINT64_MAX };
	struct xp_hist *h = new_hist();

	xp_hist_add(h, v[_i]);
	round_trip(h);
	xp_hist_free(h);
}
END_TEST

START_TEST(test_random)
{
	struct xp_hist *h = new_hist();
	uint64_t seed = 1000 + (uint64_t)_i;
	int i, n = 1 + (int)(rng(&seed) % 20000);

	for (i = 0; i < n; i++)
		xp_hist_add_n(h, rng_log(&seed), 1 + rng(&seed) % (_i ? 1000 : 1));
	round_trip(h);
	xp_hist_free(h);
}
END_TEST

/* Every bucket used, the largest values, counts near 2^64. */
START_TEST(test_extreme)
{
	struct xp_hist *h = new_hist();
	uint32_t i;

	for (i = 0; i < xp_hist_buckets(); i++)
		xp_hist_add(h, xp_hist_bucket_high(i));
	xp_hist_add_n(h, UINT64_MAX, UINT64_C(1) << 62);
	xp_hist_add_n(h, 0, (UINT64_C(1) << 62) + 17);
	xp_hist_add_n(h, UINT64_C(1) << 63, UINT64_MAX / 2 - 2 * xp_hist_buckets());
	round_trip(h);
	xp_hist_free(h);
}
END_TEST

/* merge(decode(a), decode(b)) is the histogram of all the samples. */
START_TEST(test_merge_exact)
{
	struct xp_hist *a = new_hist(), *b = new_hist(), *all = new_hist();
	struct xp_hist *da = new_hist(), *db = new_hist();
	uint64_t seed = 77 + (uint64_t)_i, v;
	char *ta, *tb;
	int i;

	for (i = 0; i < 50000; i++) {
		v = _i ? rng_log(&seed) : 20000 + rng(&seed) % 5000;
		xp_hist_add(i % 3 ? a : b, v);
		xp_hist_add(all, v);
	}
	ta = encode(a);
	tb = encode(b);
	ck_assert_int_eq(xp_hist_decode(da, ta, strlen(ta), NULL), 0);
	ck_assert_int_eq(xp_hist_decode(db, tb, strlen(tb), NULL), 0);
	xp_hist_merge(da, db);
	assert_same(da, all);
	free(ta);
	free(tb);
	xp_hist_free(a);
	xp_hist_free(b);
	xp_hist_free(all);
	xp_hist_free(da);
	xp_hist_free(db);
}
END_TEST

/* Decoding must fail with a message containing want, leaving h as is. */
static void refuse(const char *text, size_t len, const char *want)
{
	struct xp_hist *h = new_hist(), *before = new_hist();
	struct xp_err err = { "" };

	xp_hist_add(h, 42);
	xp_hist_add(before, 42);
	ck_assert_msg(xp_hist_decode(h, text, len, &err) == -1,
		      "accepted %.*s", (int)len, text);
	ck_assert_msg(strstr(err.msg, want), "'%s' lacks '%s'", err.msg, want);
	assert_same(h, before);
	xp_hist_free(h);
	xp_hist_free(before);
}

START_TEST(test_refuse_params)
{
	refuse("xph2:7:ns:AAARdpfN", 18, "encoding version 2 is not supported");
	refuse("xph1:6:ns:AAARdpfN", 18, "layout with 6 sub-bucket bits, this "
	       "xperf uses 7");
	refuse("xph1:7:us:AAARdpfN", 18, "unit is not \"ns\"");
	refuse("xph1:7:ns", 9, "unit is not");
	refuse("hdr1:7:ns:AAARdpfN", 18, "expected \"xph1:...\", got \"hdr1:7:n\"");
	refuse("xp", 2, "got \"xp\"");
	refuse("xph:7:ns:AAARdpfN", 17, "version -1");
	refuse("xph1:7:ns:", 10, "payload of 0 bytes is too short");
	refuse("xph1:7:ns:AAARdpf=", 18, "character 0x3d at payload offset 7");
	refuse("xph1:7:ns:AAARdpfNAB", 20, "truncated");
	refuse("xph1:7:ns:AAARdpfNAAB", 21, "truncated"); /* unused bits */
	refuse("xph1:7:ns:AAARdpfA", 18, "hash");
	refuse(NULL, 0, "no text");
}
END_TEST

/* Changing, dropping or adding any one character of a real encoding is
 * refused (mostly by the hash). */
START_TEST(test_refuse_corrupt)
{
	struct xp_hist *h = new_hist(), *out = new_hist();
	uint64_t seed = 5;
	char *text, *copy;
	size_t n, i, pre = strlen("xph1:7:ns:");
	int k;

	for (k = 0; k < 300; k++)
		xp_hist_add(h, 10000 + rng(&seed) % 30000);
	text = encode(h);
	n = strlen(text);
	copy = malloc(n + 2);
	ck_assert_ptr_nonnull(copy);
	for (i = pre; i < n; i++) {
		memcpy(copy, text, n + 1);
		copy[i] = copy[i] == 'A' ? 'B' : 'A';
		ck_assert_msg(xp_hist_decode(out, copy, n, NULL) == -1,
			      "accepted a change at %zu", i);
		ck_assert_msg(xp_hist_decode(out, text, i, NULL) == -1,
			      "accepted a cut at %zu", i);
	}
	memcpy(copy, text, n);
	copy[n] = 'A';
	ck_assert_int_eq(xp_hist_decode(out, copy, n + 1, NULL), -1);
	ck_assert_int_eq(xp_hist_decode(out, text, n, NULL), 0);
	free(text);
	free(copy);
	xp_hist_free(h);
	xp_hist_free(out);
}
END_TEST

/* Hand-made payloads with a valid hash reach the structural checks. */
static void refuse_payload(const uint8_t *b, size_t n, const char *want)
{
	static const char a[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	uint8_t bytes[64];
	char text[128];
	uint32_t fnv = UINT32_C(2166136261), acc;
	size_t i, len = (size_t)snprintf(text, sizeof(text), "xph1:7:ns:");

	ck_assert_uint_le(n + 4, sizeof(bytes));
	memcpy(bytes, b, n);
	for (i = 0; i < n; i++)
		fnv = (fnv ^ b[i]) * UINT32_C(16777619);
	for (i = 0; i < 4; i++)
		bytes[n + i] = (uint8_t)(fnv >> (24 - 8 * i));
	n += 4;
	for (i = 0; i < n; i += 3) {
		acc = (uint32_t)bytes[i] << 16 |
		      (i + 1 < n ? (uint32_t)bytes[i + 1] << 8 : 0) |
		      (i + 2 < n ? bytes[i + 2] : 0);
		text[len++] = a[acc >> 18];
		text[len++] = a[acc >> 12 & 63];
		if (i + 1 < n)
			text[len++] = a[acc >> 6 & 63];
		if (i + 2 < n)
			text[len++] = a[acc & 63];
	}
	refuse(text, len, want);
}

START_TEST(test_refuse_structure)
{
	/* count 1, min 5, max-min 0, sum 5 0, sumsq 25 0 0, n 1, ... */
	static const uint8_t beyond[] = { 1, 5, 0, 5, 0, 25, 0, 0, 1, 0xff, 0x3f, 1 };
	static const uint8_t empty[] = { 1, 5, 0, 5, 0, 25, 0, 0, 1, 5, 0 };
	static const uint8_t sum[] = { 2, 5, 0, 5, 0, 25, 0, 0, 1, 5, 1 };
	static const uint8_t minb[] = { 1, 6, 0, 6, 0, 36, 0, 0, 1, 5, 1 };
	static const uint8_t over[] = { 0x81, 0x00, 0 };
	static const uint8_t big[] = { 0xff, 0xff, 0xff, 0xff, 0xff,
				       0xff, 0xff, 0xff, 0xff, 0x02, 0 };
	static const uint8_t trail[] = { 0, 0, 7 };
	static const uint8_t nbig[] = { 0, 0xff, 0x7f };
	static const uint8_t maxo[] = { 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					0xff, 0xff, 0xff, 0x01, 1, 0, 0, 0, 0,
					0, 0 };
	static const uint8_t cut[] = { 1, 5, 0, 5 };

	refuse_payload(beyond, sizeof(beyond), "bucket index beyond the layout");
	refuse_payload(empty, sizeof(empty), "empty bucket listed");
	refuse_payload(sum, sizeof(sum), "buckets hold 1 values, count says 2");
	refuse_payload(minb, sizeof(minb), "min 6 or max 6 outside");
	refuse_payload(over, sizeof(over), "overlong varint");
	refuse_payload(big, sizeof(big), "varint above 2^64");
	refuse_payload(trail, sizeof(trail), "data after the last bucket");
	refuse_payload(nbig, sizeof(nbig), "more buckets than the layout has");
	refuse_payload(maxo, sizeof(maxo), "max above 2^64");
	refuse_payload(cut, sizeof(cut), "ends too early");
}
END_TEST

/* Sum of 12 uniforms minus 6: a standard normal, well enough. */
static double normal(uint64_t *s)
{
	double x = -6;
	int i;

	for (i = 0; i < 12; i++)
		x += (double)(rng(s) >> 11) / 9007199254740992.0;
	return x;
}

/* A 10 s TCP_RR run on loopback: ~80k transactions/s, round trips
 * lognormal around 12 us (p99 ~ 30 us), and one in 10^4 delayed by up to
 * 5 ms (scheduler noise).  Reports the encoded size. */
START_TEST(test_typical_size)
{
	struct xp_hist *h = new_hist();
	uint64_t seed = 10, v;
	uint32_t i, used = 0;
	char *text;
	int k;

	for (k = 0; k < 800000; k++) {
		v = (uint64_t)(12000 * exp(0.4 * normal(&seed)));
		if (rng(&seed) % 10000 == 0)
			v += rng(&seed) % 5000000;
		xp_hist_add(h, v);
	}
	for (i = 0; i < xp_hist_buckets(); i++)
		used += xp_hist_bucket_count(h, i) != 0;
	text = encode(h);
	fprintf(stderr, "check_hist_codec: typical 10 s TCP_RR histogram: "
		"%d samples in %u buckets -> %zu characters (max for any "
		"histogram %zu)\n", k, used, strlen(text), xp_hist_encoded_max());
	ck_assert_uint_lt(strlen(text), 4096);
	round_trip(h);
	free(text);
	xp_hist_free(h);
}
END_TEST

static Suite *codec_suite(void)
{
	Suite *s = suite_create("hist_codec");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_empty);
	tcase_add_loop_test(tc, test_one_sample, 0, 11);
	tcase_add_loop_test(tc, test_random, 0, 8);
	tcase_add_test(tc, test_extreme);
	tcase_add_loop_test(tc, test_merge_exact, 0, 2);
	tcase_add_test(tc, test_refuse_params);
	tcase_add_test(tc, test_refuse_corrupt);
	tcase_add_test(tc, test_refuse_structure);
	tcase_add_test(tc, test_typical_size);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(codec_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
