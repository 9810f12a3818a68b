/* SPDX-License-Identifier: BSD-2-Clause */
/* One end of an iperf3 test on xperf's engine: the server answering a
 * stock iperf3 client (server/iperf3_*.c) and the client testing against
 * a stock iperf3 server (client/iperf3/client.c) share it.
 *
 * How an iperf3 test picks its engines: not through the test table (its
 * rows are xperf's tests, with user-visible names), but through
 * run.side, which overrides the table's engine for a run.  The workers
 * still read the facts of the closest xperf test (TCP_STREAM or
 * UDP_STREAM: stream or datagram, buffer sizes, TCP_INFO at close), so
 * nothing else in the engine knows about iperf3.
 *
 * A side has up to two worker groups: one for the streams it receives,
 * one for those it sends (--bidir has both).  Each group's run is a
 * struct xp_i3_run, whose first member is the struct xp_run its workers
 * see; the engines reach the rest (the per-stream table) from it.  Flow
 * indexes are stream positions (creation order; the iperf3 id is
 * xp_i3_stream_id(pos)), the same on both ends. */
#ifndef XP_ENGINE_IPERF3_H
#define XP_ENGINE_IPERF3_H

#include <stdint.h>

#include "common/engine/group.h"
#include "common/iperf3/json.h"
#include "proto/iperf3.h"

/* One stream of this side. */
struct xp_i3_stream {
	int sender;               /* this side sends on it */
	/* Written by its worker as the flow ends, read after the join. */
	int done;
	uint64_t bytes;           /* sent or received in the measured part */
	uint64_t t_start, t_end;  /* the measured part (ns): GO or the end of
				   * --omit, to the last byte sent or received */
	uint64_t packets;         /* UDP sender: datagrams sent, --omit included */
	uint64_t omit_packets;    /* ... and in the --omit part */
	struct xp_i3_rx rx;       /* UDP receiver: iperf3's accounting */
	uint64_t omit_max, omit_lost; /* ... at the end of --omit */
	struct xp_flow_result tcp;   /* TCP: TCP_INFO as the flow closed */
	int has_tcp;
	char congestion[16];      /* TCP: the socket's congestion control */
	/* Set by the controlling thread before it stops the receivers: what
	 * the peer says it sent (0: unknown), so they stop exactly there. */
	uint64_t target_bytes, target_packets;
};

/* A group's run and what its engines share. */
struct xp_i3_run {
	struct xp_run run;        /* first: the workers see this */
	struct xp_i3_stream *st;  /* every stream of the side, by position */
	int udp64;                /* 64-bit UDP packet counters */
	int drain;                /* senders: at STOP wait until the peer has
				   * acknowledged every byte (client side) */
	uint64_t t_end_ref;       /* receivers: when the test ended (TEST_END), 0
				   * unknown; a stream ends there or at its
				   * last byte, whichever is later */
};

/* The engines (run.side). */
extern const struct xp_side_ops xp_i3_tcp_tx, xp_i3_tcp_rx, xp_i3_udp_tx, xp_i3_udp_rx;

/* For the engines: the iperf3 run a worker serves, and one of its streams. */
static inline struct xp_i3_run *xp_i3_run_of(const struct xp_worker *w)
{
	return (struct xp_i3_run *)w->run;
}

static inline struct xp_i3_stream *xp_i3_stream_of(const struct xp_flow *f)
{
	return &xp_i3_run_of(f->w)->st[f->idx];
}

/* Engine helpers shared by the TCP and UDP engines (common/iperf3/tcp.c). */
/* Bytes the kernel still holds for the peer (SIOCOUTQ); 0 on error. */
int xp_i3_outq(int fd);
/* Record the flow's common results into its stream at close. */
void xp_i3_record(struct xp_flow *f, uint64_t last_ns);

/* What a side needs to know. */
struct xp_i3_side_cfg {
	int role;                 /* XP_ROLE_CLIENT or XP_ROLE_SERVER */
	int udp, reverse, bidir, udp64;
	uint32_t parallel;        /* streams each way */
	uint32_t len;             /* bytes per write or datagram */
	uint64_t rate_bps;        /* senders, per stream; 0 unlimited */
	uint32_t pace_burst;      /* UDP: datagrams back to back */
	int gso;                  /* UDP senders may use GSO */
	struct xp_sockopts so;
	const char *cpus;         /* CPUs to pin the workers to; NULL: not
				   * pinned (as iperf3's threads are not),
				   * which on a shared host lets them move
				   * off a busy CPU */
	uint32_t max_threads;     /* workers per direction, at most */
	/* -n/-k (client): bytes (TCP) or datagrams (UDP) its senders send
	 * in all, split exactly over them; done_fd (an eventfd) is written
	 * once they all have.  0 and -1: none. */
	uint64_t quota;
	int done_fd;
};

enum { XP_I3_RX = 0, XP_I3_TX = 1 };

struct xp_i3_side {
	struct xp_i3_run run[2];  /* [XP_I3_RX], [XP_I3_TX] */
	struct xp_group g[2];
	uint32_t nflows[2];       /* streams each way */
	uint32_t added[2];        /* streams given to each group so far */
	struct xp_i3_stream *st;
	uint32_t nst;
	int udp;
};

/* Workers for the streams cfg describes (not started).  0, or -1 with
 * err; the side can be destroyed either way. */
int xp_i3_side_init(struct xp_i3_side *s, const struct xp_i3_side_cfg *c,
		    struct xp_err *err);
/* Client: the connected socket of stream pos, before start; the side
 * owns it from then on. */
int xp_i3_side_add(struct xp_i3_side *s, uint32_t pos, int fd, struct xp_err *err);
/* Server: hand stream pos's socket to its worker, after start.  0, or -1
 * and the socket is still the caller's. */
int xp_i3_side_mail(struct xp_i3_side *s, uint32_t pos, int fd);
int xp_i3_side_start(struct xp_i3_side *s, struct xp_err *err);
/* Streams the server's workers have taken in. */
uint32_t xp_i3_side_registered(struct xp_i3_side *s);
void xp_i3_side_go(struct xp_i3_side *s);
/* --omit is over: what was counted so far is left out. */
void xp_i3_side_omit_over(struct xp_i3_side *s);
/* Stop one direction's streams and wait for them to finish. */
void xp_i3_side_stop(struct xp_i3_side *s, int dir);
/* Receivers: stop where the peer's results say it stopped sending (TCP
 * bytes only when exact, i.e. without --omit; UDP by packet count). */
void xp_i3_side_targets(struct xp_i3_side *s, const struct xp_i3_results *peer, int bytes);
/* This side's streams as iperf3 reports them (into out->streams). */
void xp_i3_side_streams(const struct xp_i3_side *s, struct xp_i3_results *out);
/* Both groups summed (after they ended): counters, TCP totals, times. */
void xp_i3_side_sum(const struct xp_i3_side *s, struct xp_side_result *r);
void xp_i3_side_destroy(struct xp_i3_side *s);

#endif
