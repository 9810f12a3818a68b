/* SPDX-License-Identifier: BSD-2-Clause */
/* `netperf` (or `xperf --netperf-args`): parse netperf's command line,
 * find what the output needs from this host (socket buffer sizes, CPU
 * count, congestion control, the server's address), run the test once or
 * until the -i/-I confidence interval is reached, print as netperf does.
 * Exit status as netperf: 0, 1 usage, 255 when the run fails. */
#include "client/netperf.h"
#include "common/signals.h"

#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/hist.h"
#include "common/sock.h"
#include "proto/msg.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0"
#endif

#define MAX_ITER 30

struct np_ctx {
	const char *prog;
	struct xp_np_cfg cfg;
	struct xp_np_env env;
	char dest_numeric[64], cong[32], uuid[40];
	int sigfd;
	int banner_done;
};

/* What the kernel reports for a fresh socket of the test's type after
 * asking for the given sizes (Linux doubles what is asked).  The remote
 * side is probed here too: exact on loopback, the client's defaults
 * otherwise (xperf's RESULT does not carry the server's buffer sizes). */
static void probe_bufs(int test, int family, uint64_t snd, uint64_t rcv,
		       uint64_t *snd_out, uint64_t *rcv_out)
{
	int fd = socket(family == AF_INET6 ? AF_INET6 : AF_INET,
			xp_test(test)->sock_type, 0);
	int v;
	socklen_t len = sizeof(v);

	*snd_out = snd;
	*rcv_out = rcv;
	if (fd < 0)
		return;
	v = (int)snd;
	if (snd)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
	v = (int)rcv;
	if (rcv)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &len) == 0)
		*snd_out = (uint64_t)v;
	len = sizeof(v);
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &len) == 0)
		*rcv_out = (uint64_t)v;
	close(fd);
}

