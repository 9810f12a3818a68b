/* SPDX-License-Identifier: BSD-2-Clause */
/* A plan's steps, appended one at a time by the topologies (topo.c) and
 * the knobs (knobs.c); a plan that would overflow says so instead. */
#include "lab/plan.h"

#include <stdio.h>
#include <string.h>

struct xp_lab_step *xp_lab_step_add(struct xp_lab_plan *p, enum xp_lab_step_kind kind,
				    int ns, const char *dev)
{
	struct xp_lab_step *s = &p->step[XP_LAB_STEPS_MAX];

	if (p->nsteps < XP_LAB_STEPS_MAX)
		s = &p->step[p->nsteps++];
	else
		p->overflow = 1;
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->ns = ns;
	snprintf(s->dev, sizeof(s->dev), "%s", dev ? dev : "");
	return s;
}
