/* SPDX-License-Identifier: BSD-2-Clause */
/* TCP request/response on persistent connections.  The client keeps one
 * request (--burst N: N requests) outstanding per flow and times each from
 * its issue to the last byte of its response, reusing the completion time
 * as the next request's issue time: one clock read per transaction.  The server
 * answers every complete request with a response, whatever the pacing of
 * the bytes. */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "common/engine/engines.h"
#include "common/engine/sysio.h"

/* A TCP_RR flow's own state (client and server). */
struct rr_state {
	uint64_t txoff, rxoff; /* progress in the current message */
	uint64_t owed;      /* server: response bytes still to send */
	uint64_t t0;        /* client: actual send of the scheduled request */
	uint64_t *ring;     /* client: issue times of the outstanding requests */
	uint32_t rhead, rcount;
	uint8_t phase;      /* client: 1 while waiting for a --rate slot */
};
static struct rr_state *rs(struct xp_flow *f)
{
	return xp_flow_state(f);
}

/* At most what one receive or send buffer holds. */
static size_t chunk(const struct xp_worker *w, uint64_t left)
{
	return left < w->buflen ? (size_t)left : w->buflen;
}

static size_t tx_chunk(const struct xp_worker *w, uint64_t left)
{
	return left < w->txlen ? (size_t)left : w->txlen;
}

/* In the worker's direct mode the socket blocks (common/engine/direct.c):
 * a send then waits for room in the kernel and sends the whole message in
 * one call, as the plainest loop does, instead of returning EAGAIN and
 * leaving direct mode for epoll on every message larger than the socket's
 * send buffer (-w 16K -m 64K: half netperf's rate).  Otherwise the socket
 * is non-blocking and MSG_DONTWAIT says so once more. */
static int blocking(const struct xp_worker *w)
{
	return atomic_load_explicit(&w->in_direct, memory_order_relaxed);
}

static int send_flags(const struct xp_worker *w)
{
	return MSG_NOSIGNAL | (blocking(w) ? 0 : MSG_DONTWAIT);
}

/* The flow waits for room through epoll: EAGAIN, or a blocking send cut
 * short by the worker's wake-up signal (a command waits; direct mode
 * ends and resumes once the message is out). */
static void wait_room(struct xp_flow *f)
{
	if (xp_flow_watch(f, EPOLLIN | EPOLLOUT))
		xp_flow_fail(f, errno);
}

/* After a send that sent nothing: 1 to try again (EINTR outside direct
 * mode); 0 when the flow now waits for room or has failed. */
static int send_stalled(struct xp_flow *f, ssize_t n)
{
	if (n < 0 && errno == EINTR && !blocking(f->w))
		return 1;
	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		wait_room(f);
		return 0;
	}
	xp_flow_fail(f, n < 0 ? errno : EPIPE);
	return 0;
}

/* After a send that sent n > 0 of asked bytes: 1 to go on; 0 when a
 * blocking send was cut short and the flow now waits through epoll. */
static int sent_some(struct xp_flow *f, ssize_t n, size_t asked)
{
	if ((size_t)n == asked || !blocking(f->w))
		return 1;
	wait_room(f);
	return 0;
}

