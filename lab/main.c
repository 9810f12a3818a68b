/* SPDX-License-Identifier: BSD-2-Clause */
/* xperf lab's driver: options, root check, --dry-run, --cleanup, and the
 * matrix of topologies x tests with teardown on every path.  SIGINT,
 * SIGTERM and SIGHUP are blocked before any thread exists and read from a
 * signalfd, so a signal only ever ends a test early; the namespaces are
 * then removed as on any other exit. */
#include "lab/lab.h"
#include "common/signals.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "client/report/report.h"
#include "common/exitcodes.h"
#include "common/json.h"
#include "lab/between.h"
#include "lab/cleanup.h"
#include "lab/exec.h"
#include "lab/hook.h"
#include "lab/opts.h"
#include "lab/render.h"
#include "lab/plot.h"
#include "lab/report.h"
#include "lab/report_wan.h"
#include "lab/run.h"
#include "lab/wanrun.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0"
#endif

#define CAP_NET_ADMIN_BIT 12
#define CAP_SYS_ADMIN_BIT 21

struct lab {
	struct xp_lab_cfg c;
	struct xp_lab_report rep;
	struct xp_lab_plan plan;
	int sigfd;
	int json, verbose;
	int stuck;         /* a test thread was abandoned: stop everything */
	struct xp_wan_line *line; /* the delay line of the topology running */
};

static int wants_json(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-J"))
			return 1;
	return 0;
}

static void json_error(const char *msg)
{
	struct xp_json j;

	xp_json_init(&j, 1);
	xp_json_obj_open(&j, NULL);
	xp_json_str_val(&j, "error", msg);
	xp_json_obj_close(&j);
	fputs(xp_json_str(&j), stdout);
	xp_json_free(&j);
}

static int fail(int json, int status, const char *msg)
{
	if (json)
		json_error(msg);
	fprintf(stderr, "xperf lab: %s\n", msg);
	return status;
}

/* Effective capabilities from /proc (no libcap): NET_ADMIN for links and
 * qdiscs, SYS_ADMIN for namespaces and mounts. */
static const char *missing_cap(void)
{
	unsigned long long eff = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1) {
			found = 1;
			break;
		}
	if (f)
		fclose(f);
	if (!found)
		return geteuid() ? "CAP_NET_ADMIN" : NULL;
	if (!(eff & (1ull << CAP_NET_ADMIN_BIT)))
		return "CAP_NET_ADMIN";
	if (!(eff & (1ull << CAP_SYS_ADMIN_BIT)))
		return "CAP_SYS_ADMIN";
	return NULL;
}

/* Netem or the delay line, for an impairment left to auto: netem where
 * the kernel has it.  The choice and why go into the report. */
static void impair_with(struct lab *l)
{
	struct xp_wan *w = &l->c.knobs.wan;
	struct xp_err err = { "" };
	int has;

	if (!w->on)
		return;
	if (w->with != XP_WAN_AUTO) {
		snprintf(l->rep.impair_note, sizeof(l->rep.impair_note), "--impair-with %s",
			 xp_wan_with_name(w->with));
	} else if ((has = xp_lab_netem_probe(&err)) < 0) {
		w->with = XP_WAN_NETEM;
		snprintf(l->rep.impair_note, sizeof(l->rep.impair_note),
			 "netem assumed: could not probe for it (%.110s)", err.msg);
	} else {
		w->with = has ? XP_WAN_NETEM : XP_WAN_LINE;
		snprintf(l->rep.impair_note, sizeof(l->rep.impair_note), "%s",
			 has ? "this kernel has netem" : "this kernel lacks netem");
	}
	l->rep.impaired_by = w->with;
	l->rep.line_cpu = l->c.knobs.line_cpu;
}

/* The test options as shell words, for the commented commands. */
static void test_args(const struct xp_lab_cfg *c, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");
	int i;

	buf[0] = 0;
	if (!f)
		return;
	for (i = 0; i < c->npass; i++) {
		xp_lab_shell_word(f, c->pass[i]);
		fputc(' ', f);
	}
	fprintf(f, "-t %s", xp_test_name(c->opts[0].test));
	fclose(f);
}

