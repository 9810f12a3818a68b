/* SPDX-License-Identifier: BSD-2-Clause */
/* Between client/fanout.c (running) and client/fanout_out.c (reporting). */
#ifndef XP_FANOUT_INT_H
#define XP_FANOUT_INT_H

#include <pthread.h>

#include "client/client.h"
#include "client/fanout.h"

/* Holds each host's test after its flows are open until every host is
 * there (or failed before it), at most GATE_WAIT_S. */
struct xp_fanout_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int n, arrived, failed;
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
};

/* A host that could not even start counts as failed at the gate. */
static inline void host_main_failed(struct xp_fanout_gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->failed++;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

/* Print the per-host rows and the merged total; the exit status. */
int xp_fanout_report(const struct xp_cli *c, struct xp_fanout_host *hs, int n);

#endif