static void read_cong(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/net/ipv4/tcp_congestion_control", "re");

	buf[0] = 0;
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

static void make_uuid(char *buf, size_t len)
{
	unsigned char b[16] = { 0 };

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		memset(b, 0, sizeof(b));
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
	snprintf(buf, len, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4], b[5], b[6],
		 b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

/* Resolve the server once, as netperf does before printing anything. */
static int resolve_dest(struct np_ctx *x, struct xp_err *err)
{
	struct xp_addr a;

	if (xp_resolve(x->cfg.host, x->cfg.port, x->cfg.family, &a, err))
		return -1;
	if (getnameinfo((struct sockaddr *)&a.ss, a.len, x->dest_numeric,
			sizeof(x->dest_numeric), NULL, 0, NI_NUMERICHOST))
		x->dest_numeric[0] = 0;
	x->env.dest_numeric = x->dest_numeric;
	x->env.dest_family = a.ss.ss_family;
	return 0;
}

static int setup_env(struct np_ctx *x, struct xp_err *err)
{
	struct xp_np_cfg *c = &x->cfg;
	struct xp_np_env *e = &x->env;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (resolve_dest(x, err))
		return -1;
	e->ncpus_local = c->ncpus ? c->ncpus : n > 0 ? (int)n : 1;
	e->ncpus_remote = n > 0 ? (int)n : 1;
	probe_bufs(c->test, e->dest_family, c->lss, c->lsr, &e->lss, &e->lsr);
	probe_bufs(c->test, e->dest_family, c->rss, c->rsr, &e->rss, &e->rsr);
	read_cong(x->cong, sizeof(x->cong));
	e->cong = x->cong;
	if (!c->uuid)
		make_uuid(x->uuid, sizeof(x->uuid));
	e->uuid = c->uuid ? c->uuid : x->uuid;
	xp_np_fill_defaults(c, e->lss, e->rss);
	return 0;
}

/* A selector argument that is not a list names a file of selectors, one
 * output line per text line (netperf's -o FILE). */
static int load_selectors(struct np_ctx *x, struct xp_err *err)
{
	char text[8192];
	size_t n;
	FILE *f;

	if (!x->cfg.sel_spec || xp_np_spec_is_list(x->cfg.sel_spec))
		return 0;
	f = fopen(x->cfg.sel_spec, "re");
	if (!f)
		return xp_err_sys(err, errno, "output selection file %s", x->cfg.sel_spec);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	xp_np_select(&x->cfg, text);
	return 0;
}

static void print_run(struct np_ctx *x, struct xp_client_result *last,
		      struct xp_hist *all, const struct xp_np_summary *sum)
{
	struct xp_hist *own = last->hist;
	struct xp_np_run run = { &x->cfg, &x->env, last, sum };

	last->hist = all; /* percentiles over every iteration, as netperf */
	xp_np_print_result(stdout, &run);
	last->hist = own;
}

/* The banner goes out once the server has accepted the first test, as
 * netperf prints it only after its control connection is up. */
static void on_start(void *ctx, const struct xp_client_result *r)
{
	struct np_ctx *x = ctx;

	(void)r;
	if (x->cfg.headers && !x->banner_done)
		xp_np_print_banner(stdout, &x->cfg, &x->env);
	x->banner_done = 1;
}

/* One run; its figures join the summary.  0, or -1 (message printed). */
static int run_once(struct np_ctx *x, struct xp_client_result *r, struct xp_hist *all,
		    struct xp_np_measure *m, int n, struct xp_np_summary *sum)
{
	struct xp_client_hooks hooks = { x, on_start, NULL };
	struct xp_err err = { "" };

	if (x->cfg.wait_secs)
		sleep(x->cfg.wait_secs);
	if (xp_client_run_ex(&x->cfg.opts, x->cfg.host, x->cfg.port, x->sigfd, &hooks, r,
			     &err)) {
		fprintf(stderr, "%s: %s%s\n", x->prog, err.msg, strstr(err.msg, "refused") ?
			" (is an `xperf -s` server listening there?)" : "");
		return -1;
	}
	for (int i = 0; i < r->nwarnings; i++) /* impossible server figures */
		fprintf(stderr, "%s: warning: %s\n", x->prog, r->warnings[i]);
	if (r->nwarnings && !x->cfg.opts.trust_server)
		return -1;
	xp_np_measure(&x->cfg, &x->env, r, &m[n]);
	xp_hist_merge(all, r->hist);
	sum->transactions += r->local.c.transactions;
	sum->elapsed_total_s += (double)r->local.active_ns / 1e9;
	return 0;
}

/* Iterate until netperf would stop, then print.  Exit status. */
static int run_tests(struct np_ctx *x)
{
	struct xp_np_measure m[MAX_ITER];
	struct xp_np_summary sum;
	struct xp_client_result r;
	struct xp_hist *all = xp_hist_new();
	int n = 0, more = 1, failed = 0, rc = XP_NP_EXIT_OK;

	if (!all) {
		fprintf(stderr, "%s: out of memory\n", x->prog);
		return XP_NP_EXIT_FAIL;
	}
	memset(&sum, 0, sizeof(sum));
	while (more && n < MAX_ITER) {
		if (n)
			xp_client_result_free(&r);
		if (run_once(x, &r, all, m, n, &sum)) {
			failed = 1; /* netperf prints no result either */
			rc = XP_NP_EXIT_FAIL;
			break;
		}
		more = xp_np_summarize(&x->cfg, m, ++n, &sum);
		if (r.interrupted) {
			fprintf(stderr, "%s: interrupted\n", x->prog);
			rc = XP_NP_EXIT_FAIL;
			more = 0;
		}
	}
	if (!failed)
		print_run(x, &r, all, &sum);
	xp_client_result_free(&r);
	xp_hist_free(all);
	return rc;
}

static int act(struct np_ctx *x)
{
	switch (x->cfg.action) {
	case XP_NP_HELP:
		xp_np_usage(stdout, x->prog);
		return XP_NP_EXIT_USAGE; /* as netperf -h */
	case XP_NP_VERSION:
		printf("Netperf version 2.7.0 command line, xperf %s\n", PACKAGE_VERSION);
		return XP_NP_EXIT_OK;
	case XP_NP_LIST_CSV:
	case XP_NP_LIST_COLUMNS:
		xp_np_list_selectors(stdout, x->cfg.action == XP_NP_LIST_CSV);
		return XP_NP_EXIT_USAGE; /* as netperf -o ? */
	case XP_NP_RUN:
		break;
	}
	return -1;
}

int xp_netperf_main(int argc, char **argv)
{
	static struct np_ctx x; /* large; one per process */
	struct xp_err err = { "" };
	const char *slash = strrchr(argv[0], '/');
	int rc;

	x.prog = slash ? slash + 1 : argv[0];
	if (argc > 1 && !strcmp(argv[1], "--netperf-args")) {
		x.prog = "xperf --netperf-args";
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	if (xp_np_parse(&x.cfg, argc, argv, &err)) {
		fprintf(stderr, "%s: %s (see %s -h)\n", x.prog, err.msg, x.prog);
		return XP_NP_EXIT_USAGE;
	}
	if ((rc = act(&x)) >= 0)
		return rc;
	if (load_selectors(&x, &err) || setup_env(&x, &err)) {
		fprintf(stderr, "%s: %s\n", x.prog, err.msg);
		return XP_NP_EXIT_FAIL;
	}
	x.sigfd = xp_signal_fd();
	rc = run_tests(&x);
	if (x.sigfd >= 0)
		close(x.sigfd);
	return rc;
}
