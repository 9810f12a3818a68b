/* SPDX-License-Identifier: BSD-2-Clause */
/* Executing a plan: rtnetlink and the other knobs, in the namespaces the
 * plan creates, remembering what was made so teardown removes exactly
 * that (also after a failure half-way). */
#ifndef XP_LAB_EXEC_H
#define XP_LAB_EXEC_H

#include <stdint.h>

#include "common/err.h"
#include "lab/plan.h"
#include "lab/wan/line.h"

struct xp_lab_env {
	const struct xp_lab_plan *p;
	int made[XP_LAB_NS_MAX];  /* created by us: deleted by teardown */
	int fd[XP_LAB_NS_MAX];    /* namespace file descriptors */
	int nl[XP_LAB_NS_MAX];    /* rtnetlink socket inside each */
	int sk[XP_LAB_NS_MAX];    /* datagram socket inside each, for ioctls */
	uint32_t seq[XP_LAB_NS_MAX];
	int interrupted;          /* stopped because sigfd became readable */
	char unsupported[128];    /* the kernel feature a step lacked, or "" */
	struct xp_wan_line *line; /* the delay line, once started */
};

void xp_lab_env_init(struct xp_lab_env *e, const struct xp_lab_plan *p);
/* Run every step in order; stop at the first failure, or before the next
 * step once sigfd (if >= 0) is readable.  0, or -1 with err (and
 * e->unsupported naming the missing feature when that was the cause). */
int xp_lab_exec(struct xp_lab_env *e, int sigfd, struct xp_err *err);
/* Stop the delay line, close our sockets and delete the namespaces we made, newest first.
 * 0, or -1 with the first failure in err (the others are still tried). */
int xp_lab_teardown(struct xp_lab_env *e, struct xp_err *err);

/* Whether this kernel has netem: a netem qdisc added to the loopback of
 * a private namespace that vanishes with the thread that made it (so
 * nothing is changed).  1 it has, 0 it lacks it (the kernel does not
 * know the kind), -1 cannot tell (no root ...) with err. */
int xp_lab_netem_probe(struct xp_err *err);

#endif
