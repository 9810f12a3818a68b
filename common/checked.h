/* SPDX-License-Identifier: BSD-2-Clause */
/* Arithmetic on values a peer sent: every product or sum of wire u64s is
 * computed with overflow detection, so a hostile SETUP cannot wrap a
 * duration or a buffer size into something small (duration_ms =
 * 27356521461311266 times 10^6 wraps to 953472 ns, under a millisecond).
 *
 * The plain helpers return 0, or -1 on overflow leaving *out unchanged.
 * The _checked ones also fill err naming the field, its value and the
 * bound: "duration_ms 27356521461311266: more than 18446744073709 ms
 * does not fit in 64-bit nanoseconds". */
#ifndef XP_CHECKED_H
#define XP_CHECKED_H

#include <stdint.h>

#include "common/err.h"

static inline int xp_u64_add(uint64_t a, uint64_t b, uint64_t *out)
{
	uint64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return -1;
	*out = r;
	return 0;
}

static inline int xp_u64_mul(uint64_t a, uint64_t b, uint64_t *out)
{
	uint64_t r;

	if (__builtin_mul_overflow(a, b, &r))
		return -1;
	*out = r;
	return 0;
}

/* *out = a + b, or -1: "FIELD A + B overflows 64 bits". */
int xp_u64_add_checked(uint64_t a, uint64_t b, const char *field,
		       uint64_t *out, struct xp_err *err);

/* *out = a * b, or -1: "FIELD A * B overflows 64 bits". */
int xp_u64_mul_checked(uint64_t a, uint64_t b, const char *field,
		       uint64_t *out, struct xp_err *err);

/* Milliseconds / microseconds from the wire to nanoseconds; -1 names the
 * field, the value and the largest value that converts. */
int xp_ms_to_ns_checked(uint64_t ms, const char *field, uint64_t *ns,
			struct xp_err *err);
int xp_us_to_ns_checked(uint64_t us, const char *field, uint64_t *ns,
			struct xp_err *err);

/* 0 if lo <= v <= hi, else -1: "FIELD V: out of range [LO, HI]". */
int xp_check_range(uint64_t v, uint64_t lo, uint64_t hi, const char *field,
		   struct xp_err *err);

#endif
