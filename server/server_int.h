/* SPDX-License-Identifier: BSD-2-Clause */
/* Inside the server: the accept loop's state, shared by the files that
 * make it up.  One thread (xp_server_run's) owns all of it.
 *   server.c     the loop, its descriptors, the registry of sessions
 *   accept.c     new TCP connections: the pending table, data hellos,
 *                descriptor exhaustion
 *   admit.c      a control connection before it is a test: its first
 *                message, authentication, the SETUP and the limits
 *   udp_hello.c  UDP flows: hello, challenge, confirm
 *   limits.c     per-address counts, SETUP checks, the resource budget
 * and server/iperf3/server.c, given the connections and datagrams that
 * are stock iperf3 clients'. */
#ifndef XP_SERVER_INT_H
#define XP_SERVER_INT_H

#include <stdint.h>

#include "common/auth.h"
#include "common/ratelog.h"
#include "common/sock.h"
#include "proto/msg.h"
#include "server/iperf3/server.h"
#include "server/server.h"
#include "server/session.h"

#define XP_PENDING_MAX 1024 /* connections still to send their first message */

enum xp_ev_kind { EV_LISTEN = 1, EV_UDP4, EV_UDP6, EV_STOP, EV_DONE, EV_SIG, EV_PENDING,
		  EV_ADOPT };

/* A connection that is not yet a test or a data flow. */
enum xp_pstate {
	XP_P_NEW,   /* nothing known: its first bytes say what it is */
	XP_P_CTL,   /* a control connection: its first message */
	XP_P_AUTH,  /* challenge sent: the client's AUTH_RESPONSE */
	XP_P_SETUP, /* authenticated: its SETUP */
};

struct xp_pending {
	int fd;
	int sock;                /* a MUX channel: its connection's socket (a copy); else -1 */
	uint16_t chan;           /* a MUX channel's number; 0: a connection of its own */
	int state;               /* enum xp_pstate */
	uint64_t born, deadline; /* xp_now_ns */
	struct xp_addr addr;
	char peer[80];
	uint8_t cnonce[XP_AUTH_NONCE_LEN], snonce[XP_AUTH_NONCE_LEN];
};

/* Kinds of rate-limited log lines (common/ratelog.h). */
enum { XP_RL_NOISE, XP_RL_REFUSED, XP_RL_AUTH, XP_RL_UDP, XP_RL_N };

struct xp_server {
	struct xp_server_cfg cfg;
	int lfd, ufd[2], epfd, stopfd, done[2];
	int adopt[2];        /* MUX channels to take in (xp_server_adopt) */
	int mux_failed;      /* one_off: a MUX channel's test failed */
	int spare_fd;        /* /dev/null, given up to turn a connection away at EMFILE */
	int listening;       /* lfd is watched (not paused) */
	uint64_t resume_ns;  /* paused at EMFILE: watch lfd again then */
	uint64_t refused_fd; /* connections turned away for want of descriptors */
	uint16_t port;
	struct xp_session **sess;
	uint32_t nsess;
	struct xp_pending *pend;
	uint32_t npend, maxpend;
	struct xp_cost used, max; /* the resource budget (limits.c) */
	struct xp_ratelog rl[XP_RL_N];
	int quit, status;
	struct xp_i3srv *i3; /* stock iperf3 clients (server/iperf3/server.h) */
	struct xp_i3srv_cfg i3cfg; /* what it takes of cfg */
};

/* server.c */
int xp_srv_watch(struct xp_server *s, int fd, enum xp_ev_kind k, uint32_t events);
struct xp_session *xp_srv_find(struct xp_server *s, uint64_t cookie);
/* Hand a data socket (TCP, or a connected UDP socket: type SOCK_STREAM or
 * SOCK_DGRAM) to its worker.  0: the worker's now; -1: refused (logged),
 * fd still the caller's. */
int xp_srv_route(struct xp_server *s, int fd, int type, uint64_t cookie, uint32_t idx,
		 const char *peer);

/* accept.c */
void xp_srv_on_accept(struct xp_server *s, int lfd);
/* The adopt pipe is readable: MUX channels become pending SETUPs. */
void xp_srv_on_adopt(struct xp_server *s);
void xp_srv_on_pending(struct xp_server *s, int fd, uint32_t events);
/* Every tick: pending deadlines, a paused listener, held log lines. */
void xp_srv_tick(struct xp_server *s);
/* Forget pending entry p (its descriptor is not closed). */
void xp_srv_unpend(struct xp_server *s, struct xp_pending *p);
/* Forget p, and close it. */
void xp_srv_drop(struct xp_server *s, struct xp_pending *p);

/* admit.c: the control connection's bytes so far.  1: done with p (it
 * became a session, or was refused and closed: p is gone); 0: wait for
 * more.  hup: the peer closed its side. */
int xp_srv_ctl_step(struct xp_server *s, struct xp_pending *p, int hup);

/* udp_hello.c: datagrams on a listening UDP socket. */
void xp_srv_on_udp(struct xp_server *s, int fd, int family);

/* limits.c */
/* 1 if a and b have the same IP address (IPv4 and its IPv4-mapped IPv6
 * form are the same). */
int xp_same_ip(const struct xp_addr *a, const struct xp_addr *b);
/* The address as 16 bytes, IPv4 in its IPv4-mapped form. */
void xp_ip_key(const struct xp_addr *a, uint8_t key[16]);
uint32_t xp_srv_pending_from(const struct xp_server *s, const struct xp_addr *a);
uint32_t xp_srv_tests_from(const struct xp_server *s, const struct xp_addr *a);
/* The SETUP within the server's limits?  0, or -1 naming the parameter,
 * its value and the limit.  All arithmetic on wire values is checked. */
int xp_srv_check_setup(const struct xp_server_cfg *c, const struct xp_msg_setup *p,
		       struct xp_err *err);
/* What the test will hold at most (the SETUP passed xp_srv_check_setup). */
void xp_srv_cost(const struct xp_msg_setup *p, struct xp_cost *c);
/* Room for the tests running, from this address, and in the budget?  0
 * (reserved), or -1 with "server busy: ..." in err. */
int xp_srv_admit(struct xp_server *s, const struct xp_addr *a, const struct xp_cost *c,
		 struct xp_err *err);
void xp_srv_release(struct xp_server *s, const struct xp_cost *c);
/* The budget's size, from the configuration, the CPUs and the descriptor
 * limit; also sizes the pending table. */
void xp_srv_budget_init(struct xp_server *s);
/* After it, the caps left to the server (--max-tests 0, --max-tests-per-addr
 * not given): as many tests as the budget affords one-stream tests, at most
 * XP_TESTS_MAX, and a quarter of those (at most --max-tests) per address,
 * so that no one address holds the whole server. */
void xp_srv_caps_init(struct xp_server *s);

#endif
