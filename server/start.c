/* SPDX-License-Identifier: BSD-2-Clause */
/* `xperf -s`: the server's configuration from the command line, the log
 * file, daemonizing and the pid file, then the accept loop until a signal. */
#include "server/start.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/exitcodes.h"
#include "common/signals.h"

void xp_server_cfg_from_opts(const struct xp_opts *o, struct xp_server_cfg *c)
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
	c->max_tests_per_addr = xp_opts_given(o, max_tests_per_addr) ?
		(uint32_t)o->max_tests_per_addr : XP_CAP_DERIVED;
	c->max_pending_per_addr = (uint32_t)o->max_pending_per_addr;
	c->header_timeout_ns = o->header_timeout;
	c->total_memory = o->total_memory;
	c->total_threads = (uint32_t)o->total_threads;
	c->total_flows = o->total_flows;
	c->allow_spin = o->allow_spin;
}

int xp_server_load_auth(const struct xp_opts *o, struct xp_server_cfg *c,
			struct xp_auth_key *key, struct xp_err *err)
{
	c->auth = NULL;
	if (!o->auth_file)
		return 0;
	if (xp_auth_key_load(o->auth_file, key, err))
		return -1;
	c->auth = key;
	return 0;
}

void xp_raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* --max-tests x --max-flows descriptors, at worst: more than the limit?
 * (Only for a --max-tests given: the one the server derives fits.) */
static void warn_fds(const struct xp_opts *o, const struct xp_server_cfg *c)
{
	struct rlimit rl;
	unsigned long long need = (unsigned long long)c->max_tests * c->max_flows;

	if (!xp_opts_given(o, max_tests) || !o->max_tests || !c->log || getrlimit(RLIMIT_NOFILE, &rl) ||
	    rl.rlim_cur == RLIM_INFINITY ||
	    need <= rl.rlim_cur)
		return;
	fprintf(c->log, "xperf: warning: --max-tests %u x --max-flows %u = %llu flows, "
		"more than the %llu descriptors the server may open (ulimit -n): tests "
		"that do not fit are refused (\"server busy\")\n", c->max_tests, c->max_flows,
		need, (unsigned long long)rl.rlim_cur);
}

/* The caps in force, and where they came from. */
static void log_caps(const struct xp_opts *o, const struct xp_server_cfg *c)
{
	if (!c->log)
		return;
	fprintf(c->log, "xperf: up to %u tests at once (%s), %u from one address (%s)\n",
		c->max_tests, xp_opts_given(o, max_tests) && o->max_tests ? "--max-tests" :
		"what the descriptors, memory and threads afford; --max-tests sets it",
		c->max_tests_per_addr, xp_opts_given(o, max_tests_per_addr) ?
		"--max-tests-per-addr" : "a quarter of what the budget affords; --max-tests-per-addr sets it");
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

int xp_server_main(const struct xp_opts *o, xp_agent_fn agent, void *agent_ctx)
{
	struct xp_server_cfg cfg;
	struct xp_auth_key key;
	struct xp_server *s;
	struct xp_err err;
	int rc;

	xp_raise_fd_limit();
	xp_server_cfg_from_opts(o, &cfg);
	cfg.agent = agent;
	cfg.agent_ctx = agent_ctx;
	if (xp_server_load_auth(o, &cfg, &key, &err)) {
		fprintf(stderr, "xperf: %s\n", err.msg);
		return XP_EXIT_FAIL;
	}
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
		fprintf(cfg.log, "xperf: listening on port %u%s%s%s\n", xp_server_port(s),
			xp_server_cfg(s)->listen_mptcp ? " (MPTCP and TCP)" : "",
			cfg.auth ? " (clients must authenticate: --auth-file)" : "",
			cfg.agent ? " (agent: runs tests for authenticated controllers)" : "");
	log_caps(o, xp_server_cfg(s));
	warn_fds(o, xp_server_cfg(s));
	rc = xp_server_run(s);
	xp_server_close(s);
	xp_auth_key_wipe(&key);
	return rc ? XP_EXIT_FAIL : XP_EXIT_OK;
}
