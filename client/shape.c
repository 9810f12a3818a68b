/* SPDX-License-Identifier: BSD-2-Clause */
/* The client's part of a test's shape: the end of --omit on both ends,
 * each flow's result at both ends (sorted by flow, found by bsearch), and
 * the exact accounting of the bytes --omit leaves out (see shape.h). */
#include "client/shape.h"

#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/ctl.h"
#include "common/tests.h"

#define CTL_MS 15000

int xp_shape_measure(struct xp_group *g, int ctl, const char *peer, struct xp_err *err)
{
	uint64_t deadline;
	struct xp_msg m;
	int i;

	for (i = 0; i < g->n; i++)
		xp_worker_measure(&g->w[i]);
	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_MEASURE;
	if (ctl >= 0 && xp_ctl_send(ctl, &m, CTL_MS, peer, err))
		return -1;
	deadline = xp_now_ns() + XP_NS_PER_SEC;
	for (i = 0; i < g->n; i++)
		xp_worker_await(&g->w[i], xp_worker_measured, 0, deadline);
	return 0;
}

static int by_flow(const void *a, const void *b)
{
	const struct xp_flow_result *x = a, *y = b;

	return x->flow < y->flow ? -1 : x->flow > y->flow;
}

int xp_shape_collect(struct xp_client_result *r, const struct xp_worker *w)
{
	struct xp_flow_result *n;

	if (!w->nfres)
		return 0;
	n = realloc(r->flows, (r->nflows + w->nfres) * sizeof(*n));
	if (!n)
		return -1;
	memcpy(n + r->nflows, w->fres, w->nfres * sizeof(*n));
	r->flows = n;
	r->nflows += w->nfres;
	return 0;
}

void xp_shape_remote_flow(struct xp_client_result *r, const struct xp_flow_result *f,
			  uint32_t max)
{
	struct xp_flow_result *n;

	if (r->nremote_flows >= max)
		return; /* more than there were flows: ignore the rest */
	n = realloc(r->remote_flows, (r->nremote_flows + 1) * sizeof(*n));
	if (!n)
		return;
	r->remote_flows = n;
	n[r->nremote_flows] = *f;
	/* a server from before FLOW's counters sent TCP_INFO alone */
	if (!f->flags && xp_test(r->test)->tcp_info)
		n[r->nremote_flows].flags = XP_FLOW_F_TCP_INFO;
	r->nremote_flows++;
}

void xp_shape_sort(struct xp_client_result *r)
{
	if (r->nflows)
		qsort(r->flows, r->nflows, sizeof(*r->flows), by_flow);
	if (r->nremote_flows)
		qsort(r->remote_flows, r->nremote_flows, sizeof(*r->remote_flows), by_flow);
}

static const struct xp_flow_result *find(const struct xp_flow_result *a, uint32_t n,
					 uint32_t idx)
{
	struct xp_flow_result key = { .flow = idx };

	return n ? bsearch(&key, a, n, sizeof(*a), by_flow) : NULL;
}

const struct xp_flow_result *xp_shape_remote(const struct xp_client_result *r, uint32_t idx)
{
	return find(r->remote_flows, r->nremote_flows, idx);
}

const struct xp_flow_result *xp_shape_local(const struct xp_client_result *r, uint32_t idx)
{
	return find(r->flows, r->nflows, idx);
}

/* The receiver's measured bytes: its total less what the sender omitted. */
static void fix_flow(struct xp_flow_result *rcv, const struct xp_flow_result *snd)
{
	uint64_t total = rcv->bytes + rcv->omitted_bytes, left = snd->omitted_bytes;

	rcv->bytes = total > left ? total - left : 0;
	rcv->omitted_bytes = total > left ? left : total;
}

/* The receiver's measured bytes, as for a flow, and its time: the bytes
 * the sender wrote in the omitted seconds and still held (its socket
 * buffer, the path's queues) arrive first, in the receiver's window, at
 * the window's rate; the measured ones take the rest of it.  So the time
 * is the window times measured over what arrived in it, and the rate is
 * the rate at which bytes arrived (what iperf3's receiver reports). */
static void fix_side(struct xp_side_result *rcv, const struct xp_side_result *snd)
{
	uint64_t total = rcv->c.bytes_received + rcv->omitted_bytes_received;
	uint64_t left = snd->omitted_bytes_sent, arrived = rcv->c.bytes_received;

	rcv->c.bytes_received = total > left ? total - left : 0;
	rcv->omitted_bytes_received = total > left ? left : total;
	if (rcv->c.bytes_received && arrived > rcv->c.bytes_received)
		rcv->elapsed_ns = (uint64_t)((double)rcv->elapsed_ns *
					     (double)rcv->c.bytes_received / (double)arrived);
}

void xp_shape_fix_warmup(struct xp_client_result *r)
{
	uint32_t i;

	if (!r->warmup_ns)
		return;
	for (i = 0; i < r->nflows; i++) {
		const struct xp_flow_result *l = &r->flows[i];
		struct xp_flow_result *s = (struct xp_flow_result *)xp_shape_remote(r, (uint32_t)l->flow);

		if (s)
			s->transactions -= l->omitted_transactions < s->transactions
						   ? l->omitted_transactions : s->transactions;
	}
}

void xp_shape_fix_omit(struct xp_client_result *r)
{
	const struct xp_test *t = xp_test(r->test);
	uint32_t i;

	if (!r->omit_ns || t->udp || !t->bulk)
		return;
	for (i = 0; i < r->nflows; i++) {
		struct xp_flow_result *l = &r->flows[i];
		struct xp_flow_result *s = (struct xp_flow_result *)xp_shape_remote(r, (uint32_t)l->flow);

		if (!s)
			continue;
		if (l->flags & XP_FLOW_F_SENDER)
			fix_flow(s, l);
		else
			fix_flow(l, s);
	}
	fix_side(&r->local, &r->remote);
	fix_side(&r->remote, &r->local);
}
