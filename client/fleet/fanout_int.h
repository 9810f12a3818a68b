/* SPDX-License-Identifier: BSD-2-Clause */
/* Between client/fleet/fanout.c (running) and client/fleet/fanout_out.c (reporting). */
#ifndef XP_FANOUT_INT_H
#define XP_FANOUT_INT_H

#include <pthread.h>

#include "client/client.h"
#include "client/fleet/fanout.h"
#include "common/auth.h"
#include "proto/msg.h"

/* Holds each host's test after its flows are open until every host is
 * there (or failed before it), at most GATE_WAIT_S. */
struct xp_fanout_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int n, arrived, failed;
};

/* The controller's request, the same for every agent (client/fleet/controller.c). */
struct xp_fanout_ctl {
	const struct xp_auth_key *key;
	const char *target;
	uint16_t port;
	uint64_t test_ns;        /* how long the test runs, for the timeouts */
	uint64_t start_wall_ns;  /* when every agent starts */
	char args[XP_MSG_TEXT_MAX + 1]; /* the forwarded options, a JSON array */
};

struct xp_fanout_host {
	struct xp_opts o;        /* the test, with this host's share of the flows */
	char host[128];
	uint16_t port;
	const char *spec;        /* as given */
	struct xp_fanout_gate *gate;
	int sigfd;
	pthread_t thr;
	int started, passed, rc;
	struct xp_client_result r;
	struct xp_err err;
	const struct xp_fanout_ctl *ctl; /* controller mode: the agent's request */
	char *doc;               /* controller mode: the agent's --json result */
};

/* A host that could not even start counts as failed at the gate. */
static inline void host_main_failed(struct xp_fanout_gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->failed++;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

/* n hosts for f's servers (each its share of -P); NULL without memory. */
struct xp_fanout_host *xp_fanout_hosts(const struct xp_cli *c, const struct xp_fanout *f,
				       int sigfd, struct xp_fanout_gate *g);
/* A thread fn per host, joined, reported, freed (hs too); the exit status. */
int xp_fanout_go(const struct xp_cli *c, struct xp_fanout_host *hs, int n,
		 void *(*fn)(void *), const struct xp_fanout_ctl *ctl);

/* Print the per-host rows and the merged total; the exit status. */
int xp_fanout_report(const struct xp_cli *c, struct xp_fanout_host *hs, int n);

#endif
