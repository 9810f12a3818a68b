/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/hist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SUB_COUNT (1u << XP_HIST_SUB_BITS)
/* index(v) = (shift << SUB_BITS) + (v >> shift), where shift is
 * msb(v) - SUB_BITS (0 for small v) and v >> shift lies in [0, 2*SUB_COUNT).
 * The largest, UINT64_MAX, gives ((63 - SUB_BITS) << SUB_BITS) + 2*SUB_COUNT
 * - 1: 7424 buckets of 8 bytes for SUB_BITS = 7. */
#define NBUCKETS ((64 - XP_HIST_SUB_BITS + 1) << XP_HIST_SUB_BITS)

/* Sum of squares needs up to 192 bits (2^64 values of up to 128 bits each).
 * Keeping it exact in integers, rather than accumulating in floating point,
 * means the stddev of values with a large mean and a tiny spread does not
 * drown in rounding error however many samples there are. */
struct u192 {
	unsigned __int128 lo;
	uint64_t hi;
};

struct xp_hist {
	uint64_t count;
	uint64_t min; /* UINT64_MAX while empty, so add needs no branch on it */
	uint64_t max;
	unsigned __int128 sum;
	struct u192 sumsq;
	uint64_t counts[NBUCKETS];
};

static inline uint32_t hist_index(uint64_t v)
{
	/* OR-ing in 2^SUB_BITS makes values below it take shift 0 (stored
	 * exactly, index == v) and keeps clz defined for v == 0. */
	uint32_t msb = 63 - (uint32_t)__builtin_clzll(v | SUB_COUNT);
	uint32_t shift = msb - XP_HIST_SUB_BITS;

	return (shift << XP_HIST_SUB_BITS) + (uint32_t)(v >> shift);
}

static inline void u192_add128(struct u192 *a, unsigned __int128 b)
{
	a->lo += b;
	a->hi += a->lo < b;
}

static void u192_add(struct u192 *a, const struct u192 *b)
{
	u192_add128(a, b->lo);
	a->hi += b->hi;
}

static struct u192 u192_sub(struct u192 a, struct u192 b)
{
	struct u192 r;

	r.lo = a.lo - b.lo;
	r.hi = a.hi - b.hi - (a.lo < b.lo);
	return r;
}

/* a * b for a < 2^128, b < 2^64 (the product always fits in 192 bits). */
static struct u192 u192_mul(unsigned __int128 a, uint64_t b)
{
	unsigned __int128 p0 = (unsigned __int128)(uint64_t)a * b;
	unsigned __int128 p1 = (unsigned __int128)(uint64_t)(a >> 64) * b;
	struct u192 r = { p0, (uint64_t)(p1 >> 64) };

	u192_add128(&r, p1 << 64);
	return r;
}

static long double u192_ld(struct u192 a)
{
	return ldexpl((long double)a.hi, 128) + (long double)a.lo;
}

struct xp_hist *xp_hist_new(void)
{
	struct xp_hist *h = calloc(1, sizeof(*h));

	if (h)
		h->min = UINT64_MAX;
	return h;
}

void xp_hist_free(struct xp_hist *h)
{
	free(h);
}

void xp_hist_reset(struct xp_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void xp_hist_add(struct xp_hist *h, uint64_t v)
{
	h->counts[hist_index(v)]++;
	h->count++;
	h->min = v < h->min ? v : h->min;
	h->max = v > h->max ? v : h->max;
	h->sum += v;
	u192_add128(&h->sumsq, (unsigned __int128)v * v);
}

void xp_hist_add_n(struct xp_hist *h, uint64_t v, uint64_t n)
{
	struct u192 sq;

	/* n == 0 must not touch min/max. */
	if (!n)
		return;
	h->counts[hist_index(v)] += n;
	h->count += n;
	h->min = v < h->min ? v : h->min;
	h->max = v > h->max ? v : h->max;
	h->sum += (unsigned __int128)v * n;
	sq = u192_mul((unsigned __int128)v * v, n);
	u192_add(&h->sumsq, &sq);
}

void xp_hist_merge(struct xp_hist *dst, const struct xp_hist *src)
{
	uint32_t i;

	for (i = 0; i < NBUCKETS; i++)
		dst->counts[i] += src->counts[i];
	dst->count += src->count;
	/* An empty src has min UINT64_MAX and max 0: both are neutral. */
	dst->min = src->min < dst->min ? src->min : dst->min;
	dst->max = src->max > dst->max ? src->max : dst->max;
	dst->sum += src->sum;
	u192_add(&dst->sumsq, &src->sumsq);
}

uint64_t xp_hist_count(const struct xp_hist *h)
{
	return h->count;
}

uint64_t xp_hist_min(const struct xp_hist *h)
{
	return h->count ? h->min : 0;
}

uint64_t xp_hist_max(const struct xp_hist *h)
{
	return h->count ? h->max : 0;
}

double xp_hist_mean(const struct xp_hist *h)
{
	if (!h->count)
		return 0;
	return (double)((long double)h->sum / h->count);
}

/* Variance without cancellation: with sum = n*q + r (integer division),
 * sum((x - q)^2) = sumsq - n*q^2 - 2*q*r exactly in integers, and
 * var = sum((x - q)^2)/n - (r/n)^2, where the subtracted term is < 1. */
double xp_hist_stddev(const struct xp_hist *h)
{
	uint64_t n = h->count, q, r;
	struct u192 dev;
	long double var, frac;

	if (!n)
		return 0;
	q = (uint64_t)(h->sum / n);
	r = (uint64_t)(h->sum % n);
	dev = u192_sub(h->sumsq, u192_mul((unsigned __int128)q * q, n));
	dev = u192_sub(dev, u192_mul((unsigned __int128)q * 2, r));
	frac = (long double)r / n;
	var = u192_ld(dev) / n - frac * frac;
	return var > 0 ? (double)sqrtl(var) : 0;
}

static double bucket_mid(uint32_t i)
{
	uint64_t lo = xp_hist_bucket_low(i), hi = xp_hist_bucket_high(i);

	return (double)lo + (double)(hi - lo) / 2;
}

double xp_hist_percentile(const struct xp_hist *h, double p)
{
	uint64_t rank, seen = 0;
	uint32_t i;
	double v;

	if (!h->count)
		return 0;
	if (!(p > 0)) /* also catches NaN */
		return (double)h->min;
	if (p >= 100)
		return (double)h->max;
	/* p * count / 100 rather than p / 100 * count: for integral p the
	 * product is exact, so an exact rank is not pushed up by ceil(). */
	rank = (uint64_t)ceill((long double)p * h->count / 100);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < NBUCKETS - 1; i++) {
		seen += h->counts[i];
		if (seen >= rank)
			break;
	}
	v = bucket_mid(i);
	if (v < (double)h->min)
		return (double)h->min;
	if (v > (double)h->max)
		return (double)h->max;
	return v;
}

