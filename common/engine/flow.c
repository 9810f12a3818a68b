/* SPDX-License-Identifier: BSD-2-Clause */
/* A worker's flows: taking one (from the worker's free list) into its
 * live array, watching its socket in the worker's epoll set, and finishing
 * it, with the errors it reports.  A TCP flow's TCP_INFO is read as it
 * closes, into the worker's totals (xp_tcp_totals_add, proto/result.h). */
#include "common/engine/worker.h"

#include <linux/tcp.h> /* the full struct tcp_info */
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/sockpath.h"

static int live_push(struct xp_worker *w, struct xp_flow *f)
{
	if (w->nlive == w->caplive) {
		uint32_t cap = w->caplive ? w->caplive * 2 : 16;
		struct xp_flow **n = realloc(w->live, cap * sizeof(*n));

		if (!n)
			return -1;
		w->live = n;
		w->caplive = cap;
	}
	f->slot = w->nlive;
	w->live[w->nlive++] = f;
	return 0;
}

static void noop_io(struct xp_flow *f, uint32_t events)
{
	(void)f;
	(void)events;
}

struct xp_flow *xp_flow_alloc(struct xp_worker *w, int fd, uint32_t idx)
{
	struct xp_flow *f = w->free_flows;

	if (f)
		w->free_flows = f->next_free;
	else if (!(f = malloc(sizeof(*f) + w->side->state)))
		return NULL;
	memset(f, 0, sizeof(*f) + w->side->state);
	f->fd = fd;
	f->idx = idx;
	f->w = w;
	f->on_io = noop_io;
	if (live_push(w, f)) {
		f->next_free = w->free_flows;
		w->free_flows = f;
		return NULL;
	}
	return f;
}

int xp_flow_watch(struct xp_flow *f, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.ptr = f };
	int op = !f->events ? EPOLL_CTL_ADD : events ? EPOLL_CTL_MOD : EPOLL_CTL_DEL;

	if (f->events == events)
		return 0;
	if (epoll_ctl(f->w->epfd, op, f->fd, &ev))
		return -1;
	f->events = events;
	return 0;
}

/* Read TCP_INFO of a TCP flow about to close. */
static void sample_tcp(struct xp_worker *w, struct xp_flow *f)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);
	struct xp_tcp_flow t;

	if (!w->t->tcp_info ||
	    getsockopt(f->fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		return;
	memset(&t, 0, sizeof(t));
	t.flow = f->idx;
	t.retrans = ti.tcpi_total_retrans;
	t.rtt_us = ti.tcpi_rtt;
	t.rttvar_us = ti.tcpi_rttvar;
	t.cwnd = ti.tcpi_snd_cwnd;
	t.mss = ti.tcpi_snd_mss;
	t.advmss = ti.tcpi_advmss;
	if (len >= offsetof(struct tcp_info, tcpi_delivery_rate) + sizeof(ti.tcpi_delivery_rate))
		t.delivery_rate_bps = ti.tcpi_delivery_rate * 8;
	xp_tcp_totals_add(&w->tcp, &t);
	if (w->ntcpi == w->captcpi) {
		uint32_t cap = w->captcpi ? 2 * w->captcpi : 16;
		struct xp_tcp_flow *n = realloc(w->tcpi, cap * sizeof(*n));

		if (!n)
			return;
		w->tcpi = n;
		w->captcpi = cap;
	}
	w->tcpi[w->ntcpi++] = t;
}

void xp_flow_finish(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	struct xp_flow *last;

	if (w->side->close)
		w->side->close(f);
	if (f->fd >= 0) {
		sample_tcp(w, f);
		close(f->fd);
	}
	f->fd = -1;
	f->events = 0;
	f->on_io = noop_io;
	last = w->live[--w->nlive];
	w->live[f->slot] = last;
	last->slot = f->slot;
	f->next_free = w->free_flows;
	w->free_flows = f;
}

void xp_flow_warn(struct xp_flow *f, const char *what, int errnum)
{
	struct xp_worker *w = f->w;

	if (!w->errmsg[0])
		snprintf(w->errmsg, sizeof(w->errmsg), "flow %u: %s%s%s", f->idx,
			 what ? what : "", what ? ": " : "", strerror(errnum));
}

void xp_flow_fail(struct xp_flow *f, int errnum)
{
	f->w->c.errors++;
	xp_flow_warn(f, NULL, errnum);
	xp_flow_finish(f);
}

void xp_flow_note(struct xp_worker *w, int fd)
{
	if (fd < 0 || w->t->sock_type != SOCK_STREAM)
		return;
	if (!w->cc[0])
		xp_sock_cc(fd, w->cc, sizeof(w->cc));
	if (w->run->note_mptcp && xp_sock_is_mptcp(fd))
		w->c.mptcp_flows++;
}

int xp_worker_add_flow(struct xp_worker *w, int fd, uint32_t idx,
		       struct xp_err *err)
{
	if (!xp_flow_alloc(w, fd, idx))
		return xp_err_set(err, "worker %d: out of memory for flow %u", w->id, idx);
	xp_flow_note(w, fd);
	return 0;
}
