/* SPDX-License-Identifier: BSD-2-Clause */
/* UDP request/response engines (UDP_RR).
 *
 * Requests carry the low min(8, req, rsp) bytes of a request id, which the
 * server's response echoes, so a late answer to a request that already
 * timed out is recognized and ignored; a request with no answer within
 * --rr-timeout counts as lost and the flow goes on.  With --burst N a flow
 * keeps N requests outstanding, each timed on its own.  A transaction
 * counts when its answer came by STOP (the server counts what it
 * answered: at most --burst more a flow, client/verify.c); a request
 * still out then is waited for (--rr-timeout) and counts as lost if it
 * times out, so that every request sent is answered in time, answered
 * after STOP, or lost, and the loss is unbiased. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "common/engine/kts.h"
#include "common/engine/owd.h"
#include "common/engine/udp.h"
#include "common/engine/sysio.h"
#include "proto/be.h"
#include "proto/msg.h"

#define MAX_SEGS XP_UDP_BATCH /* requests answered per wake-up */

/* A UDP_RR flow's own state. */
struct udp_rr_state {
	uint64_t seq;       /* next request id */
	uint64_t t0;        /* --rate: actual send of the scheduled request */
	uint64_t *ring;     /* client: (issue time, id) per outstanding request */
	uint64_t *sent_rt;  /* client --one-way: each slot's send, CLOCK_REALTIME */
	struct xp_kts_udp *kts; /* --kernel-timestamps (common/engine/kts.h) */
	uint32_t rcount;
	uint8_t phase;      /* client: 2 while waiting for a --rate slot */
};

static struct udp_rr_state *us(struct xp_flow *f)
{
	return xp_flow_state(f);
}

/* recv(2); with kernel timestamps noting the datagram's receipt (inline:
 * the plain path is the per-transaction one). */
static inline __attribute__((always_inline)) ssize_t rr_recv(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	struct udp_rr_state *u = xp_flow_state(f);

	if (u->kts)
		return xp_kts_udp_recv(u->kts, w, f->fd, w->buf, w->buflen);
	return xp_recv(f->fd, w->buf, w->buflen, 0);
}

/* Client, --one-way or --kernel-timestamps: the response to slot i is
 * in, its stamps after the 8-byte id. */
static __attribute__((noinline, cold)) void rr_stamps_in(struct xp_flow *f, uint32_t i)
{
	struct xp_worker *w = f->w;
	struct udp_rr_state *u = xp_flow_state(f);

	xp_owd_rr(w, (const uint8_t *)w->buf + 8, u->sent_rt[i], xp_owd_now());
	if (u->kts)
		xp_kts_udp_done(u->kts, w, f->fd, (const uint8_t *)w->buf, u->sent_rt[i],
				w->now - u->ring[2 * i]);
}

/* Server, the same: t2 now, t3 as the response leaves (and the kernel's
 * parts of the previous one). */
static __attribute__((noinline, cold)) void rrs_stamps_out(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	struct udp_rr_state *u = xp_flow_state(f);

	xp_owd_stamp((uint8_t *)w->buf + 8, xp_owd_now());
	if (u->kts)
		xp_kts_udp_stamp(u->kts, w, f->fd, (uint8_t *)w->buf);
}

/* --kernel-timestamps: the stamps, asked for on the flow's socket. */
static void rr_stamps(struct xp_flow *f)
{
	struct udp_rr_state *u = xp_flow_state(f);

	if (!(f->w->run->stamps & XP_STAMP_KERNEL))
		return;
	if (!(u->kts = xp_kts_udp_new(f->fd)))
		xp_flow_fail(f, errno);
	else
		xp_kts_note_nic(f->w, f->fd);
}

/* ---- UDP_RR client: ring slots of (issue time, id), one per outstanding ---- */

static size_t id_len(const struct xp_run *r)
{
	size_t k = r->req < r->rsp ? r->req : r->rsp;

	return k < 8 ? k : 8;
}

static void put_id(uint8_t *p, uint64_t id, size_t k)
{
	uint8_t be[8];

	xp_put64(be, id);
	memcpy(p, be + 8 - k, k);
}

#define FREE_SLOT UINT64_MAX

/* After a failed recv: 1 when the flow should stop reading (nothing
 * there, a kick out of direct mode's blocking recv: EINTR, or the flow
 * failed), 0 to read on past a soft error. */
static int recv_failed(struct xp_flow *f)
{
	if (errno == EAGAIN || errno == EINTR)
		return 1;
	if (xp_udp_soft_error(errno))
		return 0;
	xp_flow_fail(f, errno);
	return 1;
}

/* With stamps the send is now, by both clocks: the time the last
 * response's stamps took is not this one's trip.  On --rate's schedule
 * the ring keeps the slot (w->now, rr_scheduled) and t0 takes the send;
 * else the ring takes it.  Out of line: the plain path keeps its
 * registers. */
