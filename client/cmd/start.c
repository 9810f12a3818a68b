/* SPDX-License-Identifier: BSD-2-Clause */
/* Client mode: prepare the reporting options, start the embedded loopback
 * server when there is no -c, run, and stop the embedded server. */
#include "client/cmd/start.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "client/cmd/run.h"
#include "client/mixed/mixed.h"
#include "client/report/report.h"
#include "client/report/live.h"
#include "client/fleet/agent.h"
#include "client/fleet/fanout.h"
#include "client/sweep/sweep.h"
#include "common/clock.h"
#include "common/cpu.h"
#include "common/exitcodes.h"
#include "common/signals.h"
#include "common/units.h"
#include "server/start.h"

int xp_usage_error(int json, const char *msg)
{
	if (json == 2)
		xp_stream_error(stdout, msg);
	else if (json)
		xp_report_json_error(stdout, NULL, msg);
	fprintf(stderr, "xperf: %s (see xperf --help)\n", msg);
	return XP_EXIT_USAGE;
}

static void *server_thread(void *arg)
{
	xp_server_run(arg);
	return NULL;
}

/* Without -c: a server in this process, on loopback, on a free port, with
 * its workers on the CPUs after the client's. */
static int embedded(const struct xp_opts *o, struct xp_server **srv, pthread_t *thr,
		    char *cpus, size_t len, struct xp_auth_key *key, struct xp_err *err)
{
	struct xp_server_cfg cfg;
	int all[XP_CPUS_MAX], rot[XP_CPUS_MAX], n, i;

	xp_server_cfg_from_opts(o, &cfg);
	if (xp_server_load_auth(o, &cfg, key, err))
		return -1;
	cfg.allow_spin = 1; /* the user's own CPUs */
	cfg.bind = o->ipv6 ? "::1" : "127.0.0.1";
	cfg.port = 0;
	cfg.log = NULL;
	cfg.max_flows = cfg.max_flows > xp_opts_flows_total(o) ? cfg.max_flows
							  : (uint32_t)xp_opts_flows_total(o);
	cfg.max_threads = cfg.max_threads > o->threads ? cfg.max_threads : (uint32_t)o->threads;
	cfg.max_msg = 1ull << 30;
	cfg.max_duration_ns = xp_opts_duration_ns(o) + XP_NS_PER_SEC;
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

/* --logfile: the report and the errors go to FILE (appended), as iperf3's
 * do; an error before this point still goes to stderr. */
static int open_logfile(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0) {
		fprintf(stderr, "xperf: --logfile %s: %s\n", path, strerror(errno));
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	if (dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0) {
		fprintf(stderr, "xperf: --logfile %s: %s\n", path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int xp_client_main(const struct xp_opts *o)
{
	struct xp_server *srv = NULL;
	struct xp_auth_key key; /* the embedded server's, as long as it runs */
	struct xp_cli cli;
	struct xp_sweep sw;
	struct xp_fanout fo;
	int fan = o->hosts || (o->client && strchr(o->client, ','));
	pthread_t thr;
	struct xp_err err = { "" };
	char cpus[4096];
	const char *host = o->client;
	uint16_t port = (uint16_t)o->port;
	int sigfd, rc;

	if (o->logfile && open_logfile(o->logfile))
		return XP_EXIT_FAIL;
	if (xp_cli_prepare(o, &cli, &err) || (o->sweep.n && xp_sweep_prepare(o, &sw, &err)) ||
	    (fan && xp_fanout_prepare(o, &fo, &err)) ||
	    (o->from && xp_controller_prepare(o, &fo, &err)))
		return xp_usage_error(o->json_stream ? 2 : o->json, err.msg);
	sigfd = xp_signal_fd();
	xp_raise_fd_limit();
	if (!host && !fan && !o->from) {
		if (embedded(o, &srv, &thr, cpus, sizeof(cpus), &key, &err))
			return xp_cli_fail(o, err.msg);
		host = o->ipv6 ? "::1" : "127.0.0.1";
		port = xp_server_port(srv);
	}
	if (o->from)
		rc = xp_controller_run(&cli, &fo);
	else if (fan)
		rc = xp_fanout_run(&cli, &fo, sigfd);
	else if (o->test == XP_RRUL)
		rc = xp_mixed_run(&cli, host, port, sigfd);
	else
		rc = o->sweep.n ? xp_sweep_run(&cli, &sw, host, port, sigfd)
				: xp_cli_run(&cli, host, port, sigfd);
	if (srv) {
		xp_server_stop(srv);
		pthread_join(thr, NULL);
		xp_server_close(srv);
		xp_auth_key_wipe(&key);
	}
	return rc;
}
