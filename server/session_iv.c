/* SPDX-License-Identifier: BSD-2-Clause */
/* The server's own -i intervals (server/session.h): when the client's
 * SETUP asks (interval_ms), the session snapshots its workers every
 * interval and sends each interval's counts as an INTERVAL message after
 * STOP, before the FLOWs.  Its boundaries are placed on the client's
 * clock: the client's intervals start when GO reaches it (plus its
 * warm-up or --omit: interval_origin_ms), which is half a round trip
 * after the server sent GO, as the control connection's smoothed round
 * trip tells; so the two ends' intervals are the same moments, give or
 * take the path's asymmetry. */
#include "server/session.h"

#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "common/ctl.h"
#include "common/hist_iv.h"
#include "common/tests.h"

#define SNAP_WAIT_NS (200 * XP_NS_PER_MS)
#define IV_MAX 100000 /* intervals kept at most: later ones are not reported */

static uint64_t half_rtt_ns(int fd)
{
	struct tcp_info ti;
	socklen_t n = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &n))
		return 0;
	return (uint64_t)ti.tcpi_rtt * 1000 / 2;
}

/* One-way stamps in a test whose server receives datagrams in bulk: its
 * intervals carry their delays. */
static int one_way_rx(const struct xp_session *s)
{
	const struct xp_test *t = xp_test((int)s->setup.test);

	return (s->setup.stamps & XP_STAMP_ONE_WAY) && t->udp && t->bulk && !t->server_sends;
}

void xp_session_iv_start(struct xp_session *s, uint64_t t_go)
{
	struct xp_session_iv *v = &s->iv;

	if (!s->setup.interval_ms)
		return;
	v->every_ns = s->setup.interval_ms * XP_NS_PER_MS;
	v->origin_ns = t_go + half_rtt_ns(s->ctl_sock) + s->setup.interval_origin_ms * XP_NS_PER_MS;
	v->next_ns = v->origin_ns; /* the first snapshot is the baseline */
	v->wc = calloc((size_t)s->group.n, sizeof(*v->wc));
	if (one_way_rx(s))
		v->fwd = xp_hist_iv_new(s->group.n);
	if (!v->wc || (one_way_rx(s) && !v->fwd))
		v->every_ns = 0; /* no memory: no intervals, the test goes on */
}

uint64_t xp_session_iv_due(const struct xp_session *s)
{
	return s->iv.every_ns ? s->iv.next_ns : UINT64_MAX;
}

/* Every worker's counters now; one that does not answer in time keeps
 * its last ones (what it counted shows in a later interval). */
static void snap_all(struct xp_session *s, struct xp_counters *sum)
{
	struct xp_group *g = &s->group;
	uint32_t tickets[256];
	uint64_t deadline = xp_now_ns() + SNAP_WAIT_NS;
	int i, n = g->n < 256 ? g->n : 256;

	for (i = 0; i < n; i++)
		tickets[i] = xp_worker_snap_request(&g->w[i]);
	memset(sum, 0, sizeof(*sum));
	if (s->iv.fwd)
		xp_hist_iv_begin(s->iv.fwd);
	for (i = 0; i < n; i++) {
		struct xp_counters *c = &s->iv.wc[i];

		if (xp_worker_await(&g->w[i], xp_worker_snap_ready, tickets[i], deadline) == 1) {
			*c = g->w[i].snap.c;
			if (s->iv.fwd)
				xp_hist_iv_add(s->iv.fwd, i, g->w[i].snap.fwd);
		}
		sum->bytes_sent += c->bytes_sent;
		sum->bytes_received += c->bytes_received;
		sum->transactions += c->transactions;
		sum->datagrams_sent += c->datagrams_sent;
		sum->datagrams_received += c->datagrams_received;
		sum->lost += c->lost;
	}
}

static void take(struct xp_session *s, uint64_t now)
{
	struct xp_session_iv *v = &s->iv;
	struct xp_counters c;
	struct xp_msg_interval *iv;

	snap_all(s, &c);
	if (v->started && v->n < IV_MAX &&
	    (v->n < v->cap || (v->v = realloc(v->v, (v->cap = v->cap * 2 + 16) * sizeof(*v->v))))) {
		iv = &v->v[v->n];
		memset(iv, 0, sizeof(*iv));
		iv->index = v->n++;
		iv->start_us = (v->last_ns - v->origin_ns) / 1000;
		iv->end_us = (now - v->origin_ns) / 1000;
#define D(f) iv->f = c.f >= v->prev.f ? c.f - v->prev.f : 0
		D(bytes_sent);
		D(bytes_received);
		D(transactions);
		D(datagrams_sent);
		D(datagrams_received);
		D(lost);
#undef D
		if (v->fwd && (iv->fwd_count = xp_hist_count(xp_hist_iv_sum(v->fwd)))) {
			iv->fwd_p50_ns = (uint64_t)xp_hist_percentile(xp_hist_iv_sum(v->fwd), 50);
			iv->fwd_p99_ns = (uint64_t)xp_hist_percentile(xp_hist_iv_sum(v->fwd), 99);
		}
	} else if (v->started && v->n < IV_MAX) {
		v->every_ns = 0; /* out of memory: no more */
		v->cap = v->n;
	}
	v->started = 1;
	v->prev = c;
	v->last_ns = now;
}

void xp_session_iv_rebase(struct xp_session *s)
{
	struct xp_session_iv *v = &s->iv;

	if (!v->every_ns)
		return;
	memset(v->wc, 0, sizeof(*v->wc) * (size_t)s->group.n);
	memset(&v->prev, 0, sizeof(v->prev));
	if (v->fwd)
		xp_hist_iv_rebase(v->fwd);
}

void xp_session_iv_tick(struct xp_session *s, uint64_t now)
{
	struct xp_session_iv *v = &s->iv;

	if (!v->every_ns || now < v->next_ns)
		return;
	take(s, v->next_ns > v->origin_ns ? v->next_ns : v->origin_ns);
	v->next_ns += v->every_ns;
}

void xp_session_iv_end(struct xp_session *s, uint64_t now)
{
	struct xp_session_iv *v = &s->iv;

	/* a last part, as the client takes one: longer than a tenth */
	if (v->every_ns && v->started && now > v->last_ns && now - v->last_ns > v->every_ns / 10)
		take(s, now);
	v->every_ns = 0;
}

int xp_session_iv_send(struct xp_session *s, struct xp_err *err)
{
	struct xp_msg m;
	uint32_t i;

	for (i = 0; i < s->iv.n; i++) {
		memset(&m, 0, sizeof(m));
		m.type = XP_MSG_INTERVAL;
		m.u.interval = s->iv.v[i];
		if (xp_ctl_send(s->ctl_fd, &m, 5000, "client", err))
			return -1;
	}
	return 0;
}

void xp_session_iv_free(struct xp_session *s)
{
	free(s->iv.v);
	free(s->iv.wc);
	xp_hist_iv_free(s->iv.fwd);
	s->iv.v = NULL;
	s->iv.wc = NULL;
	s->iv.fwd = NULL;
}
