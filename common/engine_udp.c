/* UDP engines.  UDP_STREAM datagrams start with a 64-bit big-endian
 * sequence number per flow; the receiver accounts unique, out-of-order and
 * duplicate datagrams (common/seqwin.h), and loss is computed at the end
 * as sent - unique received, exact whatever the reordering.
 * UDP_RR requests carry the low min(8, req, rsp) bytes of a request id
 * which the server's response echoes, so a late answer to a request that
 * already timed out is recognized and ignored; a request with no answer
 * within --rr-timeout counts as lost and the flow goes on. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "common/engines.h"
#include "common/seqwin.h"
#include "proto/msg.h"

#define DGRAMS_PER_EVENT 64

static void put_be64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t get_be64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* A repeated hello (its first ack was lost) is acknowledged again. */
static int is_hello(const struct xp_worker *w, const void *buf, ssize_t n)
{
	uint64_t cookie;
	uint32_t idx;

	return n == XP_DATA_HELLO_LEN &&
	       xp_data_hello_decode(buf, (size_t)n, &cookie, &idx) == 0 &&
	       cookie == w->run->cookie;
}

static int soft_error(int e)
{
	/* ECONNREFUSED: an ICMP error for an earlier datagram; ENOBUFS: the
	 * device queue is full.  Neither ends the flow. */
	return e == EAGAIN || e == EINTR || e == ECONNREFUSED || e == ENOBUFS;
}

static void tx_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	size_t len = w->run->req;
	int i;

	(void)events;
	for (i = 0; i < DGRAMS_PER_EVENT; i++) {
		ssize_t n;

		put_be64((uint8_t *)w->txbuf, f->seq);
		n = send(f->fd, w->txbuf, len, MSG_DONTWAIT);
		if (n >= 0) {
			f->seq++;
			w->c.dgrams_sent++;
			w->c.bytes_sent += (uint64_t)n;
			continue;
		}
		if (errno == ECONNREFUSED || errno == ENOBUFS)
			w->c.errors++;
		if (soft_error(errno))
			return;
		xp_flow_fail(f, errno);
		return;
	}
}

static void tx_add(struct xp_flow *f)
{
	f->on_io = tx_io;
}

static void tx_go(struct xp_flow *f)
{
	if (xp_flow_watch(f, EPOLLOUT))
		xp_flow_fail(f, errno);
}

static void tx_stop(struct xp_flow *f)
{
	xp_flow_finish(f);
}

static void rx_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	struct xp_seqwin *win = f->win;
	int i;

	(void)events;
	for (i = 0; i < DGRAMS_PER_EVENT; i++) {
		ssize_t n = recv(f->fd, w->buf, w->buflen, MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EAGAIN)
				break;
			if (soft_error(errno))
				continue;
			xp_flow_fail(f, errno);
			return;
		}
		if (is_hello(w, w->buf, n)) {
			send(f->fd, w->buf, (size_t)n, MSG_DONTWAIT);
			continue;
		}
		if (n < 8) {
			w->c.errors++;
			continue;
		}
		w->c.bytes_recv += (uint64_t)n;
		xp_seqwin_add(win, get_be64((uint8_t *)w->buf));
	}
	if (w->stopping)
		w->t_last_rx = w->now = xp_now_ns();
}

