/* SPDX-License-Identifier: BSD-2-Clause */
/* TCP_RR with one-way stamps (--one-way: SETUP stamps XP_STAMP_ONE_WAY),
 * the run's own engine (run->side) in place of rr.c's, so the plain
 * TCP_RR path stays as it is.  One request outstanding per flow (no
 * --burst); with --rate each request waits for its slot on the schedule
 * and its round trip counts from the slot, the one-way delays from its
 * actual send.  The client reads CLOCK_REALTIME as it sends a
 * request (t1) and as the response's last byte is in (t4); the server
 * reads it as a request's last byte is in (t2) and as it sends the
 * response (t3), and the response's first XP_STAMP_RSP_LEN bytes carry t2
 * and t3 (big-endian ns).  With the clock offset the client estimated
 * (run->owd_peer_lead_ns) the forward delay is t2 - t1 - offset, the
 * return delay t4 - t3 + offset and the server's hold t3 - t2: their sum
 * is the round trip the client timed, read from the other clock.
 *
 * With --kernel-timestamps (XP_STAMP_KERNEL) both ends also take the
 * kernel's receive times of what they read and transmit times of what
 * they sent (common/engine/kts.h), the response carries the server's
 * kernel parts of the previous transaction, and the client splits each
 * round trip into the time in each end's stack, the server's own time and
 * the time between the kernels. */
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "common/clock.h"
#include "common/engine/engines.h"
#include "common/engine/kts.h"
#include "common/engine/owd.h"
#include "common/engine/sysio.h"
#include "proto/be.h"
#include "proto/msg.h"

struct st_state {
	uint64_t txoff;   /* client: request bytes left; server: response bytes sent */
	uint64_t rxoff;   /* bytes of the current message in */
	uint64_t t_issue; /* client: the request's issue (monotonic: the round trip) */
	uint64_t t1, t2;  /* client: its send; server: the pending request's receipt */
	uint64_t owed;    /* server: responses still to send */
	uint32_t owe;     /* --kernel-timestamps: send calls whose stamps are not read */
	uint64_t t0;      /* client, --rate: the request's actual send (monotonic) */
	uint8_t out;      /* client: a request is outstanding */
	uint8_t waiting;  /* client, --rate: asleep until the next slot */
	uint8_t hdr[XP_STAMP_KRSP_LEN]; /* the response's stamps (being sent or read) */
	struct xp_kts_cli kc; /* --kernel-timestamps: client */
	struct xp_kts_srv ks; /* ... server */
};

static struct st_state *ss(struct xp_flow *f)
{
	return xp_flow_state(f);
}

static int kernel(const struct xp_worker *w)
{
	return (w->run->stamps & XP_STAMP_KERNEL) != 0;
}

/* The response's stamps: t2, t3 and with kernel timestamps the server's
 * parts of the previous transaction. */
static uint64_t hdr_len(const struct xp_worker *w)
{
	return kernel(w) ? XP_STAMP_KRSP_LEN : XP_STAMP_RSP_LEN;
}

/* recv(2), with the kernel's receive time when asked for (*rx, else 0). */
static ssize_t rx(struct xp_flow *f, size_t len, uint64_t *rx)
{
	struct xp_worker *w = f->w;

	*rx = 0;
	if (!kernel(w))
		return xp_recv(f->fd, w->buf, len, 0);
	return xp_kts_recv(f->fd, w->buf, len, 0, rx, &w->owd->k_hw);
}

/* Read the stamps of the sends made: max entries, one stamp per send
 * call and most often one call a message, so one read and no second that
 * finds the queue empty; then, while the last stamp read is older than
 * the message's send (`floor`: a stamp came that no call was counted for,
 * a retransmission's), one more, until the queue is empty. */
static void drain(struct xp_flow *f, uint64_t *tx, int max, uint64_t floor)
{
	uint64_t *hw = &f->w->owd->k_hw;
	int n = max ? xp_kts_drain(f->fd, tx, hw, max) : 0, k;

	ss(f)->owe = n < max ? 0 : ss(f)->owe - (uint32_t)n;
	for (k = 0; k < XP_KTS_DRAIN_ALL && *tx < floor && xp_kts_drain(f->fd, tx, hw, 1); k++)
		;
}

/* The error queue says a send went out (EPOLLERR): take its time (all
 * of the queue: EPOLLERR stays up while anything is in it). */
static void tx_stamps(struct xp_flow *f, uint32_t events, uint64_t *tx)
{
	if (kernel(f->w) && (events & EPOLLERR))
		drain(f, tx, XP_KTS_DRAIN_ALL, 0);
}

/* A send call handed the kernel n bytes: a stamp will come. */
static void sent_call(struct xp_flow *f, ssize_t n)
{
	if (n > 0 && kernel(f->w) && ss(f)->owe < XP_KTS_DRAIN_ALL)
		ss(f)->owe++;
}

static void take_stamps(struct xp_flow *f)
{
	if (kernel(f->w) && xp_kts_enable(f->fd))
		xp_flow_fail(f, errno);
}

