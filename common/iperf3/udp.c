/* SPDX-License-Identifier: BSD-2-Clause */
/* UDP streams of an iperf3 test (common/iperf3/engine.h).
 *
 * Every datagram starts with iperf3's header: the sender's clock (seconds
 * and microseconds, CLOCK_MONOTONIC as iperf3 3.12 and later use) and the
 * stream's packet count from 1, 32 or 64 bits (proto/iperf3.h).  The
 * sender batches like UDP_STREAM's (a GSO super-datagram per send, or a
 * sendmmsg batch), each datagram with its own count; datagrams of one
 * batch carry the same send time.  The receiver keeps iperf3's per-stream
 * accounting (xp_i3_rx_add: lost, out of order, jitter), reading with
 * recvmmsg without GRO so that each datagram has its own kernel receive
 * timestamp (SO_TIMESTAMPNS) for the jitter: the time it arrived, not the
 * time a busy receiver got around to reading it. */
#include "common/iperf3/engine.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>

#include "common/clock.h"
#include "common/engine/pace.h"
#include "common/engine/udp.h"
#include "common/engine/sysio.h"

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif

#define CALLS_PER_EVENT 16
#define DRAIN_MAX_NS (2 * XP_NS_PER_SEC)
#define QUIET_NS (100 * XP_NS_PER_MS)

struct udp_state {
	uint64_t next;        /* sender: the next datagram's count */
	uint8_t gso, stopping, spent; /* spent: -n/-k share sent */
	uint64_t stop_at, last_rx, target;
	uint64_t omit_ooo;
	struct xp_i3_rx rx;   /* receiver */
};

static struct udp_state *us(struct xp_flow *f)
{
	return xp_flow_state(f);
}

static void noop_io(struct xp_flow *f, uint32_t events)
{
	(void)f;
	(void)events;
}

/* ---- sender ---- */

static void stamp(struct xp_flow *f, uint32_t n)
{
	struct xp_worker *w = f->w;
	uint64_t now = xp_now_ns();
	struct xp_i3_udp_hdr h = { (uint32_t)(now / XP_NS_PER_SEC),
				   (uint32_t)(now % XP_NS_PER_SEC / 1000), 0 };
	uint32_t i;

	for (i = 0; i < n; i++) {
		h.count = us(f)->next + i;
		xp_i3_udp_hdr_encode((uint8_t *)w->txbuf + (size_t)i * w->run->req, &h,
				     xp_i3_run_of(w)->udp64);
	}
}

static void sent(struct xp_flow *f, uint32_t n)
{
	struct xp_worker *w = f->w;
	uint64_t bytes = (uint64_t)n * w->run->req;

	us(f)->next += n;
	f->bytes += bytes;
	w->c.datagrams_sent += n;
	w->c.bytes_sent += bytes;
	if (w->run->rate_bps)
		f->next_send += xp_pace_ns(bytes, w->run->rate_bps);
	if (xp_flow_spend(f, n))
		us(f)->spent = 1;
}

static int send_gso(struct xp_flow *f, uint32_t n)
{
	struct xp_worker *w = f->w;
	int zero = 0;

	stamp(f, n);
	if (xp_send(f->fd, w->txbuf, (size_t)n * w->run->req, MSG_DONTWAIT) >= 0) {
		sent(f, n);
		w->offloads |= XP_OFFLOAD_GSO;
		return 1;
	}
	if (errno != EIO && errno != EINVAL && errno != EOPNOTSUPP && errno != EMSGSIZE)
		return xp_udp_send_error(f);
	/* the path cannot segment: sendmmsg from now on */
	setsockopt(f->fd, SOL_UDP, UDP_SEGMENT, &zero, sizeof(zero));
	us(f)->gso = 0;
	return 0;
}

static int send_batch(struct xp_flow *f, uint32_t n)
{
	int r;

	stamp(f, n);
	r = xp_udp_send_txbuf(f->w, f->fd, n);
	if (r > 0) {
		sent(f, (uint32_t)r);
		return 1;
	}
	if (errno == ENOMEM) {
		xp_flow_fail(f, ENOMEM);
		return -1;
	}
	return xp_udp_send_error(f);
}

/* Its share of -n/-k sent (or STOP): finish, on the client once the
 * kernel has sent every datagram. */
