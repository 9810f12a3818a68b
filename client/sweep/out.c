/* SPDX-License-Identifier: BSD-2-Clause */
/* A sweep's table, JSON and chart (client/sweep/sweep.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/plot/plot.h"
#include "client/report/report.h"
#include "client/plot/charts.h"
#include "client/sweep/sweep_int.h"
#include "common/json_read.h"
#include "common/tests.h"

double xp_sweep_figure(const struct xp_client_result *r)
{
	double s = (double)r->local.active_ns / 1e9;

	if (xp_test(r->test)->rr)
		return s > 0 ? (double)r->local.c.transactions / s : 0;
	return xp_report_received_bps(r);
}

int xp_sweep_keep(const struct xp_sweep_ctx *x, const struct xp_opts *t,
		  const struct xp_client_result *r, struct xp_sweep_point *pt,
		  struct xp_err *err)
{
	struct xp_json j;

	xp_json_init(&j, 0);
	xp_json_obj_open(&j, NULL);
	xp_report_json_start(&j, t, r, "start");
	xp_report_json_end(&j, t, r, &x->c->slo, "end");
	xp_json_obj_close(&j);
	pt->json = j.oom ? NULL : strdup(xp_json_str(&j));
	xp_json_free(&j);
	if (xp_test(r->test)->rr)
		pt->p99_us = xp_hist_percentile(r->hist, 99) / 1e3;
	return pt->json ? 0 : xp_err_set(err, "out of memory");
}

static int is_rr(const struct xp_sweep_ctx *x)
{
	return xp_test(x->c->o->test)->rr;
}

void xp_sweep_print_head(const struct xp_sweep_ctx *x)
{
	unsigned d;

	if (x->c->o->json)
		return;
	printf("xperf %s sweep, %u points, %llu run%s each\n", xp_test(x->c->o->test)->name,
	       x->sw->npoints, (unsigned long long)x->c->o->iterations,
	       x->c->o->iterations == 1 ? "" : "s");
	for (d = 0; d < x->sw->ndims; d++)
		printf("%14s ", x->sw->dim[d].name);
	printf(is_rr(x) ? "%14s %14s %14s %10s\n" : "%14s %14s %14s\n",
	       is_rr(x) ? "trans/s" : "Mbit/s", "min", "max", "p99 us");
}

void xp_sweep_print_row(const struct xp_sweep_ctx *x, const struct xp_sweep_point *pt)
{
	double k = is_rr(x) ? 1 : 1e6;
	unsigned d;

	if (x->c->o->json)
		return;
	for (d = 0; d < x->sw->ndims; d++)
		printf("%14s ", x->sw->dim[d].text[pt->idx[d]]);
	printf("%14.3f %14.3f %14.3f", pt->median / k, pt->min / k, pt->max / k);
	if (is_rr(x))
		printf(" %10.2f", pt->p99_us);
	putchar('\n');
	fflush(stdout);
}

static void json_points(const struct xp_sweep_ctx *x, struct xp_json *j)
{
	unsigned p, d;

	xp_json_arr_open(j, "points");
	for (p = 0; p < x->sw->npoints && x->pts[p].done; p++) {
		const struct xp_sweep_point *pt = &x->pts[p];
		struct xp_jdoc *doc = xp_jdoc_parse(pt->json, strlen(pt->json), NULL, NULL);

		xp_json_obj_open(j, NULL);
		xp_json_obj_open(j, "values");
		for (d = 0; d < x->sw->ndims; d++)
			xp_json_dbl(j, x->sw->dim[d].name, x->sw->dim[d].value[pt->idx[d]]);
		xp_json_obj_close(j);
		xp_json_dbl(j, "median", pt->median);
		xp_json_dbl(j, "min", pt->min);
		xp_json_dbl(j, "max", pt->max);
		if (doc)
			xp_jval_write(j, "end", xp_jval_member(xp_jdoc_root(doc), "end"));
		xp_jdoc_free(doc);
		xp_json_obj_close(j);
	}
	xp_json_arr_close(j);
}

static void print_json(const struct xp_sweep_ctx *x)
{
	struct xp_json j;
	unsigned d;

	xp_json_init(&j, 1);
	xp_json_obj_open(&j, NULL);
	xp_json_str_val(&j, "test", xp_test(x->c->o->test)->name);
	xp_json_str_val(&j, "metric", is_rr(x) ? "transactions_per_second"
					       : "bits_per_second");
	xp_json_arr_open(&j, "sweep");
	for (d = 0; d < x->sw->ndims; d++)
		xp_json_str_val(&j, NULL, x->sw->dim[d].name);
	xp_json_arr_close(&j);
	json_points(x, &j);
	xp_json_obj_close(&j);
	fputs(j.oom ? "{\"error\": \"out of memory formatting JSON\"}\n" : xp_json_str(&j), stdout);
	xp_json_free(&j);
}

#define MAX_SERIES 16

/* Series k of the chart: the points whose other sweeps take their k-th
 * combination, in the order of the first sweep's values. */
