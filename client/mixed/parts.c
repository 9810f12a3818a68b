/* SPDX-License-Identifier: BSD-2-Clause */
/* The parts of an RRUL run: their names, phases and start offsets, and
 * the load's self probes by way. */
#include "client/mixed/mixed_int.h"

#include <string.h>

static const char *const names[XP_MX_PARTS] = {
	"idle_tcp", "idle_udp", "load", "loaded_tcp", "loaded_udp",
};

const char *xp_mixed_part_name(int idx)
{
	return idx >= 0 && idx < XP_MX_PARTS ? names[idx] : "?";
}

int xp_mixed_part_phase(int idx)
{
	if (idx == XP_MX_IDLE_TCP || idx == XP_MX_IDLE_UDP)
		return XP_MX_IDLE;
	return idx == XP_MX_LOAD ? -1 : XP_MX_LOADED;
}

int xp_mixed_part_probe(int idx)
{
	if (idx == XP_MX_IDLE_TCP || idx == XP_MX_LOADED_TCP)
		return XP_MX_TCP;
	return idx == XP_MX_LOAD ? -1 : XP_MX_UDP;
}

double xp_mixed_offset(const struct xp_mixed *m, const struct xp_client_result *r)
{
	if (!r->go_wall_ns || r->go_wall_ns < m->t0_wall_ns)
		return 0;
	/* intervals count from the end of the warm-up or --omit */
	return (double)(r->go_wall_ns - m->t0_wall_ns + r->warmup_ns + r->omit_ns) / 1e9;
}

double xp_mixed_part_offset(const struct xp_mixed *m, int idx)
{
	return m->p[idx].ran ? xp_mixed_offset(m, &m->p[idx].r) : 0;
}

const struct xp_hist *xp_mixed_self_hist(const struct xp_mixed *m, int dir)
{
	const struct xp_client_result *r = &m->p[XP_MX_LOAD].r;
	int down = !strcmp(m->c->o->load, "down");

	if (!m->p[XP_MX_LOAD].ran)
		return NULL;
	if (dir < 0)
		return r->hist;
	if (!strcmp(m->c->o->load, "both"))
		return r->self_way[dir];
	return (dir == XP_MX_DOWN) == down ? r->hist : NULL;
}
