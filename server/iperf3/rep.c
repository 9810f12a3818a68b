/* SPDX-License-Identifier: BSD-2-Clause */
/* An iperf3 test's reports to the iperf3 front end (server/iperf3/hooks.h),
 * made on the test's own thread (server/iperf3/session.c) and, for the
 * streams' addresses, by the accept loop under the session's lock.  Every
 * function does nothing when the server has no hooks (s->rep NULL). */
#include "server/iperf3/session.h"

#include <fcntl.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"

#define SNAP_WAIT_NS (200 * XP_NS_PER_MS)
#define MAX_WORKERS 256

struct xp_i3rep {
	const struct xp_i3srv_hooks *h;
	char local[80];
	uint32_t n;
	int *sender, *fd;          /* fd: a copy of a TCP stream's socket (TCP_INFO) */
	struct xp_i3srv_addr *addr;
	struct xp_i3srv_flow *flows, *base; /* base: the counts at the end of --omit */
	uint64_t t0, next;
	struct xp_i3_results *theirs;
};

static void view(const struct xp_i3sess *s, struct xp_i3srv_view *v)
{
	const struct xp_i3rep *r = s->rep;

	memset(v, 0, sizeof(*v));
	v->peer = s->peer;
	v->local = r->local;
	v->cookie = s->cookie;
	v->p = &s->p;
	v->nstreams = r->n;
	v->sender = r->sender;
	v->addr = r->addr;
	v->flows = r->flows;
}

void xp_i3rep_accept(struct xp_i3sess *s)
{
	const struct xp_i3srv_hooks *h = s->cfg->i3_hooks;
	struct xp_i3srv_view v;
	struct xp_addr a = { .len = sizeof(a.ss) };

	if (!h || !(s->rep = calloc(1, sizeof(*s->rep))))
		return;
	s->rep->h = h;
	if (getsockname(s->ctl, (struct sockaddr *)&a.ss, &a.len) == 0)
		xp_addr_str(&a, s->rep->local, sizeof(s->rep->local));
	view(s, &v);
	if (h->on_accept)
		h->on_accept(h->ctx, &v);
}

int xp_i3rep_streams(struct xp_i3sess *s)
{
	struct xp_i3rep *r = s->rep;
	uint32_t n = s->side.nst, i;

	if (!r)
		return 0;
	r->sender = calloc(n ? n : 1, sizeof(*r->sender));
	r->fd = calloc(n ? n : 1, sizeof(*r->fd));
	r->addr = calloc(n ? n : 1, sizeof(*r->addr));
	r->flows = calloc(n ? n : 1, sizeof(*r->flows));
	r->base = calloc(n ? n : 1, sizeof(*r->base));
	r->theirs = calloc(1, sizeof(*r->theirs));
	if (!r->sender || !r->fd || !r->addr || !r->flows || !r->base || !r->theirs)
		return -1;
	for (i = 0; i < n; i++) {
		r->sender[i] = s->side.st[i].sender;
		r->fd[i] = -1;
	}
	r->n = n;
	return 0;
}

void xp_i3rep_addr(struct xp_i3sess *s, uint32_t pos, int fd)
{
	struct xp_i3rep *r = s->rep;
	struct xp_addr a = { .len = sizeof(a.ss) };

	if (!r || pos >= r->n)
		return;
	if (getsockname(fd, (struct sockaddr *)&a.ss, &a.len) == 0)
		xp_addr_str(&a, r->addr[pos].local, sizeof(r->addr[pos].local));
	a.len = sizeof(a.ss);
	if (getpeername(fd, (struct sockaddr *)&a.ss, &a.len) == 0)
		xp_addr_str(&a, r->addr[pos].remote, sizeof(r->addr[pos].remote));
	if (!s->udp && r->sender[pos])
		r->fd[pos] = fcntl(fd, F_DUPFD_CLOEXEC, 3);
}

void xp_i3rep_start(struct xp_i3sess *s)
{
	struct xp_i3rep *r = s->rep;
	struct xp_i3srv_view v;

	if (!r)
		return;
	r->t0 = xp_now_ns();
	r->next = r->h->interval_ns ? r->t0 + r->h->interval_ns : 0;
	view(s, &v);
	if (r->h->on_start)
		r->h->on_start(r->h->ctx, &v);
}

uint64_t xp_i3rep_next(const struct xp_i3sess *s)
{
	return s->rep ? s->rep->next : 0;
}