static void tx_done(struct xp_flow *f)
{
	f->on_io = noop_io;
	if (!xp_i3_run_of(f->w)->drain || xp_flow_watch(f, 0)) {
		xp_flow_finish(f);
		return;
	}
	us(f)->stopping = 1;
	us(f)->stop_at = f->w->now;
}

static void tx_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	int i, r = 1;

	(void)events;
	for (i = 0; i < CALLS_PER_EVENT && r > 0 && !us(f)->spent; i++) {
		uint32_t n = (uint32_t)xp_flow_allow(f, xp_udp_batch_size(w, us(f)->gso));

		if (!xp_flow_pace(f, (uint64_t)n * w->run->req))
			return;
		r = us(f)->gso ? send_gso(f, n) : send_batch(f, n);
	}
	if (r >= 0 && us(f)->spent) {
		tx_done(f);
		return;
	}
	if (r >= 0 && !(f->events & EPOLLOUT) && xp_flow_watch(f, EPOLLOUT))
		xp_flow_fail(f, errno);
}

static void tx_add(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	int seg = (int)w->run->req;

	f->on_io = tx_io;
	us(f)->next = 1;
	xp_i3_stream_of(f)->sender = 1;
	if (w->run->gso && xp_udp_batch_size(w, 1) > 1 &&
	    setsockopt(f->fd, SOL_UDP, UDP_SEGMENT, &seg, sizeof(seg)) == 0)
		us(f)->gso = 1;
}

static void tx_go(struct xp_flow *f)
{
	if (f->quota && !f->left) { /* -n/-k: a share of nothing */
		tx_done(f);
		return;
	}
	if (xp_flow_watch(f, EPOLLOUT))
		xp_flow_fail(f, errno);
}

static void tx_stop(struct xp_flow *f)
{
	f->w->t_end = f->w->t_stop;
	if (!us(f)->stopping)
		tx_done(f);
}

static void tx_tick(struct xp_flow *f)
{
	if (us(f)->stopping &&
	    (xp_i3_outq(f->fd) == 0 || f->w->now - us(f)->stop_at > DRAIN_MAX_NS))
		xp_flow_finish(f);
}

static void tx_measure(struct xp_flow *f)
{
	xp_i3_stream_of(f)->omit_packets = us(f)->next - 1;
}

static void tx_close(struct xp_flow *f)
{
	struct xp_i3_stream *st = xp_i3_stream_of(f);

	xp_i3_record(f, f->w->t_stop ? f->w->t_stop : f->w->now);
	st->packets = us(f)->next - 1;
}

/* ---- receiver ---- */

static uint64_t stamp_of(struct msghdr *mh, uint64_t fallback)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
			struct timespec t;

			memcpy(&t, CMSG_DATA(c), sizeof(t));
			return (uint64_t)t.tv_sec * XP_NS_PER_SEC + (uint64_t)t.tv_nsec;
		}
	}
	return fallback;
}

static void rx_datagram(struct xp_flow *f, const uint8_t *p, size_t n, uint64_t at)
{
	struct xp_worker *w = f->w;
	struct xp_i3_udp_hdr h;

	if (xp_i3_udp_hdr_decode(p, n, xp_i3_run_of(w)->udp64, &h))
		return; /* shorter than a header: not a data datagram */
	f->bytes += n;
	w->c.bytes_received += n;
	w->c.datagrams_received++;
	xp_i3_rx_add(&us(f)->rx, h.count, h.sec, h.usec, at);
	/* for interval reports (snapshots carry them): the lost count after
	 * --omit in f->trans (a datagram out of order may take it down: read
	 * the difference of two as signed), the jitter so far */
	f->trans = us(f)->rx.lost - xp_i3_stream_of(f)->omit_lost;
	f->jitter_ns = (uint64_t)(us(f)->rx.jitter * 1e9);
	f->jitter_n = 1;
}

static void rx_end(struct xp_flow *f)
{
	if (us(f)->last_rx > f->w->t_end)
		f->w->t_end = us(f)->last_rx;
	xp_flow_finish(f);
}

/* One recvmmsg: the number of messages, 0 when none, -1 when the flow
 * ended. */
