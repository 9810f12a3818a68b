/* UDP engines.
 *
 * UDP_STREAM datagrams start with a 64-bit big-endian sequence number per
 * flow; the receiver accounts unique, out-of-order and duplicate datagrams
 * (common/engine/seqwin.h), and loss is computed at the end as sent - unique
 * received, exact whatever the reordering.  The sender hands the kernel
 * one GSO "super-datagram" of many datagrams per call (UDP_SEGMENT), or,
 * where GSO is off or missing, a sendmmsg batch; the receiver reads with
 * recvmmsg and, with UDP_GRO, each message may carry several datagrams of
 * gso_size bytes.  Every datagram keeps its own sequence number either way.
 *
 * UDP_RR requests carry the low min(8, req, rsp) bytes of a request id,
 * which the server's response echoes, so a late answer to a request that
 * already timed out is recognized and ignored; a request with no answer
 * within --rr-timeout counts as lost and the flow goes on.  With --burst N
 * a flow keeps N requests outstanding, each timed on its own. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "common/engine/engines.h"
#include "common/engine/pace.h"
#include "common/engine/seqwin.h"
#include "proto/be.h"
#include "proto/msg.h"

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif

#define MAX_SEGS XP_UDP_BATCH /* datagrams per GSO send or sendmmsg */
#define RX_VLEN 16         /* messages per recvmmsg */
#define GRO_BUF 65536      /* a GRO message holds up to 64 KiB */
#define CALLS_PER_EVENT 16

/* A UDP flow's own state (every UDP engine). */
struct udp_state {
	uint64_t seq;       /* next sequence number or request id */
	uint64_t t0;        /* RR --rate: actual send of the scheduled request */
	struct xp_seqwin *win; /* bulk receiver: unique, out of order, duplicates */
	uint64_t *ring;     /* RR client: (issue time, id) per outstanding request */
	uint32_t rcount;
	uint8_t phase;      /* sender: 1 GSO; RR client: 2 waiting for a slot */
};
static struct udp_state *us(struct xp_flow *f)
{
	return xp_flow_state(f);
}

struct xp_mmsg {
	struct mmsghdr msgs[MAX_SEGS];
	struct iovec iov[MAX_SEGS];
	char ctl[RX_VLEN][CMSG_SPACE(sizeof(int))];
	char *bufs;
	size_t bufsz;
};

/* A repeated hello (its first ack was lost) is acknowledged again. */
static int is_hello(const struct xp_worker *w, const void *buf, size_t n)
{
	uint64_t cookie;
	uint32_t idx;

	return n == XP_DATA_HELLO_LEN &&
	       xp_data_hello_decode(buf, n, &cookie, &idx) == 0 &&
	       cookie == w->run->cookie;
}

static int soft_error(int e)
{
	/* ECONNREFUSED: an ICMP error for an earlier datagram; ENOBUFS: the
	 * device queue is full.  Neither ends the flow. */
	return e == EAGAIN || e == EINTR || e == ECONNREFUSED || e == ENOBUFS;
}