static __attribute__((noinline, cold)) void rr_stamp_issue(struct xp_flow *f, uint32_t i)
{
	struct udp_rr_state *u = us(f);
	uint64_t now = xp_now_ns();

	u->sent_rt[i] = xp_owd_now();
	if (f->w->run->sched_ns)
		u->t0 = now;
	else
		u->ring[2 * i] = now;
}

/* Issue a request into slot i.  Every issued request counts as sent; one
 * the kernel refused will time out and count as lost. */
static void rr_issue(struct xp_flow *f, uint32_t i)
{
	struct xp_worker *w = f->w;
	uint64_t id = us(f)->seq++;
	ssize_t n;

	put_id((uint8_t *)w->txbuf, id, id_len(w->run));
	us(f)->ring[2 * i] = w->now;
	if (__builtin_expect(us(f)->sent_rt != NULL, 0))
		rr_stamp_issue(f, i);
	us(f)->ring[2 * i + 1] = id;
	us(f)->rcount++;
	w->c.datagrams_sent++;
	n = xp_send(f->fd, w->txbuf, w->run->req, MSG_DONTWAIT);
	if (n >= 0) {
		w->c.bytes_sent += (uint64_t)n;
		f->bytes += (uint64_t)n;
	}
	else if (xp_udp_soft_error(errno))
		w->c.errors++;
	else
		xp_flow_fail(f, errno);
}

/* --rate: issue at the flow's next slot on the schedule; the ring keeps
 * the slot (latency from the intended send), us(f)->t0 the actual send. */
static void rr_scheduled(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	uint64_t actual = w->now;

	f->next_send = xp_flow_next_slot(f, f->next_send);
	if (f->next_send > w->now) {
		us(f)->phase = 2; /* waiting for the slot */
		xp_flow_sleep_precise(f, f->next_send);
		return;
	}
	us(f)->t0 = actual;
	w->now = f->next_send;
	rr_issue(f, 0);
	w->now = actual;
}

/* -n/-k: one more request of the flow's share; 0 when none is left, and
 * the flow finishes as at STOP once its outstanding ones are done. */
static int rr_take(struct xp_flow *f)
{
	if (f->quota && !f->stopping) {
		if (!f->left) {
			f->stopping = 1;
			return 0;
		}
		f->left--;
	}
	return !f->stopping;
}

/* Slot i is answered or timed out: reuse it, or finish when stopping. */
static void rr_release(struct xp_flow *f, uint32_t i)
{
	int more;

	us(f)->ring[2 * i + 1] = FREE_SLOT;
	us(f)->rcount--;
	more = rr_take(f);
	if (more && f->w->run->sched_ns)
		rr_scheduled(f);
	else if (more)
		rr_issue(f, i);
	else if (!us(f)->rcount)
		xp_flow_finish(f);
}

static int rr_match(struct xp_flow *f, const uint8_t *buf, size_t n)
{
	size_t k = id_len(f->w->run);
	uint8_t want[8];
	uint32_t i;

	if (n < k)
		return -1;
	for (i = 0; i < f->w->run->burst; i++) {
		if (us(f)->ring[2 * i + 1] == FREE_SLOT)
			continue;
		put_id(want, us(f)->ring[2 * i + 1], k);
		if (!memcmp(buf, want, k))
			return (int)i;
	}
	return -1;
}

static void rr_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;

	if (us(f)->phase == 2 && (events & EPOLLOUT)) { /* the slot has come */
		us(f)->phase = 0;
		if (f->stopping) {
			xp_flow_finish(f);
			return;
		}
		xp_spin_until(f->next_send);
		w->now = us(f)->t0 = xp_now_ns();
		w->now = f->next_send;
		rr_issue(f, 0);
		w->now = us(f)->t0;
		return;
	}
	if (us(f)->kts)
		xp_kts_udp_errq(us(f)->kts, w, f->fd, events);
	/* a bounded batch: in the worker's direct mode recv blocks, and the
	 * worker must get back to its commands now and then */
	for (int k = 0; k < 64 && f->fd >= 0; k++) {
		ssize_t n = rr_recv(f);
		int i;

		if (n < 0) {
			if (recv_failed(f))
				return;
			continue;
		}
		i = rr_match(f, (const uint8_t *)w->buf, (size_t)n);
		if (i < 0)
			continue; /* late answer to a timed-out request */
		w->now = xp_now_ns();
		if (w->now - us(f)->ring[2 * i] >= w->run->rr_timeout_ns) {
			/* late all the same (the worker did not run in time to see
			 * it time out: a busy CPU): lost, as rr_tick would have it */
			w->c.lost++;
			rr_release(f, (uint32_t)i);
			continue;
		}
		w->c.datagrams_received++;
		w->c.bytes_received += (uint64_t)n;
		f->bytes += (uint64_t)n;
		if (!w->stopping) { /* answered by STOP: in the window (rr.c) */
			if (__builtin_expect(us(f)->sent_rt != NULL, 0))
				rr_stamps_in(f, (uint32_t)i);
			xp_hist_add(w->hist, w->now - us(f)->ring[2 * i]);
			if (w->raw_hist)
				xp_hist_add(w->raw_hist, w->now - us(f)->t0);
			w->c.transactions++;
			f->trans++;
		} else {
			w->c.late_transactions++;
		}
		rr_release(f, (uint32_t)i);
	}
}

