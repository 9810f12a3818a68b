/* SPDX-License-Identifier: BSD-2-Clause */
/* `iperf3 -s` (client/iperf3/srv.h): an xperf server on iperf3's port,
 * which answers stock iperf3 clients (and xperf's own, as `xperf -s`
 * does), printing for each iperf3 test what iperf3's server prints: the
 * "Server listening" banner, the connection, each interval, its own
 * summary; or one JSON document per test (-J), or JSON lines
 * (--json-stream).  -D, --logfile, --pidfile and -1 behave as iperf3's,
 * so that scripts starting a server per port keep working. */
#include "client/iperf3/cli.h"
#include "client/iperf3/srv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/signals.h"
#include "server/start.h"

#define BANNER_LINE "-----------------------------------------------------------\n"

struct srv {
	const struct xp_i3fe_cfg *c;
	struct xp_server *s;
	struct xp_i3out o;
	struct xp_i3_report rep;
	int have;                  /* rep holds a test */
	struct xp_i3srv_flow *prev;
	double prev_t;
	unsigned long long tests;  /* iperf3 tests begun */
	int json, stream;
	int one_off_done;
};

static void emit(struct srv *v, struct xp_json *j)
{
	if (!j->oom)
		fputs(xp_json_str(j), v->o.f);
	xp_json_free(j);
	fflush(v->o.f);
}

static void banner(struct srv *v)
{
	if (v->json || v->stream)
		return;
	xp_i3out_printf(&v->o, "%sServer listening on %u (test #%llu)\n%s", BANNER_LINE,
			xp_server_port(v->s), v->tests + 1, BANNER_LINE);
	fflush(v->o.f);
}

static void drop(struct srv *v)
{
	if (v->have)
		xp_i3r_free(&v->rep);
	free(v->prev);
	v->prev = NULL;
	v->have = 0;
}

static void on_accept(void *ctx, const struct xp_i3srv_view *w)
{
	struct srv *v = ctx;

	drop(v);
	if (xp_i3s_setup(&v->rep, w, v->c))
		return;
	v->have = 1;
	v->rep.timesecs = (int64_t)time(NULL);
	xp_i3r_system_info(v->rep.system_info, sizeof(v->rep.system_info));
	if (!v->json && !v->stream) {
		if (v->c->verbose) {
			char t[64];
			time_t s = (time_t)v->rep.timesecs;
			struct tm tm;

			if (gmtime_r(&s, &tm) && strftime(t, sizeof(t), "%a, %d %b %Y %H:%M:%S %Z",
							  &tm))
				xp_i3out_printf(&v->o, "Time: %s\n", t);
		}
		xp_i3t_accepted(&v->o, &v->rep);
	}
}

static void on_start(void *ctx, const struct xp_i3srv_view *w)
{
	struct srv *v = ctx;
	struct xp_json j;

	if (!v->have)
		return;
	xp_i3s_started(&v->rep, w);
	v->prev = calloc(v->rep.nstreams ? v->rep.nstreams : 1, sizeof(*v->prev));
	v->prev_t = 0;
	if (v->stream) {
		xp_json_init(&j, 0);
		xp_i3j_event_start(&j, &v->rep);
		emit(v, &j);
	} else if (!v->json) {
		xp_i3t_connected(&v->o, &v->rep);
		fflush(v->o.f);
	}
}

static void on_interval(void *ctx, const struct xp_i3srv_view *w)
{
	struct srv *v = ctx;
	struct xp_json j;
	int rc;

	if (!v->have || !v->prev)
		return;
	rc = xp_i3s_interval(&v->rep, w, v->prev, v->prev_t, v->c->interval);
	if (rc <= 0)
		return;
	v->prev_t = w->t;
	if (v->stream) {
		xp_json_init(&j, 0);
		xp_i3j_event_interval(&j, &v->rep, v->rep.nintervals - 1);
		emit(v, &j);
	} else if (!v->json) {
		xp_i3t_interval(&v->o, &v->rep, v->rep.nintervals - 1);
	}
}

static void print_end(struct srv *v)
{
	struct xp_json j;

	if (v->json || v->stream) {
		xp_json_init(&j, v->json && !v->stream);
		if (v->stream)
			xp_i3j_event_end(&j, &v->rep);
		else
			xp_i3j_document(&j, &v->rep);
		emit(v, &j);
	} else if (v->rep.error[0]) {
		struct xp_i3out e = v->o;

		e.f = v->c->logfile ? v->o.f : stderr;
		xp_i3out_printf(&e, "iperf3: error - %s\n", v->rep.error);
		fflush(e.f);
	} else {
		xp_i3t_summary(&v->o, &v->rep);
	}
}

