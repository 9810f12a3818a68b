/* SPDX-License-Identifier: BSD-2-Clause */
/* One direction of the delay line (lab/wan/line.c runs two): frames read
 * from one packet socket into the ring, judged (lab/wan/sched.h), and
 * sent on the other socket when due.  Counted in plain fields that only
 * the line's thread touches; the line publishes them. */
#ifndef XP_WAN_PUMP_H
#define XP_WAN_PUMP_H

#include <stdint.h>

#include "common/err.h"
#include "lab/wan/frame.h"
#include "lab/wan/impair.h"
#include "lab/wan/line.h"
#include "lab/wan/ring.h"
#include "lab/wan/sched.h"

#define XP_WAN_FRAME_MAX (XP_WAN_VNET_LEN + 65536 + 64)

struct xp_wan_pump {
	int rx, tx;                 /* packet sockets: read here, send there */
	const struct xp_wan_dir *cfg;
	struct xp_wan_ring ring;
	struct xp_wan_sched sched;
	struct xp_wan_flows flows;
	uint64_t index;             /* frames that arrived */
	int blocked;                /* the send would block: wait to write */
	struct xp_wan_counters c;
	uint8_t *scratch;           /* a frame read only to be dropped */
	uint64_t cut_at;            /* --cut-after: drop everything from then (0: never) */
};

/* A pump over sockets rx and tx.  0, or -1 (out of memory). */
int xp_wan_pump_init(struct xp_wan_pump *p, int rx, int tx, const struct xp_wan_dir *cfg,
		     uint64_t seed, unsigned dir, struct xp_err *err);
void xp_wan_pump_free(struct xp_wan_pump *p);
/* Read what is waiting (a bounded burst).  bypass: forward unimpaired.
 * Returns the frames read, or -1 with err if the socket failed. */
int xp_wan_pump_rx(struct xp_wan_pump *p, int bypass, struct xp_err *err);
/* Send what is due by now. */
void xp_wan_pump_tx(struct xp_wan_pump *p, uint64_t now_ns);
/* When the next frame is due (UINT64_MAX: none held). */
uint64_t xp_wan_pump_due(const struct xp_wan_pump *p);

#endif
