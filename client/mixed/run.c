/* SPDX-License-Identifier: BSD-2-Clause */
/* -t RRUL: the run.  The idle phase runs a TCP_RR and a UDP_RR probe test
 * at --probe-interval's fixed schedule for --idle seconds (after a 0.4 s
 * warm-up, as plain TCP_RR's); then the loaded phase starts the load
 * (TCP_STREAM, TCP_MAERTS or both with --bidir, --load-flows each way, its
 * first second omitted while the queues fill) and the same two probe tests
 * (their first second a warm-up) at once, each for -l seconds.  Every part
 * is an xperf test of its own against the same server, run on its own
 * thread; the report is one. */
#include "client/mixed/mixed.h"

#include <stdlib.h>
#include <string.h>

#include "client/mixed/mixed_int.h"
#include "common/clock.h"
#include "common/exitcodes.h"

#define SETTLE_NS (400 * XP_NS_PER_MS) /* the idle probes' warm-up */
#define RAMP_NS XP_NS_PER_SEC          /* the load's omitted start */
#define IV_DEFAULT_NS (100 * XP_NS_PER_MS)

static void on_interval(void *ctx, const struct xp_client_result *r,
			const struct xp_interval *iv)
{
	struct xp_mixed_part *p = ctx;

	(void)r;
	if (!p->m->c->o->json_stream)
		return;
	pthread_mutex_lock(&p->m->out_lock);
	xp_mixed_stream_interval(stdout, p->m, p->idx, iv);
	pthread_mutex_unlock(&p->m->out_lock);
}

static void *part_thread(void *arg)
{
	struct xp_mixed_part *p = arg;
	struct xp_client_hooks hooks = { p, NULL, on_interval, NULL };

	p->rc = xp_client_run_ex(&p->o, p->m->host, p->m->port, p->m->sigfd, &hooks, &p->r,
				 &p->err);
	return NULL;
}

/* The user's options, made one part's test. */
static void part_opts(struct xp_mixed *m, int idx)
{
	const struct xp_opts *u = m->c->o;
	struct xp_opts *o = &m->p[idx].o;
	int probe = xp_mixed_part_probe(idx);

	*o = *u;
	memset(o->given, 0, sizeof(o->given));
	o->json = o->json_stream = 0;
	o->slo = o->plot = o->histogram = NULL;
	o->iterations = 1;
	o->threads = 1;
	o->flows = 1;
	o->interval = u->interval ? u->interval : IV_DEFAULT_NS;
	o->cpus = u->cpus ? u->cpus : "none"; /* five tests share the CPUs */
	o->remote_cpus = u->remote_cpus ? u->remote_cpus : "none";
	o->verbose = 0;
	if (probe < 0) {
		o->test = strcmp(u->load, "down") ? XP_TCP_STREAM : XP_TCP_MAERTS;
		o->bidir = !strcmp(u->load, "both");
		o->flows = u->load_flows;
		o->msg_size = 0;
		o->omit = m->ramp_ns;
		o->warmup = 0;
		return;
	}
	o->test = probe == XP_MX_TCP ? XP_TCP_RR : XP_UDP_RR;
	o->tps = m->interval_ns ? (XP_NS_PER_SEC + m->interval_ns / 2) / m->interval_ns : 1;
	o->tps = o->tps ? o->tps : 1;
	o->rr_timeout = xp_opts_given(u, rr_timeout) ? u->rr_timeout : XP_NS_PER_SEC;
	o->warmup = xp_mixed_part_phase(idx) == XP_MX_IDLE ? SETTLE_NS : m->ramp_ns;
	o->length = xp_mixed_part_phase(idx) == XP_MX_IDLE ? u->idle : u->length;
}

static void start_part(struct xp_mixed *m, int idx)
{
	struct xp_mixed_part *p = &m->p[idx];

	p->m = m;
	p->idx = idx;
	part_opts(m, idx);
	p->ran = !pthread_create(&p->thr, NULL, part_thread, p);
	if (!p->ran) {
		p->rc = -1;
		xp_err_set(&p->err, "%s: cannot start its thread", xp_mixed_part_name(idx));
	}
}

/* Run parts [from, to) together; the first error, or 0. */
static int run_phase(struct xp_mixed *m, int from, int to, struct xp_err *err)
{
	int i, rc = 0;

	for (i = from; i < to; i++)
		start_part(m, i);
	for (i = from; i < to; i++) {
		if (m->p[i].ran)
			pthread_join(m->p[i].thr, NULL);
		if (m->p[i].rc && !rc)
			rc = xp_err_set(err, "RRUL %s: %s", xp_mixed_part_name(i), m->p[i].err.msg);
	}
	return rc;
}

static void free_parts(struct xp_mixed *m)
{
	int i;

	for (i = 0; i < XP_MX_PARTS; i++)
		if (m->p[i].ran)
			xp_client_result_free(&m->p[i].r);
}

static int finish(struct xp_mixed *m)
{
	const struct xp_opts *o = m->c->o;
	struct xp_err err = { "" };
	int i, fail = 0;

	xp_mixed_compute(m);
	if (o->json_stream)
		xp_mixed_json(stdout, m, 1);
	else if (o->json)
		xp_mixed_json(stdout, m, 0);
	else
		xp_mixed_human(stdout, m), xp_mixed_slo_human(stdout, m);
	if (o->plot && xp_mixed_plot(o->plot, m, &err)) {
		fprintf(stderr, "xperf: %s\n", err.msg);
		return XP_EXIT_FAIL;
	}
	for (i = 0; i < XP_MX_PARTS; i++)
		fail |= m->p[i].r.interrupted || (m->p[i].r.nwarnings && !o->trust_server);
	if (fail) {
		fprintf(stderr, "xperf: RRUL: a part was interrupted or its server reported "
			"impossible figures\n");
		return XP_EXIT_FAIL;
	}
	return xp_mixed_slo_failures(m) ? XP_EXIT_SLO : XP_EXIT_OK;
}

int xp_mixed_run(const struct xp_cli *c, const char *host, uint16_t port, int sigfd)
{
	struct xp_mixed *m = calloc(1, sizeof(*m));
	struct xp_err err = { "" };
	int rc;

	if (!m)
		return xp_cli_fail(c->o, "RRUL: out of memory");
	m->c = c;
	m->host = host;
	m->port = port;
	m->sigfd = sigfd;
	m->ramp_ns = RAMP_NS;
	m->interval_ns = c->o->probe_interval;
	pthread_mutex_init(&m->out_lock, NULL);
	if (c->o->json_stream)
		xp_mixed_stream_start(stdout, m);
	rc = run_phase(m, XP_MX_IDLE_TCP, XP_MX_LOAD, &err);
	m->t0_wall_ns = m->p[XP_MX_IDLE_TCP].r.go_wall_ns;
	if (m->p[XP_MX_IDLE_UDP].r.go_wall_ns && m->p[XP_MX_IDLE_UDP].r.go_wall_ns < m->t0_wall_ns)
		m->t0_wall_ns = m->p[XP_MX_IDLE_UDP].r.go_wall_ns;
	if (!rc)
		rc = run_phase(m, XP_MX_LOAD, XP_MX_PARTS, &err);
	rc = rc ? xp_cli_fail(c->o, err.msg) : finish(m);
	free_parts(m);
	pthread_mutex_destroy(&m->out_lock);
	free(m);
	return rc;
}