static int dry_run(struct lab *l)
{
	char args[1024];
	struct xp_err err;
	int i;

	test_args(&l->c, args, sizeof(args));
	impair_with(l);
	for (i = 0; i < l->c.ntopo; i++) {
		if (xp_lab_plan_make(&l->plan, l->c.topo[i], (unsigned)getpid(),
				     &l->c.knobs, &err))
			return fail(0, XP_EXIT_FAIL, err.msg);
		if (i)
			putchar('\n');
		if (l->plan.wan.on)
			printf("# impairment by %s (%s)\n", l->plan.wan.with == XP_WAN_LINE ?
			       "xperf's delay line" : "netem", l->rep.impair_note);
		xp_lab_render(stdout, &l->plan, l->plan.wan.on ? "a WAN path: each end's "
			      "veth into a middle namespace that holds the impairment"
			      : l->c.topo[i]->what, args);
		if (l->c.a.exec) {
			printf("# then, before teardown (--exec, killed after %llu s), with\n",
			       (unsigned long long)l->c.a.exec_timeout);
			xp_lab_hook_env(stdout, &l->plan, l->c.opts[0].ipv6);
			printf("sh -c ");
			xp_lab_shell_word(stdout, l->c.a.exec);
			putchar('\n');
		}
	}
	return XP_EXIT_OK;
}

static int cleanup(struct lab *l)
{
	struct xp_lab_clean *r = calloc(1, sizeof(*r));
	struct xp_json j;
	int i, rc;

	if (!r)
		return fail(l->json, XP_EXIT_FAIL, "out of memory");
	rc = xp_lab_cleanup(r, 0);
	for (i = 0; i < r->nremoved; i++)
		fprintf(l->json ? stderr : stdout, "xperf lab: removed namespace %s\n",
			r->removed[i]);
	for (i = 0; i < r->nin_use; i++)
		fprintf(stderr, "xperf lab: kept %s: its xperf process is still running\n",
			r->in_use[i]);
	if (rc)
		fprintf(stderr, "xperf lab: cleanup: %s\n", r->err.msg);
	if (l->json) {
		xp_json_init(&j, 1);
		xp_json_obj_open(&j, NULL);
		xp_json_arr_open(&j, "removed");
		for (i = 0; i < r->nremoved; i++)
			xp_json_str_val(&j, NULL, r->removed[i]);
		xp_json_arr_close(&j);
		xp_json_u64(&j, "in_use", (uint64_t)r->nin_use);
		xp_json_bool(&j, "ok", rc == 0);
		xp_json_obj_close(&j);
		fputs(xp_json_str(&j), stdout);
		xp_json_free(&j);
	} else if (!r->nremoved) {
		printf("xperf lab: nothing to clean up\n");
	}
	free(r);
	return rc ? XP_EXIT_FAIL : XP_EXIT_OK;
}

/* --client-json: the measurement's own client document, or its error. */
static void client_json(const struct lab *l, const struct xp_opts *o,
			const struct xp_lab_row *row, int multi,
			const struct xp_client_result *r, const char *error)
{
	char path[4096];
	FILE *f;

	if (!l->c.a.client_json)
		return;
	snprintf(path, sizeof(path), "%s/%s-%s%s.json", l->c.a.client_json, row->topology,
		 xp_test_name(o->test), multi ? "-multi" : "");
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "xperf lab: --client-json: %s: %s\n", path, strerror(errno));
		return;
	}
	if (error)
		xp_report_json_error(f, o, error);
	else
		xp_report_json(f, o, r);
	if (fclose(f))
		fprintf(stderr, "xperf lab: --client-json: %s: %s\n", path, strerror(errno));
}

/* One measurement into row; 0, or -1 with row marked failed. */
static int measure(struct lab *l, const struct xp_opts *o, const struct xp_lab_where *w,
		   struct xp_lab_row *row, int multi)
{
	struct xp_client_result r;
	struct xp_err err = { "" };
	struct xp_wan_stats before, after;
	int interrupted = 0;

