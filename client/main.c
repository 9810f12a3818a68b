/* xperf: one binary for server and client.  main() owns process-wide
 * concerns (signals, daemonizing, output format, exit status); everything
 * else is in functions that return errors instead of exiting. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "client/cli.h"
#include "client/client.h"
#include "client/netperf.h"
#include "client/report.h"
#include "client/report_live.h"
#include "common/clock.h"
#include "common/cpu.h"
#include "common/exitcodes.h"
#include "common/opts.h"
#include "common/opts_complete.h"
#include "common/signals.h"
#include "common/units.h"
#include "lab/lab.h"
#include "server/server.h"

/* Usage errors are reported in the format asked for, even when the
 * command line did not parse: 1 --json, 2 --json-stream, 0 text. */
static int wants_json(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json-stream"))
			return 2;
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-J"))
			return 1;
	}
	return 0;
}

static int usage_error(int json, const char *msg)
{
	if (json == 2)
		xp_stream_error(stdout, msg);
	else if (json)
		xp_report_json_error(stdout, NULL, msg);
	fprintf(stderr, "xperf: %s (see xperf --help)\n", msg);
	return XP_EXIT_USAGE;
}

static void server_cfg(const struct xp_opts *o, struct xp_server_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->bind = o->bind;
	c->port = (uint16_t)o->port;
	c->family = o->ipv4 ? AF_INET : o->ipv6 ? AF_INET6 : AF_UNSPEC;
	c->max_tests = (uint32_t)o->max_tests;
	c->max_flows = (uint32_t)o->max_flows;
	c->max_threads = (uint32_t)o->max_threads;
	c->max_duration_ns = o->max_duration;
	c->max_msg = o->max_msg;
	c->idle_timeout_ns = o->idle_timeout;
	c->cpus = o->cpus;
	c->one_off = o->one_off;
	c->verbose = o->verbose;
	c->log = stderr;
	c->sigfd = -1;
}

static int daemonize(const struct xp_opts *o, FILE **log)
{
	FILE *pf = NULL;

	if (o->pidfile && !(pf = fopen(o->pidfile, "we"))) {
		fprintf(stderr, "xperf: pidfile %s: %s\n", o->pidfile, strerror(errno));
		return -1;
	}
	if (o->daemon && daemon(0, 0)) {
		fprintf(stderr, "xperf: daemon: %s\n", strerror(errno));
		return -1;
	}
	if (pf) {
		fprintf(pf, "%d\n", (int)getpid());
		fclose(pf);
	}
	if (o->daemon && !o->logfile)
		*log = NULL;
	return 0;
}

static int run_server(const struct xp_opts *o)
{
	struct xp_server_cfg cfg;
	struct xp_server *s;
	struct xp_err err;
	int rc;

	server_cfg(o, &cfg);
	if (o->logfile && !(cfg.log = fopen(o->logfile, "ae"))) {
		fprintf(stderr, "xperf: logfile %s: %s\n", o->logfile, strerror(errno));
		return XP_EXIT_FAIL;
	}
	s = xp_server_open(&cfg, &err);
	if (!s) {
		fprintf(stderr, "xperf: %s\n", err.msg);
		return XP_EXIT_FAIL;
	}
	/* the signalfd is made and watched in the process that serves: an
	 * epoll registration made before fork() would not see the child's
	 * signals */
	if (daemonize(o, &cfg.log) || xp_server_watch_signals(s, xp_signal_fd(), cfg.log)) {
		xp_server_close(s);
		return XP_EXIT_FAIL;
	}
	if (cfg.log)
		fprintf(cfg.log, "xperf: listening on port %u\n", xp_server_port(s));
	rc = xp_server_run(s);
	xp_server_close(s);
	return rc ? XP_EXIT_FAIL : XP_EXIT_OK;
}

static void *server_thread(void *arg)
{
	xp_server_run(arg);
	return NULL;
}

/* Without -c: a server in this process, on loopback, on a free port, with
 * its workers on the CPUs after the client's. */
static int embedded(const struct xp_opts *o, struct xp_server **srv, pthread_t *thr,
		    char *cpus, size_t len, struct xp_err *err)
{
	struct xp_server_cfg cfg;
	int all[XP_CPUS_MAX], rot[XP_CPUS_MAX], n, i;

	server_cfg(o, &cfg);
	cfg.bind = o->ipv6 ? "::1" : "127.0.0.1";
	cfg.port = 0;
	cfg.log = NULL;
	cfg.max_flows = cfg.max_flows > o->flows ? cfg.max_flows : (uint32_t)o->flows;
	cfg.max_threads = cfg.max_threads > o->threads ? cfg.max_threads : (uint32_t)o->threads;
	cfg.max_msg = 1ull << 30;
	cfg.max_duration_ns = o->length + XP_NS_PER_SEC;
	n = xp_cpu_allowed(all, XP_CPUS_MAX);
	for (i = 0; i < n; i++)
		rot[i] = all[(i + (int)o->threads) % n];
	cfg.cpus = xp_format_cpus(rot, n, cpus, (unsigned)len);
	*srv = xp_server_open(&cfg, err);
	if (!*srv)
		return -1;
	if (pthread_create(thr, NULL, server_thread, *srv)) {
		xp_server_close(*srv);
		return xp_err_set(err, "start embedded server thread");
	}
	return 0;
}

static int run_client(const struct xp_opts *o)
{
	struct xp_server *srv = NULL;
	struct xp_cli cli;
	pthread_t thr;
	struct xp_err err = { "" };
	char cpus[4096];
	const char *host = o->client;
	uint16_t port = (uint16_t)o->port;
	int sigfd, rc;

	if (xp_cli_prepare(o, &cli, &err))
		return usage_error(o->json_stream ? 2 : o->json, err.msg);
	sigfd = xp_signal_fd();
	if (!host) {
		if (embedded(o, &srv, &thr, cpus, sizeof(cpus), &err))
			return xp_cli_fail(o, err.msg);
		host = o->ipv6 ? "::1" : "127.0.0.1";
		port = xp_server_port(srv);
	}
	rc = xp_cli_run(&cli, host, port, sigfd);
	if (srv) {
		xp_server_stop(srv);
		pthread_join(thr, NULL);
		xp_server_close(srv);
	}
	return rc;
}

/* Each flow is a descriptor: allow as many as the hard limit permits. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int main(int argc, char **argv)
{
	struct xp_opts o;
	struct xp_err err;
	const char *base = strrchr(argv[0], '/');

	raise_fd_limit();
	/* netperf's command line: under the name netperf, or on request */
	if (!strcmp(base ? base + 1 : argv[0], "netperf") ||
	    (argc > 1 && !strcmp(argv[1], "--netperf-args")))
		return xp_netperf_main(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "lab"))
		return xp_lab_main(argc - 1, argv + 1);
	if (xp_opts_parse(&o, argc, argv, &err))
		return usage_error(wants_json(argc, argv), err.msg);
	if (o.help) {
		xp_opts_usage(stdout, "xperf");
		return XP_EXIT_OK;
	}
	if (o.bash_completion) {
		xp_opts_completion(stdout);
		return XP_EXIT_OK;
	}
	if (o.version) {
		printf("xperf %s (control protocol %d)\n", PACKAGE_VERSION, XP_PROTO_VERSION);
		return XP_EXIT_OK;
	}
	return o.server ? run_server(&o) : run_client(&o);
}