/* Everything owed went out: stop waiting for room. */
static void sent_all(struct xp_flow *f)
{
	if ((f->events & EPOLLOUT) && xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

/* Send the request bytes owed (txoff counts down what is left to send);
 * wait for EPOLLOUT if the socket is full. */
static void cli_tx(struct xp_flow *f)
{
	struct xp_worker *w = f->w;

	while (rs(f)->txoff) {
		size_t want = tx_chunk(w, rs(f)->txoff);
		ssize_t n = xp_send(f->fd, w->txbuf, want, send_flags(w));

		if (n > 0) {
			rs(f)->txoff -= (uint64_t)n;
			f->bytes += (uint64_t)n;
			w->c.bytes_sent += (uint64_t)n;
			if (sent_some(f, n, want))
				continue;
			return;
		}
		if (send_stalled(f, n))
			continue;
		return;
	}
	sent_all(f);
}

/* Issue one request at w->now: its start time goes into the ring (a FIFO
 * of burst entries: TCP answers in order), its bytes into the send queue. */
static void cli_issue(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	uint32_t n = w->run->burst;

	rs(f)->ring[(rs(f)->rhead + rs(f)->rcount) % n] = w->now;
	rs(f)->rcount++;
	rs(f)->txoff += w->run->req;
}

/* --rate: send the next request at its slot on the schedule (now if the
 * slot has passed).  Its latency counts from the slot, so a stall delays
 * the measured requests instead of hiding them; rs(f)->t0 keeps the actual
 * send time for the uncorrected figures. */
static void cli_scheduled(struct xp_flow *f)
{
	struct xp_worker *w = f->w;

	f->next_send = xp_flow_next_slot(f, f->next_send);
	if (f->next_send > w->now) {
		rs(f)->phase = 1; /* waiting for the slot */
		xp_flow_sleep_precise(f, f->next_send);
		return;
	}
	rs(f)->t0 = w->now;
	w->now = f->next_send;
	cli_issue(f);
	w->now = rs(f)->t0;
	cli_tx(f);
}

/* -n/-k: one more transaction of the flow's share, or with none left the
 * flow stops issuing (f->stopping) and finishes as at STOP once its
 * outstanding ones complete.  One test of f->quota on the way without. */
static void cli_take(struct xp_flow *f)
{
	if (!f->quota || f->stopping)
		return;
	if (f->left)
		f->left--;
	else
		f->stopping = 1;
}

static void cli_close_now(struct xp_flow *f)
{
	shutdown(f->fd, SHUT_WR);
	xp_flow_finish(f);
}

static void cli_done(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	uint64_t now = xp_now_ns();

	/* counted if it completed by STOP (the rate's window); one under way
	 * then completes uncounted, as the server counts what it answered */
	if (!w->stopping) {
		xp_hist_add(w->hist, now - rs(f)->ring[rs(f)->rhead]);
		if (w->raw_hist)
			xp_hist_add(w->raw_hist, now - rs(f)->t0);
		f->trans++;
		w->c.transactions++;
	} else {
		w->c.late_transactions++;
	}
	rs(f)->rhead = (rs(f)->rhead + 1) % w->run->burst;
	rs(f)->rcount--;
	w->now = now;
	cli_take(f);
	if (!f->stopping && w->run->sched_ns) {
		cli_scheduled(f);
	} else if (!f->stopping) {
		cli_issue(f);
		cli_tx(f);
	} else if (!rs(f)->rcount) {
		cli_close_now(f);
	}
}

static void cli_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	uint64_t rsp = w->run->rsp;
	ssize_t n;

	if (rs(f)->phase && (events & EPOLLOUT)) { /* the scheduled slot has come */
		rs(f)->phase = 0;
		if (f->stopping) {
			shutdown(f->fd, SHUT_WR);
			xp_flow_finish(f);
			return;
		}
		xp_spin_until(f->next_send);
		w->now = rs(f)->t0 = xp_now_ns();
		w->now = f->next_send;
		cli_issue(f);
		w->now = rs(f)->t0;
		cli_tx(f);
		return;
	}
	if ((events & EPOLLOUT) && rs(f)->txoff) {
		cli_tx(f);
		if (f->fd < 0)
			return;
	}
	if (!(events & (EPOLLIN | EPOLLERR | EPOLLHUP)))
		return;
	/* no MSG_DONTWAIT: in the worker's direct mode this recv blocks */
	n = xp_recv(f->fd, w->buf, chunk(w, rs(f)->rcount * rsp - rs(f)->rxoff), 0);
	if (n > 0) {
		rs(f)->rxoff += (uint64_t)n;
		f->bytes += (uint64_t)n;
		w->c.bytes_received += (uint64_t)n;
		while (rs(f)->rxoff >= rsp && f->fd >= 0) {
			rs(f)->rxoff -= rsp;
			cli_done(f);
		}
		return;
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	xp_flow_fail(f, n < 0 ? errno : ECONNRESET);
}

static void cli_add(struct xp_flow *f)
{
	f->on_io = cli_io;
	rs(f)->ring = malloc(f->w->run->burst * sizeof(*rs(f)->ring));
	if (!rs(f)->ring || xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, rs(f)->ring ? errno : ENOMEM);
}

static void cli_go(struct xp_flow *f)
{
	uint32_t i;

	rs(f)->t0 = f->w->now;
	if (f->w->run->sched_ns) {
		f->next_send = 0;
		cli_take(f);
		if (!f->stopping)
			cli_scheduled(f);
		else
			cli_close_now(f);
		return;
	}
	for (i = 0; i < f->w->run->burst && (cli_take(f), !f->stopping); i++)
		cli_issue(f);
	if (rs(f)->rcount)
		cli_tx(f);
	else
		cli_close_now(f);
}

static void cli_stop(struct xp_flow *f)
{
	/* the outstanding transactions complete, then the flow closes; one
	 * waiting for its slot closes now */
	f->stopping = 1;
	if (rs(f)->phase) {
		shutdown(f->fd, SHUT_WR);
		xp_flow_finish(f);
	}
}

/* Server: send owed response bytes; count a transaction per full response. */
static void srv_flush(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	uint64_t rsp = w->run->rsp;

	while (rs(f)->owed) {
		size_t want = tx_chunk(w, rs(f)->owed);
		ssize_t n = xp_send(f->fd, w->txbuf, want, send_flags(w));

		if (n > 0) {
			rs(f)->owed -= (uint64_t)n;
			rs(f)->txoff += (uint64_t)n;
			w->c.bytes_sent += (uint64_t)n;
			while (rs(f)->txoff >= rsp) {
				rs(f)->txoff -= rsp;
				f->trans++;
				w->c.transactions++;
			}
			if (sent_some(f, n, want))
				continue;
			return;
		}
		if (send_stalled(f, n))
			continue;
		return;
	}
	sent_all(f);
}

static void srv_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	uint64_t req = w->run->req;

	if (events & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
		ssize_t n = xp_recv(f->fd, w->buf, w->buflen, 0); /* may block: direct mode */

		if (n > 0) {
			w->c.bytes_received += (uint64_t)n;
			rs(f)->rxoff += (uint64_t)n;
			if (rs(f)->rxoff >= req) {
				rs(f)->owed += (rs(f)->rxoff / req) * w->run->rsp;
				rs(f)->rxoff %= req;
			}
		} else if (n == 0) {
			w->now = w->t_end = xp_now_ns();
			xp_flow_finish(f);
			return;
		} else if (errno != EAGAIN && errno != EINTR) {
			xp_flow_fail(f, errno);
			return;
		}
	}
	if (rs(f)->owed)
		srv_flush(f);
}

static void srv_add(struct xp_flow *f)
{
	f->on_io = srv_io;
	if (xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

static void cli_close(struct xp_flow *f)
{
	free(rs(f)->ring);
	rs(f)->ring = NULL;
}

/* Requests still out at the end of the warm-up: the bytes of them already
 * sent (not the txoff still to send) count in the measured part. */
static void cli_measure(struct xp_flow *f)
{
	uint64_t b = rs(f)->rcount * f->w->run->req;

	b -= rs(f)->txoff < b ? rs(f)->txoff : b;
	xp_worker_move_sent(f, b, 0);
}

const struct xp_side_ops xp_rr_client = {
	.state = sizeof(struct rr_state), .sends = 1,
	.add = cli_add, .go = cli_go, .stop = cli_stop, .close = cli_close,
	.measure = cli_measure,
};

/* The server serves until the client closes. */
const struct xp_side_ops xp_rr_server = {
	.state = sizeof(struct rr_state),
	.add = srv_add,
};
