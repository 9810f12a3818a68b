/* SPDX-License-Identifier: BSD-2-Clause */
/* UDP bulk engines (UDP_STREAM), and what every UDP engine shares.
 *
 * UDP_STREAM datagrams start with a 64-bit big-endian sequence number per
 * flow; the receiver accounts unique, out-of-order and duplicate datagrams
 * (common/engine/seqwin.h), and loss is computed at the end as sent - unique
 * received, exact whatever the reordering.  The sender hands the kernel
 * one GSO "super-datagram" of many datagrams per call (UDP_SEGMENT), or,
 * where GSO is off or missing, a sendmmsg batch; the receiver reads with
 * recvmmsg and, with UDP_GRO, each message may carry several datagrams of
 * gso_size bytes.  Every datagram keeps its own sequence number either way. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "common/engine/pace.h"
#include "common/engine/seqwin.h"
#include "common/engine/udp_int.h"
#include "proto/be.h"
#include "proto/hello.h"
#include "proto/msg.h"

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif

#define MAX_SEGS XP_UDP_BATCH /* datagrams per GSO send or sendmmsg */
#define GRO_BUF 65536      /* a GRO message holds up to 64 KiB */
#define CALLS_PER_EVENT 16

/* A UDP bulk flow's own state. */
struct udp_state {
	uint64_t seq;       /* sender: next sequence number */
	struct xp_seqwin *win; /* receiver: unique, out of order, duplicates */
	uint8_t phase;      /* sender: 1 while it sends GSO batches */
};

static struct udp_state *us(struct xp_flow *f)
{
	return xp_flow_state(f);
}

/* A repeated confirm (its echo was lost) is echoed again: the flow's
 * socket is connected to the address that proved itself. */
int xp_udp_is_hello(const struct xp_worker *w, const void *buf, size_t n)
{
	uint64_t cookie;

	return xp_udp_confirm_decode(buf, n, &cookie, NULL, NULL) == 0 &&
	       cookie == w->run->cookie;
}

int xp_udp_soft_error(int e)
{
	/* ECONNREFUSED: an ICMP error for an earlier datagram; ENOBUFS: the
	 * device queue is full.  Neither ends the flow. */
	return e == EAGAIN || e == EINTR || e == ECONNREFUSED || e == ENOBUFS;
}

struct xp_mmsg *xp_udp_mmsg_get(struct xp_worker *w, size_t bufsz)
{
	struct xp_mmsg *m = w->mm;

	if (m && m->bufsz >= bufsz)
		return m;
	if (m)
		free(m->bufs);
	free(m);
	w->mm = m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->bufsz = bufsz;
	m->bufs = malloc(bufsz * XP_UDP_RX_VLEN);
	if (!m->bufs) {
		free(m);
		w->mm = NULL;
	}
	return w->mm;
}

void xp_udp_worker_free(struct xp_worker *w)
{
	if (w->mm)
		free(w->mm->bufs);
	free(w->mm);
	w->mm = NULL;
}

/* ---- UDP_STREAM sender ---- */

static uint32_t batch_size(const struct xp_worker *w, int gso)
{
	uint32_t n = MAX_SEGS;

	if (gso && 65507 / w->run->req < n)
		n = (uint32_t)(65507 / w->run->req);
	if (w->run->rate_bps && w->run->pace_burst < n)
		n = w->run->pace_burst;
	return n ? n : 1;
}

static void sent(struct xp_flow *f, uint32_t dgrams)
{
	struct xp_worker *w = f->w;
	uint64_t bytes = (uint64_t)dgrams * w->run->req;

	us(f)->seq += dgrams;
	f->bytes += bytes;
	w->c.datagrams_sent += dgrams;
	w->c.bytes_sent += bytes;
	if (w->run->rate_bps)
		f->next_send += xp_pace_ns(bytes, w->run->rate_bps);
}

static void number(struct xp_worker *w, uint64_t seq, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		xp_put64((uint8_t *)w->txbuf + (size_t)i * w->run->req, seq + i);
}

/* After a failed send: 0 to try again later (counted when it is an error
 * the network reported), -1 when the flow failed. */
static int send_error(struct xp_flow *f)
{
	if (errno == ECONNREFUSED || errno == ENOBUFS)
		f->w->c.errors++;
	if (xp_udp_soft_error(errno))
		return 0;
	xp_flow_fail(f, errno);
	return -1;
}

/* 1: sent some; 0: would block or paced; -1: flow failed or GSO refused. */
static int send_gso(struct xp_flow *f, uint32_t n)
{
	struct xp_worker *w = f->w;
	ssize_t r;

	number(w, us(f)->seq, n);
	r = send(f->fd, w->txbuf, (size_t)n * w->run->req, MSG_DONTWAIT);
	if (r >= 0) {
		sent(f, n);
		w->offloads |= XP_OFFLOAD_GSO;
		return 1;
	}
	if (errno == EIO || errno == EINVAL || errno == EOPNOTSUPP || errno == EMSGSIZE) {
		/* the path cannot segment (no offload, or segments over the MTU,
		 * which only IP fragmentation can carry): sendmmsg from now on */
		int zero = 0;

		setsockopt(f->fd, SOL_UDP, UDP_SEGMENT, &zero, sizeof(zero));
		us(f)->phase = 0;
		return 0;
	}
	return send_error(f);
}

