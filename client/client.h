/* SPDX-License-Identifier: BSD-2-Clause */
/* The client side of a test: control conversation, data flows, workers,
 * and the merged result of both ends. */
#ifndef XP_CLIENT_H
#define XP_CLIENT_H

#include <stdint.h>

#include "common/err.h"
#include "common/opts.h"
#include "common/engine/group.h"
#include "client/intervals.h"
#include "proto/msg.h"

#define XP_WARNINGS_MAX 8

struct xp_owd_result;

struct xp_client_result {
	int test;
	char server[96];          /* "10.0.0.2:5310" */
	uint64_t req, rsp;        /* effective sizes */
	/* Each side's view (proto/result.h).  local.active_ns is the
	 * measured duration (GO to STOP), local.elapsed_ns runs to the last
	 * byte the client's receivers took; remote is the server's RESULT. */
	struct xp_side_result local, remote;
	struct xp_counters warm;  /* ... in the --warmup, not in local.c */
	uint64_t warmup_ns;       /* the warm-up that ran (0: none) */
	struct xp_hist *hist;     /* merged round-trip times, ns (with --rate:
				   * from the intended send time) */
	struct xp_hist *raw_hist; /* --rate: from the actual send; else NULL */
	/* --bidir with self probes: the up and the down flows' apart (both
	 * are in hist); else NULL */
	struct xp_hist *self_way[2];
	int threads;
	uint16_t port;            /* the server port actually used */
	int64_t start_time;       /* wall clock (Unix seconds) at GO */
	uint64_t go_wall_ns;      /* ... in nanoseconds (several hosts' skew) */
	int direct;               /* some client worker ran in direct mode */
	/* Each persistent flow's result at each end (counters and, for TCP,
	 * TCP_INFO): the client's own, and the server's from its FLOW
	 * messages; any order. */
	struct xp_flow_result *flows, *remote_flows;
	uint32_t nflows, nremote_flows;
	uint32_t flows_opened;    /* -P, twice with --bidir */
	int bidir;                /* --bidir: flows from flows_opened/2 on go back */
	uint64_t quota;           /* -n/-k: units each direction sent (0: none) */
	uint64_t omit_ns;         /* the --omit that ran (0: none) */
	struct xp_interval *intervals; /* -i: one per interval */
	uint32_t nintervals;
	int interrupted;          /* stopped early by a signal */
	char warning[XP_ERR_MAX]; /* first recoverable error either side saw */
	/* impossible figures from the server (client/verify.h) */
	char warnings[XP_WARNINGS_MAX][XP_ERR_MAX];
	int nwarnings;
	struct xp_owd_result *owd; /* --one-way (client/owd.h), else NULL */
};

/* Called on the client's control thread as the test goes (may be NULL). */
struct xp_mux_chan;

struct xp_client_hooks {
	void *ctx;
	void (*on_start)(void *ctx, const struct xp_client_result *r);
	void (*on_interval)(void *ctx, const struct xp_client_result *r,
			    const struct xp_interval *iv);
	/* Flows open, before READY: a fan-out lines its hosts up here. */
	void (*on_ready)(void *ctx);
	/* A MUX channel to run on (client/mux.h), or NULL: a control
	 * connection of the test's own.  Its descriptors are the test's. */
	const struct xp_mux_chan *chan;
};

int xp_client_run_ex(const struct xp_opts *o, const char *host, uint16_t port,
		     int sigfd, const struct xp_client_hooks *hooks,
		     struct xp_client_result *r, struct xp_err *err);

/* Run the test described by o against host:port.  sigfd (or -1) ends the
 * test early when readable.  0, or -1 with err naming what failed. */
int xp_client_run(const struct xp_opts *o, const char *host, uint16_t port,
		  int sigfd, struct xp_client_result *r, struct xp_err *err);
void xp_client_result_free(struct xp_client_result *r);

#endif
