/* SPDX-License-Identifier: BSD-2-Clause */
#include "lab/run.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/cpu.h"
#include "common/sock.h"
#include "common/units.h"
#include "lab/netns.h"
#include "server/server.h"

#define OPEN_MS 10000      /* server thread: namespace entered and listening */
#define REACH_MS 5000      /* how long the client retries its first connect */
#define REACH_TRY_MS 500
#define SLACK_MS 45000     /* past the test's length: connect, control, drain */
#define STOP_MS 20000      /* after asking a late client to stop */

struct server_side {
	int nsfd;
	struct xp_server_cfg cfg;
	char cpus[4096];
	struct xp_server *s;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int opened;            /* under mu: open finished, s set or err filled */
	struct xp_err err;
	FILE *log;             /* what the server logs (its failures), in memory */
	char *logbuf;
	size_t loglen;
};

struct client_side {
	int nsfd;
	struct xp_opts o;
	const char *host;
	uint16_t port;
	int stopfd, donefd;    /* eventfds: stop the test; the thread is done */
	struct xp_client_result r;
	int rc;
	struct xp_err err;
};

/* Heap-held so that a thread that never finishes can be abandoned. */
struct measure {
	struct server_side srv;
	struct client_side cli;
	pthread_t st, ct;
};

static void *server_main(void *arg)
{
	struct server_side *c = arg;
	struct xp_server *s = NULL;

	if (!xp_netns_enter(c->nsfd, &c->err))
		s = xp_server_open(&c->cfg, &c->err);
	pthread_mutex_lock(&c->mu);
	c->s = s;
	c->opened = 1;
	pthread_cond_signal(&c->cv);
	pthread_mutex_unlock(&c->mu);
	if (s)
		xp_server_run(s);
	return NULL;
}

/* Like the embedded loopback server: workers on the CPUs after the
 * client's, limits wide enough for whatever the client asks. */
static void server_cfg(struct server_side *c, const struct xp_opts *o, const char *addr)
{
	struct xp_server_cfg *cfg = &c->cfg;
	int all[XP_CPUS_MAX], rot[XP_CPUS_MAX], n, i;

	memset(cfg, 0, sizeof(*cfg));
	cfg->bind = addr;
	cfg->family = strchr(addr, ':') ? AF_INET6 : AF_INET;
	cfg->max_tests = 4;
	cfg->max_flows = o->max_flows > o->flows ? (uint32_t)o->max_flows : (uint32_t)o->flows;
	cfg->max_threads = o->max_threads > o->threads ? (uint32_t)o->max_threads
						       : (uint32_t)o->threads;
	cfg->max_duration_ns = o->length + XP_NS_PER_SEC;
	cfg->max_msg = 1ull << 30;
	cfg->idle_timeout_ns = o->idle_timeout;
	/* the client's first message may take as long as it allows its control
	 * exchange: on an emulated lossy path TCP's backoff can hold it past
	 * xperf -s's 5 s (a 20 % loss, 300 ms run closed so: "no answer within
	 * 5.0 s (first bytes)") */
	cfg->header_timeout_ns = o->control_timeout > XP_HEADER_TIMEOUT_NS ? o->control_timeout
									  : XP_HEADER_TIMEOUT_NS;
	cfg->sigfd = -1;
	cfg->allow_spin = 1;
	cfg->log = c->log = open_memstream(&c->logbuf, &c->loglen); /* NULL: no log */
	n = xp_cpu_allowed(all, XP_CPUS_MAX);
	for (i = 0; i < n; i++)
		rot[i] = all[(i + (int)o->threads) % n];
	cfg->cpus = n > 0 ? xp_format_cpus(rot, n, c->cpus, sizeof(c->cpus)) : NULL;
}

static int start_server(struct measure *m, const struct xp_opts *o,
			const struct xp_lab_where *w, struct xp_err *err)
{
	struct server_side *c = &m->srv;
	struct timespec until;
	int rc = 0;

	c->nsfd = w->server_ns;
	server_cfg(c, o, w->server_addr);
	if (pthread_create(&m->st, NULL, server_main, c))
		return xp_err_set(err, "cannot start the server thread");
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += OPEN_MS / 1000;
	pthread_mutex_lock(&c->mu);
	while (!c->opened && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&c->cv, &c->mu, &until);
	pthread_mutex_unlock(&c->mu);
	if (!c->opened)
		return xp_err_set(err, "server thread did not start in %d ms", OPEN_MS);
	if (c->s)
		return 0;
	pthread_join(m->st, NULL);
	return xp_err_set(err, "server: %s", c->err.msg);
}

/* The first connect is retried for a while: a bridge port, a macvlan or
 * the overlay may still be settling just after "up". */
static int reachable(const struct client_side *c, struct xp_err *err)
{
	uint64_t until = xp_now_ns() + REACH_MS * XP_NS_PER_MS;
	struct xp_addr a;
	int fd;

	if (xp_resolve(c->host, c->port, c->o.ipv6 ? AF_INET6 : AF_INET, &a, err))
		return -1;
	for (;;) {
		fd = xp_connect_tcp(&a, NULL, REACH_TRY_MS, err);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (xp_now_ns() >= until)
			return -1;
		usleep(100 * 1000);
	}
}

