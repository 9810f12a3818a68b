/* SPDX-License-Identifier: BSD-2-Clause */
/* --line-between: xperf's delay line on two interfaces of the caller's
 * namespace, for a topology the lab does not build (a star behind one
 * bottleneck, a path between containers), on kernels without netem. */
#ifndef XP_LAB_BETWEEN_H
#define XP_LAB_BETWEEN_H

#include "lab/opts.h"

/* Run the line between the two interfaces of c->a.line_between with the
 * impairment of c->knobs.wan until sigfd is readable or --line-for
 * seconds pass, then print its counters (JSON when json).  An exit
 * status: 0, or 1 (the line could not start or stopped on an error). */
int xp_lab_between(const struct xp_lab_cfg *c, int sigfd, int json);

#endif
