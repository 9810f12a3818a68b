/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/hist.h"
#include "common/hist_iv.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Midpoint reporting bounds the relative error by half a bucket width over
 * the bucket's low bound: (2^s / 2) / (128 * 2^s) = 1/256, which rounding
 * the midpoint to a double can just reach (at 2^52, say). */
#define MID_ERR (1.0 / (2 << XP_HIST_SUB_BITS) * (1 + 1e-12))

/* Every passing ck_assert_* records its location with a write(2) to the
 * runner.  The brute-force loops make millions of checks, so they call into
 * Check only on failure (ck_abort_msg), which keeps the run to ~1 s. */
#define CHECK(cond, ...)                          \
	do {                                      \
		if (!(cond))                      \
			ck_abort_msg(__VA_ARGS__); \
	} while (0)

#define ULL(v) ((unsigned long long)(v))

/* splitmix64: a fixed seed makes every failure reproducible. */
static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Log-uniform over the whole 64-bit range: every magnitude equally likely. */
static uint64_t rng_log(uint64_t *state)
{
	uint64_t r = rng_next(state);
	unsigned bits = (unsigned)(r % 65);

	r = rng_next(state);
	return bits == 64 ? r : r & ((UINT64_C(1) << bits) - 1);
}

static double rel_err(double got, double want)
{
	if (want == 0)
		return fabs(got);
	return fabs(got - want) / want;
}

static struct xp_hist *new_hist(void)
{
	struct xp_hist *h = xp_hist_new();

	ck_assert_ptr_nonnull(h);
	return h;
}

/* Bucket and percentile checks for one value v. */
static void check_value(struct xp_hist *h, uint64_t v)
{
	uint32_t i = xp_hist_index(v);
	uint64_t lo = xp_hist_bucket_low(i), hi = xp_hist_bucket_high(i);
	double mid = (double)lo + (double)(hi - lo) / 2, p50;

	CHECK(i < xp_hist_buckets(), "v=%llu: index %u", ULL(v), i);
	CHECK(lo <= v && v <= hi, "v=%llu outside bucket %u [%llu, %llu]",
	      ULL(v), i, ULL(lo), ULL(hi));
	CHECK(rel_err(mid, (double)v) < MID_ERR,
	      "v=%llu: bucket [%llu, %llu] too wide", ULL(v), ULL(lo), ULL(hi));

	/* Alone, v is both min and max, so the clamp makes it exact. */
	xp_hist_reset(h);
	xp_hist_add(h, v);
	CHECK(xp_hist_percentile(h, 50) == (double)v, "v=%llu: alone p50=%.17g",
	      ULL(v), xp_hist_percentile(h, 50));

	/* Between 0 and UINT64_MAX the median is v's bucket midpoint,
	 * unclamped: the header promises < 1%, the design gives 1/256. */
	xp_hist_add(h, 0);
	xp_hist_add(h, UINT64_MAX);
	p50 = xp_hist_percentile(h, 50);
	CHECK(rel_err(p50, (double)v) < 0.01 && rel_err(p50, (double)v) < MID_ERR,
	      "v=%llu: p50=%.17g", ULL(v), p50);
}

START_TEST(test_small_values_exact)
{
	uint64_t v;

	for (v = 0; v < (2u << XP_HIST_SUB_BITS); v++) {
		CHECK(xp_hist_index(v) == v, "index(%llu)", ULL(v));
		CHECK(xp_hist_bucket_low((uint32_t)v) == v &&
		      xp_hist_bucket_high((uint32_t)v) == v,
		      "bucket %llu is not exact", ULL(v));
	}
}
END_TEST

START_TEST(test_buckets_tile_range)
{
	uint32_t i, n = xp_hist_buckets();

	ck_assert_uint_eq(n, (64 - XP_HIST_SUB_BITS + 1) << XP_HIST_SUB_BITS);
	ck_assert_uint_eq(xp_hist_bucket_low(0), 0);
	ck_assert_uint_eq(xp_hist_bucket_high(n - 1), UINT64_MAX);
	ck_assert_uint_eq(xp_hist_index(UINT64_MAX), n - 1);
	for (i = 0; i < n; i++) {
		uint64_t lo = xp_hist_bucket_low(i), hi = xp_hist_bucket_high(i);

		CHECK(lo <= hi, "bucket %u: [%llu, %llu]", i, ULL(lo), ULL(hi));
		CHECK(xp_hist_index(lo) == i && xp_hist_index(hi) == i,
		      "bucket %u: bounds map elsewhere", i);
		/* Width at most 1/128 of the low bound (or exact). */
		CHECK(hi - lo <= lo >> XP_HIST_SUB_BITS, "bucket %u too wide", i);
		CHECK(i + 1 == n || xp_hist_bucket_low(i + 1) == hi + 1,
		      "gap or overlap after bucket %u", i);
	}
}
END_TEST

