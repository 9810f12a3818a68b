/* SPDX-License-Identifier: BSD-2-Clause */
/* TCP bulk transfer carrying self probes (proto/selfprobe.h): -t RRUL's
 * load, whose own connections are probed as the responsiveness draft's
 * "self" probes are.  The bulk direction is written in 16 KiB records
 * (a header, then the send buffer's bytes); the client's probe rides a
 * record (it is the sender) or goes as a bare header the idle way (it is
 * the receiver), and the server's echo comes back the other way: a bare
 * header at once, or the next record it starts.  So a probe waits behind
 * whatever the sender's socket and the path hold, as a request on a busy
 * HTTP/2 connection does; the client takes the round trip from its own
 * stamp, set when the probe is issued (a wait for room in a full socket
 * counts, as it does for an application).
 *
 * A probe record is its header alone, so a sender opens as many as it
 * has probes waiting at a record's end (a filler record is 16 KiB).
 *
 * The receiver reads as data comes (no SO_RCVLOWAT mark: a probe is seen
 * when it arrives).  A sender at STOP shuts down its side and reads the
 * idle way until the peer closes (at most DRAIN_NS): closing with unread
 * echoes would reset the connection and drop the bytes still queued. */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "common/clock.h"
#include "common/engine/engines.h"
#include "common/engine/pace.h"
#include "common/engine/stream_int.h"
#include "common/engine/sysio.h"
#include "proto/selfprobe.h"

#define PEND_MAX 64       /* probes waiting for room in the socket */
#define BATCH_RECS 8      /* filler records one send may open (128 KiB) */
#define OPEN_MAX (BATCH_RECS + PEND_MAX) /* ... and probes */
#define IDLE_READ 64      /* bare headers one read takes at most */
#define OUT_MAX (PEND_MAX * XP_SELF_HDR) /* bare headers not yet sent */
#define DRAIN_NS (10 * XP_NS_PER_SEC)
#define SENDS_PER_EVENT 8
#define RECVS_PER_EVENT 8

struct self_state {
	struct xp_stream_state s; /* first: stream.c's receiver helpers read it */
	uint32_t rec_off;          /* bytes of the current record sent or read */
	uint32_t rec_len;          /* sender: its length (xp_self_len) */
	uint8_t hdr[XP_SELF_HDR];  /* ... its header (being read: so far) */
	uint8_t in[XP_SELF_HDR];   /* the idle way, received: a header in part */
	uint32_t in_got;
	uint8_t out[OUT_MAX];      /* the idle way, to send: bytes not yet taken */
	uint32_t out_len;
	uint8_t draining, in_eof;
	uint32_t seq;              /* client: probes sent */
	uint64_t next_probe;       /* client: the next one's time */
	uint64_t drain_until;
	uint32_t npend;            /* sender: probes waiting for a record */
	struct xp_self_hdr pend[PEND_MAX];
};

static struct self_state *st(struct xp_flow *f)
{
	return xp_flow_state(f);
}

static int is_client(const struct xp_flow *f)
{
	return f->w->run->role == XP_ROLE_CLIENT;
}

/* The client: an echo of its probe stamped `stamp`. */
static void answered(struct xp_flow *f, uint64_t stamp)
{
	struct xp_worker *w = f->w;
	uint64_t now = xp_now_ns();

	if (!stamp || stamp > now)
		return; /* not a stamp of this end: the server's bug */
	xp_hist_add(w->hist, now - stamp);
	if (w->self_way[0]) /* --bidir: the up (sending) or the down flows' */
		xp_hist_add(w->self_way[!f->side->sends], now - stamp);
	w->c.transactions++;
	f->trans++;
}

