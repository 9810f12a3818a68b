/* SPDX-License-Identifier: BSD-2-Clause */
/* Inside client/mixed/: one RRUL run's parts and figures. */
#ifndef XP_MIXED_INT_H
#define XP_MIXED_INT_H

#include <pthread.h>
#include <stdio.h>

#include "client/client.h"
#include "client/mux.h"
#include "client/mixed/calc.h"
#include "client/report/cli.h"
#include "common/json.h"

/* The tests an RRUL run is made of, in the order they start: the idle
 * phase's two probe tests, then the load and the loaded phase's probes. */
enum { XP_MX_IDLE_TCP, XP_MX_IDLE_UDP, XP_MX_LOAD, XP_MX_LOADED_TCP, XP_MX_LOADED_UDP,
       XP_MX_PARTS };
enum { XP_MX_TCP, XP_MX_UDP, XP_MX_PROBES };
enum { XP_MX_IDLE, XP_MX_LOADED, XP_MX_PHASES };
enum { XP_MX_FWD, XP_MX_RET, XP_MX_WAYS }; /* --one-way: forward, return */
enum { XP_MX_UP, XP_MX_DOWN, XP_MX_DIRS };  /* the load's flows: client to server, back */

struct xp_mixed;

struct xp_mixed_part {
	struct xp_mixed *m;
	int idx;
	struct xp_opts o;
	struct xp_client_result r;
	struct xp_err err;
	int rc, ran;
	int ready;                   /* loaded probes: flows open (or failed) */
	struct xp_mux_chan chan;     /* its channel of the run's one control connection */
	pthread_t thr;
};

struct xp_mixed {
	const struct xp_cli *c;
	const char *host;
	uint16_t port;
	int sigfd;
	struct xp_mux *mux;          /* the one control connection: a channel a part */
	uint64_t ramp_ns, interval_ns;
	uint64_t pool;               /* probe flows of each kind (client/mixed/run.c) */
	struct xp_mixed_part p[XP_MX_PARTS];
	struct xp_mixed_lat lat[XP_MX_PHASES][XP_MX_PROBES], infl[XP_MX_PROBES];
	uint64_t unanswered[XP_MX_PHASES][XP_MX_PROBES];
	/* --one-way: the probes' delays each way, and their inflation */
	struct xp_mixed_lat way[XP_MX_PHASES][XP_MX_PROBES][XP_MX_WAYS];
	struct xp_mixed_lat way_infl[XP_MX_PROBES][XP_MX_WAYS];
	uint64_t lost[XP_MX_PHASES]; /* UDP probes timed out */
	/* self probes: on the load's own connections (its measured part) */
	struct xp_mixed_lat self, self_infl;
	uint64_t self_unanswered;    /* ... issued in it and never echoed */
	/* ... apart: those on the up and on the down flows (--load both has
	 * both; up or down only the one) */
	struct xp_mixed_lat self_dir[XP_MX_DIRS], self_dir_infl[XP_MX_DIRS];
	uint64_t self_dir_unanswered[XP_MX_DIRS];
	double up_bps, down_bps, rpm;
	uint64_t retrans;
	uint64_t t0_wall_ns;         /* the run's start (wall clock) */
	pthread_mutex_t out_lock;    /* --json-stream lines from the parts' threads */
	pthread_cond_t going;        /* ... and load_going set */
	int load_going, probes_ready;
};

/* Part idx's name ("idle_tcp") and which phase and probe it is (-1: the load). */
const char *xp_mixed_part_name(int idx);
int xp_mixed_part_phase(int idx);
int xp_mixed_part_probe(int idx);
/* Seconds from the run's start to where part idx's intervals count from
 * (its GO, after its warm-up or --omit); r: its result so far. */
double xp_mixed_offset(const struct xp_mixed *m, const struct xp_client_result *r);
double xp_mixed_part_offset(const struct xp_mixed *m, int idx);

/* The load's self probes (dir -1: all, else XP_MX_UP or XP_MX_DOWN: those
 * on the flows that way); NULL when it has none that way (parts.c). */
const struct xp_hist *xp_mixed_self_hist(const struct xp_mixed *m, int dir);

/* The figures from the parts' results (client/mixed/out.c). */
void xp_mixed_compute(struct xp_mixed *m);
void xp_mixed_human(FILE *f, const struct xp_mixed *m);
void xp_mixed_json(FILE *f, const struct xp_mixed *m, int stream);
void xp_mixed_stream_start(FILE *f, const struct xp_mixed *m);
void xp_mixed_stream_interval(FILE *f, const struct xp_mixed *m, int idx,
			      const struct xp_client_result *r, const struct xp_interval *iv);
/* --slo (client/mixed/slo.c): failures; the human lines; the JSON object. */
int xp_mixed_slo_failures(const struct xp_mixed *m);
void xp_mixed_slo_human(FILE *f, const struct xp_mixed *m);
void xp_mixed_slo_json(struct xp_json *j, const struct xp_mixed *m);
/* --plot (client/mixed/plot.c). */
int xp_mixed_plot(const char *path, const struct xp_mixed *m, struct xp_err *err);

#endif
