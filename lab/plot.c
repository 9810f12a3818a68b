/* SPDX-License-Identifier: BSD-2-Clause */
/* The lab matrix as grouped bars (lab/plot.h), drawn with client/plot/plot.h. */
#include "lab/plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "client/plot/plot.h"
#include "client/plot/charts.h"
#include "common/tests.h"

#define PANEL_H 480

struct bars {
	const char *groups[XP_LAB_TOPOS_MAX];
	double y[XP_LAB_TESTS_MAX][XP_LAB_TOPOS_MAX];
	double lo[XP_LAB_TESTS_MAX][XP_LAB_TOPOS_MAX], hi[XP_LAB_TESTS_MAX][XP_LAB_TOPOS_MAX];
	struct xp_plot_series s[XP_LAB_TESTS_MAX];
	size_t nseries;
};

static const struct xp_lab_row *find(const struct xp_lab_report *rep, const char *topo,
				     int test)
{
	int i;

	for (i = 0; i < rep->n; i++)
		if (rep->row[i].test == test && !strcmp(rep->row[i].topology, topo))
			return &rep->row[i];
	return NULL;
}

/* The bars of the tests of one kind (stream: rr = 0). */
static void fill(const struct xp_lab_cfg *c, const struct xp_lab_report *rep, int rr,
		 struct bars *b)
{
	int t, g;

	memset(b, 0, sizeof(*b));
	for (g = 0; g < c->ntopo; g++)
		b->groups[g] = c->topo[g]->name;
	for (t = 0; t < c->ntests; t++) {
		int id = c->opts[t].test;
		size_t k = b->nseries;

		if (xp_test(id)->rr != rr)
			continue;
		for (g = 0; g < c->ntopo; g++) {
			const struct xp_lab_row *r = find(rep, c->topo[g]->name, id);
			int ok = r && r->status == XP_ROW_OK;
			double v = ok ? (rr ? r->tps : r->gbps1 * 1e9) : NAN;
			double k9 = rr ? 1 : 1e9;

			b->y[k][g] = v;
			b->lo[k][g] = ok && r->runs > 1 ? r->lo * k9 : v;
			b->hi[k][g] = ok && r->runs > 1 ? r->hi * k9 : v;
		}
		b->s[k] = (struct xp_plot_series){ xp_test_name(id), NULL, b->y[k], b->lo[k],
						   b->hi[k], (size_t)c->ntopo, XP_STYLE_LINE, 0 };
		b->nseries++;
	}
}

static int panel(const struct xp_lab_cfg *c, const struct xp_lab_report *rep, int rr,
		 int n, const char *caption, struct xp_svg *out, struct xp_err *err)
{
	struct bars b;
	struct xp_plot p;

	fill(c, rep, rr, &b);
	xp_plot_init(&p, XP_PLOT_BARS);
	p.title = rr ? "xperf lab: request/response rate by topology"
		     : "xperf lab: single-flow throughput by topology";
	p.caption = caption;
	p.series = b.s;
	p.nseries = b.nseries;
	p.groups = b.groups;
	p.ngroups = (size_t)c->ntopo;
	p.panel = n;
	if (rr) {
		p.y.title = "Transactions";
		p.y.unit = "/s";
	}
	return xp_plot_render(&p, out, err);
}

static void caption_of(const struct xp_lab_cfg *c, char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "xperf lab -t %s --topology ", c->a.test);
	int i;

	for (i = 0; i < c->ntopo && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "," : "",
					c->topo[i]->name);
	for (i = 0; i < c->npass && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, " %s", c->pass[i]);
}

int xp_lab_plot(const char *path, const struct xp_lab_cfg *c,
		const struct xp_lab_report *rep, struct xp_err *err)
{
	struct xp_svg doc, part[2];
	char caption[1024];
	int kinds[2] = { 0, 0 }, t, k, n = 0, rc = 0;

	for (t = 0; t < c->ntests; t++)
		kinds[xp_test(c->opts[t].test)->rr] = 1;
	caption_of(c, caption, sizeof(caption));
	xp_svg_init(&doc);
	for (k = 0; k < 2; k++) {
		xp_svg_init(&part[k]);
		if (kinds[k] && !rc)
			rc = panel(c, rep, k, n++, caption, &part[k], err);
	}
	if (!rc) {
		xp_svg_begin(&doc, 800, n * PANEL_H,
			     "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif");
		for (k = 0, n = 0; k < 2; k++)
			if (kinds[k])
				xp_plot_nest(&doc, &part[k], PANEL_H * n++);
		rc = xp_svg_finish(&doc, err);
	}
	if (!rc)
		rc = xp_svg_write_file(&doc, path, err);
	xp_svg_free(&doc);
	xp_svg_free(&part[0]);
	xp_svg_free(&part[1]);
	return rc;
}
