/* SPDX-License-Identifier: BSD-2-Clause */
/* xperf's userspace delay line, for kernels without netem.  The lab puts
 * a middle namespace between the client's and the server's, joined to
 * each by a veth pair whose inner end has no address; one thread, which
 * entered that namespace itself (setns) and is pinned to one CPU, moves
 * every frame from one inner end to the other over AF_PACKET sockets and
 * holds it as lab/wan/sched.h decides: delayed, lost, duplicated, sent
 * ahead, shaped to a rate.  The sockets use PACKET_VNET_HDR, so a GSO
 * superframe (a 64 KiB TSO frame) crosses whole, with its checksum still
 * to be filled in, as it would cross a veth: the ends keep their
 * offloads.  Counters per direction (lab/wan/counters.def) can be read
 * at any time from another thread. */
#ifndef XP_WAN_LINE_H
#define XP_WAN_LINE_H

#include <stdint.h>

#include "common/err.h"
#include "lab/wan/impair.h"

struct xp_wan_counters {
#define XP_WAN_CTR(field, merge, help) uint64_t field;
#include "lab/wan/counters.def"
#undef XP_WAN_CTR
};

struct xp_wan_stats {
	struct xp_wan_counters d[XP_WAN_DIRS];
};

struct xp_wan_line_cfg {
	int nsfd;                       /* the middle namespace */
	char dev[XP_WAN_DIRS][16];      /* [C2S] faces the client, [S2C] the server */
	const struct xp_wan *wan;       /* must outlive the line */
	int cpu;                        /* pinned there; -1: not pinned */
};

struct xp_wan_line;

/* Start the line's thread and wait until its sockets are bound.  0, or
 * -1 with err naming what failed (setns, socket, bind ...). */
int xp_wan_line_start(struct xp_wan_line **out, const struct xp_wan_line_cfg *c,
		      struct xp_err *err);
/* Stop the thread, close its sockets, free it.  NULL is ignored. */
void xp_wan_line_stop(struct xp_wan_line *l);
/* A snapshot of the counters. */
void xp_wan_line_read(struct xp_wan_line *l, struct xp_wan_stats *s);
/* Reset the high-water marks (at a measurement's start); --cut-after
 * counts from here. */
void xp_wan_line_mark(struct xp_wan_line *l);
/* on: forward every frame at once, unimpaired (to measure the line's own
 * ceiling); off: impair again.  Counters go on counting either way. */
void xp_wan_line_bypass(struct xp_wan_line *l, int on);
/* 1 if the thread stopped on an error (err: which), else 0. */
int xp_wan_line_failed(struct xp_wan_line *l, struct xp_err *err);
/* The CPU it runs on (-1: not pinned). */
int xp_wan_line_cpu(const struct xp_wan_line *l);

/* after - before for the counts, after for the high-water marks. */
void xp_wan_stats_delta(struct xp_wan_stats *out, const struct xp_wan_stats *after,
			const struct xp_wan_stats *before);
/* out += s (high-water marks: the larger). */
void xp_wan_stats_add(struct xp_wan_stats *out, const struct xp_wan_stats *s);

#endif
