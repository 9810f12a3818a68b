/* SPDX-License-Identifier: BSD-2-Clause */
/* TCP streams of an iperf3 test (common/iperf3/engine.h).  The bytes are
 * never looked at (iperf3 checks none); what differs from the TCP_STREAM
 * engines is how a stream ends, because an iperf3 peer does not close its
 * data connections until the results have been exchanged:
 * - a sender stops at STOP; on the client side it then waits until the
 *   peer has acknowledged every byte (SIOCOUTQ 0), so that a stock
 *   server, which stops counting at TEST_END, has received all of it;
 * - a receiver keeps reading after STOP until it has the bytes the peer
 *   says it sent (its results arrive first), until end of stream, or,
 *   when that number is unknown, until the connection is quiet. */
#include "common/iperf3/engine.h"

#include <errno.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "common/engine/pace.h"
#include "common/engine/sysio.h"

#define SENDS_PER_EVENT 8
#define RECVS_PER_EVENT 8
#define DRAIN_MAX_NS (3 * XP_NS_PER_SEC)  /* stopped: longest wait for the tail */
#define QUIET_NS (200 * XP_NS_PER_MS)     /* no target: this long without data */

struct tcp_state {
	uint8_t stopping;
	uint64_t stop_at, last_rx;
	uint64_t target; /* receiver: bytes to reach, 0 none */
};

static struct tcp_state *ts(struct xp_flow *f)
{
	return xp_flow_state(f);
}

int xp_i3_outq(int fd)
{
	int n = 0;

	if (ioctl(fd, SIOCOUTQ, &n))
		return 0;
	return n;
}

static void read_tcp_info(struct xp_flow *f, struct xp_i3_stream *st)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);
	char cc[sizeof(st->congestion)];

	if (getsockopt(f->fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == 0) {
		st->tcp.flow = f->idx;
		st->tcp.retrans = ti.tcpi_total_retrans;
		st->tcp.rtt_us = ti.tcpi_rtt;
		st->tcp.rttvar_us = ti.tcpi_rttvar;
		st->tcp.cwnd = ti.tcpi_snd_cwnd;
		st->tcp.mss = ti.tcpi_snd_mss;
		st->has_tcp = 1;
	}
	len = sizeof(cc);
	if (getsockopt(f->fd, IPPROTO_TCP, TCP_CONGESTION, cc, &len) == 0) {
		cc[sizeof(cc) - 1] = '\0';
		snprintf(st->congestion, sizeof(st->congestion), "%s", cc);
	}
}

void xp_i3_record(struct xp_flow *f, uint64_t last_ns)
{
	struct xp_worker *w = f->w;
	struct xp_i3_stream *st = xp_i3_stream_of(f);

	st->done = 1;
	st->bytes = f->bytes;
	st->t_start = w->t_go;
	st->t_end = last_ns > w->t_go ? last_ns : w->t_go;
	if (f->fd >= 0 && !w->t->udp)
		read_tcp_info(f, st);
}

static void noop_io(struct xp_flow *f, uint32_t events)
{
	(void)f;
	(void)events;
}

/* ---- sender ---- */

/* Its share of -n/-k sent (or STOP): finish, on the client once the peer
 * has acknowledged every byte. */
static void tx_done(struct xp_flow *f)
{
	f->on_io = noop_io; /* a paced flow's timer may still fire */
	if (!xp_i3_run_of(f->w)->drain || xp_flow_watch(f, 0)) {
		xp_flow_finish(f);
		return;
	}
	ts(f)->stopping = 1;
	ts(f)->stop_at = f->w->now;
}

static void tx_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	size_t len = w->run->req;
	int i;

	(void)events;
	for (i = 0; i < SENDS_PER_EVENT; i++) {
		size_t want = (size_t)xp_flow_allow(f, len);
		ssize_t n;

		if (!want) {
			tx_done(f);
			return;
		}
		if (!xp_flow_pace(f, want))
			return;
		n = xp_send(f->fd, w->txbuf, want, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			f->bytes += (uint64_t)n;
			w->c.bytes_sent += (uint64_t)n;
			if (w->run->rate_bps)
				f->next_send += xp_pace_ns((uint64_t)n, w->run->rate_bps);
			if (xp_flow_spend(f, (uint64_t)n)) {
				tx_done(f);
				return;
			}
			if ((size_t)n < want)
				break;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		xp_flow_fail(f, n < 0 ? errno : EPIPE);
		return;
	}
	if (!(f->events & EPOLLOUT) && xp_flow_watch(f, EPOLLOUT))
		xp_flow_fail(f, errno);
}

