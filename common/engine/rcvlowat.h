/* SPDX-License-Identifier: BSD-2-Clause */
/* A TCP stream receiver's SO_RCVLOWAT (--rcvlowat): fixed by the user, or
 * (0, auto) chosen at run time from what the flow's first reads show. */
#ifndef XP_RCVLOWAT_H
#define XP_RCVLOWAT_H

#include <stdint.h>

#include "common/engine/worker.h"

/* Per flow, zeroed at the start. */
struct xp_lowat {
	uint8_t phase;    /* reads sampled for SO_INCOMING_CPU, up to the limit */
	uint8_t cross;    /* one of them was processed on another CPU */
	uint8_t slot;     /* the probe: the slot now timed (1-based); 0: none */
	uint64_t t0, b0;  /* that slot's start: time and the flow's bytes */
	uint32_t mark[2];         /* the probe's two marks (1: none) ... */
	uint64_t ns[2], bytes[2]; /* ... and their slots' time and bytes */
};

/* --rcvlowat SIZE: set once, when the flow starts. */
void xp_lowat_fixed(struct xp_flow *f);
/* Auto: called before each read (or batch of reads) of a receiving flow. */
void xp_lowat_step(struct xp_flow *f, struct xp_lowat *l);
/* The probe's verdict: 1 when the slots with the second mark moved at
 * least 5% more bytes per second than those with the first.  Pure. */
int xp_lowat_keep(const uint64_t bytes[2], const uint64_t ns[2]);

#endif
