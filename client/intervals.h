/* SPDX-License-Identifier: BSD-2-Clause */
/* Interval reports: every -i seconds the client's workers snapshot their
 * counters and histograms; the difference from the previous snapshot is
 * one interval, per flow and in sum. */
#ifndef XP_INTERVALS_H
#define XP_INTERVALS_H

#include <stdint.h>

#include "common/engine/worker.h"

struct xp_flow_iv {
	uint32_t idx;
	uint64_t bytes, trans, retrans;
	double jitter_ms;       /* UDP receiver: its jitter at the interval's end; < 0: none */
};

/* --one-way: an interval's one-way delays one way (count 0: none). */
struct xp_iv_owd {
	uint64_t count;
	double p50_us, p99_us;
};

struct xp_interval {
	double start, end;      /* seconds since the test started */
	uint64_t bytes_sent, bytes_received;
	uint64_t transactions, retrans;
	uint64_t datagrams_sent, datagrams_received, lost;
	uint64_t count;         /* latency samples in the interval */
	double p50_us, p99_us;
	double jitter_ms;       /* UDP: mean of the receiving flows' jitter; < 0: none */
	int bidir;              /* --bidir: bytes_sent and bytes_received are each a direction */
	struct xp_iv_owd fwd, ret; /* --one-way: RR both ways and UDP_MAERTS
				    * return, from the client's workers; UDP_STREAM
				    * forward from the server's INTERVAL, after STOP */
	struct xp_flow_iv *flows; /* sorted by flow index */
	uint32_t nflows;
	uint32_t late;          /* workers that did not answer in time: their
				 * counts show in the next interval */
	/* the server's interval of the same index (its INTERVAL message),
	 * its times from the same origin on the client's clock */
	struct {
		int have;
		double start, end;
		uint64_t bytes_sent, bytes_received, transactions;
		uint64_t datagrams_sent, datagrams_received, lost;
	} server;
};

struct xp_iv_state;

/* State for a run with nw workers and nflows flows; NULL on no memory. */
struct xp_iv_state *xp_iv_new(int nw, uint32_t nflows);
void xp_iv_free(struct xp_iv_state *st);
/* --one-way: intervals also hold the workers' one-way delays, whose
 * histograms keep delay + bias_ns (common/owd.h).  0 or -1 (no memory). */
int xp_iv_one_way(struct xp_iv_state *st, uint64_t bias_ns);
/* An interval's figures from a histogram of delay + bias_ns. */
void xp_iv_owd_of(struct xp_iv_owd *o, const struct xp_hist *h, uint64_t bias_ns);

/* Snapshot every worker (waiting up to 200 ms for each) and fill out with
 * what happened since the previous call (or since t_go).  0 or -1. */
int xp_iv_take(struct xp_iv_state *st, struct xp_worker *w, int nw,
	       uint64_t t_go, struct xp_interval *out);

void xp_interval_free(struct xp_interval *iv);
/* Append iv to the array *arr of *n intervals (iv's memory moves there);
 * the new element, or NULL with iv freed when out of memory. */
struct xp_interval *xp_interval_append(struct xp_interval **arr, uint32_t *n,
				       struct xp_interval *iv);

#endif
