/* SPDX-License-Identifier: BSD-2-Clause */
/* One end of an iperf3 test: its streams and the worker groups that run
 * them (common/iperf3/engine.h). */
#include "common/iperf3/engine.h"

#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/cpu.h"
#include "common/units.h"

static uint32_t ncpus(const char *list)
{
	int cpus[XP_CPUS_MAX], n;
	struct xp_err err;

	n = list ? xp_parse_cpus(list, cpus, XP_CPUS_MAX, "cpus", &err)
		 : xp_cpu_allowed(cpus, XP_CPUS_MAX);
	return n > 0 ? (uint32_t)n : 1;
}

/* UDP datagrams sent back to back when paced: what the client asked for
 * (iperf3's -b RATE/BURST), else about a millisecond's worth at the rate,
 * 1 to 8 and at most 64 KiB: bursts of large datagrams would overflow a
 * stock receiver's default socket buffer, which iperf3's own sender (a
 * datagram at a time, on a 1 ms timer) never does. */
static uint32_t udp_burst(const struct xp_i3_side_cfg *c)
{
	uint64_t n;

	if (c->pace_burst)
		return c->pace_burst;
	if (!c->rate_bps || !c->len)
		return 8;
	n = c->rate_bps / 8 / 1000 / c->len;
	if (n * c->len > 65536)
		n = 65536 / c->len;
	return n < 1 ? 1 : n > 8 ? 8 : (uint32_t)n;
}

static void fill_run(struct xp_i3_side *s, int dir, const struct xp_i3_side_cfg *c)
{
	struct xp_i3_run *ir = &s->run[dir];
	struct xp_run *r = &ir->run;

	r->test = c->udp ? XP_UDP_STREAM : XP_TCP_STREAM;
	r->role = c->role;
	r->req = c->len;
	r->so = c->so;
	r->flows = s->nflows[dir];
	r->gso = c->udp && c->gso && dir == XP_I3_TX;
	r->rate_bps = dir == XP_I3_TX ? c->rate_bps : 0;
	r->pace_burst = udp_burst(c);
	if (dir == XP_I3_RX)
		r->so.pacing_Bps = 0;
	if (c->udp)
		r->side = dir == XP_I3_TX ? &xp_i3_udp_tx : &xp_i3_udp_rx;
	else
		r->side = dir == XP_I3_TX ? &xp_i3_tcp_tx : &xp_i3_tcp_rx;
	r->done_fd = -1;
	if (dir == XP_I3_TX && c->quota) {
		r->quota = c->quota;
		r->quota_flows = s->nflows[dir];
		r->done_fd = c->done_fd;
	}
	ir->st = s->st;
	ir->udp64 = c->udp64;
	ir->drain = c->role == XP_ROLE_CLIENT;
}

static int sends(const struct xp_i3_side_cfg *c, uint32_t pos)
{
	int c2s = xp_i3_c2s(pos, c->parallel, c->reverse, c->bidir);

	return c->role == XP_ROLE_CLIENT ? c2s : !c2s;
}

int xp_i3_side_init(struct xp_i3_side *s, const struct xp_i3_side_cfg *c,
		    struct xp_err *err)
{
	uint32_t pos, cpus = ncpus(c->cpus);
	int dir, i;

	memset(s, 0, sizeof(*s));
	s->udp = c->udp;
	s->nst = c->bidir ? 2 * c->parallel : c->parallel;
	s->st = calloc(s->nst ? s->nst : 1, sizeof(*s->st));
	if (!s->st)
		return xp_err_set(err, "out of memory for %u iperf3 streams", s->nst);
	for (pos = 0; pos < s->nst; pos++) {
		s->st[pos].sender = sends(c, pos);
		s->nflows[s->st[pos].sender ? XP_I3_TX : XP_I3_RX]++;
	}
	for (dir = 0; dir < 2; dir++) {
		uint32_t n = s->nflows[dir];

		if (!n)
			continue;
		n = n < cpus ? n : cpus;
		n = c->max_threads && n > c->max_threads ? c->max_threads : n;
		fill_run(s, dir, c);
		s->run[dir].run.threads = n;
		if (xp_group_create(&s->g[dir], &s->run[dir].run, (int)n, c->cpus, "cpus", err))
			return -1;
		for (i = 0; !c->cpus && i < s->g[dir].n; i++)
			s->g[dir].w[i].cpu = -1;
	}
	return 0;
}

static struct xp_worker *worker_for(struct xp_i3_side *s, uint32_t pos)
{
	int dir = s->st[pos].sender ? XP_I3_TX : XP_I3_RX;
	struct xp_group *g = &s->g[dir];

	if (!g->n || s->added[dir] >= s->nflows[dir])
		return NULL;
	return &g->w[s->added[dir]++ % (uint32_t)g->n];
}

