/* SPDX-License-Identifier: BSD-2-Clause */
/* UDP bulk engines (UDP_STREAM, UDP_MAERTS, both ways of --bidir), and
 * what every UDP engine shares.
 *
 * A datagram starts with a 64-bit big-endian sequence number per flow
 * (its top bit set once the sender's --omit is over: XP_UDP_MEASURED)
 * and, from 16 bytes on, the sender's CLOCK_REALTIME send time in ns.
 * The receiver accounts unique, out-of-order and duplicate datagrams
 * (common/engine/seqwin.h), so loss is sent - unique received, exact
 * whatever the reordering, and from the send times and the kernel's
 * receive times (SO_TIMESTAMPNS) the RFC 3550 jitter of each flow.  The
 * sender hands the kernel one GSO "super-datagram" of many datagrams per
 * call (UDP_SEGMENT), or, where GSO is off or missing, a sendmmsg batch;
 * every datagram of one call carries the same send time.  The receiver
 * reads with recvmmsg and, with UDP_GRO, each message may carry several
 * datagrams of gso_size bytes (with one receive time).  Every datagram
 * keeps its own sequence number either way.  A server's flow socket
 * echoes a client's repeated confirm (proto/hello.h: its first echo was
 * lost) whichever way the data goes. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>

#include "common/clock.h"
#include "common/engine/owd.h"
#include "common/engine/pace.h"
#include "common/engine/seqwin.h"
#include "common/engine/udp.h"
#include "common/engine/sysio.h"
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
#define DRAIN_GRACE_MAX (3 * XP_NS_PER_SEC) /* the most rx_tick waits for the path */

/* A UDP bulk flow's own state. */
struct udp_state {
	uint64_t seq;       /* sender: next sequence number */
	struct xp_seqwin *win; /* receiver: unique, out of order, duplicates */
	int64_t transit;    /* receiver: the last datagram's receive - send time */
	uint64_t j16;       /* receiver: RFC 3550 jitter x 16, ns */
	uint8_t phase;      /* sender: 1 while it sends GSO batches */
	uint8_t mark;       /* sender: --omit is over, set XP_UDP_MEASURED */
	uint8_t stamped;    /* receiver: transit holds a value */
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

uint32_t xp_udp_batch_size(const struct xp_worker *w, int gso)
{
	uint32_t n = MAX_SEGS;

	if (gso && 65507 / w->run->req < n)
		n = (uint32_t)(65507 / w->run->req);
	if (w->run->rate_bps && w->run->pace_burst < n)
		n = w->run->pace_burst;
	return n ? n : 1;
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * XP_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* 1 when the datagrams were the last of the flow's -n/-k share: the flow
 * has finished then. */
static int sent(struct xp_flow *f, uint32_t dgrams)
{
	struct xp_worker *w = f->w;
	uint64_t bytes = (uint64_t)dgrams * w->run->req;

	us(f)->seq += dgrams;
	f->bytes += bytes;
	f->dgrams += dgrams;
	w->c.datagrams_sent += dgrams;
	w->c.bytes_sent += bytes;
	if (w->run->rate_bps)
		f->next_send += xp_pace_ns(bytes, w->run->rate_bps);
	if (!xp_flow_spend(f, dgrams))
		return 0;
	w->now = w->t_end = xp_now_ns(); /* the sender's time ends with its last send */
	xp_flow_finish(f);
	return 1;
}

/* Sequence numbers (and the measured mark) and one send time for the
 * whole batch. */
static void number(struct xp_flow *f, uint32_t n)
{
	struct xp_worker *w = f->w;
	uint64_t seq = us(f)->seq | (us(f)->mark ? XP_UDP_MEASURED : 0);
	uint64_t stamp = w->run->req >= XP_UDP_STAMP_LEN ? realtime_ns() : 0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint8_t *p = (uint8_t *)w->txbuf + (size_t)i * w->run->req;

		xp_put64(p, seq + i);
		if (stamp)
			xp_put64(p + 8, stamp);
	}
}

int xp_udp_send_error(struct xp_flow *f)
{
	if (errno == ECONNREFUSED || errno == ENOBUFS)
		f->w->c.errors++;
	if (xp_udp_soft_error(errno))
		return 0;
	xp_flow_fail(f, errno);
	return -1;
}

/* 1: sent some; 0: would block, paced or GSO refused; -1: the flow
 * failed or has sent its share. */
static int send_gso(struct xp_flow *f, uint32_t n)
{
	struct xp_worker *w = f->w;
	ssize_t r;

	number(f, n);
	r = xp_send(f->fd, w->txbuf, (size_t)n * w->run->req, MSG_DONTWAIT);
	if (r >= 0) {
		w->offloads |= XP_OFFLOAD_GSO;
		return sent(f, n) ? -1 : 1;
	}
	if (errno == EIO || errno == EINVAL || errno == EOPNOTSUPP || errno == EMSGSIZE) {
		/* the path cannot segment (no offload, or segments over the MTU,
		 * which only IP fragmentation can carry): sendmmsg from now on */
		int zero = 0;

		setsockopt(f->fd, SOL_UDP, UDP_SEGMENT, &zero, sizeof(zero));
		us(f)->phase = 0;
		return 0;
	}
	return xp_udp_send_error(f);
}

int xp_udp_send_txbuf(struct xp_worker *w, int fd, uint32_t n)
{
	struct xp_mmsg *m = xp_udp_mmsg_get(w, 0);
	uint32_t i;

	if (!m) {
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < n; i++) {
		m->iov[i].iov_base = w->txbuf + (size_t)i * w->run->req;
		m->iov[i].iov_len = w->run->req;
		memset(&m->msgs[i].msg_hdr, 0, sizeof(m->msgs[i].msg_hdr));
		m->msgs[i].msg_hdr.msg_iov = &m->iov[i];
		m->msgs[i].msg_hdr.msg_iovlen = 1;
	}
	return xp_sendmmsg(fd, m->msgs, n, MSG_DONTWAIT);
}

static int send_batch(struct xp_flow *f, uint32_t n)
{
	int r;

	number(f, n);
	r = xp_udp_send_txbuf(f->w, f->fd, n);
	if (r > 0)
		return sent(f, (uint32_t)r) ? -1 : 1;
	if (errno == ENOMEM) {
		xp_flow_fail(f, ENOMEM);
		return -1;
	}
	return xp_udp_send_error(f);
}

/* What arrives on a sender's socket: a client's repeated confirm (its
 * first echo was lost), which a server echoes again, or ICMP errors for
 * earlier datagrams (counted); anything else is dropped. */
static void tx_drain(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	uint8_t b[64];
	int i;

	for (i = 0; i < CALLS_PER_EVENT; i++) {
		ssize_t n = xp_recv(f->fd, b, sizeof(b), MSG_DONTWAIT);

		if (n < 0 && errno == ECONNREFUSED)
			w->c.errors++;
		else if (n < 0)
			return;
		else if (w->run->role == XP_ROLE_SERVER && xp_udp_is_hello(w, b, (size_t)n))
			xp_send(f->fd, b, (size_t)n, MSG_DONTWAIT);
	}
}

static void tx_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	int i, r = 1;