static void tcp_info(int fd, struct xp_i3srv_flow *f)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		return;
	f->has_tcpi = 1;
	f->cwnd_bytes = (uint64_t)ti.tcpi_snd_cwnd * ti.tcpi_snd_mss;
	f->rtt_us = ti.tcpi_rtt;
	f->rttvar_us = ti.tcpi_rttvar;
	f->pmtu = ti.tcpi_pmtu;
	if (len >= offsetof(struct tcp_info, tcpi_snd_wnd) + sizeof(ti.tcpi_snd_wnd))
		f->wnd = ti.tcpi_snd_wnd;
}

/* One worker's snapshot into the streams' counters. */
static void take(struct xp_i3rep *r, const struct xp_snap *sn)
{
	uint32_t k;

	for (k = 0; k < sn->nflows; k++) {
		const struct xp_flow_snap *f = &sn->flows[k];
		struct xp_i3srv_flow *o = f->idx < r->n ? &r->flows[f->idx] : NULL;

		if (!o)
			continue;
		o->bytes = f->bytes;
		o->lost = (int64_t)f->trans;
		o->retrans = f->retrans;
		o->jitter_ms = f->jitter_n ? (double)f->jitter_ns / 1e6 : -1;
	}
}

/* Every worker's snapshot: the streams' counters now. */
static void snapshot(struct xp_i3sess *s, struct xp_i3rep *r)
{
	uint64_t deadline = xp_now_ns() + SNAP_WAIT_NS;
	uint32_t t[2][MAX_WORKERS], i;
	int dir, w;

	for (dir = 0; dir < 2; dir++)
		for (w = 0; w < s->side.g[dir].n && w < MAX_WORKERS; w++)
			t[dir][w] = xp_worker_snap_request(&s->side.g[dir].w[w]);
	for (dir = 0; dir < 2; dir++)
		for (w = 0; w < s->side.g[dir].n && w < MAX_WORKERS; w++) {
			struct xp_worker *wk = &s->side.g[dir].w[w];

			if (xp_worker_await(wk, xp_worker_snap_ready, t[dir][w], deadline))
				take(r, &wk->snap);
		}
	for (i = 0; i < r->n; i++) {
		r->flows[i].bytes -= r->base[i].bytes;
		r->flows[i].lost -= r->base[i].lost;
		r->flows[i].retrans -= r->base[i].retrans;
		r->flows[i].has_tcpi = 0;
		if (r->sender[i])
			tcp_info(r->fd[i], &r->flows[i]);
	}
}

void xp_i3rep_tick(struct xp_i3sess *s, int final)
{
	struct xp_i3rep *r = s->rep;
	struct xp_i3srv_view v;
	uint64_t now = xp_now_ns();

	if (!r || !r->next || (!final && now < r->next))
		return;
	snapshot(s, r);
	view(s, &v);
	v.t = (double)(xp_now_ns() - r->t0) / 1e9;
	if (r->h->on_interval)
		r->h->on_interval(r->h->ctx, &v);
	while (r->next <= now)
		r->next += r->h->interval_ns;
}

void xp_i3rep_omit_over(struct xp_i3sess *s)
{
	struct xp_i3rep *r = s->rep;

	if (!r)
		return;
	memset(r->base, 0, r->n * sizeof(*r->base));
	snapshot(s, r);
	memcpy(r->base, r->flows, r->n * sizeof(*r->base));
	r->t0 = xp_now_ns();
	r->next = r->h->interval_ns ? r->t0 + r->h->interval_ns : 0;
}

/* The copies must go before the streams end: a stream whose worker has
 * closed it would otherwise stay open, and a stock client blocked in a
 * read of a whole block would wait for the FIN that does not come. */
void xp_i3rep_release(struct xp_i3sess *s)
{
	struct xp_i3rep *r = s->rep;
	uint32_t i;

	for (i = 0; r && r->fd && i < r->n; i++)
		if (r->fd[i] >= 0) {
			close(r->fd[i]);
			r->fd[i] = -1;
		}
}

void xp_i3rep_theirs(struct xp_i3sess *s, const struct xp_i3_results *res)
{
	if (s->rep && s->rep->theirs)
		*s->rep->theirs = *res;
}

void xp_i3rep_end(struct xp_i3sess *s, const char *error)
{
	struct xp_i3rep *r = s->rep;
	struct xp_i3srv_view v;

	if (!r)
		return;
	view(s, &v);
	v.error = error;
	if (!error) {
		v.mine = s->res;
		v.theirs = r->theirs;
	}
	if (r->h->on_end)
		r->h->on_end(r->h->ctx, &v);
}

void xp_i3rep_free(struct xp_i3sess *s)
{
	struct xp_i3rep *r = s->rep;

	if (!r)
		return;
	xp_i3rep_release(s);
	free(r->sender);
	free(r->fd);
	free(r->addr);
	free(r->flows);
	free(r->base);
	free(r->theirs);
	free(r);
	s->rep = NULL;
}
