/* SPDX-License-Identifier: BSD-2-Clause */
#include "client/cmd/run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/client.h"
#include "client/report/report.h"
#include "client/report/live.h"
#include "client/plot/charts.h"
#include "common/clock.h"
#include "client/report/slo_eval.h"
#include "common/exitcodes.h"
#include "common/hist.h"
#include "client/report/stats.h"
#include "proto/msg.h"

static void on_start(void *ctx, const struct xp_client_result *r)
{
	const struct xp_opts *o = ctx;

	if (o->verbose)
		fprintf(stderr, "xperf: %s to %s: %llu flow%s open, measuring %.2f s\n",
			xp_test_name(r->test), r->server, (unsigned long long)o->flows,
			o->flows == 1 ? "" : "s", (double)o->length / 1e9);
	if (o->json_stream)
		xp_stream_start(stdout, o, r);
}

static void on_interval(void *ctx, const struct xp_client_result *r,
			const struct xp_interval *iv)
{
	const struct xp_opts *o = ctx;

	if (!o->interval)
		return; /* taken for --plot only */
	if (o->json_stream)
		xp_stream_interval(stdout, iv, r->test);
	else if (!o->json)
		xp_report_interval_human(stdout, o, iv, r->test), fflush(stdout);
}

/* The figure that iterations are compared on. */
static double headline(const struct xp_client_result *r, const char **name)
{
	struct xp_slo_bound b = { .metric = XP_SLO_RATE };

	if (xp_test(r->test)->rr) {
		*name = "transactions_per_second";
	} else {
		*name = "bits_per_second";
		b.metric = XP_SLO_THROUGHPUT;
	}
	double v = 0;

	xp_slo_value(&b, r, &v);
	return v;
}

struct runs {
	struct xp_client_result *r;
	double *v;
	unsigned n;
	const char *metric;
};

static void print_result(const struct xp_cli *c, const struct xp_client_result *r)
{
	if (c->o->json_stream)
		xp_stream_end(stdout, c->o, r, &c->slo);
	else if (!c->o->json) {
		xp_report_human(stdout, c->o, r);
		xp_report_slo_human(stdout, &c->slo, r);
	}
}

static void human_summary(const struct xp_cli *c, const struct runs *rs,
			  const struct xp_stats *st)
{
	printf("iterations %u: %s mean %.6g, median %.6g, stddev %.3g, min %.6g, max %.6g; "
	       "%d%% confidence interval +/- %.3g (%.2f%% of the mean)%s\n", rs->n, rs->metric,
	       st->mean, st->median, st->stddev, st->min, st->max, c->level, st->ci_half,
	       st->ci_percent, c->width && st->ci_percent > c->width ?
	       "; WIDER than asked" : "");
}

static void json_runs(const struct xp_cli *c, const struct runs *rs, const struct xp_stats *st)
{
	struct xp_json j;
	unsigned i;

	xp_json_init(&j, 1);
	xp_json_obj_open(&j, NULL);
	xp_report_json_start(&j, c->o, &rs->r[0], "start");
	xp_json_arr_open(&j, "runs");
	for (i = 0; i < rs->n; i++) {
		xp_json_obj_open(&j, NULL);
		xp_report_json_intervals(&j, &rs->r[i]);
		xp_report_json_end(&j, c->o, &rs->r[i], &c->slo, "end");
		xp_json_obj_close(&j);
	}
	xp_json_arr_close(&j);
	xp_json_obj_open(&j, "iterations");
	xp_json_u64(&j, "count", rs->n);
	xp_json_str_val(&j, "metric", rs->metric);
	xp_json_dbl(&j, "mean", st->mean);
	xp_json_dbl(&j, "median", st->median);
	xp_json_dbl(&j, "stddev", st->stddev);
	xp_json_dbl(&j, "min", st->min);
	xp_json_dbl(&j, "max", st->max);
	xp_json_u64(&j, "confidence_level", (uint64_t)c->level);
	xp_json_dbl(&j, "confidence_interval_half", st->ci_half);
	xp_json_dbl(&j, "confidence_interval_percent", st->ci_percent);
	xp_json_dbl(&j, "width_limit_percent", c->width);
	xp_json_bool(&j, "wider_than_asked", c->width && st->ci_percent > c->width);
	xp_json_obj_close(&j);
	xp_report_json_end(&j, c->o, &rs->r[rs->n - 1], &c->slo, "end");
	xp_json_obj_close(&j);
	fputs(j.oom ? "{\"error\": \"out of memory formatting JSON\"}\n" : xp_json_str(&j), stdout);
	xp_json_free(&j);
}

