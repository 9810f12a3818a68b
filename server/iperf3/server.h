/* SPDX-License-Identifier: BSD-2-Clause */
/* The xperf server answering stock iperf3 3.x clients on its own port
 * (proto/PROTOCOL.md, "iperf3 compatibility").  The accept loop
 * (server/server.c) offers each new TCP connection's first bytes and each
 * datagram on its UDP port here; an iperf3 control connection (its
 * 37-byte cookie) starts a test served by a thread of its own
 * (server/iperf3/session.c), with xperf's workers moving the data.
 *
 * One iperf3 test at a time, as iperf3 serves them: another iperf3 client
 * arriving meanwhile is answered ACCESS_DENIED, which stock clients report
 * as "the server is busy running a test" (xperf's own tests are not
 * affected).  Why: iperf3's UDP streams carry no cookie, only the
 * client's address tells which test a connect datagram belongs to, and
 * iperf3 users and scripts expect (and retry on) the busy answer. */
#ifndef XP_IPERF3_SERVER_H
#define XP_IPERF3_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#include "common/sock.h"

struct xp_i3srv_hooks;

/* What the iperf3 server takes of the xperf server's configuration
 * (struct xp_i3srv_cfg fills it; the server keeps it alive and may swap
 * log, as a daemon does). */
struct xp_i3srv_cfg {
	uint32_t max_flows, max_threads;
	uint64_t max_duration_ns, max_msg, idle_timeout_ns;
	const char *cpus; /* default CPUs for workers, NULL: all allowed */
	int verbose;
	FILE *log;
	/* each iperf3 test reported (server/iperf3/hooks.h); NULL: only logged */
	const struct xp_i3srv_hooks *i3_hooks;
};

struct xp_i3srv;

/* cfg must outlive the result.  NULL when out of memory. */
struct xp_i3srv *xp_i3srv_new(const struct xp_i3srv_cfg *cfg);
/* A new TCP connection fd from peer whose first n bytes (peeked, not
 * consumed) are b: -1 not iperf3's (fd untouched, still the caller's);
 * 0 it may be, more bytes needed; 1 taken (a new test, a data stream of
 * the running one, or answered ACCESS_DENIED and closed). */
int xp_i3srv_classify(struct xp_i3srv *s, int fd, const uint8_t *b, size_t n,
		      const char *peer);
/* A datagram b[0, n) from peer to local on the server's UDP port: 0 it
 * opened a UDP stream of the running iperf3 test; -1 not iperf3's. */
int xp_i3srv_udp(struct xp_i3srv *s, const uint8_t *b, size_t n,
		 const struct xp_addr *local, const struct xp_addr *peer);
/* The server's TCP listener, where iperf3's data streams connect (after
 * it was opened, and again after every xp_i3srv_listener_stale). */
void xp_i3srv_set_listener(struct xp_i3srv *s, int fd);
/* 1 when a test set its socket buffers or MSS on the listener (as iperf3
 * sets them on its own before the streams connect: the window scale and
 * first window come from the listener) and its streams are in: the
 * accept loop then opens a fresh listener, since a socket buffer once set
 * is locked and every later connection would inherit it. */
int xp_i3srv_listener_stale(struct xp_i3srv *s);
/* 1 while the listener carries a test's settings. */
int xp_i3srv_listener_tuned(struct xp_i3srv *s);
/* Abort a running iperf3 test, wait for its thread, free (NULL is fine). */
void xp_i3srv_free(struct xp_i3srv *s);

#endif