static void *client_main(void *arg)
{
	struct client_side *c = arg;
	uint64_t one = 1;

	c->rc = -1;
	memset(&c->r, 0, sizeof(c->r));
	if (!xp_netns_enter(c->nsfd, &c->err) && !reachable(c, &c->err))
		c->rc = xp_client_run(&c->o, c->host, c->port, c->stopfd, &c->r, &c->err);
	if (write(c->donefd, &one, sizeof(one)) != sizeof(one))
		abort(); /* an eventfd write of 1 cannot fail */
	return NULL;
}

/* Wait for the client thread: forward a signal as a stop, and give up
 * on it (returning -1) only if it outlives the generous deadline. */
static int wait_client(struct client_side *c, int sigfd, int *interrupted)
{
	uint64_t limit = c->o.length / XP_NS_PER_MS + SLACK_MS, one = 1;
	uint64_t until = xp_now_ns() + limit * XP_NS_PER_MS;
	int stopped = 0;

	for (;;) {
		struct pollfd p[2] = { { .fd = c->donefd, .events = POLLIN },
				       { .fd = sigfd, .events = POLLIN } };
		uint64_t now = xp_now_ns();
		int n;

		if (now >= until) {
			if (stopped)
				return -1;
			stopped = 1;
			until = now + STOP_MS * XP_NS_PER_MS;
			if (write(c->stopfd, &one, sizeof(one)) < 0)
				return -1;
			continue;
		}
		n = poll(p, sigfd >= 0 && !stopped ? 2 : 1,
			 (int)((until - now) / XP_NS_PER_MS) + 1);
		if (n > 0 && (p[0].revents & POLLIN))
			return 0;
		if (n > 0 && (p[1].revents & POLLIN)) {
			*interrupted = 1;
			stopped = 1;
			if (write(c->stopfd, &one, sizeof(one)) < 0)
				return -1;
		}
	}
}

static void stop_server(struct measure *m)
{
	xp_server_stop(m->srv.s);
	pthread_join(m->st, NULL);
	xp_server_close(m->srv.s);
	if (m->srv.log) /* its sessions are over: the text is complete */
		fclose(m->srv.log);
	m->srv.log = NULL;
}

/* The server's last log line, its time and process taken off ("" if it
 * logged nothing): why it ended a test the client saw only end. */
static const char *server_said(const struct server_side *c, char *buf, size_t len)
{
	const char *t = c->logbuf, *end = t ? t + c->loglen : NULL, *a, *colon;

	while (end && end > t && end[-1] == '\n')
		end--;
	if (!end || end == t)
		return "";
	for (a = end; a > t && a[-1] != '\n'; a--)
		;
	colon = memchr(a, ']', (size_t)(end - a));
	if (colon && colon + 2 <= end && colon[1] == ':')
		a = colon + 2 + (colon + 2 < end && colon[2] == ' ');
	snprintf(buf, len, "%.*s", (int)(end - a), a);
	return buf;
}

static int run_client(struct measure *m, const struct xp_opts *o,
		      const struct xp_lab_where *w, struct xp_err *err)
{
	struct client_side *c = &m->cli;

	c->nsfd = w->client_ns;
	c->o = *o;
	c->host = w->server_addr;
	c->port = xp_server_port(m->srv.s);
	c->stopfd = eventfd(0, EFD_CLOEXEC);
	c->donefd = eventfd(0, EFD_CLOEXEC);
	if (c->stopfd < 0 || c->donefd < 0)
		return xp_err_sys(err, errno, "eventfd");
	if (pthread_create(&m->ct, NULL, client_main, c))
		return xp_err_set(err, "cannot start the client thread");
	return 0;
}

static void free_measure(struct measure *m)
{
	if (m->srv.log)
		fclose(m->srv.log);
	free(m->srv.logbuf);
	pthread_mutex_destroy(&m->srv.mu);
	pthread_cond_destroy(&m->srv.cv);
	if (m->cli.stopfd >= 0)
		close(m->cli.stopfd);
	if (m->cli.donefd >= 0)
		close(m->cli.donefd);
	free(m);
}

int xp_lab_measure(const struct xp_opts *o, const struct xp_lab_where *w,
		   int sigfd, struct xp_client_result *r, int *interrupted,
		   int *stuck, struct xp_err *err)
{
	struct measure *m = calloc(1, sizeof(*m));
	int rc;

	*interrupted = *stuck = 0;
	memset(r, 0, sizeof(*r));
	if (!m)
		return xp_err_set(err, "out of memory");
	m->cli.stopfd = m->cli.donefd = -1;
	pthread_mutex_init(&m->srv.mu, NULL);
	pthread_cond_init(&m->srv.cv, NULL);
	if (start_server(m, o, w, err)) {
		if (!m->srv.opened)
			*stuck = 1; /* the thread may still use m: abandon it */
		else
			free_measure(m);
		return -1;
	}
	if (run_client(m, o, w, err)) {
		stop_server(m);
		free_measure(m);
		return -1;
	}
	if (wait_client(&m->cli, sigfd, interrupted)) {
		*stuck = 1;
		return xp_err_set(err, "the client did not finish %d s after the test's "
				  "end; giving up", (SLACK_MS + STOP_MS) / 1000);
	}
	pthread_join(m->ct, NULL);
	stop_server(m);
	rc = m->cli.rc;
	if (rc) {
		char said[300];

		if (*server_said(&m->srv, said, sizeof(said)))
			xp_err_set(err, "%s (the lab's server: %s)", m->cli.err.msg, said);
		else
			xp_err_set(err, "%s", m->cli.err.msg);
	}
	*r = m->cli.r;
	if (rc)
		xp_client_result_free(r);
	free_measure(m);
	return rc;
}
