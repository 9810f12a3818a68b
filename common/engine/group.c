/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/engine/group.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "common/units.h"

static int cpu_list(const char *list, const char *what, int *cpus, struct xp_err *err)
{
	int n;

	if (!list)
		return xp_cpu_allowed(cpus, XP_CPUS_MAX);
	if (!strcmp(list, XP_CPUS_NONE)) {
		cpus[0] = -1; /* not pinned */
		return 1;
	}
	n = xp_parse_cpus(list, cpus, XP_CPUS_MAX, what, err);
	if (n < 0 || xp_cpu_check(cpus, n, what, err))
		return -1;
	return n;
}

int xp_group_create(struct xp_group *g, struct xp_run *run, int n, const char *cpus,
		    const char *what, struct xp_err *err)
{
	int list[XP_CPUS_MAX], ncpus, i;

	memset(g, 0, sizeof(*g));
	ncpus = cpu_list(cpus, what, list, err);
	if (ncpus < 0)
		return -1;
	g->w = calloc((size_t)n, sizeof(*g->w));
	if (!g->w)
		return xp_err_set(err, "out of memory for %d workers", n);
	for (i = 0; i < n; i++) {
		g->n = i + 1;
		if (xp_worker_init(&g->w[i], i, list[i % ncpus], run, err))
			return -1;
	}
	return 0;
}

int xp_group_start(struct xp_group *g, struct xp_err *err)
{
	int i;

	for (i = 0; i < g->n; i++)
		if (xp_worker_start(&g->w[i], err))
			return -1;
	return 0;
}

void xp_group_cmd(struct xp_group *g, int cmd)
{
	int i;

	for (i = 0; i < g->n; i++)
		xp_worker_cmd(&g->w[i], cmd);
}

void xp_group_own_fds(struct xp_group *g)
{
	int i;

	for (i = 0; i < g->n; i++)
		xp_worker_own_fds(&g->w[i]);
}

void xp_group_join(struct xp_group *g)
{
	int i;

	for (i = 0; i < g->n; i++)
		xp_worker_join(&g->w[i]);
}

int xp_group_join_until(struct xp_group *g, uint64_t deadline)
{
	int i;

	for (i = 0; i < g->n; i++)
		if (!xp_worker_join_until(&g->w[i], deadline))
			return 0;
	return 1;
}

void xp_group_destroy(struct xp_group *g)
{
	int i;

	xp_group_cmd(g, XP_CMD_ABORT);
	xp_group_join(g);
	for (i = 0; i < g->n; i++)
		xp_worker_destroy(&g->w[i]);
	free(g->w);
	g->w = NULL;
	g->n = 0;
}

void xp_group_cpus(const struct xp_group *g, int ran, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < g->n && off + 8 < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%d", i ? "," : "",
					ran ? g->w[i].ran_cpu : g->w[i].cpu);
}

void xp_group_sum(const struct xp_group *g, struct xp_side_result *r)
{
	uint64_t t_go = 0, t_stop = 0, t_end = 0;
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < g->n; i++) {
		const struct xp_worker *w = &g->w[i];

		xp_counters_add(&r->c, &w->c);
		r->omitted_bytes_sent += w->warm.bytes_sent;
		r->omitted_bytes_received += w->warm.bytes_received;
		r->offloads |= w->offloads;
		if (!r->congestion[0])
			memcpy(r->congestion, w->cc, sizeof(r->congestion));
		if (!r->warning[0] && w->errmsg[0])
			snprintf(r->warning, sizeof(r->warning), "%.*s",
				 (int)sizeof(r->warning) - 1, w->errmsg);
		if (w->t_go && (!t_go || w->t_go < t_go))
			t_go = w->t_go;
		t_stop = w->t_stop > t_stop ? w->t_stop : t_stop;
		t_end = w->t_end > t_end ? w->t_end : t_end;
	}
	for (i = 0; i < g->n; i++)
		xp_tcp_totals_merge(&r->tcp, &g->w[i].tcp);
	r->active_ns = t_stop > t_go ? t_stop - t_go : 0;
	r->elapsed_ns = t_end > t_go ? t_end - t_go : 0;
	xp_group_cpus(g, 1, r->cpus, sizeof(r->cpus));
}

void xp_group_sum_warm(const struct xp_group *g, struct xp_counters *c)
{
	int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < g->n; i++)
		xp_counters_add(c, &g->w[i].warm);
}