/* Send what the idle way holds; 0, or -1 (errno) when the socket failed. */
static int out_flush(struct xp_flow *f)
{
	struct self_state *s = st(f);
	ssize_t n;

	if (!s->out_len)
		return 0;
	n = xp_send(f->fd, s->out, s->out_len, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	s->out_len -= (uint32_t)n;
	memmove(s->out, s->out + n, s->out_len);
	return 0;
}

/* A bare header the idle way (kept for later when the socket is full;
 * dropped, and counted an error, past OUT_MAX). */
static void out_header(struct xp_flow *f, const struct xp_self_hdr *h)
{
	struct self_state *s = st(f);

	if (s->out_len + XP_SELF_HDR > OUT_MAX) {
		f->w->c.errors++;
		return;
	}
	xp_self_encode(s->out + s->out_len, h);
	s->out_len += XP_SELF_HDR;
	if (out_flush(f))
		xp_flow_fail(f, errno);
}

/* A probe header read (either way): the client's echo, or the server's
 * request to echo (as a bare header when it receives the bulk, else in
 * its next record). */
static void on_probe(struct xp_flow *f, const struct xp_self_hdr *h, int in_record)
{
	struct self_state *s = st(f);

	if (is_client(f)) {
		answered(f, h->stamp);
	} else if (in_record) {
		f->w->c.transactions++;
		out_header(f, h);
	} else if (!s->draining && s->npend < PEND_MAX) {
		f->w->c.transactions++;
		s->pend[s->npend++] = *h;
	} else {
		f->w->c.errors++;
	}
}

static int out_of_step(struct xp_flow *f)
{
	xp_flow_warn(f, "self-probe stream out of step", EPROTO);
	xp_flow_fail(f, EPROTO);
	return 1;
}

/* The idle way's bytes: bare headers.  1 when the flow is over. */
static int idle_bytes(struct xp_flow *f, const uint8_t *p, size_t n)
{
	struct self_state *s = st(f);
	struct xp_self_hdr h;

	while (n) {
		size_t k = XP_SELF_HDR - s->in_got < n ? XP_SELF_HDR - s->in_got : n;

		memcpy(s->in + s->in_got, p, k);
		s->in_got += (uint32_t)k;
		p += k;
		n -= k;
		if (s->in_got < XP_SELF_HDR)
			break;
		s->in_got = 0;
		if (xp_self_decode(s->in, &h) || h.kind != XP_SELF_PROBE)
			return out_of_step(f);
		on_probe(f, &h, 0);
		if (f->fd < 0)
			return 1;
	}
	return 0;
}

/* A sender reads the idle way.  1 when the flow is over. */
static int idle_read(struct xp_flow *f)
{
	struct self_state *s = st(f);
	uint8_t buf[IDLE_READ * XP_SELF_HDR];
	ssize_t n = xp_recv(f->fd, buf, sizeof(buf), MSG_DONTWAIT);

	if (n > 0)
		return idle_bytes(f, buf, (size_t)n);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n < 0) {
		xp_flow_fail(f, errno);
		return 1;
	}
	s->in_eof = 1;
	if (s->draining) {
		xp_flow_finish(f);
		return 1;
	}
	/* the peer is done sending; our sends tell whether it still reads */
	if (xp_flow_watch(f, f->events & ~(uint32_t)EPOLLIN)) {
		xp_flow_fail(f, errno);
		return 1;
	}
	return 0;
}

/* The record a send opens, k-th of the send: the k-th probe waiting
 * (header only), else filler. */
static uint32_t open_record(struct xp_flow *f, uint32_t k, uint8_t out[XP_SELF_HDR])
{
	struct self_state *s = st(f);
	struct xp_self_hdr h = { XP_SELF_FILL, 0, 0 };

	if (k < s->npend)
		h = s->pend[k];
	xp_self_encode(out, &h);
	return xp_self_len(h.kind);
}

/* The send's pieces from the current record on, up to `want` bytes:
 * into iov (cap entries), the records it opens into hdrs and lens (at
 * most OPEN_MAX).  Returns the entries used. */
static size_t build(struct xp_flow *f, size_t want, struct iovec *iov, size_t cap,
		    uint8_t hdrs[][XP_SELF_HDR], uint32_t *lens)
{
	struct self_state *s = st(f);
	const uint8_t *cur = s->hdr;
	uint32_t off = s->rec_off, len_cur = s->rec_len, k = 0;
	size_t pos = 0, n = 0;

	while (pos < want && n < cap) {
		size_t len;

		if (off == 0) {
			if (k == OPEN_MAX)
				break;
			len_cur = lens[k] = open_record(f, k, hdrs[k]);
			cur = hdrs[k++];
		}
		if (off < XP_SELF_HDR) {
			len = XP_SELF_HDR - off < want - pos ? XP_SELF_HDR - off : want - pos;
			iov[n++] = (struct iovec){ (void *)(cur + off), len };
		} else {
			len = len_cur - off < want - pos ? len_cur - off : want - pos;
			iov[n++] = (struct iovec){ f->w->txbuf, len };
		}
		pos += len;
		off = (uint32_t)((off + len) % len_cur);
	}
	return n;
}