	if (events & (EPOLLIN | EPOLLERR))
		tx_drain(f);
	if (!(events & EPOLLOUT) || !w->going)
		return;
	for (i = 0; i < CALLS_PER_EVENT && r > 0; i++) {
		uint32_t n = (uint32_t)xp_flow_allow(f, xp_udp_batch_size(w, us(f)->phase));

		if (!xp_flow_pace(f, (uint64_t)n * w->run->req))
			return;
		r = us(f)->phase ? send_gso(f, n) : send_batch(f, n);
	}
	if (r >= 0 && !(f->events & EPOLLOUT) && xp_flow_watch(f, f->events | EPOLLOUT))
		xp_flow_fail(f, errno);
}

static void tx_add(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	int seg = (int)w->run->req;

	f->on_io = tx_io;
	/* phase 1: this flow sends GSO batches */
	if (w->run->gso && xp_udp_batch_size(w, 1) > 1 &&
	    setsockopt(f->fd, SOL_UDP, UDP_SEGMENT, &seg, sizeof(seg)) == 0) {
		us(f)->phase = 1;
	}
	if (xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

static void tx_go(struct xp_flow *f)
{
	if (f->quota && !f->left) /* -n/-k: a share of nothing */
		xp_flow_finish(f);
	else if (xp_flow_watch(f, EPOLLIN | EPOLLOUT))
		xp_flow_fail(f, errno);
}

/* --omit is over: the datagrams from now on are the measured ones. */
static void tx_measure(struct xp_flow *f)
{
	us(f)->mark = 1;
}

static void tx_stop(struct xp_flow *f)
{
	xp_flow_finish(f);
}

/* ---- UDP bulk receiver ---- */

/* A received message's GRO segment size (0: none) and kernel receive
 * time (0: none). */
static void msg_info(struct msghdr *mh, size_t *gso, uint64_t *rx_ns)
{
	struct cmsghdr *c;
	struct timespec ts;
	int v = 0;

	*rx_ns = 0;
	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO) {
			memcpy(&v, CMSG_DATA(c), sizeof(v));
		} else if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
			memcpy(&ts, CMSG_DATA(c), sizeof(ts));
			*rx_ns = (uint64_t)ts.tv_sec * XP_NS_PER_SEC + (uint64_t)ts.tv_nsec;
		}
	}
	*gso = v > 0 ? (size_t)v : 0;
}

/* RFC 3550 section 6.4.1: D is the difference of two consecutive
 * datagrams' transit times (receive - send; the clocks' offset cancels),
 * J += (|D| - J) / 16, kept x16 in integers as in its appendix A.8. */
