/* SPDX-License-Identifier: BSD-2-Clause */
/* A worker's flows: taking one (from the worker's free list) into its
 * live array with its engine and its share of -n/-k, watching its socket
 * in the worker's epoll set, and finishing it, with the errors it reports.
 * A persistent flow leaves its result as it closes (w->fres: its counters
 * and, for TCP, its TCP_INFO, also summed by xp_tcp_totals_add). */
#include "common/engine/worker.h"

#include <linux/tcp.h> /* the full struct tcp_info */
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <stdint.h>
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
	else if (!(f = malloc(sizeof(*f) + w->state)))
		return NULL;
	memset(f, 0, sizeof(*f) + w->state);
	f->fd = fd;
	f->idx = idx;
	f->w = w;
	f->on_io = noop_io;
	f->side = w->rev && idx >= w->run->flows / 2 ? w->rev : w->side;
	if (w->run->quota && f->side->sends) {
		f->quota = 1;
		f->left = xp_run_flow_quota(w->run, idx);
	}
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

/* Read TCP_INFO of a TCP flow about to close into its result. */
static void sample_tcp(struct xp_worker *w, struct xp_flow *f, struct xp_flow_result *t)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	if (!w->t->tcp_info || f->fd < 0 ||
	    getsockopt(f->fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		return;
	t->flags |= XP_FLOW_F_TCP_INFO;
	t->retrans = ti.tcpi_total_retrans;
	t->rtt_us = ti.tcpi_rtt;
	t->rttvar_us = ti.tcpi_rttvar;
	t->cwnd = ti.tcpi_snd_cwnd;
	t->mss = ti.tcpi_snd_mss;
	t->advmss = ti.tcpi_advmss;
	if (len >= offsetof(struct tcp_info, tcpi_delivery_rate) + sizeof(ti.tcpi_delivery_rate))
		t->delivery_rate_bps = ti.tcpi_delivery_rate * 8;
	xp_tcp_totals_add(&w->tcp, t);
}

/* A persistent flow's result, kept in w->fres for the per-flow reports
 * (the server sends each in a FLOW message). */
static void keep_result(struct xp_worker *w, struct xp_flow *f)
{
	struct xp_flow_result t;

	memset(&t, 0, sizeof(t));
	t.flow = f->idx;
	t.flags = (f->side->sends ? XP_FLOW_F_SENDER : 0) |
		  (f->jitter_n ? XP_FLOW_F_JITTER : 0) |
		  (xp_run_flow_s2c(w->run, f->idx) ? XP_FLOW_F_S2C : 0);
	t.bytes = f->bytes;
	t.omitted_bytes = f->omitted;
	t.datagrams = f->dgrams;
	t.out_of_order = f->out_of_order;
	t.duplicates = f->duplicates;
	t.transactions = f->trans;
	t.jitter_ns = f->jitter_ns;
	t.omitted_transactions = f->omitted_trans;
	sample_tcp(w, f, &t);
	if (w->nfres == w->capfres) {
		uint32_t cap = w->capfres ? 2 * w->capfres : 16;
		struct xp_flow_result *n = realloc(w->fres, cap * sizeof(*n));

		if (!n)
			return;
		w->fres = n;
		w->capfres = cap;
	}
	w->fres[w->nfres++] = t;
}

/* -n/-k: one more of this side's senders is done (its share sent, or it
 * failed or was stopped); the last one wakes whoever waits on done_fd. */
static void quota_done(struct xp_run *r)
{
	uint64_t one = 1;

	if (atomic_fetch_add(&r->quota_done, 1) + 1 == r->quota_flows && r->done_fd >= 0 &&
	    write(r->done_fd, &one, sizeof(one)) < 0) {
		/* an eventfd counter cannot overflow here */
	}
}

void xp_flow_finish(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	struct xp_flow *last;

	if (f->side->close)
		f->side->close(f);
	if (f->quota) {
		f->quota = 0;
		quota_done(w->run);
	}
	if (w->t->persistent)
		keep_result(w, f);
	if (f->fd >= 0)
		close(f->fd);
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

/* The socket buffers the kernel granted (getsockopt after the options were
 * set: Linux doubles a size asked for, and caps it at wmem_max/rmem_max),
 * read from the worker's first flow: every flow has the same options. */
static void note_buffers(struct xp_worker *w, int fd)
{
	int v;
	socklen_t len = sizeof(v);

	if (w->c.sndbuf_bytes)
		return;
	if (!getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &len) && v > 0)
		w->c.sndbuf_bytes = (uint64_t)v;
	len = sizeof(v);
	if (!getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &len) && v > 0)
		w->c.rcvbuf_bytes = (uint64_t)v;
}

void xp_flow_note(struct xp_worker *w, int fd)
{
	if (fd < 0)
		return;
	note_buffers(w, fd);
	if (w->t->sock_type != SOCK_STREAM)
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

void xp_worker_move_sent(struct xp_flow *f, uint64_t bytes, uint64_t dgrams)
{
	struct xp_worker *w = f->w;

	if (dgrams <= w->warm.datagrams_sent) {
		w->warm.datagrams_sent -= dgrams;
		w->c.datagrams_sent += dgrams;
	}
	if (bytes <= w->warm.bytes_sent) {
		w->warm.bytes_sent -= bytes;
		w->c.bytes_sent += bytes;
		f->bytes += bytes;
	}
}
