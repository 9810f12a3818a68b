/* SPDX-License-Identifier: BSD-2-Clause */
/* The xperf server: one TCP port for control and data (and the same UDP
 * port for UDP data), any number of tests at once up to --max-tests, each
 * isolated in its own session thread and worker threads. */
#ifndef XP_SERVER_H
#define XP_SERVER_H

#include <stdint.h>
#include <stdio.h>

#include "common/auth.h"
#include "common/err.h"

struct xp_i3srv_hooks;
/* --agent: runs a controller's AGENT_RUN on fd (client/fleet/agent.h). */
struct xp_msg_agent_run;
typedef void (*xp_agent_fn)(int fd, const struct xp_msg_agent_run *req, const char *peer,
			    void *ctx);

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
	 * (server/iperf3/hooks.h); NULL: only logged. */
	const struct xp_i3srv_hooks *i3_hooks;
	/* Hardening (0 = no such limit, except header_timeout_ns: 0 = the
	 * default XP_HEADER_TIMEOUT_NS).  See xperf(1), SERVER. */
	const struct xp_auth_key *auth; /* pre-shared key, NULL: none */
	uint32_t max_tests_per_addr;   /* tests at once from one address (0: no cap) */
	uint32_t max_pending_per_addr; /* connections still to send their first message */
	uint64_t header_timeout_ns;    /* ... and how long they may take */
	uint64_t total_memory;         /* buffers all tests together may reserve */
	uint32_t total_threads;        /* worker threads of all tests together */
	uint64_t total_flows;          /* flows of all tests together */
	int allow_spin;                /* honour a client's --spin */
	/* Set by xp_server_open: what the TCP listener can take. */
	int listen_mptcp;  /* MPTCP listener (accepts MPTCP and TCP clients) */
	int listen_fastopen; /* TCP_FASTOPEN on the listener */
	/* --agent: an authenticated controller's AGENT_RUN is handed to this
	 * (in a session thread of its own; it answers on fd, which is closed
	 * after it returns).  NULL: AGENT_RUN is refused. */
	xp_agent_fn agent;
	void *agent_ctx;
};

#define XP_HEADER_TIMEOUT_NS (5 * 1000000000ull)
#define XP_TESTS_MAX 1024 /* --max-tests at most */
/* max_tests 0 and max_tests_per_addr XP_CAP_DERIVED: the server derives
 * them from its budget (xp_server_cfg(s) then holds the numbers). */
#define XP_CAP_DERIVED UINT32_MAX

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
/* From any thread: accept connections on another listening socket too
 * (a test's own data port, server/session.c); its owner closes it. */
int xp_server_watch_listener(struct xp_server *s, int fd);
void xp_server_close(struct xp_server *s);

#endif