START_TEST(test_every_value_to_100000)
{
	struct xp_hist *h = new_hist();
	uint32_t prev = 0;
	uint64_t v;

	for (v = 0; v <= 100000; v++) {
		CHECK(xp_hist_index(v) >= prev, "index(%llu) decreased", ULL(v));
		prev = xp_hist_index(v);
		check_value(h, v);
	}
	xp_hist_free(h);
}
END_TEST

START_TEST(test_geometric_sweep)
{
	struct xp_hist *h = new_hist();
	uint32_t prev = 0;
	uint64_t v = 100000;

	/* Steps of ~0.1% up to 2^64: several values per bucket everywhere. */
	while (v < UINT64_MAX - (v >> 10) - 1) {
		CHECK(xp_hist_index(v) >= prev, "index(%llu) decreased", ULL(v));
		prev = xp_hist_index(v);
		check_value(h, v);
		v += (v >> 10) + 1;
	}
	check_value(h, UINT64_MAX);
	xp_hist_free(h);
}
END_TEST

START_TEST(test_powers_of_two_edges)
{
	struct xp_hist *h = new_hist();
	unsigned k;

	for (k = 1; k < 64; k++) {
		uint64_t p = UINT64_C(1) << k;

		check_value(h, p - 1);
		check_value(h, p);
		check_value(h, p + 1);
		ck_assert_uint_lt(xp_hist_index(p - 1), xp_hist_index(p));
	}
	xp_hist_free(h);
}
END_TEST

START_TEST(test_random_sweep)
{
	struct xp_hist *h = new_hist();
	uint64_t seed = 42;
	int k;

	for (k = 0; k < 20000; k++) {
		uint64_t a = rng_log(&seed), b = rng_log(&seed);

		if (a > b) {
			uint64_t t = a;

			a = b;
			b = t;
		}
		CHECK(xp_hist_index(a) <= xp_hist_index(b),
		      "index(%llu) > index(%llu)", ULL(a), ULL(b));
		check_value(h, a);
	}
	xp_hist_free(h);
}
END_TEST

START_TEST(test_empty)
{
	struct xp_hist *h = new_hist();
	uint32_t i;

	ck_assert_uint_eq(xp_hist_count(h), 0);
	ck_assert_uint_eq(xp_hist_min(h), 0);
	ck_assert_uint_eq(xp_hist_max(h), 0);
	ck_assert_double_eq(xp_hist_mean(h), 0);
	ck_assert_double_eq(xp_hist_stddev(h), 0);
	ck_assert_double_eq(xp_hist_percentile(h, 0), 0);
	ck_assert_double_eq(xp_hist_percentile(h, 50), 0);
	ck_assert_double_eq(xp_hist_percentile(h, 100), 0);
	for (i = 0; i < xp_hist_buckets(); i++)
		CHECK(xp_hist_bucket_count(h, i) == 0, "bucket %u not empty", i);

	/* reset really empties, and min forgets what it saw */
	xp_hist_add(h, 5);
	xp_hist_add(h, 7000);
	xp_hist_reset(h);
	ck_assert_uint_eq(xp_hist_count(h), 0);
	ck_assert_uint_eq(xp_hist_max(h), 0);
	ck_assert_uint_eq(xp_hist_bucket_count(h, 5), 0);
	xp_hist_add(h, 900);
	ck_assert_uint_eq(xp_hist_min(h), 900);
	ck_assert_uint_eq(xp_hist_max(h), 900);
	xp_hist_free(h);
	xp_hist_free(NULL);
}
END_TEST

static const double known_ps[] = { 50, 90, 99, 99.9 };

