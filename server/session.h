/* SPDX-License-Identifier: BSD-2-Clause */
/* One test on the server: its control connection, handled by a thread of
 * its own, and its worker threads.  The accept loop (server.c) owns the
 * registry of sessions and routes data connections to a session's workers
 * once `ready` is set; the session thread tells the accept loop it has
 * ended by writing its pointer to done_fd, and the accept loop then
 * unregisters it, joins it and destroys it, so no data connection can be
 * routed to a session that is being torn down. */
#ifndef XP_SESSION_H
#define XP_SESSION_H

#include <pthread.h>
#include <stdatomic.h>

#include "common/auth.h"
#include "common/engine/group.h"
#include "common/live.h"
#include "common/sock.h"
#include "proto/msg.h"
#include "server/server.h"

/* A MUX connection's new channel (server/session_mux.c), written whole
 * to the accept loop's adopt pipe (session adopt_fd) and taken in as a
 * control connection that has authenticated: its first message must be
 * SETUP.  fd: the channel's end for the test; sock: a copy of the
 * connection's socket (its TCP state, its local address). */
struct xp_adopt {
	int fd, sock;
	uint16_t chan;
	struct xp_addr addr;
	char peer[80];
};

/* What a test may hold at most, reserved in the server's budget from its
 * admission until it is destroyed (server/limits.c). */
struct xp_cost {
	uint64_t mem, flows, fds, threads, spin;
};

/* The server's own -i intervals (server/session_iv.c). */
struct xp_hist_iv;

struct xp_session_iv {
	uint64_t every_ns;      /* 0: none (not asked, or over) */
	uint64_t origin_ns;     /* the client's interval origin, on our clock */
	uint64_t next_ns, last_ns;
	int started;            /* the baseline at the origin was taken */
	struct xp_counters prev; /* the sum at the last boundary */
	struct xp_counters *wc; /* each worker's last snapshot */
	struct xp_hist_iv *fwd; /* one-way stamps, UDP bulk receivers: their delays */
	struct xp_msg_interval *v;
	uint32_t n, cap;
};

struct xp_session {
	uint64_t cookie;
	uint8_t udp_key[XP_AUTH_NONCE_LEN]; /* keys this test's UDP challenges */
	int ctl_fd;
	int ctl_sock;        /* its TCP socket (TCP_INFO, local address): ctl_fd,
			      * or for a MUX channel a copy of its connection's */
	uint16_t chan;       /* a MUX channel's test: its number; else 0 */
	uint32_t mux_channels; /* a MUX connection (no test of its own): its channels */
	int data_lfd;        /* the test's own TCP data listener, or -1 */
	int hello_ep;        /* UDP tests until READY: an epoll of the flows'
			      * sockets, whose repeated confirms the session
			      * echoes (server/session.c); or -1 */
	struct xp_server *srv;
	struct xp_addr addr; /* the control connection's peer */
	char peer[80];
	const struct xp_server_cfg *cfg;
	int done_fd;
	int adopt_fd;        /* a MUX connection: its new channels go here */
	pthread_t thr;
	_Atomic int ready;   /* workers created: data flows may be routed */
	_Atomic int running; /* worker threads started (at READY) */
	struct xp_msg_setup setup; /* admitted by the accept loop */
	struct xp_cost cost;
	struct xp_run run;
	struct xp_group group; /* the test's workers on this side */
	uint8_t *seen; /* accept loop only: persistent flows already routed */
	int ok;        /* the test completed and RESULT was sent */
	struct xp_msg_agent_run *agent; /* an agent's run instead of a test */
	struct xp_session_iv iv;       /* -i: the server's intervals */
};

/* The accept loop admitted the SETUP in s->setup: run the test in a
 * thread of its own.  Its workers are created at once (no threads yet),
 * their threads and buffers when the client says READY. */
int xp_session_start(struct xp_session *s, struct xp_err *err);
/* A MUX connection's thread (server/session_mux.c): MUX_OK, then its
 * channels carried until it ends; each new channel goes to the accept
 * loop (xp_server_adopt), whose SETUP makes it a session of its own.
 * s->ok set if it ended cleanly. */
void xp_session_mux(struct xp_session *s);
/* The test shape's part of SETUP (server/session_shape.c): --bidir,
 * -n/-k, --omit.  0, or -1 with err. */
int xp_session_check_shape(const struct xp_msg_setup *p, struct xp_err *err);
/* One-way delays (server/session_clock.c): SETUP's stamps checked; READY
 * awaited, answering the client's CLOCK messages on the way, its offset
 * taken into s->run; after the test the UDP receivers' one-way delays
 * sent as HIST (nothing without stamps).  0, or -1 with err. */
int xp_session_check_stamps(const struct xp_msg_setup *p, struct xp_err *err);
int xp_session_expect_ready(struct xp_session *s, struct xp_msg *m, int timeout_ms,
			    struct xp_err *err);
int xp_session_send_owd(struct xp_session *s, struct xp_err *err);
/* After GO: wait for STOP, taking MEASURE (--omit over: the workers and
 * the CPU snapshot `a` start again) and sending DONE once the server's
 * -n/-k senders are done.  0 at STOP, or -1 with err. */
struct xp_cpu_snap;
int xp_session_wait_stop(struct xp_session *s, struct xp_cpu_snap *a, struct xp_live *live,
			 struct xp_err *err);
/* -i (server/session_iv.c): start at GO (t_go, xp_now_ns time), the
 * next boundary (UINT64_MAX: none), a boundary passed at now, STOP at
 * now, the INTERVAL messages after STOP; free. */
void xp_session_iv_start(struct xp_session *s, uint64_t t_go);
uint64_t xp_session_iv_due(const struct xp_session *s);
void xp_session_iv_tick(struct xp_session *s, uint64_t now);
/* --omit over (MEASURE): the workers count from 0 again. */
void xp_session_iv_rebase(struct xp_session *s);
void xp_session_iv_end(struct xp_session *s, uint64_t now);
int xp_session_iv_send(struct xp_session *s, struct xp_err *err);
void xp_session_iv_free(struct xp_session *s);

/* After the thread has ended: join, destroy workers, close, free. */
void xp_session_destroy(struct xp_session *s);
/* Accept loop: abort a running session (server shutting down). */
void xp_session_abort(struct xp_session *s);

#endif