static int send_batch(struct xp_flow *f, uint32_t n)
{
	struct xp_worker *w = f->w;
	struct xp_mmsg *m = xp_udp_mmsg_get(w, 0);
	uint32_t i;
	int r;

	if (!m) {
		xp_flow_fail(f, ENOMEM);
		return -1;
	}
	number(w, us(f)->seq, n);
	for (i = 0; i < n; i++) {
		m->iov[i].iov_base = w->txbuf + (size_t)i * w->run->req;
		m->iov[i].iov_len = w->run->req;
		memset(&m->msgs[i].msg_hdr, 0, sizeof(m->msgs[i].msg_hdr));
		m->msgs[i].msg_hdr.msg_iov = &m->iov[i];
		m->msgs[i].msg_hdr.msg_iovlen = 1;
	}
	r = sendmmsg(f->fd, m->msgs, n, MSG_DONTWAIT);
	if (r > 0) {
		sent(f, (uint32_t)r);
		return 1;
	}
	return send_error(f);
}

static void tx_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	int i, r = 1;

	(void)events;
	for (i = 0; i < CALLS_PER_EVENT && r > 0; i++) {
		uint32_t n = batch_size(w, us(f)->phase);

		if (!xp_flow_pace(f, (uint64_t)n * w->run->req))
			return;
		r = us(f)->phase ? send_gso(f, n) : send_batch(f, n);
	}
	if (r >= 0 && !(f->events & EPOLLOUT) && xp_flow_watch(f, EPOLLOUT))
		xp_flow_fail(f, errno);
}

static void tx_add(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	int seg = (int)w->run->req;

	f->on_io = tx_io;
	/* phase 1: this flow sends GSO batches */
	if (w->run->gso && batch_size(w, 1) > 1 &&
	    setsockopt(f->fd, SOL_UDP, UDP_SEGMENT, &seg, sizeof(seg)) == 0) {
		us(f)->phase = 1;
	}
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

/* ---- UDP_STREAM receiver ---- */

static int gro_size(struct msghdr *mh)
{
	struct cmsghdr *c;
	int v = 0;

	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c))
		if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO)
			memcpy(&v, CMSG_DATA(c), sizeof(v));
	return v;
}

/* One received message: a datagram, or with GRO several of gso bytes. */
static void rx_message(struct xp_flow *f, const uint8_t *p, size_t len, size_t gso)
{
	struct xp_worker *w = f->w;
	size_t off;

	if (!gso || gso > len)
		gso = len;
	if (len == gso && xp_udp_is_hello(w, p, len)) {
		send(f->fd, p, len, MSG_DONTWAIT);
		return;
	}
	for (off = 0; off < len; off += gso) {
		size_t seg = len - off < gso ? len - off : gso;

		if (seg < 8) {
			w->c.errors++;
			continue;
		}
		w->c.bytes_received += seg;
		f->bytes += seg;
		xp_seqwin_add(us(f)->win, xp_get64(p + off));
	}
}

static void rx_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	struct xp_mmsg *m = w->mm;
	int i, j, r;

	(void)events;
	for (j = 0; j < CALLS_PER_EVENT; j++) {
		for (i = 0; i < XP_UDP_RX_VLEN; i++) {
			struct msghdr *mh = &m->msgs[i].msg_hdr;

			m->iov[i].iov_base = m->bufs + (size_t)i * m->bufsz;
			m->iov[i].iov_len = m->bufsz;
			memset(mh, 0, sizeof(*mh));
			mh->msg_iov = &m->iov[i];
			mh->msg_iovlen = 1;
			mh->msg_control = m->ctl[i];
			mh->msg_controllen = sizeof(m->ctl[i]);
		}
		r = recvmmsg(f->fd, m->msgs, XP_UDP_RX_VLEN, MSG_DONTWAIT, NULL);
		if (r < 0) {
			if (errno == EAGAIN)
				break;
			if (xp_udp_soft_error(errno))
				continue;
			xp_flow_fail(f, errno);
			return;
		}
		for (i = 0; i < r; i++)
			rx_message(f, m->iov[i].iov_base, m->msgs[i].msg_len,
				   (size_t)gro_size(&m->msgs[i].msg_hdr));
		if (r < XP_UDP_RX_VLEN)
			break;
	}
	if (w->stopping)
		w->t_last_rx = w->now = xp_now_ns();
}

static void rx_add(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	size_t bufsz = w->run->req + 64;
	int one = 1;

	f->on_io = rx_io;
	if (w->run->gso && setsockopt(f->fd, SOL_UDP, UDP_GRO, &one, sizeof(one)) == 0) {
		w->offloads |= XP_OFFLOAD_GRO;
		bufsz = GRO_BUF;
	}
	us(f)->win = malloc(sizeof(*us(f)->win));
	if (!us(f)->win || !xp_udp_mmsg_get(w, bufsz)) {
		xp_flow_fail(f, ENOMEM);
		return;
	}
	xp_seqwin_init(us(f)->win);
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

static void rx_close(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	struct xp_seqwin *win = us(f)->win;

	if (!win)
		return;
	w->c.datagrams_received += win->unique;
	w->c.out_of_order += win->out_of_order;
	w->c.duplicates += win->duplicates;
	free(win);
	us(f)->win = NULL;
}

const struct xp_side_ops xp_udp_tx = {
	.state = sizeof(struct udp_state),
	.add = tx_add, .go = tx_go, .stop = tx_stop,
};

const struct xp_side_ops xp_udp_rx = {
	.state = sizeof(struct udp_state),
	.add = rx_add, .stop = rx_stop, .tick = rx_tick, .close = rx_close,
};