/* One send of up to `want` bytes from the current record on; the state
 * moves by what the kernel took (a probe leaves the queue once its
 * record's first byte is sent: the probes open a send's first records). */
static ssize_t send_records(struct xp_flow *f, size_t want)
{
	struct self_state *s = st(f);
	uint8_t hdrs[OPEN_MAX][XP_SELF_HDR];
	uint32_t lens[OPEN_MAX], off, opened = 0, i;
	struct iovec iov[2 * OPEN_MAX + 2];
	struct msghdr mh = { .msg_iov = iov };
	size_t pos;
	ssize_t n;

	mh.msg_iovlen = build(f, want, iov, sizeof(iov) / sizeof(iov[0]), hdrs, lens);
	n = xp_sendmsg(f->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n <= 0)
		return n;
	/* replay the walk over the bytes sent */
	for (pos = 0, off = s->rec_off; pos < (size_t)n;) {
		size_t len;

		if (off == 0) {
			memcpy(s->hdr, hdrs[opened], XP_SELF_HDR);
			s->rec_len = lens[opened++];
		}
		len = s->rec_len - off < (size_t)n - pos ? s->rec_len - off : (size_t)n - pos;
		pos += len;
		off = (uint32_t)((off + len) % s->rec_len);
	}
	s->rec_off = off;
	opened = opened < s->npend ? opened : s->npend;
	for (i = opened; i < s->npend; i++)
		s->pend[i - opened] = s->pend[i];
	s->npend -= opened;
	return n;
}

static void stx_stop(struct xp_flow *f);

/* n bytes sent: 1 when that was the last of the flow's -n share. */
static int stx_sent(struct xp_flow *f, uint64_t n)
{
	struct xp_worker *w = f->w;

	f->bytes += n;
	w->c.bytes_sent += n;
	w->c.send_calls++;
	if (w->run->rate_bps)
		f->next_send += xp_pace_ns(n, w->run->rate_bps);
	if (!xp_flow_spend(f, n))
		return 0;
	stx_stop(f);
	return 1;
}