	if (l->line) {
		xp_wan_line_mark(l->line);
		xp_wan_line_read(l->line, &before);
	}
	if (xp_lab_measure(o, w, l->sigfd, &r, &interrupted, &l->stuck, &err)) {
		row->status = XP_ROW_FAILED;
		snprintf(row->msg, sizeof(row->msg), "%s", err.msg);
		l->rep.interrupted |= interrupted;
		client_json(l, o, row, multi, NULL, err.msg);
		if (l->line) { /* what the path did to a test that failed */
			xp_wan_line_read(l->line, &after);
			xp_lab_row_line(row, &l->rep.ceiling, &after, &before, 0);
		}
		return -1;
	}
	client_json(l, o, row, multi, &r, NULL);
	xp_lab_row_fill(row, &r, multi);
	if (l->line) {
		xp_wan_line_read(l->line, &after);
		xp_lab_row_line(row, &l->rep.ceiling, &after, &before, r.local.active_ns);
	}
	xp_client_result_free(&r);
	if (interrupted || r.interrupted) {
		l->rep.interrupted = 1;
		row->status = XP_ROW_FAILED;
		snprintf(row->msg, sizeof(row->msg), "interrupted");
		return -1;
	}
	return 0;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* -I runs of one measurement: the row keeps the median of the main
 * figure (single-flow Gbit/s, or transactions/s) and its spread. */
static int measure_runs(struct lab *l, const struct xp_opts *o,
			const struct xp_lab_where *w, struct xp_lab_row *row, int multi)
{
	unsigned i, n = o->iterations ? (unsigned)o->iterations : 1;
	double v[1000];
	double *fig = multi ? &row->gbps_multi : row->stream ? &row->gbps1 : &row->tps;

	for (i = 0; i < n; i++) {
		if (measure(l, o, w, row, multi))
			return -1;
		v[i] = *fig;
	}
	qsort(v, n, sizeof(v[0]), cmp_dbl);
	*fig = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	if (!multi) {
		row->runs = n;
		row->lo = v[0];
		row->hi = v[n - 1];
	}
	return 0;
}

static void run_test(struct lab *l, int ti, const struct xp_lab_where *w,
		     struct xp_lab_row *row)
{
	struct xp_opts o = l->c.opts[ti];

