/* SPDX-License-Identifier: BSD-2-Clause */
/* A side's worker threads as one: created on a CPU list, commanded,
 * joined and summed together.  The client and the server each run one
 * group per test. */
#ifndef XP_ENGINE_GROUP_H
#define XP_ENGINE_GROUP_H

#include "common/engine/worker.h"
#include "proto/result.h"

struct xp_group {
	struct xp_worker *w;
	int n;                 /* workers initialised (to destroy) */
};

/* n workers for run, worker i on cpus[i % ncpus] of the list `cpus`
 * (NULL: the CPUs this process may use; `what` names the list in errors,
 * e.g. "--cpus").  0, or -1 with err (the group is still destroyable). */
int xp_group_create(struct xp_group *g, struct xp_run *run, int n, const char *cpus,
		    const char *what, struct xp_err *err);
/* Start every worker thread.  0 or -1. */
int xp_group_start(struct xp_group *g, struct xp_err *err);
void xp_group_cmd(struct xp_group *g, int cmd);
/* xp_worker_own_fds for every worker. */
void xp_group_own_fds(struct xp_group *g);
void xp_group_join(struct xp_group *g);
/* Join what ends before deadline (xp_now_ns time).  1: all joined. */
int xp_group_join_until(struct xp_group *g, uint64_t deadline);
/* Stop (abort), join and free everything. */
void xp_group_destroy(struct xp_group *g);
/* The CPUs the workers were placed on ("0,1"), or, with ran, the CPUs
 * they last ran on. */
void xp_group_cpus(const struct xp_group *g, int ran, char *buf, size_t len);
/* The workers' counters, TCP totals, times, offloads, CPUs and first
 * warning, summed into r (zeroed first).  After join. */
void xp_group_sum(const struct xp_group *g, struct xp_side_result *r);
/* The same for what the warm-up counted (w->warm). */
void xp_group_sum_warm(const struct xp_group *g, struct xp_counters *c);

#endif
