/* SPDX-License-Identifier: BSD-2-Clause */
/* Heartbeats on a control connection while a test runs.  Each side
 * announces in SETUP / SETUP_OK how often it sends HEARTBEAT (0: never);
 * during the test it sends one that often, and a side whose peer
 * announced heartbeats gives up on a peer that has sent nothing for
 * XP_HEARTBEAT_DEAD_MS (frozen, killed without a FIN, or cut off): a
 * few seconds instead of the end of the test plus its grace period.
 * Outside the test heartbeats are ignored (xp_ctl_expect skips them). */
#ifndef XP_LIVE_H
#define XP_LIVE_H

#include <stdint.h>

#include "common/err.h"
#include "proto/msg.h"

struct xp_live {
	int fd;
	int info_fd;       /* the TCP socket under fd (TCP_INFO): fd, unless set */
	const char *peer;  /* names the peer in errors: "client 10.0.0.3:41234" */
	uint64_t every_ns; /* send a heartbeat this often; 0: never */
	uint64_t dead_ns;  /* peer silent this long: gone; 0: not checked */
	uint64_t next_tx, last_rx;
};

/* send_ms: our interval (0: send none); peer_ms: what the peer announced
 * (0: it sends none, so silence is not checked). */
void xp_live_init(struct xp_live *l, int fd, const char *peer, uint64_t send_ms,
		  uint64_t peer_ms);
/* Send a heartbeat if one is due, then check the peer's silence.  0, or
 * -1: "client 10.0.0.3:41234 silent for 5 s (no heartbeat): frozen, gone
 * or cut off". */
int xp_live_tick(struct xp_live *l, struct xp_err *err);
/* 1 if the peer is to be given up at now: silent past dead_ns, and the
 * path is clean or our own segments go unacknowledged too (a lossy path
 * that still acknowledges them gets up to six times as long). */
int xp_live_peer_dead(const struct xp_live *l, uint64_t now);
/* Milliseconds one may sleep before xp_live_tick is due again (at most
 * cap_ms, at least 1). */
int xp_live_sleep_ms(const struct xp_live *l, int cap_ms);
/* The control connection is readable: read one message.  1: m holds a
 * message other than HEARTBEAT; 0: a heartbeat (noted); -1: error. */
int xp_live_recv(struct xp_live *l, struct xp_msg *m, struct xp_err *err);
/* Wait until deadline (xp_now_ns time) for a message other than
 * HEARTBEAT, keeping the heartbeats going both ways.  0, or -1: the
 * peer's silence, a receive error, or the deadline ("no STOP within ..."
 * is for the caller: err says "deadline"). */
int xp_live_wait(struct xp_live *l, struct xp_msg *m, uint64_t deadline,
		 struct xp_err *err);

#endif