struct trend {
	double x[XP_SWEEP_VALUES], y[XP_SWEEP_VALUES], lo[XP_SWEEP_VALUES], hi[XP_SWEEP_VALUES];
	char name[120];
};

static void trend_series(const struct xp_sweep_ctx *x, unsigned k, struct trend *t,
			 struct xp_plot_series *s)
{
	const struct xp_sweep *sw = x->sw;
	unsigned per = sw->npoints / sw->dim[0].n, i, d;
	size_t off = 0;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < sw->dim[0].n; i++) {
		const struct xp_sweep_point *pt = &x->pts[i * per + k];

		t->x[i] = sw->dim[0].value[i];
		t->y[i] = pt->done ? pt->median : NAN;
		t->lo[i] = pt->done ? pt->min : NAN;
		t->hi[i] = pt->done ? pt->max : NAN;
	}
	t->name[0] = 0;
	for (d = 1; d < sw->ndims && off < sizeof(t->name); d++)
		off += (size_t)snprintf(t->name + off, sizeof(t->name) - off, "%s%s=%s",
					d > 1 ? ", " : "", sw->dim[d].name,
					sw->dim[d].text[x->pts[k].idx[d]]);
	*s = (struct xp_plot_series){ sw->ndims > 1 ? t->name : "median of the runs",
				      t->x, t->y, t->lo, t->hi, sw->dim[0].n,
				      XP_STYLE_LINE, 0 };
}

static int trend_plot(const struct xp_sweep_ctx *x, struct xp_err *err)
{
	const struct xp_sweep *sw = x->sw;
	unsigned n = sw->npoints / sw->dim[0].n, k;
	struct trend *t = calloc(MAX_SERIES, sizeof(*t));
	struct xp_plot_series s[MAX_SERIES];
	struct xp_plot p;
	char caption[1024], title[160];
	double lo = sw->dim[0].value[0], hi = lo;
	int rc;

	if (!t)
		return xp_err_set(err, "--plot: out of memory");
	n = n > MAX_SERIES ? MAX_SERIES : n;
	for (k = 0; k < n; k++)
		trend_series(x, k, &t[k], &s[k]);
	for (k = 0; k < sw->dim[0].n; k++) {
		lo = fmin(lo, sw->dim[0].value[k]);
		hi = fmax(hi, sw->dim[0].value[k]);
	}
	xp_plot_init(&p, XP_PLOT_TREND);
	xp_plot_caption(x->c->o, caption, sizeof(caption));
	snprintf(title, sizeof(title), "%s: %s against %s (band: min..max of %llu runs)",
		 xp_test(x->c->o->test)->name, is_rr(x) ? "transactions/s" : "throughput",
		 sw->dim[0].name, (unsigned long long)x->c->o->iterations);
	p.title = title;
	p.caption = caption;
	p.x.title = sw->dim[0].name;
	p.x.unit = xp_opts_unit(sw->dim[0].name);
	p.x.scale = lo > 0 && hi / lo >= 20 ? XP_SCALE_LOG : XP_SCALE_LINEAR;
	if (is_rr(x)) {
		p.y.title = "Transactions";
		p.y.unit = "/s";
	}
	p.series = s;
	p.nseries = n;
	rc = xp_plot_write(&p, x->c->o->plot, err);
	free(t);
	return rc;
}

int xp_sweep_outputs(const struct xp_sweep_ctx *x, struct xp_err *err)
{
	if (x->c->o->json)
		print_json(x);
	if (x->c->o->csv && xp_sweep_csv(x, x->c->o->csv, err))
		return -1;
	return x->c->o->plot ? trend_plot(x, err) : 0;
}

void xp_sweep_free(struct xp_sweep_ctx *x)
{
	unsigned p;

	for (p = 0; p < x->sw->npoints; p++)
		free(x->pts[p].json);
	free(x->pts);
	x->pts = NULL;
}