/* Values 1..1,000,000 us in ns: the k-th smallest is k * 1000. */
START_TEST(test_percentiles_uniform)
{
	struct xp_hist *h = new_hist();
	uint64_t i, n = 1000000;
	unsigned k;

	for (i = 1; i <= n; i++)
		xp_hist_add(h, i * 1000);
	ck_assert_uint_eq(xp_hist_count(h), n);
	ck_assert_uint_eq(xp_hist_min(h), 1000);
	ck_assert_uint_eq(xp_hist_max(h), n * 1000);
	for (k = 0; k < sizeof(known_ps) / sizeof(known_ps[0]); k++) {
		double p = known_ps[k];
		double exact = ceil(p * (double)n / 100) * 1000;
		double got = xp_hist_percentile(h, p);

		ck_assert_msg(rel_err(got, exact) < 0.01, "p%g: %.17g vs %.17g",
			      p, got, exact);
	}
	ck_assert_double_eq(xp_hist_percentile(h, 100), 1e9);
	ck_assert_double_eq(xp_hist_percentile(h, 0), 1000);
	ck_assert_double_eq(xp_hist_percentile(h, -3), 1000);
	ck_assert_double_eq(xp_hist_percentile(h, 250), 1e9);
	ck_assert_double_eq(xp_hist_percentile(h, NAN), 1000);
	ck_assert_double_eq(xp_hist_mean(h), 500000.5 * 1000);
	xp_hist_free(h);
}
END_TEST

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Heavy-tailed random data against exact order statistics from a sort. */
START_TEST(test_percentiles_random)
{
	static const double ps[] = { 0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99 };
	struct xp_hist *h = new_hist();
	uint64_t seed = 7, *vals;
	size_t i, n = 200000;

	vals = malloc(n * sizeof(*vals));
	ck_assert_ptr_nonnull(vals);
	for (i = 0; i < n; i++) {
		vals[i] = 1000 + (rng_log(&seed) >> 20); /* up to ~2^44 ns */
		xp_hist_add(h, vals[i]);
	}
	qsort(vals, n, sizeof(*vals), cmp_u64);
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		size_t rank = (size_t)ceil(ps[i] * (double)n / 100);
		double exact = (double)vals[rank - 1];
		double got = xp_hist_percentile(h, ps[i]);

		ck_assert_msg(rel_err(got, exact) < 0.01, "p%g: %.17g vs %.17g",
			      ps[i], got, exact);
	}
	ck_assert_uint_eq(xp_hist_min(h), vals[0]);
	ck_assert_uint_eq(xp_hist_max(h), vals[n - 1]);
	free(vals);
	xp_hist_free(h);
}
END_TEST

/* Two values far apart: each percentile must pick the right one. */
START_TEST(test_percentile_rank)
{
	struct xp_hist *h = new_hist();

	xp_hist_add_n(h, 10, 9);
	xp_hist_add(h, 1000000);
	/* rank ceil(0.9 * 10) = 9 is still 10; rank 10 is the outlier */
	ck_assert_double_eq(xp_hist_percentile(h, 90), 10);
	ck_assert(rel_err(xp_hist_percentile(h, 90.01), 1e6) < MID_ERR);
	ck_assert_double_eq(xp_hist_percentile(h, 1e-9), 10);
	xp_hist_free(h);
}
END_TEST

static void assert_same(const struct xp_hist *a, const struct xp_hist *b)
{
	uint32_t i;

	ck_assert_uint_eq(xp_hist_count(a), xp_hist_count(b));
	ck_assert_uint_eq(xp_hist_min(a), xp_hist_min(b));
	ck_assert_uint_eq(xp_hist_max(a), xp_hist_max(b));
	ck_assert_double_eq(xp_hist_mean(a), xp_hist_mean(b));
	ck_assert_double_eq(xp_hist_stddev(a), xp_hist_stddev(b));
	ck_assert_double_eq(xp_hist_percentile(a, 99), xp_hist_percentile(b, 99));
	for (i = 0; i < xp_hist_buckets(); i++)
		CHECK(xp_hist_bucket_count(a, i) == xp_hist_bucket_count(b, i),
		      "bucket %u: %llu vs %llu", i,
		      ULL(xp_hist_bucket_count(a, i)),
		      ULL(xp_hist_bucket_count(b, i)));
}

START_TEST(test_merge)
{
	struct xp_hist *a = new_hist(), *b = new_hist(), *all = new_hist();
	struct xp_hist *empty = new_hist();
	uint64_t seed = 1234, v;
	int k;

	xp_hist_add(b, 3);
	xp_hist_add(all, 3);
	for (k = 0; k < 50000; k++) {
		v = 500 + (rng_log(&seed) >> 16);
		xp_hist_add(k % 3 ? a : b, v);
		xp_hist_add(all, v);
	}
	ck_assert_uint_ne(xp_hist_min(a), xp_hist_min(b));
	/* merging an empty histogram changes nothing (min must not drop
	 * to 0), and merging into an empty one copies */
	xp_hist_merge(a, empty);
	xp_hist_merge(empty, b);
	assert_same(empty, b);
	xp_hist_merge(a, b);
	assert_same(a, all);
	xp_hist_free(a);
	xp_hist_free(b);
	xp_hist_free(all);
	xp_hist_free(empty);
}
END_TEST

