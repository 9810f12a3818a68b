/* SPDX-License-Identifier: BSD-2-Clause */
/* Send pacing: a token bucket over the flow's own clock, so the achieved
 * rate converges on the target however coarse the sleeps are, and no burst
 * exceeds the configured size. */
#ifndef XP_PACE_H
#define XP_PACE_H

#include <stdint.h>

/* SO_MAX_PACING_RATE for a payload rate in bits/s: the kernel paces whole
 * packets, headers included, so give it headroom and let the application
 * pacer hold the payload rate exactly.  0 stays 0 (no pacing). */
static inline uint64_t xp_pacing_Bps(uint64_t rate_bps)
{
	return rate_bps ? rate_bps / 8 + rate_bps / 8 / 16 : 0;
}

/* Nanoseconds that `bytes` take at rate_bps. */
static inline uint64_t xp_pace_ns(uint64_t bytes, uint64_t rate_bps)
{
	return (uint64_t)((double)bytes * 8e9 / (double)rate_bps);
}

#endif
