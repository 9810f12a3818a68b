/* SPDX-License-Identifier: BSD-2-Clause */
/* One-way delays a worker records (--one-way, XP_STAMP_ONE_WAY): its
 * histograms, made at the worker's start when the run asks for them,
 * cleared with its others at the end of the warm-up, summed by whoever
 * joined the workers.  The arithmetic is in common/owd.h. */
#ifndef XP_ENGINE_OWD_H
#define XP_ENGINE_OWD_H

#include <stdint.h>

#include "common/hist.h"

/* --kernel-timestamps: a TCP_RR round trip in parts (each end's clock
 * alone), in the order a transaction passes them. */
enum xp_kts_part {
	XP_KTS_CLI_TX,  /* client: app send -> its kernel's transmit */
	XP_KTS_WIRE,    /* between the kernels: the client kernel's round trip
			 * less the server kernel's hold */
	XP_KTS_SRV_RX,  /* server: its kernel's receipt -> app read */
	XP_KTS_SRV_APP, /* server: app read -> app send */
	XP_KTS_SRV_TX,  /* server: app send -> its kernel's transmit */
	XP_KTS_CLI_RX,  /* client: its kernel's receipt -> app read */
	XP_KTS_RTT,     /* the application's round trip of those transactions */
	XP_KTS_NPARTS
};

struct xp_owd {
	struct xp_hist *fwd; /* client -> server one-way delays, ns */
	struct xp_hist *ret; /* server -> client (RR: the response's way) */
	struct xp_hist *srv; /* RR: the server's hold, its send - receive time */
	uint64_t neg;        /* delays below 0 by the offset's error, counted as 0 */
	struct xp_hist *k[XP_KTS_NPARTS]; /* --kernel-timestamps, else NULL */
	uint64_t k_missing;  /* transactions without every stamp */
	uint64_t k_hw;       /* hardware stamps the kernel gave (counted, not used) */
	char nic[16];        /* client: the device of its first flow ("": unknown) */
	int nic_hw;          /* ... offers hardware stamps: 1, not 0, unknown -1 */
};

/* kernel: with the kernel-timestamp histograms. */
struct xp_owd *xp_owd_new(int kernel);
void xp_owd_free(struct xp_owd *o);
void xp_owd_reset(struct xp_owd *o); /* NULL: nothing */
/* dst += src (src NULL: nothing). */
void xp_owd_merge(struct xp_owd *dst, const struct xp_owd *src);

struct xp_worker;
/* A UDP bulk receiver's datagram sent at tx (the peer's clock), in at rx:
 * its one-way delay, in fwd at a server and ret at a client. */
void xp_owd_udp(struct xp_worker *w, uint64_t rx, uint64_t tx);

/* An RR client's response in at t4 (its clock), its request sent at t1:
 * the forward and return delays and the server's hold from the
 * response's stamps (XP_STAMP_RSP_LEN bytes, proto/msg.h). */
void xp_owd_rr(struct xp_worker *w, const uint8_t *stamps, uint64_t t1, uint64_t t4);
/* An RR server's response about to leave: its stamps, the request in at
 * t2 (its clock) and now. */
uint64_t xp_owd_stamp(uint8_t *stamps, uint64_t t2); /* returns t3 */

/* CLOCK_REALTIME in ns: the clock one-way stamps are read from. */
uint64_t xp_owd_now(void);

#endif
