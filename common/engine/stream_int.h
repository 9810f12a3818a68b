/* SPDX-License-Identifier: BSD-2-Clause */
/* Inside common/engine/: what the plain TCP bulk engine (stream.c) shares
 * with the one that carries self probes (stream_self.c). */
#ifndef XP_STREAM_INT_H
#define XP_STREAM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "common/engine/rcvlowat.h"
#include "common/engine/worker.h"

/* A stream flow's own state; stream_self.c's begins with it. */
struct xp_stream_state {
	uint64_t zc_next;      /* MSG_ZEROCOPY: sends issued */
	struct xp_lowat lowat; /* receiver: its SO_RCVLOWAT (rcvlowat.c) */
	uint64_t early;        /* receiver: bytes readable when the warm-up ended */
};

/* A receiver: bytes per read; n bytes read, counted (those readable when
 * the warm-up ended go to it); at the end of the warm-up (side->measure). */
size_t xp_stream_rx_len(const struct xp_worker *w);
void xp_stream_rx_count(struct xp_flow *f, uint64_t n);
void xp_stream_rx_measure(struct xp_flow *f);

#endif