static void tx_add(struct xp_flow *f)
{
	f->on_io = tx_io;
	xp_i3_stream_of(f)->sender = 1;
}

static void tx_go(struct xp_flow *f)
{
	if (xp_flow_watch(f, EPOLLOUT))
		xp_flow_fail(f, errno);
}

static void tx_stop(struct xp_flow *f)
{
	f->w->t_end = f->w->t_stop;
	if (!ts(f)->stopping)
		tx_done(f);
}

/* Draining: finish once the peer has acknowledged everything. */
static void tx_tick(struct xp_flow *f)
{
	struct xp_worker *w = f->w;

	if (!ts(f)->stopping)
		return;
	if (xp_i3_outq(f->fd) == 0 || w->now - ts(f)->stop_at > DRAIN_MAX_NS)
		xp_flow_finish(f);
}

static void tx_close(struct xp_flow *f)
{
	xp_i3_record(f, f->w->t_stop ? f->w->t_stop : f->w->now);
}

/* ---- receiver ---- */

static void rx_end(struct xp_flow *f)
{
	struct xp_worker *w = f->w;

	if (ts(f)->last_rx > w->t_end)
		w->t_end = ts(f)->last_rx;
	xp_flow_finish(f);
}

static void rx_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	int i;

	(void)events;
	for (i = 0; i < RECVS_PER_EVENT; i++) {
		ssize_t n = xp_recv(f->fd, w->buf, w->buflen, MSG_DONTWAIT);

		if (n > 0) {
			f->bytes += (uint64_t)n;
			w->c.bytes_received += (uint64_t)n;
			ts(f)->last_rx = xp_now_ns();
			if ((size_t)n < w->buflen)
				break;
			continue;
		}
		if (n == 0) {
			rx_end(f);
			return;
		}
		if (errno == EAGAIN || errno == EINTR)
			break;
		xp_flow_fail(f, errno);
		return;
	}
	if (ts(f)->stopping && ts(f)->target && f->bytes >= ts(f)->target)
		rx_end(f);
}

static void rx_add(struct xp_flow *f)
{
	f->on_io = rx_io;
	xp_i3_stream_of(f)->sender = 0;
	if (xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

static void rx_stop(struct xp_flow *f)
{
	ts(f)->stopping = 1;
	ts(f)->stop_at = f->w->now;
	ts(f)->target = xp_i3_stream_of(f)->target_bytes;
	if (ts(f)->target && f->bytes >= ts(f)->target)
		rx_end(f);
}

static void rx_tick(struct xp_flow *f)
{
	struct tcp_state *s = ts(f);
	uint64_t now = f->w->now, last = s->last_rx > s->stop_at ? s->last_rx : s->stop_at;

	if (!s->stopping)
		return;
	if (now - s->stop_at > DRAIN_MAX_NS || (!s->target && now - last >= QUIET_NS))
		rx_end(f);
}

static void rx_close(struct xp_flow *f)
{
	uint64_t ref = xp_i3_run_of(f->w)->t_end_ref;
	uint64_t last = ts(f)->last_rx > ref ? ts(f)->last_rx : ref;

	xp_i3_record(f, last ? last : f->w->t_stop);
}

const struct xp_side_ops xp_i3_tcp_tx = {
	.state = sizeof(struct tcp_state), .sends = 1,
	.add = tx_add, .go = tx_go, .stop = tx_stop, .tick = tx_tick, .close = tx_close,
};

const struct xp_side_ops xp_i3_tcp_rx = {
	.state = sizeof(struct tcp_state),
	.add = rx_add, .stop = rx_stop, .tick = rx_tick, .close = rx_close,
};
