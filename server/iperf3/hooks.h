/* SPDX-License-Identifier: BSD-2-Clause */
/* What an xperf server tells the iperf3 front end (`iperf3 -s`,
 * client/iperf3/srv.c) of each iperf3 test it serves, so that it can print
 * iperf3's server output: the test accepted, its streams connected, their
 * counters every interval, the results of both ends.  Set
 * xp_i3srv_cfg.i3_hooks (from xp_server_cfg.i3_hooks); a server without them only logs. */
#ifndef XP_IPERF3_HOOKS_H
#define XP_IPERF3_HOOKS_H

#include <stdint.h>

#include "common/iperf3/json.h"

/* One stream's counters since the measured part began (cumulative). */
struct xp_i3srv_flow {
	uint64_t bytes;
	int64_t lost;             /* UDP receiver (may step back: out of order) */
	uint64_t retrans;         /* TCP sender */
	double jitter_ms;         /* UDP receiver, < 0: none yet */
	int has_tcpi;             /* TCP sender: TCP_INFO now */
	uint64_t cwnd_bytes, wnd, rtt_us, rttvar_us, pmtu;
};

struct xp_i3srv_addr {
	char local[64], remote[64]; /* "10.0.0.2:5201" */
};

struct xp_i3srv_view {
	const char *peer;         /* the control connection's client */
	const char *local;        /* ... and its local end */
	const char *cookie;
	const struct xp_i3_params *p;  /* NULL before they were read */
	uint32_t nstreams;
	const int *sender;        /* [nstreams]: the server sends on it */
	const struct xp_i3srv_addr *addr; /* [nstreams], from on_start */
	double t;                 /* on_interval: seconds since the measured part began */
	const struct xp_i3srv_flow *flows; /* on_interval: [nstreams] */
	const struct xp_i3_results *mine, *theirs; /* on_end, when it got there */
	const char *error;        /* on_end: why the test failed, NULL: it did not */
};

/* Called from the test's own thread; one test at a time. */
struct xp_i3srv_hooks {
	void *ctx;
	uint64_t interval_ns;     /* on_interval every so long (0: never) */
	void (*on_accept)(void *ctx, const struct xp_i3srv_view *v); /* parameters in */
	void (*on_start)(void *ctx, const struct xp_i3srv_view *v);  /* streams in */
	void (*on_interval)(void *ctx, const struct xp_i3srv_view *v);
	void (*on_end)(void *ctx, const struct xp_i3srv_view *v);    /* done or failed */
};

#endif
