/* SPDX-License-Identifier: BSD-2-Clause */
/* `netperf` (or `xperf --netperf-args`): parse netperf's command line,
 * find what the output needs from this host (socket buffer sizes, CPU
 * count, congestion control, the server's address), run the test once or
 * until the -i/-I confidence interval is reached, print as netperf does.
 * SIGINT and SIGALRM end a running test early with its results, exit 0,
 * as netperf's catcher does (-l 0 runs until one arrives); SIGTERM and
 * SIGHUP kill, as they kill netperf.
 * Exit status as netperf: 0, 1 usage, 255 when the run fails. */
#include "client/netperf/netperf.h"

#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
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
	struct xp_np_demo demo; /* interim results (-D) */
};

/* SIGINT and SIGALRM, read from a descriptor by the client's wait; both
 * are blocked before any thread starts, so every thread inherits that. */
static int np_signal_fd(void)
{
	sigset_t set;
	int fd;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (fd < 0)
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	return fd;
}

/* What the kernel reports for a fresh socket of the test's type after
 * asking for the given sizes (Linux doubles what is asked).  The remote
 * side is probed here too: exact on loopback, the client's defaults
 * otherwise (xperf's RESULT does not carry the server's buffer sizes). */
static void probe_bufs(int test, int family, uint64_t snd, uint64_t rcv,
		       uint64_t *snd_out, uint64_t *rcv_out)
{
	/* snd/rcv: what xperf asks for (0 = the kernel's default) */
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
	if (!c->opts.bind) /* -p's lport without -L: the wildcard of this family */
		xp_np_bind(c, e->dest_family);
	e->ncpus_local = c->ncpus ? c->ncpus : n > 0 ? (int)n : 1;
	e->ncpus_remote = n > 0 ? (int)n : 1;
	probe_bufs(c->test, e->dest_family, c->opts.sndbuf, c->opts.rcvbuf, &e->lss, &e->lsr);
	probe_bufs(c->test, e->dest_family, c->opts.remote_sndbuf, c->opts.remote_rcvbuf,
		   &e->rss, &e->rsr);
	read_cong(x->cong, sizeof(x->cong));
	e->cong = x->cong;
	if (!c->uuid)
		xp_np_make_uuid(x->uuid, sizeof(x->uuid));
	e->uuid = c->uuid ? c->uuid : x->uuid;
	xp_np_fill_defaults(c, e->lss, e->rss);
	xp_np_fill_read_size(c, e->lsr, e->rsr);
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
		return xp_err_set(err, "Could not open output selection file '%s' errno %d",
				  x->cfg.sel_spec, errno);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	xp_np_select(&x->cfg, text);
	return 0;
}

/* With DUMP_TCP_INFO in the environment (flent sets it) netperf prints
 * its data socket's TCP_INFO on stderr as "tcpi_NAME value" pairs; xperf
 * has these of them (netperf's own spelling of the cwnd kept). */
static void dump_tcp_info(const struct xp_client_result *r)
{
	const struct xp_flow_result *f = r->flows;

	if (!getenv("DUMP_TCP_INFO") || !r->nflows || xp_test(r->test)->udp)
		return;
	fprintf(stderr, "tcpi_rtt %llu tcpi_rttvar %llu tpci_snd_cwnd %llu\n"
		"tcpi_total_retrans %llu\n", (unsigned long long)f->rtt_us,
		(unsigned long long)f->rttvar_us, (unsigned long long)f->cwnd,
		(unsigned long long)f->retrans);
}

static void print_run(struct np_ctx *x, struct xp_client_result *last,
		      struct xp_hist *all, const struct xp_np_summary *sum)
{
	struct xp_hist *own = last->hist;
	struct xp_np_run run = { &x->cfg, &x->env, last, sum };

	last->hist = all; /* percentiles over every iteration, as netperf */
	xp_np_print_result(stdout, &run);
	last->hist = own;
	dump_tcp_info(last);
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

static void on_interval(void *ctx, const struct xp_client_result *r,
			const struct xp_interval *iv)
{
	struct np_ctx *x = ctx;

	(void)r;
	xp_np_demo_emit(stdout, &x->cfg, &x->demo, iv);
}

/* One run; its figures join the summary.  0, or -1 (message printed). */
static int run_once(struct np_ctx *x, struct xp_client_result *r, struct xp_hist *all,
		    struct xp_np_measure *m, int n, struct xp_np_summary *sum)
{
	struct xp_client_hooks hooks = { x, on_start, x->cfg.demo ? on_interval : NULL };
	struct xp_err err = { "" };

	if (x->cfg.wait_secs)
		sleep(x->cfg.wait_secs);
	x->demo.pending = 0;
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
	if (x->cfg.demo)
		xp_np_demo_flush(stdout, &x->cfg, &x->demo, r);
	xp_np_measure(&x->cfg, &x->env, r, &m[n]);
	xp_hist_merge(all, r->hist);
	sum->transactions += r->local.c.transactions;
	sum->elapsed_total_s += xp_np_elapsed(&x->cfg, r);
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
		if (r.interrupted)
			more = 0; /* netperf: the results so far, exit 0 */
	}
	if (!failed)
		print_run(x, &r, all, &sum);
	xp_client_result_free(&r);
	xp_hist_free(all);
	return rc;
}

/* -F lfill: netperf refuses a file it cannot open, also when it only
 * receives; where the client sends, the client reads it (--fill). */
static int check_fill(const struct xp_np_cfg *c)
{
	FILE *f;

	if (!c->fill[0])
		return 0;
	f = fopen(c->fill, "re");
	if (!f) {
		printf("Could not open requested fill file: %s\n", strerror(errno));
		return -1;
	}
	fclose(f);
	return 0;
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
	x.sigfd = np_signal_fd();
	if ((rc = xp_np_act(&x.cfg, x.prog, x.sigfd)) >= 0)
		goto out;
	rc = XP_NP_EXIT_FAIL;
	if (check_fill(&x.cfg))
		goto out;
	if (load_selectors(&x, &err) || setup_env(&x, &err)) {
		fprintf(stderr, "%s: %s\n", x.prog, err.msg);
		goto out;
	}
	rc = run_tests(&x);
out:
	if (x.sigfd >= 0)
		close(x.sigfd);
	return rc;
}