static int rx_batch(struct xp_flow *f, struct xp_mmsg *m)
{
	char ctl[XP_UDP_RX_VLEN][CMSG_SPACE(sizeof(struct timespec))];
	struct timespec now;
	int i, r;

	for (i = 0; i < XP_UDP_RX_VLEN; i++) {
		struct msghdr *mh = &m->msgs[i].msg_hdr;

		m->iov[i].iov_base = m->bufs + (size_t)i * m->bufsz;
		m->iov[i].iov_len = m->bufsz;
		memset(mh, 0, sizeof(*mh));
		mh->msg_iov = &m->iov[i];
		mh->msg_iovlen = 1;
		mh->msg_control = ctl[i];
		mh->msg_controllen = sizeof(ctl[i]);
	}
	r = xp_recvmmsg(f->fd, m->msgs, XP_UDP_RX_VLEN, MSG_DONTWAIT);
	if (r < 0) {
		if (xp_udp_soft_error(errno))
			return errno == EAGAIN ? 0 : XP_UDP_RX_VLEN;
		xp_flow_fail(f, errno);
		return -1;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	for (i = 0; i < r; i++)
		rx_datagram(f, m->iov[i].iov_base, m->msgs[i].msg_len,
			    stamp_of(&m->msgs[i].msg_hdr, (uint64_t)now.tv_sec * XP_NS_PER_SEC +
							     (uint64_t)now.tv_nsec));
	if (r > 0)
		us(f)->last_rx = xp_now_ns();
	return r;
}

static void rx_io(struct xp_flow *f, uint32_t events)
{
	struct xp_mmsg *m = f->w->mm;
	int j, r = XP_UDP_RX_VLEN;

	(void)events;
	for (j = 0; j < CALLS_PER_EVENT && r == XP_UDP_RX_VLEN; j++)
		if ((r = rx_batch(f, m)) < 0)
			return;
	if (us(f)->stopping && us(f)->target && us(f)->rx.max_seen >= us(f)->target)
		rx_end(f);
}

static void rx_add(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	int one = 1;

	f->on_io = rx_io;
	xp_i3_stream_of(f)->sender = 0;
	setsockopt(f->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	if (!xp_udp_mmsg_get(w, (size_t)w->run->req + 64)) {
		xp_flow_fail(f, ENOMEM);
		return;
	}
	if (xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

static void rx_stop(struct xp_flow *f)
{
	us(f)->stopping = 1;
	us(f)->stop_at = f->w->now;
	us(f)->target = xp_i3_stream_of(f)->target_packets;
	if (us(f)->target && us(f)->rx.max_seen >= us(f)->target)
		rx_end(f);
}

static void rx_tick(struct xp_flow *f)
{
	struct udp_state *s = us(f);
	uint64_t now = f->w->now, last = s->last_rx > s->stop_at ? s->last_rx : s->stop_at;

	if (s->stopping && (now - s->stop_at > DRAIN_MAX_NS || now - last >= QUIET_NS))
		rx_end(f);
}

static void rx_measure(struct xp_flow *f)
{
	struct xp_i3_stream *st = xp_i3_stream_of(f);

	st->omit_max = us(f)->rx.max_seen;
	st->omit_lost = us(f)->rx.lost;
	us(f)->omit_ooo = us(f)->rx.ooo;
}

static void rx_close(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	struct xp_i3_stream *st = xp_i3_stream_of(f);
	uint64_t ref = xp_i3_run_of(w)->t_end_ref;
	uint64_t last = us(f)->last_rx > ref ? us(f)->last_rx : ref;

	xp_i3_record(f, last ? last : w->t_stop);
	st->rx = us(f)->rx;
	w->c.out_of_order += st->rx.ooo - us(f)->omit_ooo;
	if (st->rx.lost > st->omit_lost)
		w->c.lost += st->rx.lost - st->omit_lost;
}

const struct xp_side_ops xp_i3_udp_tx = {
	.state = sizeof(struct udp_state), .sends = 1,
	.add = tx_add, .go = tx_go, .stop = tx_stop, .tick = tx_tick,
	.close = tx_close, .measure = tx_measure,
};

const struct xp_side_ops xp_i3_udp_rx = {
	.state = sizeof(struct udp_state),
	.add = rx_add, .stop = rx_stop, .tick = rx_tick, .close = rx_close,
	.measure = rx_measure,
};
