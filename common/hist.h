/* SPDX-License-Identifier: BSD-2-Clause */
/* Log-linear latency histogram with bounded relative error.
 *
 * Values (nanoseconds, uint64_t) below 2^XP_HIST_SUB_BITS are stored
 * exactly; above, each power of two is split into 2^XP_HIST_SUB_BITS
 * equal sub-buckets, so a bucket's width is at most 1/128 of its lower
 * bound (relative error < 0.8% when a value is reported as its bucket's
 * midpoint).  Memory is fixed (~58 KiB) whatever the range, so one
 * histogram per worker is cheap; histograms merge by adding counts.
 * Min, max, count, mean and stddev are kept exactly alongside. */
#ifndef XP_HIST_H
#define XP_HIST_H

#include <stdint.h>

#define XP_HIST_SUB_BITS 7

struct xp_hist;

struct xp_hist *xp_hist_new(void);
void xp_hist_free(struct xp_hist *h);
void xp_hist_reset(struct xp_hist *h);

/* Record one value; O(1), no allocation, no branches on the common path
 * beyond the exact/log-linear split. */
void xp_hist_add(struct xp_hist *h, uint64_t v);
/* Record one value n times. */
void xp_hist_add_n(struct xp_hist *h, uint64_t v, uint64_t n);
/* dst = src. */
void xp_hist_copy(struct xp_hist *dst, const struct xp_hist *src);
/* out = now - before, where now holds everything before held and more
 * (interval reports).  Counts, mean and stddev are exact; min and max
 * become the bounds of the lowest and highest non-empty bucket. */
void xp_hist_diff(struct xp_hist *out, const struct xp_hist *now,
		  const struct xp_hist *before);
/* dst += src (counts, min, max, sums). */
void xp_hist_merge(struct xp_hist *dst, const struct xp_hist *src);

uint64_t xp_hist_count(const struct xp_hist *h);
uint64_t xp_hist_min(const struct xp_hist *h);  /* 0 if empty */
uint64_t xp_hist_max(const struct xp_hist *h);  /* 0 if empty */
double xp_hist_mean(const struct xp_hist *h);   /* 0 if empty */
double xp_hist_stddev(const struct xp_hist *h); /* population; 0 if empty */

/* Value at percentile p (0 < p <= 100): the midpoint of the bucket that
 * holds the ceil(p/100*count)-th smallest value, clamped to [min, max];
 * 0 if empty.  Relative error vs the exact order statistic < 1%. */
double xp_hist_percentile(const struct xp_hist *h, double p);

/* Bucket iteration for export: index i in [0, xp_hist_buckets()). */
uint32_t xp_hist_buckets(void);
uint64_t xp_hist_bucket_count(const struct xp_hist *h, uint32_t i);
uint64_t xp_hist_bucket_low(uint32_t i);  /* inclusive */
uint64_t xp_hist_bucket_high(uint32_t i); /* inclusive */
uint32_t xp_hist_index(uint64_t v);

/* The exact moments behind min/max/mean/stddev, for lossless export
 * (common/hist_codec.c).  Words are little-endian: sum = sum[0] +
 * 2^64 sum[1], sumsq likewise over 192 bits.  An empty histogram has
 * min UINT64_MAX and max 0. */
struct xp_hist_sums {
	uint64_t min, max;
	uint64_t sum[2];
	uint64_t sumsq[3];
};
void xp_hist_get_sums(const struct xp_hist *h, struct xp_hist_sums *s);
/* Overwrite min, max and the sums, leaving the bucket counts and count:
 * for a decoder that rebuilt the buckets with xp_hist_add_n().  The
 * caller keeps them consistent with the buckets. */
void xp_hist_set_sums(struct xp_hist *h, const struct xp_hist_sums *s);

#endif
