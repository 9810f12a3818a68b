/* SPDX-License-Identifier: BSD-2-Clause */
/* Lossless, versioned text encoding of a latency histogram (common/hist.h),
 * small enough to ride in a JSON result as one string, so that results
 * from several runs or hosts can be merged exactly (`xperf merge`):
 * decode each, xp_hist_merge() them, and every bucket, the count, min,
 * max, mean and stddev are those of the histogram of all samples.
 *
 * Text: "xph1:7:ns:" followed by the payload in base64url (RFC 4648
 * section 5, A-Z a-z 0-9 - _, no padding), so it needs no JSON escaping:
 *   xph1   format and version (a reader refuses other versions)
 *   7      sub-bucket bits of the layout (XP_HIST_SUB_BITS): a histogram
 *          with another layout is refused, not misread
 *   ns     unit of the values
 * Payload bytes, every integer an unsigned LEB128 varint (7 bits a byte,
 * low group first, high bit set on all but the last byte; at most 10
 * bytes; no superfluous zero bytes):
 *   count
 *   if count > 0: min, max - min, sum word 0, sum word 1,
 *                 sumsq words 0, 1, 2    (the exact moments, hist.h)
 *   n = number of non-empty buckets
 *   n times: gap, bucket count   (gap = bucket index - previous non-empty
 *                                 index - 1; the first: its index)
 *   FNV-1a 32-bit hash of all the bytes above, big-endian (4 bytes)
 * A decoder checks everything: characters, varints, indexes within the
 * layout, no empty bucket listed, counts adding up to count, min and max
 * within the first and last non-empty buckets, the hash, no trailing data.
 *
 * Size: about 3 characters per non-empty bucket.  Round trips of a 5 s
 * loopback TCP ping-pong (117k samples, p50 18 us, max 200 ms) filled 842
 * buckets: 2344 characters, 2385 with the counts doubled (a 10 s run); the
 * synthetic 10 s TCP_RR in tests/check_hist_codec.c gives 2334.  The worst
 * case, every bucket used with 64-bit counts, is xp_hist_encoded_max(). */
#ifndef XP_HIST_CODEC_H
#define XP_HIST_CODEC_H

#include <stddef.h>

#include "common/err.h"
#include "common/hist.h"

#define XP_HIST_CODEC_VERSION 1

/* Encode h into buf[size] as a NUL-terminated string; returns its length
 * (without the NUL) like snprintf.  When that is >= size nothing usable
 * is written (buf gets "" if size > 0): call with NULL, 0 to learn the
 * size, or use xp_hist_encoded_max(). */
size_t xp_hist_encode(const struct xp_hist *h, char *buf, size_t size);

/* Buffer size (NUL included) enough for any histogram of this layout. */
size_t xp_hist_encoded_max(void);

/* Decode text[0, len) into h, replacing its contents.  Returns 0, or -1
 * with err naming what is wrong (other version or layout, bad character at
 * which offset, bucket index out of range, hash mismatch, ...), in which
 * case h is left untouched. */
int xp_hist_decode(struct xp_hist *h, const char *text, size_t len,
		   struct xp_err *err);

#endif