/* --histogram: every run's round trips together. */
static int write_histogram(const struct xp_cli *c, const struct runs *rs, struct xp_err *err)
{
	struct xp_hist *all = xp_hist_new();
	unsigned i;
	int rc;

	if (!all)
		return xp_err_set(err, "--histogram: out of memory");
	for (i = 0; i < rs->n; i++)
		xp_hist_merge(all, rs->r[i].hist);
	rc = xp_report_histogram(c->o->histogram, all, err);
	xp_hist_free(all);
	return rc;
}

static int finish(const struct xp_cli *c, struct runs *rs, struct xp_err *err)
{
	struct xp_stats st;
	unsigned i;
	int slo_failed = 0;

	for (i = 0; i < rs->n; i++)
		slo_failed |= xp_slo_failures(&c->slo, &rs->r[i]) > 0;
	xp_stats_compute(rs->v, rs->n, c->level, &st);
	if (c->o->json && rs->n > 1)
		json_runs(c, rs, &st);
	else if (c->o->json)
		xp_report_json_slo(stdout, c->o, &rs->r[0], &c->slo);
	else if (rs->n > 1 && !c->o->json_stream)
		human_summary(c, rs, &st);
	if (c->o->plot && xp_report_plot(c->o->plot, c->o, &rs->r[rs->n - 1], err)) {
		fprintf(stderr, "xperf: %s\n", err->msg);
		return XP_EXIT_FAIL;
	}
	if (c->o->histogram && write_histogram(c, rs, err)) {
		fprintf(stderr, "xperf: %s\n", err->msg);
		return XP_EXIT_FAIL;
	}
	if (rs->r[rs->n - 1].interrupted)
		return XP_EXIT_FAIL;
	for (i = 0; i < rs->n && !c->o->trust_server; i++)
		if (rs->r[i].nwarnings) {
			fprintf(stderr, "xperf: warning: the server reported impossible "
				"figures (%s); failing the run (--trust-server accepts "
				"them)\n", rs->r[i].warnings[0]);
			return XP_EXIT_FAIL;
		}
	return slo_failed ? XP_EXIT_SLO : XP_EXIT_OK;
}

/* --plot without -i: intervals for the chart, about 50 over the test. */
static void plot_intervals(const struct xp_opts *o, struct xp_opts *run)
{
	uint64_t iv = o->length / 50;

	*run = *o;
	if (!o->plot || o->interval)
		return;
	iv = iv < 100 * XP_NS_PER_MS ? 100 * XP_NS_PER_MS : iv;
	run->interval = iv > XP_NS_PER_SEC ? XP_NS_PER_SEC : iv;
}

int xp_cli_run(const struct xp_cli *c, const char *host, uint16_t port, int sigfd)
{
	const struct xp_opts *o = c->o;
	struct xp_client_hooks hooks = { (void *)o, on_start, on_interval };
	struct xp_opts run;
	struct runs rs = { 0 };
	struct xp_err err = { "" };
	unsigned i, n = o->iterations ? (unsigned)o->iterations : 1;
	int rc = XP_EXIT_OK;

	rs.r = calloc(n, sizeof(*rs.r));
	rs.v = calloc(n, sizeof(*rs.v));
	if (!rs.r || !rs.v) {
		free(rs.r);
		free(rs.v);
		return xp_cli_fail(o, "out of memory");
	}
	plot_intervals(o, &run);
	for (i = 0; i < n; i++) {
		if (o->verbose)
			fprintf(stderr, "xperf: run %u/%u: connecting to %s port %u\n", i + 1, n,
				host, port);
		if (xp_client_run_ex(&run, host, port, sigfd, &hooks, &rs.r[i], &err)) {
			xp_client_result_free(&rs.r[i]);
			rc = xp_cli_fail(o, err.msg);
			break;
		}
		rs.n++;
		rs.v[i] = headline(&rs.r[i], &rs.metric);
		if (o->verbose)
			fprintf(stderr, "xperf: run %u/%u done%s\n", i + 1, n,
				rs.r[i].interrupted ? " (interrupted)" : "");
		if (!o->json || o->json_stream)
			print_result(c, &rs.r[i]);
		if (n > 1 && !o->json && !o->json_stream)
			printf("iteration %u/%u: %s %.6g\n\n", i + 1, n, rs.metric, rs.v[i]);
		if (rs.r[i].interrupted)
			break;
	}
	if (rc == XP_EXIT_OK)
		rc = finish(c, &rs, &err);
	for (i = 0; i < rs.n; i++)
		xp_client_result_free(&rs.r[i]);
	free(rs.r);
	free(rs.v);
	return rc;
}
