/* SPDX-License-Identifier: BSD-2-Clause */
/* --plot with -t RRUL: one chart on one time axis from the idle phase's
 * start: the load's throughput each way per interval (left axis) and the
 * probes' round trips per interval (right axis: TCP P50 and P99, UDP P99,
 * and the self probes' P50 on the load's own connections). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "client/mixed/mixed_int.h"
#include "client/plot/charts.h"
#include "client/plot/plot.h"

enum { S_UP, S_DOWN, S_TCP50, S_TCP99, S_UDP99, S_SELF50, S_N };

struct pts {
	double *x, *y;
	size_t n, cap;
};

static int push(struct pts *s, double x, double y)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		double *nx = realloc(s->x, cap * sizeof(*nx)), *ny;

		if (!nx)
			return -1;
		s->x = nx;
		ny = realloc(s->y, cap * sizeof(*ny));
		if (!ny)
			return -1;
		s->y = ny;
		s->cap = cap;
	}
	s->x[s->n] = x;
	s->y[s->n++] = y;
	return 0;
}

/* The load's rate each way per interval; an interval a worker answered
 * late (its counts show in the next) is merged into the next one. */
static int add_load(const struct xp_mixed *m, struct pts *s)
{
	const struct xp_mixed_part *p = &m->p[XP_MX_LOAD];
	double off = xp_mixed_part_offset(m, XP_MX_LOAD), t0 = 0;
	int up = strcmp(m->c->o->load, "down") != 0, down = strcmp(m->c->o->load, "up") != 0;
	uint64_t tx = 0, rx = 0;
	uint32_t i;

	for (i = 0; p->ran && i < p->r.nintervals; i++) {
		const struct xp_interval *iv = &p->r.intervals[i];
		double dt;

		tx += iv->bytes_sent;
		rx += iv->bytes_received;
		if (iv->late)
			continue;
		dt = iv->end - t0;
		if (dt > 0.5 * (double)p->o.interval / 1e9 &&
		    ((up && push(&s[S_UP], off + iv->end, (double)tx * 8 / dt)) ||
		     (down && push(&s[S_DOWN], off + iv->end, (double)rx * 8 / dt))))
			return -1;
		/* (a stub at the end is dropped: a rate over it would be noise) */
		tx = rx = 0;
		t0 = iv->end;
	}
	return 0;
}

static int add_probes(const struct xp_mixed *m, int idx, struct pts *p50, struct pts *p99)
{
	const struct xp_mixed_part *p = &m->p[idx];
	double off = xp_mixed_part_offset(m, idx);
	uint32_t i;

	for (i = 0; p->ran && i < p->r.nintervals; i++) {
		const struct xp_interval *iv = &p->r.intervals[i];

		if (!iv->count)
			continue;
		if ((p50 && push(p50, off + iv->end, iv->p50_us / 1e3)) ||
		    push(p99, off + iv->end, iv->p99_us / 1e3))
			return -1;
	}
	return 0;
}

/* The self probes' P50 per interval: the load's own intervals. */
static int add_self(const struct xp_mixed *m, struct pts *p50)
{
	const struct xp_mixed_part *p = &m->p[XP_MX_LOAD];
	double off = xp_mixed_part_offset(m, XP_MX_LOAD);
	uint32_t i;

	for (i = 0; p->ran && i < p->r.nintervals; i++)
		if (p->r.intervals[i].count &&
		    push(p50, off + p->r.intervals[i].end, p->r.intervals[i].p50_us / 1e3))
			return -1;
	return 0;
}

static int render(const struct xp_mixed *m, const struct pts *s, const char *path,
		  struct xp_err *err)
{
	static const char *const names[S_N] = { "load up (client to server)",
						"load down (server to client)",
						"TCP probe P50", "TCP probe P99", "UDP probe P99",
						"self probe P50 (load connections)" };
	struct xp_plot_series sr[S_N];
	struct xp_plot p;
	char caption[1024];
	size_t i, n = 0;

	xp_plot_init(&p, XP_PLOT_LINE);
	p.title = "RRUL: throughput and probe latency, idle then loaded";
	xp_plot_caption(m->c->o, caption, sizeof(caption));
	p.caption = caption;
	p.y2.title = "Probe round trip per interval";
	p.y2.unit = "s";
	p.y2.si = 1;
	p.y2.to_unit = 1e-3; /* data in ms */
	p.y2.zero = 1;
	for (i = 0; i < S_N; i++) {
		if (!s[i].n)
			continue;
		sr[n] = (struct xp_plot_series){ .name = names[i], .x = s[i].x, .y = s[i].y,
						 .n = s[i].n, .y2 = i >= S_TCP50,
						 .style = i >= S_TCP50 ? XP_STYLE_DASHED
								       : XP_STYLE_LINE };
		n++;
	}
	p.series = sr;
	p.nseries = n;
	return xp_plot_write(&p, path, err);
}

int xp_mixed_plot(const char *path, const struct xp_mixed *m, struct xp_err *err)
{
	struct pts s[S_N];
	int i, rc = -1;

	memset(s, 0, sizeof(s));
	if (add_load(m, s) || add_probes(m, XP_MX_IDLE_TCP, &s[S_TCP50], &s[S_TCP99]) ||
	    add_probes(m, XP_MX_LOADED_TCP, &s[S_TCP50], &s[S_TCP99]) ||
	    add_probes(m, XP_MX_IDLE_UDP, NULL, &s[S_UDP99]) ||
	    add_probes(m, XP_MX_LOADED_UDP, NULL, &s[S_UDP99]) ||
	    add_self(m, &s[S_SELF50]))
		xp_err_set(err, "--plot: out of memory");
	else
		rc = render(m, s, path, err);
	for (i = 0; i < S_N; i++)
		free(s[i].x), free(s[i].y);
	return rc;
}
