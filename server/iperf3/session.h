/* SPDX-License-Identifier: BSD-2-Clause */
/* One iperf3 test on the server: the conversation with a stock iperf3
 * client on its control connection, in a thread of its own, and the
 * streams it hands to xperf's workers.  Internal to server/iperf3_*.c.
 *
 * Locking: `phase`, `accepted` and handing sockets to the side's workers
 * are under *mu, which the accept loop (server/iperf3/server.c) also
 * takes; the session moves phase on under it, so no stream is handed to
 * workers that are being torn down. */
#ifndef XP_IPERF3_SESSION_H
#define XP_IPERF3_SESSION_H

#include <pthread.h>
#include <stdatomic.h>

#include "common/iperf3/engine.h"
#include "common/iperf3/json.h"
#include "server/iperf3/hooks.h"
#include "server/iperf3/server.h"

enum xp_i3_phase {
	XP_I3P_PARAMS,  /* cookie, parameters */
	XP_I3P_STREAMS, /* CREATE_STREAMS sent: data streams are taken */
	XP_I3P_RUNNING, /* every stream in: no more */
	XP_I3P_DONE,    /* over; the thread is about to end */
};

/* The server's TCP listener as iperf3 tests see it (under the mutex). */
struct xp_i3lst {
	int fd;
	int tuned; /* a test's buffers or MSS are set on it */
};

struct xp_i3sess {
	const struct xp_i3srv_cfg *cfg;
	pthread_mutex_t *mu;
	struct xp_i3lst *lst;    /* under *mu */
	pthread_t thr;
	int ctl;
	char peer[80];
	struct xp_addr peer_addr;
	char cookie[XP_I3_COOKIE_LEN];
	int phase;               /* enum xp_i3_phase, under *mu */
	uint32_t want, accepted; /* streams expected, arrived (under *mu) */
	int udp;
	_Atomic int done;        /* the thread has finished its work */
	_Atomic int aborted;     /* the server is stopping */
	struct xp_i3_params p;
	struct xp_i3_side side;
	int side_made;
	struct xp_i3_results *res; /* scratch for the results either way */
	struct xp_i3rep *rep;    /* reports to the iperf3 front end, or NULL */
};

/* Serve the connection ctl (its cookie not yet read) in a new thread.
 * 0, or -1 with err (ctl is still the caller's). */
int xp_i3sess_start(struct xp_i3sess *s, struct xp_err *err);
/* Any thread: make the session end soon (server shutting down). */
void xp_i3sess_abort(struct xp_i3sess *s);
/* After done (or abort): join the thread and free s. */
void xp_i3sess_free(struct xp_i3sess *s);
/* Accept loop, under *mu, phase STREAMS: set the iperf3 options that
 * xperf's socket options do not cover (TOS, congestion control, MSS,
 * don't fragment) on a new stream socket. */
void xp_i3sess_sockopts(const struct xp_i3sess *s, int fd, int udp_sender);
/* Under *mu, before CREATE_STREAMS: a TCP test's -w and -M on the
 * listener its streams will connect to, as iperf3 sets them on its own,
 * so that the handshake offers the window and MSS asked for (a buffer
 * shrunk after accept left the sender's segments above every window the
 * receiver could offer: -w 8K -l 4K moved 1.5 Mbit/s).  The accept loop
 * opens a fresh listener once the streams are in (xp_i3srv_listener_stale). */
void xp_i3sess_tune_listener(struct xp_i3sess *s);
/* The parameters checked against what this server serves: 0, or -1 with
 * iperf3's error number (and an errno) for the client and err for the
 * log (server/iperf3/check.c). */
int xp_i3_check_params(const struct xp_i3_params *p, const struct xp_i3srv_cfg *c,
		       int *code, int *sys, struct xp_err *err);
/* The worker side the (checked) parameters ask for; cpus (len bytes)
 * holds the CPU list of -A. */
void xp_i3_side_cfg_server(const struct xp_i3_params *p, const struct xp_i3srv_cfg *c,
			   char *cpus, size_t len, struct xp_i3_side_cfg *out);

/* Reports to the iperf3 front end (server/iperf3/rep.c; each does
 * nothing without cfg->i3_hooks): the parameters are in (s->rep is made
 * here); the side is made (-1: no memory); a stream's addresses, under
 * *mu; every stream is in; the next interval due (0: none); an interval
 * when due (final: now); --omit is over; the client's results; the end
 * (error: why it failed, else NULL); free. */
void xp_i3rep_accept(struct xp_i3sess *s);
int xp_i3rep_streams(struct xp_i3sess *s);
void xp_i3rep_addr(struct xp_i3sess *s, uint32_t pos, int fd);
void xp_i3rep_start(struct xp_i3sess *s);
uint64_t xp_i3rep_next(const struct xp_i3sess *s);
void xp_i3rep_tick(struct xp_i3sess *s, int final);
void xp_i3rep_omit_over(struct xp_i3sess *s);
/* At TEST_END, before the streams stop: no more TCP_INFO (the copies of
 * the sockets close, so that each stream ends when its worker closes it). */
void xp_i3rep_release(struct xp_i3sess *s);
void xp_i3rep_theirs(struct xp_i3sess *s, const struct xp_i3_results *res);
void xp_i3rep_end(struct xp_i3sess *s, const char *error);
void xp_i3rep_free(struct xp_i3sess *s);

#endif
