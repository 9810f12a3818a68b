/* SPDX-License-Identifier: BSD-2-Clause */
/* --exec: the user's own command over a lab's path, once per topology
 * after the lab's tests, while the namespaces (and the delay line) still
 * stand, so stock iperf3, netperf or flent measure the same path. */
#ifndef XP_LAB_HOOK_H
#define XP_LAB_HOOK_H

#include <stdio.h>

#include "common/json.h"
#include "lab/plan.h"

/* What one command did. */
struct xp_lab_hook {
	int ran;            /* it was started */
	int status;         /* its exit status; 128+N: killed by signal N */
	int timed_out;      /* killed after --exec-timeout */
	int interrupted;    /* killed because the lab was interrupted */
	double secs;        /* how long it ran */
	char msg[160];      /* why it failed, or "" */
};

/* The environment the command gets, as shell lines ("export NAME=value")
 * for --dry-run. */
void xp_lab_hook_env(FILE *f, const struct xp_lab_plan *p, int ipv6);

/* Run "sh -c cmd" with the lab's environment (XPERF_LAB_CLIENT_NS,
 * XPERF_LAB_SERVER_NS, XPERF_LAB_CLIENT_ADDR, XPERF_LAB_SERVER_ADDR,
 * XPERF_LAB_TOPOLOGY), its standard output sent to our standard error
 * when to_stderr (the lab's stdout holds JSON then), in a process group
 * of its own that is killed after timeout_s seconds or as soon as sigfd
 * (if >= 0) is readable.  Fills h; 0 when it exited 0. */
int xp_lab_hook_run(const char *cmd, const struct xp_lab_plan *p, int ipv6, int to_stderr,
		    unsigned timeout_s, int sigfd, struct xp_lab_hook *h);

/* The report of one topology's command: a line of the human table, an
 * object of the JSON "exec" array. */
void xp_lab_hook_line(FILE *f, const char *topology, const struct xp_lab_hook *h);
void xp_lab_hook_json(struct xp_json *j, const char *topology, const struct xp_lab_hook *h);

#endif