static int send_flags(const struct xp_worker *w)
{
	return MSG_NOSIGNAL |
	       (atomic_load_explicit(&w->in_direct, memory_order_relaxed) ? 0 : MSG_DONTWAIT);
}

/* After a send that sent nothing (or a blocking one cut short): 1 to try
 * again, 0 when the flow waits for room through epoll or has failed. */
static int stalled(struct xp_flow *f, ssize_t n)
{
	int blocking = atomic_load_explicit(&f->w->in_direct, memory_order_relaxed);

	if (n < 0 && errno == EINTR && !blocking)
		return 1;
	if (n > 0 || (n < 0 && (errno == EAGAIN || errno == EINTR))) {
		if (xp_flow_watch(f, EPOLLIN | EPOLLOUT))
			xp_flow_fail(f, errno);
		return 0;
	}
	xp_flow_fail(f, n < 0 ? errno : EPIPE);
	return 0;
}

static void room_done(struct xp_flow *f)
{
	if ((f->events & EPOLLOUT) && xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

static void cli_tx(struct xp_flow *f)
{
	struct xp_worker *w = f->w;

	while (ss(f)->txoff) {
		size_t want = ss(f)->txoff < w->txlen ? (size_t)ss(f)->txoff : w->txlen;
		ssize_t n = xp_send(f->fd, w->txbuf, want, send_flags(w));

		sent_call(f, n);
		if (n > 0) {
			ss(f)->txoff -= (uint64_t)n;
			f->bytes += (uint64_t)n;
			w->c.bytes_sent += (uint64_t)n;
		}
		if (n > 0 && ((size_t)n == want || !w->in_direct))
			continue;
		if (!stalled(f, n))
			return;
	}
	room_done(f);
}

/* Send the request now; its round trip counts from slot (its intended
 * send on --rate's schedule, else now). */
static void cli_send(struct xp_flow *f, uint64_t slot)
{
	ss(f)->out = 1;
	ss(f)->txoff = f->w->run->req;
	ss(f)->t0 = f->w->now = xp_now_ns();
	ss(f)->t_issue = slot ? slot : ss(f)->t0;
	ss(f)->t1 = xp_owd_now();
	cli_tx(f);
}

/* No more requests: the server sees our end, the flow is done. */
static void cli_close(struct xp_flow *f)
{
	shutdown(f->fd, SHUT_WR);
	xp_flow_finish(f);
}

static void cli_issue(struct xp_flow *f)
{
	struct xp_worker *w = f->w;

	if (f->quota && !f->stopping) { /* -k: the flow's share */
		if (f->left)
			f->left--;
		else
			f->stopping = 1;
	}
	if (f->stopping) {
		cli_close(f);
		return;
	}
	if (!w->run->sched_ns) {
		cli_send(f, 0);
		return;
	}
	/* --rate: at the flow's next slot (now if it has passed), latency
	 * from the slot: a stall delays the measured requests, not hides them */
	f->next_send = xp_flow_next_slot(f, f->next_send);
	if (f->next_send > xp_now_ns()) {
		ss(f)->waiting = 1;
		xp_flow_sleep_precise(f, f->next_send);
		return;
	}
	cli_send(f, f->next_send);
}

/* --rate: the slot has come (the timer's EPOLLOUT). */
static void cli_slot(struct xp_flow *f)
{
	ss(f)->waiting = 0;
	if (f->stopping) {
		cli_close(f);
		return;
	}
	xp_spin_until(f->next_send);
	cli_send(f, f->next_send);
}

/* The response is in: the round trip and its one-way parts. */
static void cli_done(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	uint64_t t4 = xp_owd_now(), now = xp_now_ns();
	uint64_t t[4] = { ss(f)->t1, xp_get64(ss(f)->hdr), xp_get64(ss(f)->hdr + 8), t4 };

	xp_hist_add(w->hist, now - ss(f)->t_issue);
	if (w->raw_hist)
		xp_hist_add(w->raw_hist, now - ss(f)->t0);
	xp_owd_rr(w, ss(f)->hdr, ss(f)->t1, t4);
	if (kernel(w)) { /* the request's transmit time is in by now */
		drain(f, &ss(f)->kc.k1, (int)ss(f)->owe, ss(f)->t1);
		xp_kts_cli_done(w->owd, &ss(f)->kc, t, now - ss(f)->t_issue,
				ss(f)->hdr + XP_STAMP_RSP_LEN);
	}
	ss(f)->out = 0;
	f->trans++;
	w->c.transactions++;
	cli_issue(f);
}

static void cli_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	uint64_t rsp = w->run->rsp, at = ss(f)->rxoff, hl = hdr_len(w), krx;
	ssize_t n;

	if (ss(f)->waiting && (events & EPOLLOUT)) {
		cli_slot(f);
		return;
	}
	tx_stamps(f, events, &ss(f)->kc.k1);
	if ((events & EPOLLOUT) && ss(f)->txoff) {
		cli_tx(f);
		if (f->fd < 0)
			return;
	}
	if (!(events & (EPOLLIN | EPOLLERR | EPOLLHUP)))
		return;
	n = rx(f, rsp - at < w->buflen ? (size_t)(rsp - at) : w->buflen, &krx);
	if (n > 0) {
		if (at < hl)
			memcpy(ss(f)->hdr + at, w->buf, (size_t)n < hl - at ? (size_t)n : hl - at);
		if (krx)
			ss(f)->kc.crx = krx;
		ss(f)->rxoff += (uint64_t)n;
		f->bytes += (uint64_t)n;
		w->c.bytes_received += (uint64_t)n;
		if (ss(f)->rxoff == rsp) {
			ss(f)->rxoff = 0;
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
	take_stamps(f);
	if (kernel(f->w) && f->fd >= 0) /* what the device offers, for the report */
		xp_kts_note_nic(f->w, f->fd);
	if (f->fd >= 0 && xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

static void cli_go(struct xp_flow *f)
{
	cli_issue(f);
}

static void cli_stop(struct xp_flow *f)
{
	f->stopping = 1; /* the outstanding request completes, then the flow closes */
	if (ss(f)->waiting) { /* one waiting for its slot closes now */
		ss(f)->waiting = 0;
		cli_close(f);
	}
}

static void cli_measure(struct xp_flow *f)
{
	uint64_t b = ss(f)->out ? f->w->run->req - ss(f)->txoff : 0;

	xp_worker_move_sent(f, b, 0);
}

/* Server: one send of the response under way; its first bytes are the
 * stamps, stamped (t3) as a response starts. */
static ssize_t srv_send(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	uint64_t off = ss(f)->txoff, rest = w->run->rsp - off, hl = hdr_len(w);
	struct iovec iov[2];
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };

	if (off >= hl)
		return xp_send(f->fd, w->txbuf, rest < w->txlen ? (size_t)rest : w->txlen,
			       send_flags(w));
	if (!off) {
		uint64_t t3 = xp_owd_stamp(ss(f)->hdr, ss(f)->t2);

		if (kernel(w)) { /* the last response's transmit time is in by now */
			drain(f, &ss(f)->ks.stx, (int)ss(f)->owe, ss(f)->ks.p_t3);
			xp_kts_srv_parts(&ss(f)->ks, ss(f)->hdr + XP_STAMP_RSP_LEN, ss(f)->t2, t3);
		}
	}
	rest = w->run->rsp - hl;
	iov[0].iov_base = ss(f)->hdr + off;
	iov[0].iov_len = hl - off;
	iov[1].iov_base = w->txbuf;
	iov[1].iov_len = rest < w->txlen ? (size_t)rest : w->txlen;
	return sendmsg(f->fd, &mh, send_flags(w));
}

static void srv_flush(struct xp_flow *f)
{
	struct xp_worker *w = f->w;

	while (ss(f)->owed) {
		ssize_t n = srv_send(f);

		sent_call(f, n);
		if (n > 0) {
			ss(f)->txoff += (uint64_t)n;
			w->c.bytes_sent += (uint64_t)n;
			if (ss(f)->txoff == w->run->rsp) {
				ss(f)->txoff = 0;
				ss(f)->owed--;
				ss(f)->t2 = xp_owd_now(); /* a pipelined request's, near enough */
				f->trans++;
				w->c.transactions++;
				continue;
			}
			if (!w->in_direct)
				continue;
		}
		if (!stalled(f, n))
			return;
	}
	room_done(f);
}

static void srv_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	uint64_t req = w->run->req, krx;

	tx_stamps(f, events, &ss(f)->ks.stx);
	if (events & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
		ssize_t n = rx(f, w->buflen, &krx); /* may block: direct mode */

		if (n > 0) {
			w->c.bytes_received += (uint64_t)n;
			ss(f)->rxoff += (uint64_t)n;
			if (ss(f)->rxoff >= req) {
				if (!ss(f)->owed) {
					ss(f)->t2 = xp_owd_now();
					ss(f)->ks.srx = krx;
				}
				ss(f)->owed += ss(f)->rxoff / req;
				ss(f)->rxoff %= req;
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
	if (ss(f)->owed)
		srv_flush(f);
}

static void srv_add(struct xp_flow *f)
{
	f->on_io = srv_io;
	take_stamps(f);
	if (f->fd >= 0 && xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

const struct xp_side_ops xp_rr_stamp_client = {
	.state = sizeof(struct st_state), .sends = 1,
	.add = cli_add, .go = cli_go, .stop = cli_stop, .measure = cli_measure,
};

const struct xp_side_ops xp_rr_stamp_server = {
	.state = sizeof(struct st_state),
	.add = srv_add,
};

void xp_run_set_stamps(struct xp_run *r, uint64_t stamps)
{
	r->stamps = (uint8_t)(stamps & XP_STAMP_ALL);
	if (r->stamps && r->test == XP_TCP_RR)
		r->side = r->role == XP_ROLE_SERVER ? &xp_rr_stamp_server : &xp_rr_stamp_client;
}