START_TEST(test_add_n)
{
	static const uint64_t vs[] = { 0, 1, 127, 128, 12345, 1ull << 40,
				       UINT64_MAX };
	static const uint64_t ns[] = { 1, 2, 3, 1000 };
	struct xp_hist *a = new_hist(), *b = new_hist();
	unsigned i, k;
	uint64_t m;

	for (i = 0; i < sizeof(vs) / sizeof(vs[0]); i++) {
		for (k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
			xp_hist_add_n(a, vs[i], ns[k]);
			for (m = 0; m < ns[k]; m++)
				xp_hist_add(b, vs[i]);
			assert_same(a, b);
		}
	}
	/* n == 0 records nothing, not even a new min or max */
	xp_hist_reset(a);
	xp_hist_add(a, 50);
	xp_hist_add_n(a, 1, 0);
	xp_hist_add_n(a, 99999, 0);
	ck_assert_uint_eq(xp_hist_count(a), 1);
	ck_assert_uint_eq(xp_hist_min(a), 50);
	ck_assert_uint_eq(xp_hist_max(a), 50);
	xp_hist_free(a);
	xp_hist_free(b);
}
END_TEST

START_TEST(test_mean_stddev)
{
	static const uint64_t vs[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct xp_hist *h = new_hist();
	uint64_t seed = 99, v[1000];
	double sum = 0, dev = 0, mean;
	unsigned i;

	for (i = 0; i < 8; i++)
		xp_hist_add(h, vs[i]);
	ck_assert_double_eq(xp_hist_mean(h), 5);
	ck_assert_double_eq(xp_hist_stddev(h), 2);

	xp_hist_reset(h);
	for (i = 0; i < 1000; i++) {
		v[i] = rng_next(&seed) % 10000000;
		xp_hist_add(h, v[i]);
		sum += (double)v[i];
	}
	mean = sum / 1000;
	for (i = 0; i < 1000; i++)
		dev += ((double)v[i] - mean) * ((double)v[i] - mean);
	ck_assert_double_eq_tol(xp_hist_mean(h), mean, mean * 1e-12);
	ck_assert_double_eq_tol(xp_hist_stddev(h), sqrt(dev / 1000),
				sqrt(dev / 1000) * 1e-9);
	xp_hist_free(h);
}
END_TEST

/* A large mean with a tiny spread: sum-of-squares minus squared mean in
 * floating point would lose every digit here. */
START_TEST(test_stddev_no_cancellation)
{
	struct xp_hist *h = new_hist();
	uint64_t base = UINT64_C(1) << 62;

	xp_hist_add(h, base);
	xp_hist_add(h, base + 1);
	xp_hist_add(h, base + 2);
	ck_assert_double_eq_tol(xp_hist_stddev(h), sqrt(2.0 / 3), 1e-12);

	xp_hist_reset(h);
	xp_hist_add_n(h, UINT64_MAX, 1000000);
	ck_assert_double_eq(xp_hist_stddev(h), 0);
	ck_assert_double_eq(xp_hist_mean(h), (double)UINT64_MAX);
	xp_hist_add_n(h, UINT64_MAX - 2, 1000000);
	ck_assert_double_eq_tol(xp_hist_stddev(h), 1, 1e-12);
	xp_hist_free(h);
}
END_TEST

/* Interval reports: (first + second) - first == second, bucket by bucket. */
START_TEST(test_diff)
{
	struct xp_hist *a = xp_hist_new(), *b = xp_hist_new(), *both = xp_hist_new();
	struct xp_hist *d = xp_hist_new();
	uint64_t v;
	uint32_t i;

	for (v = 1000; v < 200000; v += 997)
		xp_hist_add(a, v);
	for (v = 5000; v < 90000; v += 331)
		xp_hist_add(b, v * 3);
	xp_hist_merge(both, a);
	xp_hist_merge(both, b);
	xp_hist_diff(d, both, a);
	ck_assert_uint_eq(xp_hist_count(d), xp_hist_count(b));
	for (i = 0; i < xp_hist_buckets(); i++)
		ck_assert_uint_eq(xp_hist_bucket_count(d, i), xp_hist_bucket_count(b, i));
	ck_assert_double_eq_tol(xp_hist_mean(d), xp_hist_mean(b), 1e-9 * xp_hist_mean(b));
	ck_assert_double_eq_tol(xp_hist_stddev(d), xp_hist_stddev(b), 1e-6 * xp_hist_stddev(b));
	ck_assert_double_eq_tol(xp_hist_percentile(d, 99), xp_hist_percentile(b, 99),
				0.01 * xp_hist_percentile(b, 99));
	ck_assert_uint_le(xp_hist_min(d), xp_hist_min(b));
	ck_assert_uint_ge(xp_hist_max(d), xp_hist_max(b));
	xp_hist_diff(d, a, a);
	ck_assert_uint_eq(xp_hist_count(d), 0);
	ck_assert_uint_eq(xp_hist_min(d), 0);
	xp_hist_copy(d, both);
	ck_assert_uint_eq(xp_hist_count(d), xp_hist_count(both));
	ck_assert_uint_eq(xp_hist_max(d), xp_hist_max(both));
	xp_hist_free(a);
	xp_hist_free(b);
	xp_hist_free(both);
	xp_hist_free(d);
}
END_TEST

START_TEST(test_bucket_count_export)
{
	struct xp_hist *h = new_hist();
	uint64_t total = 0;
	uint32_t i;

	xp_hist_add_n(h, 3, 4);
	xp_hist_add(h, 1000);
	xp_hist_add(h, 1001);
	ck_assert_uint_eq(xp_hist_bucket_count(h, 3), 4);
	ck_assert_uint_eq(xp_hist_bucket_count(h, xp_hist_index(1000)), 2);
	ck_assert_uint_eq(xp_hist_bucket_count(h, xp_hist_buckets()), 0);
	for (i = 0; i < xp_hist_buckets(); i++)
		total += xp_hist_bucket_count(h, i);
	ck_assert_uint_eq(total, xp_hist_count(h));
	xp_hist_free(h);
}
END_TEST

/* Per-interval sums of growing histograms: what each worker added since
 * its last reading, and all of a histogram cleared in between. */
START_TEST(test_hist_iv)
{
	struct xp_hist_iv *v = xp_hist_iv_new(2);
	struct xp_hist *a = xp_hist_new(), *b = xp_hist_new();
	const struct xp_hist *s;

	ck_assert_ptr_nonnull(v);
	xp_hist_add(a, 100);
	xp_hist_add(a, 200);
	xp_hist_add(b, 5000);
	xp_hist_iv_begin(v);
	xp_hist_iv_add(v, 0, a);
	xp_hist_iv_add(v, 1, b);
	xp_hist_iv_add(v, 2, b); /* no such worker: nothing */
	xp_hist_iv_add(v, 0, NULL);
	s = xp_hist_iv_sum(v);
	ck_assert_uint_eq(xp_hist_count(s), 3);
	ck_assert_uint_eq(xp_hist_max(s) >= 5000 && xp_hist_max(s) <= 5040, 1);
	/* the next interval: only the new values */
	xp_hist_add(a, 300);
	xp_hist_iv_begin(v);
	xp_hist_iv_add(v, 0, a);
	xp_hist_iv_add(v, 1, b);
	s = xp_hist_iv_sum(v);
	ck_assert_uint_eq(xp_hist_count(s), 1);
	ck_assert_uint_eq(xp_hist_min(s), 300);
	/* worker 0 cleared (its warm-up ended) and refilled past its old
	 * count: all it holds is new, nothing wraps */
	xp_hist_reset(a);
	xp_hist_add(a, 7);
	xp_hist_add(a, 8);
	xp_hist_add(a, 9);
	xp_hist_add(a, 10);
	xp_hist_iv_begin(v);
	xp_hist_iv_add(v, 0, a);
	s = xp_hist_iv_sum(v);
	ck_assert_uint_eq(xp_hist_count(s), 4);
	ck_assert_uint_eq(xp_hist_max(s), 10);
	/* rebase: every reading restarts from empty */
	xp_hist_iv_rebase(v);
	xp_hist_iv_begin(v);
	xp_hist_iv_add(v, 1, b);
	ck_assert_uint_eq(xp_hist_count(xp_hist_iv_sum(v)), 1);
	xp_hist_iv_free(v);
	xp_hist_iv_free(NULL);
	xp_hist_free(a);
	xp_hist_free(b);
}
END_TEST

static Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_small_values_exact);
	tcase_add_test(tc, test_buckets_tile_range);
	tcase_add_test(tc, test_every_value_to_100000);
	tcase_add_test(tc, test_geometric_sweep);
	tcase_add_test(tc, test_powers_of_two_edges);
	tcase_add_test(tc, test_random_sweep);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_percentiles_uniform);
	tcase_add_test(tc, test_percentiles_random);
	tcase_add_test(tc, test_percentile_rank);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_add_n);
	tcase_add_test(tc, test_mean_stddev);
	tcase_add_test(tc, test_stddev_no_cancellation);
	tcase_add_test(tc, test_bucket_count_export);
	tcase_add_test(tc, test_diff);
	tcase_add_test(tc, test_hist_iv);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(hist_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