uint32_t xp_hist_buckets(void)
{
	return NBUCKETS;
}

uint64_t xp_hist_bucket_count(const struct xp_hist *h, uint32_t i)
{
	return i < NBUCKETS ? h->counts[i] : 0;
}

uint64_t xp_hist_bucket_low(uint32_t i)
{
	uint32_t shift;

	if (i < SUB_COUNT)
		return i;
	if (i >= NBUCKETS)
		return UINT64_MAX;
	/* Inverse of hist_index(): i = (shift << SUB_BITS) + mantissa with
	 * mantissa in [SUB_COUNT, 2 * SUB_COUNT). */
	shift = (i >> XP_HIST_SUB_BITS) - 1;
	return (uint64_t)((i & (SUB_COUNT - 1)) | SUB_COUNT) << shift;
}

uint64_t xp_hist_bucket_high(uint32_t i)
{
	uint32_t shift;

	if (i < 2 * SUB_COUNT)
		return i;
	if (i >= NBUCKETS)
		return UINT64_MAX;
	shift = (i >> XP_HIST_SUB_BITS) - 1;
	return xp_hist_bucket_low(i) + ((UINT64_C(1) << shift) - 1);
}

uint32_t xp_hist_index(uint64_t v)
{
	return hist_index(v);
}

void xp_hist_copy(struct xp_hist *dst, const struct xp_hist *src)
{
	memcpy(dst, src, sizeof(*dst));
}

/* Counts and sums subtract exactly; min and max of the difference are not
 * known, so they become the bounds of its lowest and highest bucket. */
void xp_hist_diff(struct xp_hist *out, const struct xp_hist *now,
		  const struct xp_hist *before)
{
	uint32_t i, lo = NBUCKETS, hi = 0;

	for (i = 0; i < NBUCKETS; i++) {
		out->counts[i] = now->counts[i] - before->counts[i];
		if (out->counts[i]) {
			lo = i < lo ? i : lo;
			hi = i;
		}
	}
	out->count = now->count - before->count;
	out->sum = now->sum - before->sum;
	out->sumsq = u192_sub(now->sumsq, before->sumsq);
	out->min = out->count ? xp_hist_bucket_low(lo) : UINT64_MAX;
	out->max = out->count ? xp_hist_bucket_high(hi) : 0;
}

void xp_hist_get_sums(const struct xp_hist *h, struct xp_hist_sums *s)
{
	s->min = h->min;
	s->max = h->max;
	s->sum[0] = (uint64_t)h->sum;
	s->sum[1] = (uint64_t)(h->sum >> 64);
	s->sumsq[0] = (uint64_t)h->sumsq.lo;
	s->sumsq[1] = (uint64_t)(h->sumsq.lo >> 64);
	s->sumsq[2] = h->sumsq.hi;
}

void xp_hist_set_sums(struct xp_hist *h, const struct xp_hist_sums *s)
{
	h->min = s->min;
	h->max = s->max;
	h->sum = (unsigned __int128)s->sum[1] << 64 | s->sum[0];
	h->sumsq.lo = (unsigned __int128)s->sumsq[1] << 64 | s->sumsq[0];
	h->sumsq.hi = s->sumsq[2];
}
