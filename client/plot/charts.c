/* SPDX-License-Identifier: BSD-2-Clause */
/* --plot FILE.svg for one run: a panel of throughput (bulk tests) or
 * transactions (RR tests) per interval, per flow and in sum, with
 * retransmits (TCP) or lost requests (UDP_RR) per interval on a second
 * axis; for RR tests a second panel with the round-trip latency CDF and
 * P50/P99/P99.9 marked.  The panels are charts of client/plot/plot.h stacked in
 * one self-contained SVG document. */
#include "client/plot/charts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/plot/plot.h"
#include "common/tests.h"

#define MAX_FLOW_SERIES 8 /* more flows: only their sum is drawn */
#define PANEL_H 480

/* The interval data of one run as arrays (x: interval end, seconds). */
struct line_data {
	size_t n, nflows;
	double *t, *sum, *extra, *flow[MAX_FLOW_SERIES];
	char names[MAX_FLOW_SERIES][16];
};

static void line_free(struct line_data *d)
{
	size_t f;

	free(d->t);
	free(d->sum);
	free(d->extra);
	for (f = 0; f < MAX_FLOW_SERIES; f++)
		free(d->flow[f]);
}

static double iv_value(const struct xp_test *t, const struct xp_interval *iv,
		       uint64_t bytes, uint64_t trans)
{
	double s = iv->end - iv->start;

	if (s <= 0)
		return 0;
	return t->rr ? (double)trans / s : (double)bytes * 8 / s;
}

static uint64_t iv_bytes(const struct xp_test *t, const struct xp_interval *iv)
{
	return t->server_sends ? iv->bytes_received : iv->bytes_sent;
}

static int line_fill(const struct xp_client_result *r, struct line_data *d)
{
	const struct xp_test *t = xp_test(r->test);
	size_t i, f;

	memset(d, 0, sizeof(*d));
	d->n = r->nintervals;
	d->nflows = r->nintervals ? r->intervals[0].nflows : 0;
	if (d->nflows > MAX_FLOW_SERIES || d->nflows < 2)
		d->nflows = 0;
	d->t = calloc(d->n + 1, sizeof(double));
	d->sum = calloc(d->n + 1, sizeof(double));
	d->extra = calloc(d->n + 1, sizeof(double));
	for (f = 0; f < d->nflows; f++)
		if (!(d->flow[f] = calloc(d->n + 1, sizeof(double))))
			return -1;
	if (!d->t || !d->sum || !d->extra)
		return -1;
	for (i = 0; i < d->n; i++) {
		const struct xp_interval *iv = &r->intervals[i];

		d->t[i] = iv->end;
		d->sum[i] = iv_value(t, iv, iv_bytes(t, iv), iv->transactions);
		d->extra[i] = (double)(t->udp ? iv->lost : iv->retrans);
		for (f = 0; f < d->nflows && f < iv->nflows; f++)
			d->flow[f][i] = iv_value(t, iv, iv->flows[f].bytes, iv->flows[f].trans);
	}
	for (f = 0; f < d->nflows; f++)
		snprintf(d->names[f], sizeof(d->names[f]), "flow %u",
			 r->intervals[0].flows[f].idx);
	return 0;
}

static int any_nonzero(const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] != 0)
			return 1;
	return 0;
}

static int line_panel(const struct xp_client_result *r, const char *caption,
		      struct xp_svg *out, struct xp_err *err)
{
	const struct xp_test *t = xp_test(r->test);
	struct xp_plot_series s[MAX_FLOW_SERIES + 2];
	struct line_data d;
	struct xp_plot p;
	char title[160];
	size_t f, n = 0;
	int rc = -1;

	if (line_fill(r, &d)) {
		xp_err_set(err, "--plot: out of memory");
		goto out;
	}
	memset(s, 0, sizeof(s));
	for (f = 0; f < d.nflows; f++)
		s[n++] = (struct xp_plot_series){ d.names[f], d.t, d.flow[f], NULL, NULL,
						  d.n, XP_STYLE_LINE, 0 };
	s[n++] = (struct xp_plot_series){ d.nflows ? "sum" : "all flows", d.t, d.sum,
					  NULL, NULL, d.n, XP_STYLE_BOLD, 0 };
	if ((t->tcp_info || (t->udp && t->rr)) && any_nonzero(d.extra, d.n))
		s[n++] = (struct xp_plot_series){ t->udp ? "lost requests" : "retransmits",
						  d.t, d.extra, NULL, NULL, d.n,
						  XP_STYLE_BARS, 1 };
	xp_plot_init(&p, XP_PLOT_LINE);
	snprintf(title, sizeof(title), "%s to %s: %s per interval%s", t->name, r->server,
		 t->rr ? "transactions" : "throughput",
		 n > d.nflows + 1 || !(t->tcp_info || (t->udp && t->rr)) ? ""
		 : t->udp ? " (no request lost)" : " (no retransmits)");
	p.title = title;
	p.caption = caption;
	p.series = s;
	p.nseries = n;
	if (t->rr) {
		p.y.title = "Transactions";
		p.y.unit = "/s";
	}
	if (t->udp)
		p.y2.title = "Lost requests";
	rc = xp_plot_render(&p, out, err);
out:
	line_free(&d);
	return rc;
}