static void rx_add(struct xp_flow *f)
{
	f->on_io = rx_io;
	f->win = malloc(sizeof(*f->win));
	if (!f->win) {
		xp_flow_fail(f, ENOMEM);
		return;
	}
	xp_seqwin_init(f->win);
	if (xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

static void rx_stop(struct xp_flow *f)
{
	f->stopping = 1;
}

/* After STOP, finish once the socket has been quiet for 100 ms (the last
 * datagrams may still be queued), and after 1 s in any case. */
static void rx_tick(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	uint64_t last = w->t_last_rx > w->t_stop ? w->t_last_rx : w->t_stop;

	if (!f->stopping)
		return;
	if (w->now - last >= 100 * XP_NS_PER_MS ||
	    w->now - w->t_stop >= XP_NS_PER_SEC) {
		w->t_end = last;
		xp_flow_finish(f);
	}
}

/* UDP_RR client. */
static size_t id_len(const struct xp_run *r)
{
	size_t k = r->req < r->rsp ? r->req : r->rsp;

	return k < 8 ? k : 8;
}

static void put_id(uint8_t *p, uint64_t id, size_t k)
{
	uint8_t be[8];

	put_be64(be, id);
	memcpy(p, be + 8 - k, k);
}

static void rr_send(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	ssize_t n;

	put_id((uint8_t *)w->txbuf, f->seq, id_len(w->run));
	f->t0 = w->now;
	f->phase = 1;
	n = send(f->fd, w->txbuf, w->run->req, MSG_DONTWAIT);
	if (n >= 0) {
		w->c.dgrams_sent++;
		w->c.bytes_sent += (uint64_t)n;
	} else if (soft_error(errno)) {
		w->c.errors++; /* it will time out and count as lost */
	} else {
		xp_flow_fail(f, errno);
	}
}

static void rr_next(struct xp_flow *f)
{
	f->seq++;
	f->phase = 0;
	if (f->stopping)
		xp_flow_finish(f);
	else
		rr_send(f);
}

static int rr_matches(const struct xp_flow *f, const void *buf, ssize_t n)
{
	size_t k = id_len(f->w->run);
	uint8_t want[8];

	if (!f->phase || (size_t)n < k)
		return 0;
	put_id(want, f->seq, k);
	return memcmp(buf, want, k) == 0;
}

static void rr_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;

	(void)events;
	for (;;) {
		ssize_t n = recv(f->fd, w->buf, w->buflen, MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EAGAIN)
				return;
			if (soft_error(errno))
				continue;
			xp_flow_fail(f, errno);
			return;
		}
		if (!rr_matches(f, w->buf, n))
			continue; /* late answer to a timed-out request */
		w->now = xp_now_ns();
		xp_hist_add(w->hist, w->now - f->t0);
		w->c.dgrams_recv++;
		w->c.bytes_recv += (uint64_t)n;
		w->c.transactions++;
		f->trans++;
		rr_next(f);
		if (f->fd < 0)
			return;
	}
}

static void rr_add(struct xp_flow *f)
{
	char b[64];

	f->on_io = rr_io;
	/* discard repeated hello acks before the test starts */
	while (recv(f->fd, b, sizeof(b), MSG_DONTWAIT) > 0)
		;
	if (xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

static void rr_go(struct xp_flow *f)
{
	rr_send(f);
}

static void rr_stop(struct xp_flow *f)
{
	f->stopping = 1;
}

static void rr_tick(struct xp_flow *f)
{
	struct xp_worker *w = f->w;

	if (f->phase && w->now - f->t0 >= w->run->rr_timeout_ns) {
		w->c.lost++;
		rr_next(f);
	}
}

/* UDP_RR server: answer each request from the buffer it arrived in, so
 * the response starts with the request's id bytes. */
static void rrs_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	int i;

	(void)events;
	for (i = 0; i < DGRAMS_PER_EVENT; i++) {
		ssize_t n = recv(f->fd, w->buf, w->buflen, MSG_DONTWAIT), m;

		if (n < 0) {
			if (errno == EAGAIN)
				return;
			if (soft_error(errno))
				continue;
			xp_flow_fail(f, errno);
			return;
		}
		if (is_hello(w, w->buf, n)) {
			send(f->fd, w->buf, (size_t)n, MSG_DONTWAIT);
			continue;
		}
		w->c.dgrams_recv++;
		w->c.bytes_recv += (uint64_t)n;
		m = send(f->fd, w->buf, w->run->rsp, MSG_DONTWAIT);
		if (m < 0) {
			w->c.errors++;
			continue;
		}
		w->c.dgrams_sent++;
		w->c.bytes_sent += (uint64_t)m;
		w->c.transactions++;
	}
}

static void rrs_add(struct xp_flow *f)
{
	f->on_io = rrs_io;
	if (xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

static void rrs_stop(struct xp_flow *f)
{
	xp_flow_finish(f);
}

const struct xp_side_ops xp_udp_tx = {
	.add = tx_add, .go = tx_go, .stop = tx_stop,
};

const struct xp_side_ops xp_udp_rx = {
	.add = rx_add, .stop = rx_stop, .tick = rx_tick,
};

const struct xp_side_ops xp_udp_rr_client = {
	.add = rr_add, .go = rr_go, .stop = rr_stop, .tick = rr_tick,
};

const struct xp_side_ops xp_udp_rr_server = {
	.add = rrs_add, .stop = rrs_stop,
};
