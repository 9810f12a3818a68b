/* SPDX-License-Identifier: BSD-2-Clause */
/* Inside the client: one test's state, shared by client/client.c (the
 * conversation) and client/client_wait.c (the waits during the test:
 * warm-up, duration and intervals, heartbeats, the deadline, the workers'
 * end). */
#ifndef XP_CLIENT_INT_H
#define XP_CLIENT_INT_H

#include "client/client.h"
#include "common/auth.h"
#include "common/live.h"
#include "client/owd.h"

struct client {
	char note[256];   /* a warning for the report when nothing worse happened */
	const struct xp_opts *o;
	const struct xp_client_hooks *hooks;
	struct xp_iv_state *iv;
	uint64_t t_go;
	struct xp_addr addr;
	char peer[96];
	char who[112];   /* "server 10.0.0.2:5310", for errors */
	int ctl;
	int ctl_sock;     /* ctl's TCP socket (TCP_INFO): ctl, or a MUX connection's copy */
	int sigfd;
	struct xp_run run;
	struct xp_group g;
	const struct xp_test *ops;  /* facts about the test */
	uint32_t server_senders;    /* -n/-k: server flows with a share */
	int server_done;            /* ... and the server said DONE */
	const struct xp_auth_key *key; /* --auth-file, or NULL */
	uint64_t deadline;          /* -l + warmups + --control-timeout from the start */
	uint64_t server_hb_ms;      /* the server's heartbeats (SETUP_OK) */
	int padded_hello;           /* the server reads padded data hellos (SETUP_OK) */
	int server_clock;           /* ... and answers CLOCK (SETUP_OK) */
	struct xp_live live;        /* heartbeats from GO to STOP */
	uint8_t *fill;              /* --fill: the file's bytes (run.fill), or NULL */
	size_t fill_len;
};

/* A wait of at most cap ms that ends by the deadline (at least 1 ms, so
 * a call past it fails at once rather than blocking). */
int xp_cl_ms_left(const struct client *cl, int cap);
/* The data flows opened (client/flows.c), several at once, and given to
 * the workers.  0, or -1: err says how many were not opened and why. */
int xp_cl_open_flows(struct client *cl, struct xp_err *err);
/* --warmup (RR tests), then 0 as xp_cl_wait_duration; 0 without one. */
int xp_cl_warm_up(struct client *cl, struct xp_client_result *r, struct xp_err *err);
/* The test duration, with an interval report at each boundary.  0:
 * reached; 1: interrupted by a signal; 2: -n/-k senders done; -1: server
 * error, silence or the deadline. */
int xp_cl_wait_duration(struct client *cl, struct xp_client_result *r, struct xp_err *err);
/* The workers' end, heartbeats going on if beating (before STOP); a
 * silent server or the deadline aborts them. */
void xp_cl_join_workers(struct client *cl, int beating);
/* --one-way (client/owd.c): the CLOCK exchanges before READY, their offset
 * into the run and to the server in OFFSET (nothing without stamps); the workers'
 * delays; the server's HIST pieces, decoded once RESULT is in. */
void xp_cl_owd_run(struct client *cl); /* the run's stamps, from the options */
int xp_cl_owd_clock(struct client *cl, struct xp_client_result *r, struct xp_err *err);
void xp_cl_owd_collect(struct client *cl, struct xp_client_result *r);
int xp_cl_owd_hist(struct client *cl, struct xp_client_result *r, const struct xp_msg_hist *h,
		   struct xp_err *err);
int xp_cl_owd_finish(struct client *cl, struct xp_client_result *r, struct xp_err *err);

#endif
