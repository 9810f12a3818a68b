/* SPDX-License-Identifier: BSD-2-Clause */
/* -t RRUL: the run.  The idle phase runs a TCP_RR and a UDP_RR probe test
 * at --probe-interval's fixed schedule for --idle seconds (after a 0.4 s
 * warm-up, as plain TCP_RR's).  Then the loaded phase: its two probe tests
 * open their flows and hold at READY; the load starts (TCP_STREAM,
 * TCP_MAERTS or both with --bidir, --load-flows each way), its first second
 * omitted while the queues fill, then -l + 1 s measured; at the end of
 * that second the probes go (a 0.4 s warm-up, then -l seconds measured),
 * so they measure inside the load.  Every part is an xperf test of its own
 * against the same server, on its own thread, each on a channel of the
 * run's one control connection (MUX, client/mux.h); the report is one.
 *
 * A probe test is a pool of flows that take turns on the schedule, each
 * sending one probe a second (pool = 1 s / interval, at most 100): an RR
 * flow has one probe outstanding, so a single flow would hold every later
 * probe behind a slow or lost one; in a pool only an answer slower than a
 * second delays its flow's next probe, and that delay counts (latency from
 * the intended send time).  A UDP probe unanswered in 0.9 of the flow's
 * period (or --rr-timeout) is lost. */
#include "client/mixed/mixed.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/mixed/mixed_int.h"
#include "common/clock.h"
#include "common/exitcodes.h"
#include "proto/msg.h"

#define SETTLE_NS (400 * XP_NS_PER_MS) /* the probes' warm-up, as TCP_RR's */
#define RAMP_NS XP_NS_PER_SEC          /* the load's omitted start */
#define IV_DEFAULT_NS (100 * XP_NS_PER_MS)
#define TAIL_NS XP_NS_PER_SEC          /* the load's time after the probes' -l */
#define POOL_MAX 100                   /* probe flows of each kind */

static void on_interval(void *ctx, const struct xp_client_result *r,
			const struct xp_interval *iv)
{
	struct xp_mixed_part *p = ctx;

	if (!p->m->c->o->json_stream)
		return;
	pthread_mutex_lock(&p->m->out_lock);
	xp_mixed_stream_interval(stdout, p->m, p->idx, r, iv);
	pthread_mutex_unlock(&p->m->out_lock);
}

/* The load is going, its omitted start over (or it has failed): the
 * loaded probes, holding at READY, may start. */
static void load_going(struct xp_mixed *m)
{
	pthread_mutex_lock(&m->out_lock);
	m->load_going = 1;
	pthread_cond_broadcast(&m->going);
	pthread_mutex_unlock(&m->out_lock);
}

/* A loaded probe part has its flows open (or has failed): count it. */
static void probe_ready(struct xp_mixed_part *p)
{
	pthread_mutex_lock(&p->m->out_lock);
	if (!p->ready) {
		p->ready = 1;
		p->m->probes_ready++;
		pthread_cond_broadcast(&p->m->going);
	}
	pthread_mutex_unlock(&p->m->out_lock);
}

static void on_start(void *ctx, const struct xp_client_result *r)
{
	struct xp_mixed_part *p = ctx;

	(void)r;
	if (p->idx == XP_MX_LOAD)
		load_going(p->m);
}

/* A loaded probe part's flows are open: hold it here until the load runs. */
static void on_ready(void *ctx)
{
	struct xp_mixed_part *p = ctx;

	if (xp_mixed_part_phase(p->idx) != XP_MX_LOADED)
		return;
	probe_ready(p);
	pthread_mutex_lock(&p->m->out_lock);
	while (!p->m->load_going)
		pthread_cond_wait(&p->m->going, &p->m->out_lock);
	pthread_mutex_unlock(&p->m->out_lock);
}

static void *part_thread(void *arg)
{
	struct xp_mixed_part *p = arg;
	struct xp_client_hooks hooks = { p, on_start, on_interval, on_ready, &p->chan };

	p->rc = xp_client_run_ex(&p->o, p->m->host, p->m->port, p->m->sigfd, &hooks, &p->r,
				 &p->err);
	if (p->idx == XP_MX_LOAD)
		load_going(p->m); /* (or failed: nothing to wait for) */
	else if (xp_mixed_part_phase(p->idx) == XP_MX_LOADED)
		probe_ready(p);
	return NULL;
}

/* --one-way: a probe's request and response made big enough for the
 * stamps (proto/msg.h): UDP an 8-byte id, responses the server's times. */
