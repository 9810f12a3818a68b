/* SPDX-License-Identifier: BSD-2-Clause */
/* Monotonic time in nanoseconds: the only clock the hot paths read. */
#ifndef XP_CLOCK_H
#define XP_CLOCK_H

#include <stdint.h>
#include <time.h>

#define XP_NS_PER_SEC 1000000000ull
#define XP_NS_PER_MS 1000000ull

static inline uint64_t xp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * XP_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* Wall-clock time in nanoseconds since the epoch: only to compare the
 * start times of several hosts, never for durations. */
static inline uint64_t xp_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * XP_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

#endif
