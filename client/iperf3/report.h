/* SPDX-License-Identifier: BSD-2-Clause */
/* The iperf3 front end's report (client/iperf3/fe.h): one test as iperf3
 * 3.12 reports it, at either end, filled from xperf's results (the client,
 * client/iperf3/model.c; the server, client/iperf3/srv.c) and printed
 * the way iperf3 prints it: text (client/iperf3/text.c), one JSON
 * document (-J) or a line per event (--json-stream), client/iperf3/jsonout.c.
 * The printers are pure functions of the report. */
#ifndef XP_IPERF3_REPORT_H
#define XP_IPERF3_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "common/err.h"
#include "common/json.h"
#include "common/json_read.h"

/* One stream at the end of the test.  "sent" and "received" are what its
 * sender and its receiver counted, whichever end this is. */
struct xp_i3r_stream {
	int socket;               /* the number iperf3 prints: [  5] */
	int sender;               /* this end sends on it */
	char local_host[64], remote_host[64];
	uint16_t local_port, remote_port;
	uint64_t bytes_sent, bytes_received;
	double sender_time, receiver_time; /* seconds */
	int64_t retransmits;      /* the TCP sender's, -1: unknown */
	uint64_t max_snd_cwnd, max_snd_wnd, max_rtt, min_rtt, mean_rtt;
	/* UDP */
	double jitter_ms;         /* the receiver's */
	int64_t lost, sender_packets, receiver_packets, out_of_order;
	uint64_t rtt_sum, rtt_n;  /* builders: for mean_rtt */
};

/* One stream in one interval. */
struct xp_i3r_ivs {
	uint64_t bytes;
	int64_t retransmits;      /* TCP sender */
	uint64_t snd_cwnd, snd_wnd, rtt, rttvar, pmtu; /* TCP sender (TCP_INFO) */
	int64_t packets, lost;    /* UDP: sent, or (receiver) highest count - ... */
	double jitter_ms;         /* UDP receiver */
};

struct xp_i3r_interval {
	double start, end;        /* seconds since the (measured) test began */
	int omitted;
	struct xp_i3r_ivs *st;    /* one per stream */
};

struct xp_i3_report {
	int server;               /* the server's report, else the client's */
	int udp, reverse, bidir;
	uint32_t parallel;        /* -P: streams each way */
	uint32_t nstreams;
	struct xp_i3r_stream *st;
	uint32_t nintervals, capintervals;
	struct xp_i3r_interval *iv;
	/* start */
	int stage;                /* 0 nothing known, 1 connected (cookie ...),
				   * 2 the streams are open (test_start) */
	char system_info[256];
	char cookie[40];
	char host[256];           /* client: the server asked for */
	uint16_t port;
	char peer_host[64];       /* server: the client's control connection */
	uint16_t peer_port;
	int64_t timesecs;         /* when the test was set up (wall clock) */
	uint32_t mss;             /* -M; 0: ctl_mss is the default */
	uint32_t ctl_mss;
	uint64_t target_bitrate, sock_bufsize, sndbuf_actual, rcvbuf_actual;
	uint32_t blksize, omit, duration;
	int blksize_auto;         /* UDP without -l: the control connection's MSS */
	uint64_t bytes, blocks, fqrate;
	int tos;
	double interval;          /* -i seconds */
	/* end (ended) */
	int ended;
	double cpu[3], remote_cpu[3]; /* total, user, system (percent) */
	char cc_local[32], cc_remote[32];
	int sender_has_retransmits;   /* this end's senders: 1 TCP_INFO, 0, -1 none */
	int other_has_retransmits;    /* the other end's */
	const char *server_output_text; /* the server's lines (client), or NULL */
	const struct xp_jval *server_output_json; /* the server's -J document, or NULL */
	const char *extra_data, *title;
	char error[XP_ERR_MAX];   /* the test failed: why */
	/* printing */
	char format;              /* -f; 'a': adaptive */
	int verbose;
	/* xperf's own figures, written under the key "xperf" (iperf3 uses
	 * none such) by extra(extra_ctx, j, "xperf"); NULL: none */
	void (*extra)(void *ctx, struct xp_json *j, const char *key);
	void *extra_ctx;
};