static void probe_one_way(struct xp_opts *o)
{
	uint64_t req = xp_opts_req_size(o), min_rsp = XP_STAMP_RSP_LEN;

	o->one_way = 1;
	if (o->test == XP_UDP_RR) {
		min_rsp += 8;
		o->msg_size = req < 8 ? 8 : req;
	}
	o->rsp_size = req < min_rsp ? min_rsp : req;
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
	o->one_way = 0; /* the probes' alone (probe_one_way) */
	if (probe < 0) {
		o->test = strcmp(u->load, "down") ? XP_TCP_STREAM : XP_TCP_MAERTS;
		o->bidir = !strcmp(u->load, "both");
		o->flows = u->load_flows;
		o->msg_size = 0;
		o->rcvlowat = 1; /* reads as data comes: smooth intervals on a slow path */
		o->self_probe_ns = m->interval_ns; /* each flow's self probes */
		o->omit = m->ramp_ns;
		o->length = u->length + TAIL_NS; /* outlasts the probes, which start later */
		o->warmup = 0;
		return;
	}
	o->test = probe == XP_MX_TCP ? XP_TCP_RR : XP_UDP_RR;
	if (u->one_way)
		probe_one_way(o);
	o->tps = (XP_NS_PER_SEC + m->interval_ns / 2) / m->interval_ns;
	o->tps = o->tps ? o->tps : 1;
	o->flows = m->pool;
	o->rr_timeout = xp_opts_given(u, rr_timeout) ? u->rr_timeout
						     : m->pool * m->interval_ns / 10 * 9;
	o->warmup = SETTLE_NS;
	o->length = xp_mixed_part_phase(idx) == XP_MX_IDLE ? u->idle : u->length;
}

static void start_part(struct xp_mixed *m, int idx)
{
	struct xp_mixed_part *p = &m->p[idx];

	p->m = m;
	p->idx = idx;
	part_opts(m, idx);
	if (xp_mux_take(m->mux, (unsigned)idx + 1, &p->chan, &p->err)) {
		p->rc = -1;
		return;
	}
	p->ran = !pthread_create(&p->thr, NULL, part_thread, p);
	if (!p->ran) {
		close(p->chan.fd);
		close(p->chan.sock);
		p->rc = -1;
		xp_err_set(&p->err, "%s: cannot start its thread", xp_mixed_part_name(idx));
	}
}

static int join_parts(struct xp_mixed *m, int from, int to, struct xp_err *err)
{
	int i, rc = 0;

	for (i = from; i < to; i++) {
		if (m->p[i].ran)
			pthread_join(m->p[i].thr, NULL);
		if (m->p[i].rc && !rc && xp_mux_error(m->mux)[0])
			rc = xp_err_set(err, "RRUL %s: %s (its control connection: %s)",
					xp_mixed_part_name(i), m->p[i].err.msg, xp_mux_error(m->mux));
		else if (m->p[i].rc && !rc)
			rc = xp_err_set(err, "RRUL %s: %s", xp_mixed_part_name(i), m->p[i].err.msg);
	}
	return rc;
}

/* The idle phase: its two probe parts together. */
static int run_idle(struct xp_mixed *m, struct xp_err *err)
{
	start_part(m, XP_MX_IDLE_TCP);
	start_part(m, XP_MX_IDLE_UDP);
	return join_parts(m, XP_MX_IDLE_TCP, XP_MX_LOAD, err);
}

/* The loaded phase: the probe parts open their flows (on the idle path)
 * and hold; the load starts, and once its omitted start is over they go. */
static int run_loaded(struct xp_mixed *m, struct xp_err *err)
{
	int i, n = 0;

	for (i = XP_MX_LOADED_TCP; i < XP_MX_PARTS; i++) {
		start_part(m, i);
		n += m->p[i].ran;
	}
	pthread_mutex_lock(&m->out_lock);
	while (m->probes_ready < n)
		pthread_cond_wait(&m->going, &m->out_lock);
	pthread_mutex_unlock(&m->out_lock);
	start_part(m, XP_MX_LOAD);
	if (!m->p[XP_MX_LOAD].ran)
		load_going(m);
	return join_parts(m, XP_MX_LOAD, XP_MX_PARTS, err);
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
	/* each probe flow of the pool sends once a second (at most POOL_MAX) */
	m->pool = (XP_NS_PER_SEC + m->interval_ns - 1) / m->interval_ns;
	m->pool = m->pool > POOL_MAX ? POOL_MAX : m->pool;
	pthread_mutex_init(&m->out_lock, NULL);
	pthread_cond_init(&m->going, NULL);
	m->t0_wall_ns = xp_wall_ns(); /* the one time axis of the stream and the chart */
	m->mux = xp_mux_open(c->o, host, port, XP_MX_PARTS, &err);
	if (!m->mux)
		rc = -1;
	else if (c->o->json_stream)
		xp_mixed_stream_start(stdout, m);
	if (m->mux)
		rc = run_idle(m, &err);
	if (!rc && !m->p[XP_MX_IDLE_TCP].r.interrupted && !m->p[XP_MX_IDLE_UDP].r.interrupted)
		rc = run_loaded(m, &err); /* (a signal in the idle phase: no load) */
	xp_mux_close(m->mux);
	rc = rc ? xp_cli_fail(c->o, err.msg) : finish(m);
	free_parts(m);
	pthread_cond_destroy(&m->going);
	pthread_mutex_destroy(&m->out_lock);
	free(m);
	return rc;
}