static void on_end(void *ctx, const struct xp_i3srv_view *w)
{
	struct srv *v = ctx;

	if (v->have) {
		if (w->error)
			snprintf(v->rep.error, sizeof(v->rep.error), "%s", w->error);
		else
			xp_i3s_end(&v->rep, w->mine, w->theirs);
		print_end(v);
	}
	drop(v);
	v->tests++;
	if (v->c->one_off) {
		v->one_off_done = 1;
		xp_server_stop(v->s);
		return;
	}
	banner(v);
}

/* -D after the port is bound (so that a busy port is an error on the
 * terminal), then the pid file as iperf3 writes it, opened before (a
 * relative name is where the command ran, not the daemon's "/"). */
static int daemonize(const struct xp_i3fe_cfg *c)
{
	FILE *pf = NULL;

	if (c->pidfile && !(pf = fopen(c->pidfile, "we"))) {
		fprintf(stderr, "iperf3: error - unable to write PID file: %s\n", strerror(errno));
		return -1;
	}
	if (c->daemon && daemon(0, 0)) {
		fprintf(stderr, "iperf3: error - unable to become a daemon: %s\n", strerror(errno));
		if (pf)
			fclose(pf);
		return -1;
	}
	if (pf) {
		fprintf(pf, "%d", (int)getpid());
		fclose(pf);
	}
	return 0;
}

/* The pid file's name from anywhere (the daemon runs in "/"). */
static void pidfile_path(const char *name, char *buf, size_t len)
{
	char cwd[4096];

	if (name[0] != '/' && getcwd(cwd, sizeof(cwd)))
		snprintf(buf, len, "%s/%s", cwd, name);
	else
		snprintf(buf, len, "%s", name);
}

static int serve(struct srv *v, struct xp_server_cfg *cfg, struct xp_i3fe_run *run)
{
	struct xp_err err;
	int rc;

	v->s = xp_server_open(cfg, &err);
	if (!v->s) {
		fprintf(v->c->logfile ? v->o.f : stderr, "iperf3: error - unable to start "
			"listener for connections: %s\n", err.msg);
		return XP_I3FE_EXIT_FAIL;
	}
	if (daemonize(v->c) ||
	    xp_server_watch_signals(v->s, xp_signal_fd(), cfg->log)) {
		xp_server_close(v->s);
		return XP_I3FE_EXIT_FAIL;
	}
	if (v->c->daemon && !v->c->logfile)
		v->o.f = fopen("/dev/null", "we") ? : stdout;
	if (v->c->verbose && !v->json && !v->stream) {
		char ver[96], info[256];

		xp_i3r_version(ver, sizeof(ver));
		xp_i3r_system_info(info, sizeof(info));
		xp_i3out_printf(&v->o, "%s\n%s\n", ver, info);
	}
	banner(v);
	rc = xp_server_run(v->s);
	xp_server_close(v->s);
	(void)run;
	if (v->one_off_done)
		return XP_I3FE_EXIT_OK;
	xp_i3out_printf(&(struct xp_i3out){ v->c->logfile ? v->o.f : stderr, NULL, NULL, 0 },
			"iperf3: interrupt - the server has terminated\n");
	return rc ? XP_I3FE_EXIT_FAIL : XP_I3FE_EXIT_FAIL;
}

int xp_i3fe_server(const struct xp_i3fe_cfg *c, struct xp_i3fe_run *run)
{
	struct xp_i3srv_hooks hooks = { 0 };
	struct xp_server_cfg cfg;
	char pidfile[4200];
	struct srv v;
	int rc;

	memset(&v, 0, sizeof(v));
	v.c = c;
	v.json = c->json && !c->json_stream;
	v.stream = c->json_stream;
	v.o.f = c->logfile ? fopen(c->logfile, "ae") : stdout;
	v.o.tsfmt = c->timestamps;
	v.o.flush = 1;
	if (!v.o.f) {
		fprintf(stderr, "iperf3: error - unable to open log file: %s\n", strerror(errno));
		return XP_I3FE_EXIT_FAIL;
	}
	hooks.ctx = &v;
	hooks.interval_ns = (uint64_t)(c->interval * 1e9 + 0.5);
	hooks.on_accept = on_accept;
	hooks.on_start = on_start;
	hooks.on_interval = on_interval;
	hooks.on_end = on_end;
	xp_server_cfg_from_opts(&run->o, &cfg);
	cfg.one_off = 0;          /* -1 counts iperf3 tests (on_end) */
	/* xperf's own log (its failures, and xperf clients'), never mixed
	 * into iperf3's output: stderr, nothing for a daemon */
	cfg.log = c->daemon || c->logfile ? NULL : stderr;
	cfg.verbose = 0;
	cfg.i3_hooks = &hooks;
	if (c->pidfile)
		pidfile_path(c->pidfile, pidfile, sizeof(pidfile));
	rc = serve(&v, &cfg, run);
	if (c->pidfile)
		unlink(pidfile); /* as iperf3 does on its way out */
	drop(&v);
	if (v.o.f != stdout)
		fclose(v.o.f);
	return rc;
}