/* Empty report with nstreams streams and room for intervals.  0 or -1. */
int xp_i3r_init(struct xp_i3_report *r, uint32_t nstreams);
void xp_i3r_free(struct xp_i3_report *r);
/* A new interval at the end (its streams zeroed), or NULL (no memory). */
struct xp_i3r_interval *xp_i3r_add_interval(struct xp_i3_report *r, double start, double end);
/* "10.0.0.1:5201", "[::1]:5201" into host (brackets off, an IPv4-mapped
 * address as IPv4) and port. */
void xp_i3r_split_addr(const char *s, char *host, size_t len, uint16_t *port);
/* The version line: "iperf 3.12 (xperf VERSION iperf3 front end)", its
 * first words as iperf3's, which scripts read. */
void xp_i3r_version(char *buf, size_t len);
/* This host as iperf3's system_info says it (uname). */
void xp_i3r_system_info(char *buf, size_t len);
struct xp_i3_stream_res;
/* One stream's end from both ends' results (iperf3's exchanged "streams"
 * entries): snd is the sender's entry, rcv the receiver's; either may be
 * missing (NULL). */
void xp_i3r_stream_end(struct xp_i3r_stream *s, const struct xp_i3_stream_res *snd,
		       const struct xp_i3_stream_res *rcv);

/* Where text goes, as iperf3's iperf_printf writes it: each line begins
 * with the time (--timestamps) and the title (-T). */
struct xp_i3out {
	FILE *f;
	const char *title;
	const char *tsfmt;        /* strftime(3) format, or NULL */
	int flush;                /* after each interval (--forceflush, --logfile) */
};
void xp_i3out_printf(const struct xp_i3out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* iperf3's number + unit ("1.56 GBytes", " 767 KBytes", "13.4 Gbits"):
 * format 'A' bytes (1024), 'a' bits (1000) adaptive, or k m g t K M G T. */
void xp_i3_unit(char *buf, size_t len, double bytes, char format);

/* ---- text (client/iperf3/text.c, client/iperf3/text_sum.c) ---- */
/* "Connecting to host ...", "Reverse mode ...", -V's lines. */
void xp_i3t_connecting(const struct xp_i3out *o, const struct xp_i3_report *r);
/* Server: "Accepted connection from ...". */
void xp_i3t_accepted(const struct xp_i3out *o, const struct xp_i3_report *r);
/* "[  5] local ... connected to ..." per stream, -V's "Starting Test". */
void xp_i3t_connected(const struct xp_i3out *o, const struct xp_i3_report *r);
/* Interval k (its header before the first). */
void xp_i3t_interval(const struct xp_i3out *o, const struct xp_i3_report *r, uint32_t k);
/* The summary: sender and receiver lines, CPU (-V), server output. */
void xp_i3t_summary(const struct xp_i3out *o, const struct xp_i3_report *r);

/* ---- JSON (client/iperf3/jsonout.c, client/iperf3/jsonend.c) ---- */
/* The whole document: start, intervals, end (and error, server output,
 * extra data, xperf's figures). */
void xp_i3j_document(struct xp_json *j, const struct xp_i3_report *r);
/* --json-stream (iperf3 3.17): one compact line per event. */
void xp_i3j_event_start(struct xp_json *j, const struct xp_i3_report *r);
void xp_i3j_event_interval(struct xp_json *j, const struct xp_i3_report *r, uint32_t k);
/* error (if any), server output (if any), end. */
void xp_i3j_event_end(struct xp_json *j, const struct xp_i3_report *r);
/* Internal to the JSON printers: the "start", one interval, the "end". */
void xp_i3j_start(struct xp_json *j, const struct xp_i3_report *r, const char *key);
void xp_i3j_interval(struct xp_json *j, const struct xp_i3_report *r, uint32_t k,
		     const char *key);
void xp_i3j_end(struct xp_json *j, const struct xp_i3_report *r, const char *key);

#endif