static void rr_add(struct xp_flow *f)
{
	uint32_t i, n = f->w->run->burst;
	char b[64];

	f->on_io = rr_io;
	rr_stamps(f);
	if (f->fd < 0)
		return;
	us(f)->ring = malloc(2 * n * sizeof(*us(f)->ring));
	if (f->w->owd)
		us(f)->sent_rt = malloc(n * sizeof(*us(f)->sent_rt));
	if (!us(f)->ring || (f->w->owd && !us(f)->sent_rt)) {
		xp_flow_fail(f, ENOMEM);
		return;
	}
	for (i = 0; i < n; i++)
		us(f)->ring[2 * i + 1] = FREE_SLOT;
	/* discard repeated hello acks before the test starts */
	while (xp_recv(f->fd, b, sizeof(b), MSG_DONTWAIT) > 0)
		;
	if (xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

static void rr_go(struct xp_flow *f)
{
	uint32_t i;

	us(f)->t0 = f->w->now;
	if (f->w->run->sched_ns) {
		f->next_send = 0;
		if (rr_take(f))
			rr_scheduled(f);
		else
			xp_flow_finish(f);
		return;
	}
	for (i = 0; i < f->w->run->burst && f->fd >= 0 && rr_take(f); i++)
		rr_issue(f, i);
	if (f->fd >= 0 && !us(f)->rcount)
		xp_flow_finish(f);
}

static void rr_stop(struct xp_flow *f)
{
	f->stopping = 1;
	if (!us(f)->rcount)
		xp_flow_finish(f);
}

static void rr_tick(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	uint32_t i;

	for (i = 0; i < w->run->burst && f->fd >= 0; i++) {
		if (us(f)->ring[2 * i + 1] == FREE_SLOT ||
		    w->now - us(f)->ring[2 * i] < w->run->rr_timeout_ns)
			continue;
		w->c.lost++; /* also one out at STOP: every request sent is judged */
		rr_release(f, i);
	}
}

/* ---- UDP_RR server: answer each request from the buffer it arrived in,
 * so the response starts with the request's id bytes. ---- */
static void rrs_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	int i;

	if (us(f)->kts)
		xp_kts_udp_errq(us(f)->kts, w, f->fd, events);
	for (i = 0; i < MAX_SEGS; i++) {
		ssize_t n = rr_recv(f), m; /* may block: direct mode */

		if (n < 0) {
			if (recv_failed(f))
				return;
			continue;
		}
		if (xp_udp_is_hello(w, w->buf, (size_t)n)) {
			xp_send(f->fd, w->buf, (size_t)n, MSG_DONTWAIT);
			continue;
		}
		w->c.datagrams_received++;
		w->c.bytes_received += (uint64_t)n;
		if (__builtin_expect(w->owd != NULL, 0))
			rrs_stamps_out(f);
		m = xp_send(f->fd, w->buf, w->run->rsp, MSG_DONTWAIT);
		if (m < 0) {
			w->c.errors++;
			continue;
		}
		w->c.datagrams_sent++;
		w->c.bytes_sent += (uint64_t)m;
		w->c.transactions++;
		f->trans++;
	}
}

static void rrs_add(struct xp_flow *f)
{
	f->on_io = rrs_io;
	rr_stamps(f);
	if (f->fd >= 0 && xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

static void rrs_stop(struct xp_flow *f)
{
	xp_flow_finish(f);
}

/* A receiver's window: its counts become the worker's. */
static void rr_close(struct xp_flow *f)
{
	free(us(f)->ring);
	free(us(f)->sent_rt);
	us(f)->sent_rt = NULL;
	xp_kts_udp_free(us(f)->kts);
	us(f)->kts = NULL;
	us(f)->ring = NULL;
}

/* Requests still out at the end of the warm-up count in the measured part;
 * the others, answered or not, are the warm-up's (the server's count of
 * this flow is corrected by them, as its totals are). */
static void rr_measure(struct xp_flow *f)
{
	uint64_t out = us(f)->rcount;

	xp_worker_move_sent(f, out * f->w->run->req, out);
	f->omitted_trans = us(f)->seq - out;
}
const struct xp_side_ops xp_udp_rr_client = {
	.state = sizeof(struct udp_rr_state), .sends = 1,
	.add = rr_add, .go = rr_go, .stop = rr_stop, .tick = rr_tick, .close = rr_close,
	.measure = rr_measure,
};

const struct xp_side_ops xp_udp_rr_server = {
	.state = sizeof(struct udp_rr_state),
	.add = rrs_add, .stop = rrs_stop, .close = rr_close,
};