/* The CDF from the histogram: one point per non-empty bucket, at its upper
 * bound, in microseconds. */
static int cdf_points(const struct xp_hist *h, double **x, double **y, size_t *n)
{
	uint64_t total = xp_hist_count(h), seen = 0;
	uint32_t i, k = 0;

	*n = 0;
	for (i = 0; i < xp_hist_buckets(); i++)
		k += xp_hist_bucket_count(h, i) != 0;
	*x = malloc((k + 1) * sizeof(double));
	*y = malloc((k + 1) * sizeof(double));
	if (!*x || !*y)
		return -1;
	for (i = 0; i < xp_hist_buckets() && total; i++) {
		uint64_t c = xp_hist_bucket_count(h, i);

		if (!c)
			continue;
		seen += c;
		(*x)[*n] = (double)xp_hist_bucket_high(i) / 1e3;
		(*y)[(*n)++] = (double)seen / (double)total;
	}
	return 0;
}

static int cdf_panel(const struct xp_client_result *r, const char *caption,
		     struct xp_svg *out, struct xp_err *err)
{
	struct xp_plot_marker m[3] = { { 0, "P50" }, { 0, "P99" }, { 0, "P99.9" } };
	struct xp_plot_series s = { .name = "round trip" };
	struct xp_plot p;
	double *x = NULL, *y = NULL;
	char title[160];
	int rc = -1;

	if (cdf_points(r->hist, &x, &y, &s.n)) {
		xp_err_set(err, "--plot: out of memory");
		goto out;
	}
	m[0].x = xp_hist_percentile(r->hist, 50) / 1e3;
	m[1].x = xp_hist_percentile(r->hist, 99) / 1e3;
	m[2].x = xp_hist_percentile(r->hist, 99.9) / 1e3;
	s.x = x;
	s.y = y;
	xp_plot_init(&p, XP_PLOT_CDF);
	snprintf(title, sizeof(title), "%s: round-trip latency, %llu transactions",
		 xp_test(r->test)->name, (unsigned long long)xp_hist_count(r->hist));
	p.title = title;
	p.caption = caption;
	p.series = &s;
	p.nseries = 1;
	p.markers = m;
	p.nmarkers = 3;
	p.panel = 1;
	rc = xp_plot_render(&p, out, err);
out:
	free(x);
	free(y);
	return rc;
}

void xp_plot_caption(const struct xp_opts *o, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < o->argc && off + 1 < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "", o->argv[i]);
}

/* Append a rendered chart as a nested <svg> at vertical offset y. */
void xp_plot_nest(struct xp_svg *doc, const struct xp_svg *chart, int y)
{
	const char *body = chart->buf ? strstr(chart->buf, "<svg ") : NULL;
	const char *end = body ? strstr(body, "</svg>") : NULL;

	if (!body || !end) {
		doc->failed = 1;
		return;
	}
	xp_svg_raw(doc, "<svg y=\"%d\" %.*s</svg>\n", y, (int)(end - body - 5), body + 5);
}

int xp_report_plot(const char *path, const struct xp_opts *o,
		   const struct xp_client_result *r, struct xp_err *err)
{
	struct xp_svg doc, a, b;
	char caption[1024];
	int rr = xp_test(r->test)->rr && xp_hist_count(r->hist), rc;

	xp_plot_caption(o, caption, sizeof(caption));
	xp_svg_init(&doc);
	xp_svg_init(&a);
	xp_svg_init(&b);
	rc = line_panel(r, caption, &a, err);
	if (!rc && rr)
		rc = cdf_panel(r, caption, &b, err);
	if (!rc) {
		xp_svg_begin(&doc, 800, rr ? 2 * PANEL_H : PANEL_H,
			     "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif");
		xp_plot_nest(&doc, &a, 0);
		if (rr)
			xp_plot_nest(&doc, &b, PANEL_H);
		rc = xp_svg_finish(&doc, err);
	}
	if (!rc)
		rc = xp_svg_write_file(&doc, path, err);
	xp_svg_free(&doc);
	xp_svg_free(&a);
	xp_svg_free(&b);
	return rc;
}