static void stx_write(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	int i;

	for (i = 0; i < SENDS_PER_EVENT; i++) {
		size_t len = (size_t)xp_flow_allow(f, w->run->req);
		ssize_t n;

		if (!xp_flow_pace(f, len))
			return;
		n = send_records(f, len);
		if (n > 0) {
			if (stx_sent(f, (uint64_t)n))
				return;
			if ((size_t)n < len)
				break;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		xp_flow_fail(f, n < 0 ? errno : EPIPE);
		return;
	}
	if (!(f->events & EPOLLOUT) &&
	    xp_flow_watch(f, EPOLLOUT | (st(f)->in_eof ? 0 : EPOLLIN)))
		xp_flow_fail(f, errno);
}

static void stx_io(struct xp_flow *f, uint32_t events)
{
	f->w->now = xp_now_ns(); /* the worker's tick reads it: the probes' schedule */
	if ((events & (EPOLLIN | EPOLLHUP | EPOLLERR)) && !st(f)->in_eof && idle_read(f))
		return;
	if (st(f)->draining || !(events & EPOLLOUT))
		return;
	stx_write(f);
}

static void stx_add(struct xp_flow *f)
{
	f->on_io = stx_io;
}

static void first_probe(struct xp_flow *f)
{
	const struct xp_run *r = f->w->run;

	/* the flows' probes spread over one interval */
	st(f)->next_probe = f->w->now + r->self_probe_ns * (f->idx + 1) / (r->flows + 1);
}

static void stx_go(struct xp_flow *f)
{
	first_probe(f);
	if (f->quota && !f->left)
		stx_stop(f);
	else if (xp_flow_watch(f, EPOLLOUT | EPOLLIN))
		xp_flow_fail(f, errno);
}

static void stx_stop(struct xp_flow *f)
{
	struct self_state *s = st(f);
	struct xp_worker *w = f->w;

	w->now = w->t_end = xp_now_ns();
	shutdown(f->fd, SHUT_WR);
	s->draining = 1;
	s->npend = 0;
	s->drain_until = w->now + DRAIN_NS;
	if (s->in_eof)
		xp_flow_finish(f);
	else if (xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

/* The bulk direction's bytes: records.  1 when the flow is over. */
static int record_bytes(struct xp_flow *f, const uint8_t *p, size_t n)
{
	struct self_state *s = st(f);
	struct xp_self_hdr h;

	while (n) {
		size_t k;

		if (s->rec_off >= XP_SELF_HDR) {
			k = XP_SELF_REC - s->rec_off < n ? XP_SELF_REC - s->rec_off : n;
			s->rec_off = (uint32_t)((s->rec_off + k) % XP_SELF_REC);
			p += k;
			n -= k;
			continue;
		}
		k = XP_SELF_HDR - s->rec_off < n ? XP_SELF_HDR - s->rec_off : n;
		memcpy(s->hdr + s->rec_off, p, k);
		s->rec_off += (uint32_t)k;
		p += k;
		n -= k;
		if (s->rec_off < XP_SELF_HDR)
			continue;
		if (xp_self_decode(s->hdr, &h))
			return out_of_step(f);
		if (h.kind == XP_SELF_PROBE) {
			s->rec_off = 0; /* a probe record is its header */
			on_probe(f, &h, 1);
		}
		if (f->fd < 0)
			return 1;
	}
	return 0;
}

static void srx_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	size_t len = xp_stream_rx_len(w);
	int i;

	(void)events;
	w->now = xp_now_ns(); /* as stx_io */
	if (out_flush(f)) {
		xp_flow_fail(f, errno);
		return;
	}
	for (i = 0; i < RECVS_PER_EVENT; i++) {
		ssize_t n = xp_recv(f->fd, w->buf, len, MSG_DONTWAIT);

		if (n > 0) {
			xp_stream_rx_count(f, (uint64_t)n);
			if (record_bytes(f, (const uint8_t *)w->buf, (size_t)n) || (size_t)n < len)
				return;
			continue;
		}
		if (n == 0) {
			w->now = w->t_end = xp_now_ns();
			xp_flow_finish(f);
		} else if (errno != EAGAIN && errno != EINTR) {
			xp_flow_fail(f, errno);
		}
		return;
	}
}

static void srx_add(struct xp_flow *f)
{
	f->on_io = srx_io;
	if (xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

/* Every few ms (the worker's tick): the client's probe when due; a
 * draining sender's deadline. */
static void self_tick(struct xp_flow *f)
{
	struct self_state *s = st(f);
	struct xp_worker *w = f->w;
	uint64_t every = w->run->self_probe_ns;
	struct xp_self_hdr h = { XP_SELF_PROBE, 0, 0 };

	if (s->draining) {
		if (w->now >= s->drain_until)
			xp_flow_finish(f);
		return;
	}
	if (!is_client(f) || !every || !s->next_probe || w->now < s->next_probe || w->stopping)
		return;
	s->next_probe = s->next_probe + every > w->now ? s->next_probe + every : w->now + every;
	h.seq = ++s->seq;
	h.stamp = xp_now_ns(); /* issued: a wait for room in the socket counts */
	w->c.self_probes_sent++;
	w->c.self_probes_down_sent += !f->side->sends;
	if (!f->side->sends)
		out_header(f, &h);
	else if (s->npend < PEND_MAX)
		s->pend[s->npend++] = h;
	else
		w->c.errors++; /* never answered: counted so */
}

static void srx_go(struct xp_flow *f)
{
	first_probe(f);
}

const struct xp_side_ops xp_stream_self_tx = {
	.state = sizeof(struct self_state), .sends = 1,
	.add = stx_add, .go = stx_go, .stop = stx_stop, .tick = self_tick,
};

/* The receiver ignores STOP: it finishes at end of stream. */
const struct xp_side_ops xp_stream_self_rx = {
	.state = sizeof(struct self_state),
	.add = srx_add, .go = srx_go, .tick = self_tick, .measure = xp_stream_rx_measure,
};