static void jitter_add(struct xp_flow *f, uint64_t rx_ns, uint64_t tx_ns)
{
	struct udp_state *u = us(f);
	int64_t transit = (int64_t)(rx_ns - tx_ns), d = transit - u->transit;

	if (u->stamped) {
		d = d < 0 ? -d : d;
		u->j16 += (uint64_t)d - ((u->j16 + 8) >> 4);
		f->jitter_ns = u->j16 >> 4;
		f->jitter_n++;
	}
	u->transit = transit;
	u->stamped = 1;
}

/* One datagram of seg bytes (at least a sequence number).  With --omit
 * only those the sender marked as measured count; the others go to the
 * warm-up's counts, and the window still learns their numbers. */
static void rx_datagram(struct xp_flow *f, const uint8_t *p, size_t seg, uint64_t rx_ns)
{
	struct xp_worker *w = f->w;
	struct xp_seqwin *win = us(f)->win;
	uint64_t raw = xp_get64(p), unique = win->unique, ooo = win->out_of_order;
	uint64_t dups = win->duplicates;

	if (seg >= XP_UDP_STAMP_LEN && rx_ns)
		jitter_add(f, rx_ns, xp_get64(p + 8));
	if (w->owd && seg >= XP_UDP_STAMP_LEN && rx_ns) /* --one-way */
		xp_owd_udp(w, rx_ns, xp_get64(p + 8));
	xp_seqwin_add(win, raw & ~XP_UDP_MEASURED);
	if (!w->run->omit || (raw & XP_UDP_MEASURED)) {
		w->c.bytes_received += seg;
		w->c.datagrams_received += win->unique - unique; /* so intervals see it */
		f->bytes += seg;
		return;
	}
	w->warm.bytes_received += seg;
	f->omitted += seg;
	win->unique = unique;
	win->out_of_order = ooo;
	win->duplicates = dups;
}

/* One received message: a datagram, or with GRO several of gso bytes. */
static void rx_message(struct xp_flow *f, const uint8_t *p, size_t len, struct msghdr *mh)
{
	struct xp_worker *w = f->w;
	uint64_t rx_ns;
	size_t off, gso;

	msg_info(mh, &gso, &rx_ns);
	if (!gso || gso > len)
		gso = len;
	if (len == gso && xp_udp_is_hello(w, p, len)) {
		if (w->run->role == XP_ROLE_SERVER) /* a client only ignores a repeated ack */
			xp_send(f->fd, p, len, MSG_DONTWAIT);
		return;
	}
	if (!rx_ns && w->run->req >= XP_UDP_STAMP_LEN)
		rx_ns = realtime_ns();
	for (off = 0; off < len; off += gso) {
		size_t seg = len - off < gso ? len - off : gso;

		if (seg < XP_UDP_SEQ_LEN)
			w->c.errors++;
		else
			rx_datagram(f, p + off, seg, rx_ns);
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
		r = xp_recvmmsg(f->fd, m->msgs, XP_UDP_RX_VLEN, MSG_DONTWAIT);
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
				   &m->msgs[i].msg_hdr);
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
	/* the kernel's receive time, for jitter (datagrams with a send time) */
	if (w->run->req >= XP_UDP_STAMP_LEN &&
	    setsockopt(f->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)))
		xp_flow_warn(f, "setsockopt SO_TIMESTAMPNS", errno);
	if (xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

static void rx_stop(struct xp_flow *f)
{
	f->stopping = 1;
}

/* After STOP, count on for the path's round trip (xp_run.drain_grace_ns:
 * datagrams the STOP overtook are still coming), then finish once the
 * socket has been quiet for 100 ms (the last datagrams may still be
 * queued), and 1 s after that grace in any case. */
static void rx_tick(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	uint64_t grace = w->run->drain_grace_ns < DRAIN_GRACE_MAX ? w->run->drain_grace_ns
								      : DRAIN_GRACE_MAX;
	uint64_t last = w->t_last_rx > w->t_stop ? w->t_last_rx : w->t_stop;

	if (!f->stopping || w->now - w->t_stop < grace)
		return;
	if (w->now - last >= 100 * XP_NS_PER_MS ||
	    w->now - w->t_stop >= grace + XP_NS_PER_SEC) {
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
	f->dgrams = win->unique; /* w->c counted them as they came */
	f->out_of_order = win->out_of_order;
	f->duplicates = win->duplicates;
	w->c.out_of_order += win->out_of_order;
	w->c.duplicates += win->duplicates;
	if (f->jitter_n) {
		w->c.jitter_ns_sum += f->jitter_ns;
		w->c.jitter_flows++;
		if (f->jitter_ns > w->c.jitter_ns_max)
			w->c.jitter_ns_max = f->jitter_ns;
	}
	free(win);
	us(f)->win = NULL;
}

const struct xp_side_ops xp_udp_tx = {
	.state = sizeof(struct udp_state), .sends = 1,
	.add = tx_add, .go = tx_go, .stop = tx_stop, .measure = tx_measure,
};

const struct xp_side_ops xp_udp_rx = {
	.state = sizeof(struct udp_state),
	.add = rx_add, .stop = rx_stop, .tick = rx_tick, .close = rx_close,
};
