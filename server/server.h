/* SPDX-License-Identifier: BSD-2-Clause */
/* The xperf server: one TCP port for control and data (and the same UDP
 * port for UDP data), any number of tests at once up to --max-tests, each
 * isolated in its own session thread and worker threads. */
#ifndef XP_SERVER_H
#define XP_SERVER_H

#include <stdint.h>
#include <stdio.h>

#include "common/err.h"

struct xp_i3srv_hooks;

struct xp_server_cfg {
	const char *bind;  /* NULL: all addresses */
	uint16_t port;     /* 0: any free port (see xp_server_port) */
	int family;        /* AF_UNSPEC, AF_INET, AF_INET6 */
	uint32_t max_tests, max_flows, max_threads;
	uint64_t max_duration_ns, max_msg, idle_timeout_ns;
	const char *cpus;  /* default CPUs for workers, NULL: all allowed */
	int one_off;       /* serve one test, then return */
	int verbose;       /* log each test, not only failures */
	FILE *log;         /* NULL: no log */
	int sigfd;         /* readable means stop (signalfd), or -1 */
	/* The iperf3 front end's server: each iperf3 test reported
	 * (server/iperf3_hooks.h); NULL: only logged. */
	const struct xp_i3srv_hooks *i3_hooks;
	/* Set by xp_server_open: what the TCP listener can take. */
	int listen_mptcp;  /* MPTCP listener (accepts MPTCP and TCP clients) */
	int listen_fastopen; /* TCP_FASTOPEN on the listener */
};

struct xp_server;

struct xp_server *xp_server_open(const struct xp_server_cfg *cfg,
				 struct xp_err *err);
uint16_t xp_server_port(const struct xp_server *s);
/* The configuration in use, with what xp_server_open found out. */
const struct xp_server_cfg *xp_server_cfg(const struct xp_server *s);
/* Watch sigfd (a signalfd) and stop when it is readable; the log FILE may
 * have changed since open (daemon).  0 or -1. */
int xp_server_watch_signals(struct xp_server *s, int sigfd, FILE *log);
/* Serve until xp_server_stop, a signal on cfg->sigfd, or (one_off) the end
 * of the first test.  Returns 0, or 1 if the one-off test failed. */
int xp_server_run(struct xp_server *s);
/* From any thread. */
void xp_server_stop(struct xp_server *s);
void xp_server_close(struct xp_server *s);

#endif