	row->stream = xp_test(o.test)->bulk;
	row->rr = !row->stream;
	row->flows = (uint32_t)o.flows;
	if (l->verbose)
		fprintf(stderr, "xperf lab: %s: %s\n", row->topology, xp_test_name(o.test));
	if (row->stream) {
		o.flows = 1;
		o.threads = 1;
		if (measure_runs(l, &o, w, row, 0))
			return;
		if (l->c.a.multi > 1) {
			row->multi = (uint32_t)l->c.a.multi;
			o = l->c.opts[ti];
			o.flows = l->c.a.multi;
			if (o.threads > o.flows)
				o.threads = o.flows;
			if (measure_runs(l, &o, w, row, 1))
				return;
		}
	} else if (measure_runs(l, &o, w, row, 0)) {
		return;
	}
	row->status = XP_ROW_OK;
}

static void where(const struct lab *l, const struct xp_lab_env *e, struct xp_lab_where *w)
{
	const struct xp_lab_plan *p = &l->plan;

	w->client_ns = e->fd[p->client_ns];
	w->server_ns = e->fd[p->server_ns];
	w->server_addr = l->c.opts[0].ipv6 ? p->server6 : p->server4;
}

static void set_rows(struct xp_lab_row *rows, int n, enum xp_lab_status st,
		     const char *msg, const char *feature)
{
	int i;

	for (i = 0; i < n; i++)
		if (rows[i].status == XP_ROW_SKIPPED) {
			rows[i].status = st;
			snprintf(rows[i].msg, sizeof(rows[i].msg), "%s", msg);
			snprintf(rows[i].feature, sizeof(rows[i].feature), "%s", feature);
		}
}

static void build_failed(struct lab *l, const struct xp_lab_env *e, struct xp_lab_row *rows,
			 const char *why)
{
	const char *name = l->plan.topology;
	char msg[200];

	if (e->interrupted) {
		l->rep.interrupted = 1;
		set_rows(rows, l->c.ntests, XP_ROW_SKIPPED, "interrupted", "");
	} else if (e->unsupported[0]) {
		snprintf(msg, sizeof(msg), "this kernel lacks the %s", e->unsupported);
		set_rows(rows, l->c.ntests, XP_ROW_UNSUPPORTED, msg, e->unsupported);
	} else {
		set_rows(rows, l->c.ntests, XP_ROW_FAILED, why, "");
	}
	if (e->unsupported[0])
		fprintf(stderr, "xperf lab: %s: unsupported: this kernel lacks the %s (%s)\n",
			name, e->unsupported, why);
	else if (!e->interrupted)
		fprintf(stderr, "xperf lab: %s: %s\n", name, why);
}

/* The delay line's ceiling, once per lab run (-l does not change it). */
static void calibrate(struct lab *l, const struct xp_lab_where *w)
{
	struct xp_err err = { "" };
	int interrupted = 0;

	if (!l->line || !l->c.a.line_calibrate || l->rep.ceiling.measured)
		return;
	if (l->verbose)
		fprintf(stderr, "xperf lab: measuring the delay line's ceiling\n");
	if (xp_lab_line_calibrate(l->line, w, l->c.opts[0].ipv6, l->sigfd,
				  l->c.a.line_calibrate, &l->rep.ceiling, &interrupted,
				  &l->stuck, &err))
		fprintf(stderr, "xperf lab: the delay line's ceiling: %s\n",
			l->rep.ceiling.msg);
	l->rep.interrupted |= interrupted;
}

/* A line that stopped on an error fails the rows measured through it. */
static void line_failed(struct lab *l, struct xp_lab_row *rows)
{
	struct xp_err err;
	char msg[XP_ERR_MAX + 32];
	int i;

	if (!l->line || !xp_wan_line_failed(l->line, &err))
		return;
	snprintf(l->rep.line_error, sizeof(l->rep.line_error), "%s", err.msg);
	snprintf(msg, sizeof(msg), "the delay line stopped: %s", err.msg);
	fprintf(stderr, "xperf lab: %s\n", msg);
	for (i = 0; i < l->c.ntests; i++)
		if (rows[i].status == XP_ROW_OK) {
			rows[i].status = XP_ROW_FAILED;
			snprintf(rows[i].msg, sizeof(rows[i].msg), "%.399s", msg);
		}
}

/* --exec, after the tests of topology number ti, over the same path. */
static void run_hook(struct lab *l, int ti)
{
	struct xp_lab_hook *h = &l->rep.hook[ti];

	if (!l->c.a.exec)
		return;
	if (l->rep.interrupted || l->stuck) {
		snprintf(h->msg, sizeof(h->msg), "the lab was interrupted first");
		return;
	}
	if (l->verbose)
		fprintf(stderr, "xperf lab: %s: --exec %s\n", l->plan.topology, l->c.a.exec);
	if (xp_lab_hook_run(l->c.a.exec, &l->plan, l->c.opts[0].ipv6, l->json,
			    (unsigned)l->c.a.exec_timeout, l->sigfd, h))
		fprintf(stderr, "xperf lab: %s: %s\n", l->plan.topology, h->msg);
	l->rep.interrupted |= h->interrupted;
}

/* Build, measure every test, tear down.  Rows start as "skipped". */
static void run_topology(struct lab *l, int ti)
{
	const struct xp_lab_topo *t = l->c.topo[ti];
	struct xp_lab_row *rows = &l->rep.row[l->rep.n];
	struct xp_lab_env e;
	struct xp_lab_where w;
	struct xp_err err = { "" };
	int i;

	for (i = 0; i < l->c.ntests; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		rows[i].topology = t->name;
		rows[i].test = l->c.opts[i].test;
		rows[i].status = XP_ROW_SKIPPED;
	}
	l->rep.n += l->c.ntests;
	if (xp_lab_plan_make(&l->plan, t, l->rep.id, &l->c.knobs, &err)) {
		set_rows(rows, l->c.ntests, XP_ROW_FAILED, err.msg, "");
		return;
	}
	xp_lab_env_init(&e, &l->plan);
	if (xp_lab_exec(&e, l->sigfd, &err)) {
		build_failed(l, &e, rows, err.msg);
		snprintf(l->rep.hook[ti].msg, sizeof(l->rep.hook[ti].msg), "the path was not built");
	} else {
		if (l->verbose)
			fprintf(stderr, "xperf lab: %s: built in %d steps\n", t->name,
				l->plan.nsteps);
		where(l, &e, &w);
		l->line = e.line;
		calibrate(l, &w);
		for (i = 0; i < l->c.ntests && !l->rep.interrupted && !l->stuck; i++)
			run_test(l, i, &w, &rows[i]);
		run_hook(l, ti);
		line_failed(l, rows);
		l->line = NULL;
		for (i = 0; i < l->c.ntests; i++)
			if (rows[i].status == XP_ROW_FAILED && strcmp(rows[i].msg, "interrupted"))
				fprintf(stderr, "xperf lab: %s %s: %s\n", t->name,
					xp_test_name(rows[i].test), rows[i].msg);
	}
	if (xp_lab_teardown(&e, &err) && !l->rep.teardown_error[0]) {
		snprintf(l->rep.teardown_error, sizeof(l->rep.teardown_error), "%s", err.msg);
		fprintf(stderr, "xperf lab: teardown: %s\n", err.msg);
	}
	set_rows(rows, l->c.ntests, XP_ROW_SKIPPED, "interrupted", "");
}

/* Rows of a topology never started (after an interruption). */
static void skip_topology(struct lab *l, const struct xp_lab_topo *t)
{
	int k;

	for (k = 0; k < l->c.ntests; k++) {
		struct xp_lab_row *r = &l->rep.row[l->rep.n++];

		memset(r, 0, sizeof(*r));
		r->topology = t->name;
		r->test = l->c.opts[k].test;
		r->status = XP_ROW_SKIPPED;
		snprintf(r->msg, sizeof(r->msg), "%s", l->stuck ? "not run" : "interrupted");
	}
}

static int run_matrix(struct lab *l)
{
	struct xp_err err;
	struct xp_lab_clean *stale = calloc(1, sizeof(*stale));
	int i, rc = 0;

	l->rep.id = (unsigned)getpid();
	l->rep.has_hook = l->c.a.exec != NULL;
	impair_with(l);
	/* Names carry our pid, so any xperf-<our pid>-* is a dead run's. */
	if (stale)
		xp_lab_cleanup(stale, l->rep.id);
	free(stale);
	for (i = 0; i < l->c.ntopo; i++)
		if (l->rep.interrupted || l->stuck)
			skip_topology(l, l->c.topo[i]);
		else
			run_topology(l, i);
	if (l->json)
		rc = xp_lab_json(stdout, &l->c, &l->rep);
	else
		xp_lab_table(stdout, &l->c, &l->rep);
	fflush(stdout);
	if (l->c.a.plot && xp_lab_plot(l->c.a.plot, &l->c, &l->rep, &err)) {
		fprintf(stderr, "xperf lab: %s\n", err.msg);
		rc = -1;
	}
	if (rc || xp_lab_failed_rows(&l->rep) || xp_lab_failed_hooks(&l->c, &l->rep) ||
	    l->rep.interrupted ||
	    l->rep.teardown_error[0])
		return XP_EXIT_FAIL;
	return XP_EXIT_OK;
}

static int run(struct lab *l, int argc, char **argv)
{
	struct xp_err err = { "" };
	const char *cap;

	l->json = wants_json(argc, argv);
	if (xp_lab_parse(&l->c, argc, argv, &err)) {
		if (l->json)
			json_error(err.msg);
		fprintf(stderr, "xperf lab: %s (see xperf lab --help)\n", err.msg);
		return XP_EXIT_USAGE;
	}
	if (l->c.a.help) {
		xp_lab_usage(stdout);
		return XP_EXIT_OK;
	}
	if (l->c.opts[0].version) {
		printf("xperf %s\n", PACKAGE_VERSION);
		return XP_EXIT_OK;
	}
	l->json = l->c.opts[0].json;
	l->verbose = l->c.opts[0].verbose;
	if (l->c.a.dry_run)
		return dry_run(l);
	if ((cap = missing_cap())) {
		snprintf(err.msg, sizeof(err.msg), "needs root (%s)", cap);
		return fail(l->json, XP_EXIT_FAIL, err.msg);
	}
	if (l->c.a.cleanup)
		return cleanup(l);
	if (l->c.a.line_between)
		return xp_lab_between(&l->c, l->sigfd, l->json);
	return run_matrix(l);
}

int xp_lab_main(int argc, char **argv)
{
	struct lab *l;
	int rc, sigfd = xp_signal_fd();

	l = calloc(1, sizeof(*l));
	if (!l) {
		fprintf(stderr, "xperf lab: out of memory\n");
		return XP_EXIT_FAIL;
	}
	l->sigfd = sigfd;
	rc = run(l, argc, argv);
	free(l);
	if (sigfd >= 0)
		close(sigfd);
	return rc;
}