int xp_i3_side_add(struct xp_i3_side *s, uint32_t pos, int fd, struct xp_err *err)
{
	struct xp_worker *w = pos < s->nst ? worker_for(s, pos) : NULL;

	if (!w)
		return xp_err_set(err, "iperf3 stream %u: no such stream", pos);
	return xp_worker_add_flow(w, fd, pos, err);
}

int xp_i3_side_mail(struct xp_i3_side *s, uint32_t pos, int fd)
{
	struct xp_worker *w = pos < s->nst ? worker_for(s, pos) : NULL;

	return w ? xp_worker_mail(w, fd, pos) : -1;
}

int xp_i3_side_start(struct xp_i3_side *s, struct xp_err *err)
{
	int dir;

	for (dir = 0; dir < 2; dir++)
		if (s->g[dir].n && xp_group_start(&s->g[dir], err))
			return -1;
	return 0;
}

uint32_t xp_i3_side_registered(struct xp_i3_side *s)
{
	return atomic_load(&s->run[0].run.registered) + atomic_load(&s->run[1].run.registered);
}

static void both(struct xp_i3_side *s, int cmd)
{
	int dir;

	for (dir = 0; dir < 2; dir++)
		if (s->g[dir].n)
			xp_group_cmd(&s->g[dir], cmd);
}

void xp_i3_side_go(struct xp_i3_side *s)
{
	both(s, XP_CMD_GO);
}

void xp_i3_side_omit_over(struct xp_i3_side *s)
{
	uint64_t deadline;
	int dir, i;

	for (dir = 0; dir < 2; dir++)
		for (i = 0; i < s->g[dir].n; i++)
			xp_worker_measure(&s->g[dir].w[i]);
	deadline = xp_now_ns() + XP_NS_PER_SEC;
	for (dir = 0; dir < 2; dir++)
		for (i = 0; i < s->g[dir].n; i++)
			xp_worker_await(&s->g[dir].w[i], xp_worker_measured, 0, deadline);
}

void xp_i3_side_stop(struct xp_i3_side *s, int dir)
{
	if (!s->g[dir].n)
		return;
	xp_group_cmd(&s->g[dir], XP_CMD_STOP);
	xp_group_join(&s->g[dir]);
}

void xp_i3_side_targets(struct xp_i3_side *s, const struct xp_i3_results *peer, int bytes)
{
	uint32_t pos;

	for (pos = 0; pos < s->nst; pos++) {
		const struct xp_i3_stream_res *r = xp_i3_results_find(peer, xp_i3_stream_id(pos));

		if (!r || s->st[pos].sender)
			continue;
		if (s->udp)
			s->st[pos].target_packets = r->packets > 0 ? (uint64_t)r->packets : 0;
		else if (bytes)
			s->st[pos].target_bytes = r->bytes;
	}
}

static void stream_res(const struct xp_i3_side *s, uint32_t pos, struct xp_i3_stream_res *r)
{
	const struct xp_i3_stream *st = &s->st[pos];

	memset(r, 0, sizeof(*r));
	r->id = xp_i3_stream_id(pos);
	r->bytes = st->bytes;
	r->retransmits = st->sender && !s->udp && st->has_tcp ? (int64_t)st->tcp.retrans : -1;
	if (s->udp && !st->sender) {
		r->jitter = st->rx.jitter;
		r->errors = (int64_t)st->rx.lost;
		r->packets = (int64_t)st->rx.max_seen;
		r->omitted_errors = (int64_t)st->omit_lost;
		r->omitted_packets = (int64_t)st->omit_max;
	} else if (s->udp) {
		r->packets = (int64_t)st->packets;
		r->omitted_packets = (int64_t)st->omit_packets;
	}
	r->has_omitted = 1;
	r->end_time = st->t_end > st->t_start ? (double)(st->t_end - st->t_start) / 1e9 : 0;
}

void xp_i3_side_streams(const struct xp_i3_side *s, struct xp_i3_results *out)
{
	uint32_t pos;

	for (pos = 0; pos < s->nst && pos < XP_I3_STREAMS_MAX; pos++)
		stream_res(s, pos, &out->streams[pos]);
	out->nstreams = pos;
}

void xp_i3_side_sum(const struct xp_i3_side *s, struct xp_side_result *r)
{
	struct xp_side_result part;
	int dir, first = 1;

	memset(r, 0, sizeof(*r));
	for (dir = 0; dir < 2; dir++) {
		if (!s->g[dir].n)
			continue;
		xp_group_sum(&s->g[dir], first ? r : &part);
		if (!first)
			xp_side_result_merge(r, &part);
		first = 0;
	}
}

void xp_i3_side_destroy(struct xp_i3_side *s)
{
	int dir;

	for (dir = 0; dir < 2; dir++)
		if (s->g[dir].n)
			xp_group_destroy(&s->g[dir]);
	free(s->st);
	s->st = NULL;
}
