/* SPDX-License-Identifier: BSD-2-Clause */
/* A test against a stock iperf3 3.x server (`iperf3 -s`), speaking
 * iperf3's protocol (proto/PROTOCOL.md, "iperf3 compatibility"), with
 * xperf's workers moving the data.  It returns xperf's result type, so
 * that the iperf3 front end can print iperf3's text and JSON from it;
 * what iperf3 reports and xperf's result has no field for (the cookie,
 * each stream's numbers as both ends reported them, its addresses) comes
 * in struct xp_i3_client_out. */
#ifndef XP_IPERF3_CLIENT_H
#define XP_IPERF3_CLIENT_H

#include <stdint.h>

#include "client/client.h"
#include "common/iperf3/json.h"
#include "common/opts.h"

/* The test: the xperf options that apply (-l duration, -m block or
 * datagram size, -P streams, -b rate per stream, -w, -N/--nagle, --cpus,
 * -4/-6, -i, --no-gso, and the path options: -C, --set-mss, --tos/--dscp,
 * --flowlabel, -B, --cport, --bind-dev, --connect-timeout) and what
 * iperf3 has beyond xperf's test names and options. */
struct xp_i3_client_cfg {
	const struct xp_opts *o;
	int udp;          /* else TCP */
	int reverse;      /* -R: the server sends */
	int bidir;        /* --bidir: both send (-P streams each way) */
	int udp64;        /* --udp-counters-64bit */
	uint32_t omit_s;  /* -O: seconds left out at the start */
	/* iperf3's own (the iperf3 front end's; all 0 for none) */
	uint64_t num, blockcount; /* -n bytes, -k blocks the client sends in
				   * all, or receives with -R (then -l still
				   * bounds the test) */
	int64_t server_affinity;  /* -A n,m: m (the server's CPU), or -1 */
	uint32_t burst;           /* -b RATE/BURST */
	uint64_t fqrate;          /* --fq-rate bits/s (the server's) */
	uint32_t pacing_timer;    /* us, sent as is (0: 1000) */
	int get_server_output, repeating_payload, dont_fragment, zerocopy;
	const char *extra_data;   /* sent as is */
	/* Called on the calling thread: on_ready once the control connection
	 * is up (out's cookie and ctl_mss set), on_start once every stream is
	 * open (r->start_time set), on_interval after each -i interval (r->
	 * intervals holds it last).  NULL: none. */
	const struct xp_client_hooks *hooks;
};

struct xp_i3_client_stream {
	char local[64], remote[64]; /* "10.0.0.1:40000" */
	int sender;                 /* the client sends on it */
	int fd;                     /* its socket while the test runs (the
				     * workers own it: for TCP_INFO only) */
};

struct xp_i3_client_out {
	char cookie[XP_I3_COOKIE_LEN];
	struct xp_i3_results local;  /* the client's streams, as sent to the server */
	struct xp_i3_results remote; /* the server's results */
	char *remote_json;           /* ... as it came (malloc'd; the caller
				      * frees it): server_output_text, ... */
	uint32_t ctl_mss;            /* TCP_MAXSEG of the control connection */
	uint32_t nstreams;
	struct xp_i3_client_stream streams[XP_I3_STREAMS_MAX];
};

/* Run the test against host:port.  sigfd (or -1) readable ends it early
 * (r->interrupted).  r as xp_client_run fills it: local is this side,
 * remote what the server's results say (bytes, datagrams, retransmits,
 * CPU; no TCP_INFO beyond retransmits); intervals (-i) start after --omit.
 * out may be NULL.  0, or -1 with err (an iperf3 server's refusal is
 * named: busy, or its error number and meaning). */
int xp_i3_client_run(const struct xp_i3_client_cfg *c, const char *host, uint16_t port,
		     int sigfd, struct xp_client_result *r, struct xp_i3_client_out *out,
		     struct xp_err *err);

#endif
