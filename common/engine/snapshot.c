/* SPDX-License-Identifier: BSD-2-Clause */
/* A worker's interval snapshots: the controlling thread asks for one
 * (xp_worker_snap_request), the worker copies its counters, histogram and
 * per-flow totals (with each TCP flow's retransmissions so far) into
 * w->snap when it next looks at its commands (xp_take_snapshot), and
 * xp_worker_snap_ready says when the copy is there to read. */
#include "common/engine/worker.h"

#include <linux/tcp.h> /* the full struct tcp_info */
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "common/engine/owd.h"
#include "common/engine/worker_int.h"

static uint64_t flow_retrans(const struct xp_worker *w, const struct xp_flow *f)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	if (!w->t->tcp_info || f->fd < 0 ||
	    getsockopt(f->fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		return 0;
	return ti.tcpi_total_retrans;
}

/* --one-way: the delays so far (a copy not made for want of memory is
 * left NULL, and the interval goes without it). */
static void snap_owd(struct xp_snap *s, const struct xp_owd *o)
{
	if (!s->fwd)
		s->fwd = xp_hist_new();
	if (!s->ret)
		s->ret = xp_hist_new();
	if (s->fwd)
		xp_hist_copy(s->fwd, o->fwd);
	if (s->ret)
		xp_hist_copy(s->ret, o->ret);
}

void xp_take_snapshot(struct xp_worker *w)
{
	uint32_t req = atomic_load_explicit(&w->snap_req, memory_order_acquire), i;
	struct xp_snap *s = &w->snap;

	if (req == w->snap_seen)
		return;
	if (!s->hist)
		s->hist = xp_hist_new();
	if (s->capflows < w->nlive) {
		struct xp_flow_snap *n = realloc(s->flows, w->nlive * sizeof(*n));

		if (n) {
			s->flows = n;
			s->capflows = w->nlive;
		}
	}
	s->t = xp_now_ns();
	s->c = w->c;
	if (s->hist)
		xp_hist_copy(s->hist, w->hist);
	if (w->owd)
		snap_owd(s, w->owd);
	for (i = 0, s->nflows = 0; i < w->nlive && i < s->capflows; i++, s->nflows++) {
		const struct xp_flow *f = w->live[i];

		s->flows[i].idx = f->idx;
		s->flows[i].bytes = f->bytes;
		s->flows[i].trans = f->trans;
		s->flows[i].retrans = flow_retrans(w, f);
		s->flows[i].jitter_ns = f->jitter_ns;
		s->flows[i].jitter_n = f->jitter_n;
	}
	w->snap_seen = req;
	atomic_store_explicit(&w->snap_done, req, memory_order_release);
}

uint32_t xp_worker_snap_request(struct xp_worker *w)
{
	uint32_t t = atomic_fetch_add(&w->snap_req, 1) + 1;

	xp_worker_ask(w);
	return t;
}

int xp_worker_snap_ready(struct xp_worker *w, uint32_t ticket)
{
	return atomic_load_explicit(&w->snap_done, memory_order_acquire) == ticket;
}
