/* SPDX-License-Identifier: BSD-2-Clause */
/* A stream test's result by direction (client/report/dir.c): which end
 * sent and which received, read from the test table's facts and --bidir,
 * so the human report, JSON, live reports and SLOs agree on sent,
 * received, loss and jitter for TCP_STREAM, TCP_MAERTS, UDP_STREAM,
 * UDP_MAERTS and both ways of --bidir. */
#ifndef XP_REPORT_DIR_H
#define XP_REPORT_DIR_H

#include <stdio.h>

#include "client/client.h"
#include "common/json.h"
#include "common/opts.h"

struct xp_dir {
	int s2c;                 /* the data went server to client */
	const char *snd, *rcv;   /* "client" / "server" */
	uint64_t sent, received; /* payload bytes, each end's own count */
	uint64_t sent_ns, recv_ns; /* ... over each end's own time */
	uint64_t retrans;        /* the sender's TCP retransmissions */
	uint64_t dgrams_sent, dgrams_received, lost, out_of_order, duplicates; /* UDP */
	double jitter_ms, jitter_max_ms; /* UDP: mean and largest over the receiving
					  * flows; < 0: none (datagrams under 16 B) */
};

/* The directions a stream test's data went: one, or with --bidir two,
 * client to server first.  Returns how many (0 for RR tests). */
int xp_report_dirs(const struct xp_client_result *r, struct xp_dir d[2]);
/* Received bits per second, summed over the directions. */
double xp_dir_received_bps(const struct xp_client_result *r);
/* UDP loss over the directions, percent of the datagrams sent. */
double xp_dir_loss_pct(const struct xp_client_result *r);

/* The human report's lines for a stream test: sent/received per
 * direction (two blocks and their sum with --bidir), and for UDP the
 * datagrams, loss, reordering, duplicates and jitter; rates in -f's unit. */
void xp_report_human_dirs(FILE *f, const struct xp_opts *o, const struct xp_client_result *r);
/* A line for --omit and one for -n/-k, when given. */
void xp_report_human_shape(FILE *f, const struct xp_opts *o, const struct xp_client_result *r);
/* end.sum_sent / end.sum_received (client to server with --bidir, as
 * iperf3), end.sum_sent_bidir_reverse / end.sum_received_bidir_reverse
 * and end.sum_bidir with --bidir; for UDP end.udp (and
 * end.udp_bidir_reverse). */
void xp_report_json_dirs(struct xp_json *j, const struct xp_client_result *r);

/* One iperf3-style sum: bytes, seconds, bits_per_second (and the
 * sender's retransmits when not NULL). */
void xp_report_json_sum(struct xp_json *j, const char *key, uint64_t bytes, uint64_t ns,
			const uint64_t *retrans);
/* A UDP object from d's datagram counts (bulk: with its direction and
 * jitter too). */
void xp_report_json_udp(struct xp_json *j, const char *key, const struct xp_dir *d, int bulk);

#endif
