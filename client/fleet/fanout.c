/* SPDX-License-Identifier: BSD-2-Clause */
/* Several servers from one client (client/fleet/fanout.h): a thread per server,
 * each running an ordinary client test; a gate holds each one after its
 * flows are open and releases them together, so the tests start within a
 * bounded skew, which the report gives. */
#include "client/fleet/fanout.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/client.h"
#include "client/fleet/fanout_int.h"
#include "common/clock.h"

#define GATE_WAIT_S 15 /* a host slower than this to open its flows starts late */

static int add_host(struct xp_fanout *f, const char *h, size_t len, struct xp_err *err)
{
	if (!len)
		return 0;
	if (f->n == XP_FANOUT_MAX)
		return xp_err_set(err, "at most %d servers", XP_FANOUT_MAX);
	if (len >= sizeof(f->spec[0]))
		return xp_err_set(err, "server name '%.*s...' too long", 40, h);
	memcpy(f->spec[f->n], h, len);
	f->spec[f->n++][len] = 0;
	return 0;
}

static int read_hosts_file(const char *path, struct xp_fanout *f, struct xp_err *err)
{
	FILE *fp = fopen(path, "re");
	char line[256];
	int rc = 0;

	if (!fp)
		return xp_err_sys(err, errno, "--hosts %s", path);
	while (!rc && fgets(line, sizeof(line), fp)) {
		size_t n = strcspn(line, "#\r\n");

		while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
			n--;
		rc = add_host(f, line + strspn(line, " \t"), n - strspn(line, " \t"), err);
	}
	fclose(fp);
	return rc;
}

int xp_fanout_prepare(const struct xp_opts *o, struct xp_fanout *f, struct xp_err *err)
{
	const char *p = o->client;

	memset(f, 0, sizeof(*f));
	if (o->hosts && read_hosts_file(o->hosts, f, err))
		return -1;
	while (p && *p) {
		size_t n = strcspn(p, ",");

		if (add_host(f, p, n, err))
			return -1;
		p += n + (p[n] == ',');
	}
	if (!f->n)
		return xp_err_set(err, "--hosts %s: no server named", o->hosts);
	if ((uint64_t)f->n > o->flows)
		return xp_err_set(err, "%d servers and -P %llu: at least one flow per server",
				  f->n, (unsigned long long)o->flows);
	return 0;
}

/* "host", "host:port", "[v6]:port" and a bare IPv6 address. */
static void split(const char *spec, uint16_t def, char *host, size_t len, uint16_t *port)
{
	const char *colon = strrchr(spec, ':');

	*port = def;
	if (spec[0] == '[' && strchr(spec, ']')) {
		const char *end = strchr(spec, ']');

		snprintf(host, len, "%.*s", (int)(end - spec - 1), spec + 1);
		if (end[1] == ':')
			*port = (uint16_t)atoi(end + 2);
		return;
	}
	if (colon && colon == strchr(spec, ':')) {
		snprintf(host, len, "%.*s", (int)(colon - spec), spec);
		*port = (uint16_t)atoi(colon + 1);
		return;
	}
	snprintf(host, len, "%s", spec);
}

static void gate_arrive(void *ctx)
{
	struct xp_fanout_host *h = ctx;
	struct xp_fanout_gate *g = h->gate;
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += GATE_WAIT_S;
	pthread_mutex_lock(&g->mu);
	h->passed = 1;
	g->arrived++;
	pthread_cond_broadcast(&g->cv);
	while (g->arrived + g->failed < g->n &&
	       pthread_cond_timedwait(&g->cv, &g->mu, &until) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&g->mu);
}

static void *host_main(void *arg)
{
	struct xp_fanout_host *h = arg;
	struct xp_client_hooks hooks = { h, NULL, NULL, gate_arrive };

	h->rc = xp_client_run_ex(&h->o, h->host, h->port, h->sigfd, &hooks, &h->r, &h->err);
	if (h->rc && !h->passed) {
		pthread_mutex_lock(&h->gate->mu);
		h->gate->failed++;
		pthread_cond_broadcast(&h->gate->cv);
		pthread_mutex_unlock(&h->gate->mu);
	}
	return NULL;
}

static void setup_hosts(const struct xp_cli *c, const struct xp_fanout *f, int sigfd,
			struct xp_fanout_gate *g, struct xp_fanout_host *hs)
{
	uint64_t per = c->o->flows / (uint64_t)f->n, extra = c->o->flows % (uint64_t)f->n;
	int i;

	for (i = 0; i < f->n; i++) {
		struct xp_fanout_host *h = &hs[i];

		h->o = *c->o;
		h->o.flows = per + ((uint64_t)i < extra);
		h->o.threads = h->o.threads > h->o.flows ? h->o.flows : h->o.threads;
		split(f->spec[i], (uint16_t)c->o->port, h->host, sizeof(h->host), &h->port);
		h->o.client = h->host;
		h->spec = f->spec[i];
		h->gate = g;
		h->sigfd = sigfd;
	}
}

struct xp_fanout_host *xp_fanout_hosts(const struct xp_cli *c, const struct xp_fanout *f,
				       int sigfd, struct xp_fanout_gate *g)
{
	struct xp_fanout_host *hs = calloc((size_t)f->n, sizeof(*hs));

	if (hs)
		setup_hosts(c, f, sigfd, g, hs);
	return hs;
}

int xp_fanout_go(const struct xp_cli *c, struct xp_fanout_host *hs, int n,
		 void *(*fn)(void *), const struct xp_fanout_ctl *ctl)
{
	int i, rc;

	for (i = 0; i < n; i++) {
		hs[i].ctl = ctl;
		if (pthread_create(&hs[i].thr, NULL, fn, &hs[i])) {
			hs[i].rc = -1;
			xp_err_set(&hs[i].err, "cannot start a thread for %s", hs[i].spec);
			if (hs[i].gate)
				host_main_failed(hs[i].gate);
		} else {
			hs[i].started = 1;
		}
	}
	for (i = 0; i < n; i++)
		if (hs[i].started)
			pthread_join(hs[i].thr, NULL);
	rc = xp_fanout_report(c, hs, n);
	for (i = 0; i < n; i++) {
		if (hs[i].started)
			xp_client_result_free(&hs[i].r);
		free(hs[i].doc);
	}
	free(hs);
	return rc;
}

int xp_fanout_run(const struct xp_cli *c, const struct xp_fanout *f, int sigfd)
{
	struct xp_fanout_gate g = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
				    f->n, 0, 0 };
	struct xp_fanout_host *hs = xp_fanout_hosts(c, f, sigfd, &g);

	if (!hs)
		return xp_cli_fail(c->o, "out of memory");
	return xp_fanout_go(c, hs, f->n, host_main, NULL);
}