/* One batch area per worker, shared by its flows (used one call at a time). */
static struct xp_mmsg *mmsg_get(struct xp_worker *w, size_t bufsz)
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
	m->bufs = malloc(bufsz * RX_VLEN);
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
	if (soft_error(errno))
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
	struct xp_mmsg *m = mmsg_get(w, 0);
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
	if (len == gso && is_hello(w, p, len)) {
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
		for (i = 0; i < RX_VLEN; i++) {
			struct msghdr *mh = &m->msgs[i].msg_hdr;

			m->iov[i].iov_base = m->bufs + (size_t)i * m->bufsz;
			m->iov[i].iov_len = m->bufsz;
			memset(mh, 0, sizeof(*mh));
			mh->msg_iov = &m->iov[i];
			mh->msg_iovlen = 1;
			mh->msg_control = m->ctl[i];
			mh->msg_controllen = sizeof(m->ctl[i]);
		}
		r = recvmmsg(f->fd, m->msgs, RX_VLEN, MSG_DONTWAIT, NULL);
		if (r < 0) {
			if (errno == EAGAIN)
				break;
			if (soft_error(errno))
				continue;
			xp_flow_fail(f, errno);
			return;
		}
		for (i = 0; i < r; i++)
			rx_message(f, m->iov[i].iov_base, m->msgs[i].msg_len,
				   (size_t)gro_size(&m->msgs[i].msg_hdr));
		if (r < RX_VLEN)
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
	if (!us(f)->win || !mmsg_get(w, bufsz)) {
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

/* Issue a request into slot i.  Every issued request counts as sent; one
 * the kernel refused will time out and count as lost. */
static void rr_issue(struct xp_flow *f, uint32_t i)
{
	struct xp_worker *w = f->w;
	uint64_t id = us(f)->seq++;
	ssize_t n;

	put_id((uint8_t *)w->txbuf, id, id_len(w->run));
	us(f)->ring[2 * i] = w->now;
	us(f)->ring[2 * i + 1] = id;
	us(f)->rcount++;
	w->c.datagrams_sent++;
	n = send(f->fd, w->txbuf, w->run->req, MSG_DONTWAIT);
	if (n >= 0) {
		w->c.bytes_sent += (uint64_t)n;
		f->bytes += (uint64_t)n;
	}
	else if (soft_error(errno))
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

/* Slot i is answered or timed out: reuse it, or finish when stopping. */
static void rr_release(struct xp_flow *f, uint32_t i)
{
	us(f)->ring[2 * i + 1] = FREE_SLOT;
	us(f)->rcount--;
	if (!f->stopping && f->w->run->sched_ns)
		rr_scheduled(f);
	else if (!f->stopping)
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
	/* a bounded batch: in the worker's direct mode recv blocks, and the
	 * worker must get back to its commands now and then */
	for (int k = 0; k < 64 && f->fd >= 0; k++) {
		ssize_t n = recv(f->fd, w->buf, w->buflen, 0);
		int i;

		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return; /* EINTR: a kick out of direct mode's blocking recv */
			if (soft_error(errno))
				continue;
			xp_flow_fail(f, errno);
			return;
		}
		i = rr_match(f, (const uint8_t *)w->buf, (size_t)n);
		if (i < 0)
			continue; /* late answer to a timed-out request */
		w->now = xp_now_ns();
		xp_hist_add(w->hist, w->now - us(f)->ring[2 * i]);
		if (w->raw_hist)
			xp_hist_add(w->raw_hist, w->now - us(f)->t0);
		w->c.datagrams_received++;
		w->c.bytes_received += (uint64_t)n;
		f->bytes += (uint64_t)n;
		w->c.transactions++;
		f->trans++;
		rr_release(f, (uint32_t)i);
	}
}

static void rr_add(struct xp_flow *f)
{
	uint32_t i, n = f->w->run->burst;
	char b[64];

	f->on_io = rr_io;
	us(f)->ring = malloc(2 * n * sizeof(*us(f)->ring));
	if (!us(f)->ring) {
		xp_flow_fail(f, ENOMEM);
		return;
	}
	for (i = 0; i < n; i++)
		us(f)->ring[2 * i + 1] = FREE_SLOT;
	/* discard repeated hello acks before the test starts */
	while (recv(f->fd, b, sizeof(b), MSG_DONTWAIT) > 0)
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
		rr_scheduled(f);
		return;
	}
	for (i = 0; i < f->w->run->burst && f->fd >= 0; i++)
		rr_issue(f, i);
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
		w->c.lost++;
		rr_release(f, i);
	}
}

/* ---- UDP_RR server: answer each request from the buffer it arrived in,
 * so the response starts with the request's id bytes. ---- */
static void rrs_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	int i;

	(void)events;
	for (i = 0; i < MAX_SEGS; i++) {
		ssize_t n = recv(f->fd, w->buf, w->buflen, 0), m; /* may block: direct mode */

		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return; /* EINTR: a kick out of direct mode's blocking recv */
			if (soft_error(errno))
				continue;
			xp_flow_fail(f, errno);
			return;
		}
		if (is_hello(w, w->buf, (size_t)n)) {
			send(f->fd, w->buf, (size_t)n, MSG_DONTWAIT);
			continue;
		}
		w->c.datagrams_received++;
		w->c.bytes_received += (uint64_t)n;
		m = send(f->fd, w->buf, w->run->rsp, MSG_DONTWAIT);
		if (m < 0) {
			w->c.errors++;
			continue;
		}
		w->c.datagrams_sent++;
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

/* A receiver's window: its counts become the worker's. */
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

static void rr_close(struct xp_flow *f)
{
	free(us(f)->ring);
	us(f)->ring = NULL;
}

/* Requests still out at the end of the warm-up count in the measured part. */
static void rr_measure(struct xp_flow *f)
{
	uint64_t out = us(f)->rcount;

	xp_worker_move_sent(f, out * f->w->run->req, out);
}

const struct xp_side_ops xp_udp_tx = {
	.state = sizeof(struct udp_state),
	.add = tx_add, .go = tx_go, .stop = tx_stop,
};

const struct xp_side_ops xp_udp_rx = {
	.state = sizeof(struct udp_state),
	.add = rx_add, .stop = rx_stop, .tick = rx_tick, .close = rx_close,
};

const struct xp_side_ops xp_udp_rr_client = {
	.state = sizeof(struct udp_state),
	.add = rr_add, .go = rr_go, .stop = rr_stop, .tick = rr_tick, .close = rr_close,
	.measure = rr_measure,
};

const struct xp_side_ops xp_udp_rr_server = {
	.state = sizeof(struct udp_state),
	.add = rrs_add, .stop = rrs_stop,
};
