/* SPDX-License-Identifier: BSD-2-Clause */
/* The delay line's decisions for one direction, as pure arithmetic: a
 * seeded generator draws, for every frame, whether it is lost,
 * duplicated, sent ahead (reordered) and its jitter, always four draws in
 * that order so that the n-th frame's fate depends only on the seed and
 * n; then its release time follows from the clocks:
 *
 *   serialized  = max(arrival, link free) + wire bytes * 8 / rate
 *                 (the rate's serialization clock; = arrival without one)
 *   release     = serialized + delay + jitter  (jitter uniform in
 *                 [-jitter, +jitter], never before serialized), and never
 *                 before the previous delayed frame's release: jitter alone
 *                 does not reorder
 *   sent ahead  = serialized (--reorder: no delay, as netem's reorder
 *                 sends the chosen packet at once)
 *
 * A lost frame is dropped before the rate (it takes no serialization
 * time, as in netem); a duplicate follows its original, serialized after
 * it. */
#ifndef XP_WAN_SCHED_H
#define XP_WAN_SCHED_H

#include <stdint.h>

#include "lab/wan/impair.h"

/* splitmix64: tiny, seedable, good enough for Bernoulli draws. */
struct xp_wan_rng {
	uint64_t s;
};

void xp_wan_rng_seed(struct xp_wan_rng *r, uint64_t seed, unsigned stream);
uint64_t xp_wan_rng_next(struct xp_wan_rng *r);

struct xp_wan_draws {
	int lost, dup, ahead;
	int64_t jitter_ns; /* in [-jitter, +jitter] */
};

struct xp_wan_sched {
	const struct xp_wan_dir *cfg;
	struct xp_wan_rng rng;
	uint64_t link_free_ns;   /* rate: when the serializer is free again */
	uint64_t last_delayed_ns; /* release of the newest delayed frame */
	uint64_t last_ahead_ns;   /* release of the newest frame sent ahead */
};

struct xp_wan_when {
	uint64_t release_ns;
	uint64_t dup_release_ns; /* draws.dup: the copy's */
	int overtakes;           /* sent ahead of at least one delayed frame */
};

void xp_wan_sched_init(struct xp_wan_sched *s, const struct xp_wan_dir *cfg,
		       uint64_t seed, unsigned dir);
/* The four draws of the next frame. */
void xp_wan_draw(struct xp_wan_sched *s, struct xp_wan_draws *d);
/* Release times of a frame that is kept (not lost, and within the queue
 * limit), advancing the clocks.  delayed_pending: delayed frames not yet
 * released (a frame sent ahead overtakes them only if some exist). */
void xp_wan_when(struct xp_wan_sched *s, const struct xp_wan_draws *d, uint64_t now_ns,
		 uint32_t wire_bytes, int delayed_pending, struct xp_wan_when *w);
/* Serialization time of bytes at rate_bps, in ns (0 without a rate). */
uint64_t xp_wan_tx_ns(uint64_t bytes, uint64_t rate_bps);

#endif
