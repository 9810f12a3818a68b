/* SPDX-License-Identifier: BSD-2-Clause */
/* TCP connect/request/response/close.  Each transaction opens a new
 * connection whose first bytes are the data hello (so the server's single
 * port can route it to this test) followed by the request, in one send.
 * The transaction is timed from connect() to the last response byte.  The
 * server closes first, right after its response, so TIME_WAIT stays on the
 * server and the client's ephemeral ports are not exhausted; the client
 * closes when it sees that end of stream and starts the next transaction. */
#include <errno.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/sockpath.h"
#include "common/engine/engines.h"
#include "common/engine/sysio.h"
#include "proto/msg.h"

enum { CRR_RUNNING = 0, CRR_RETRY = 1 };

/* A TCP_CRR flow's own state. */
struct crr_state {
	uint64_t txoff, rxoff; /* progress in the hello + request, the response */
	uint64_t t0;        /* when this transaction's connect() started */
	uint8_t phase;      /* CRR_RUNNING or CRR_RETRY */
};
static struct crr_state *cs(struct xp_flow *f)
{
	return xp_flow_state(f);
}

static void cli_connect(struct xp_flow *f);

/* A failed attempt: count it, and let the next tick retry (no hot loop
 * against a refusing server). */
static void cli_error(struct xp_flow *f, int errnum)
{
	struct xp_worker *w = f->w;

	w->c.errors++;
	xp_flow_warn(f, "TCP_CRR", errnum);
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	f->events = 0;
	cs(f)->phase = CRR_RETRY;
	if (f->stopping)
		xp_flow_finish(f);
}

/* The same for a socket that could not be set up: err says why. */
static void cli_setup_error(struct xp_flow *f, const struct xp_err *err)
{
	struct xp_worker *w = f->w;

	if (!w->errmsg[0])
		snprintf(w->errmsg, sizeof(w->errmsg), "flow %u: TCP_CRR: %.*s", f->idx,
			 (int)sizeof(w->errmsg) - 40, err->msg);
	cli_error(f, 0);
}

/* -n/-k: one more transaction of the flow's share (a retry after a
 * failed attempt takes none); 0 when none is left. */
static int cli_take(struct xp_flow *f)
{
	if (f->quota && !f->stopping) {
		if (!f->left)
			return 0;
		f->left--;
	}
	return !f->stopping;
}

static void cli_next(struct xp_flow *f)
{
	close(f->fd);
	f->fd = -1;
	f->events = 0;
	if (cli_take(f))
		cli_connect(f);
	else
		xp_flow_finish(f);
}

static void cli_wait_eof(struct xp_flow *f, uint32_t events)
{
	char b[64];
	ssize_t n;

	(void)events;
	n = xp_recv(f->fd, b, sizeof(b), MSG_DONTWAIT);
	if (n == 0)
		cli_next(f);
	else if (n < 0 && errno != EAGAIN && errno != EINTR)
		cli_next(f); /* a reset after the response ends it too */
}

static void cli_wait_rsp(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	uint64_t rsp = w->run->rsp, left = rsp - cs(f)->rxoff;
	ssize_t n;

	(void)events;
	n = xp_recv(f->fd, w->buf, left < w->buflen ? left : w->buflen, MSG_DONTWAIT);
	if (n > 0) {
		cs(f)->rxoff += (uint64_t)n;
		w->c.bytes_received += (uint64_t)n;
		if (cs(f)->rxoff < rsp)
			return;
		w->now = xp_now_ns();
		if (!w->stopping) { /* completed in the window (rr.c) */
			xp_hist_add(w->hist, w->now - cs(f)->t0);
			f->trans++;
			w->c.transactions++;
		} else {
			w->c.late_transactions++;
		}
		xp_flow_note(w, f->fd);
		if (w->run->fastopen && xp_sock_syn_data(f->fd))
			w->c.fastopen_syn_data++;
		f->on_io = cli_wait_eof;
		cli_wait_eof(f, events);
		return;
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	cli_error(f, n < 0 ? errno : ECONNRESET);
}

/* Send hello + request; the offset runs over both. */
static void cli_send(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	uint8_t hello[XP_DATA_HELLO_LEN];
	uint64_t total = XP_DATA_HELLO_LEN + w->run->req;
	struct iovec iov[2];
	struct msghdr mh = { .msg_iov = iov };
	ssize_t n;

	(void)events;
	xp_data_hello_encode(hello, w->run->cookie, f->idx);
	while (cs(f)->txoff < total) {
		uint64_t off = cs(f)->txoff;

		mh.msg_iovlen = 0;
		if (off < XP_DATA_HELLO_LEN) {
			iov[mh.msg_iovlen].iov_base = hello + off;
			iov[mh.msg_iovlen++].iov_len = XP_DATA_HELLO_LEN - off;
			off = XP_DATA_HELLO_LEN;
		}
		iov[mh.msg_iovlen].iov_base = w->txbuf;
		iov[mh.msg_iovlen++].iov_len = total - off;
		n = sendmsg(f->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			cs(f)->txoff += (uint64_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		/* EINPROGRESS: a Fast Open SYN without data (no cookie yet) */
		if (n < 0 && (errno == EAGAIN || errno == EINPROGRESS)) {
			f->on_io = cli_send;
			if (xp_flow_watch(f, EPOLLOUT))
				cli_error(f, errno);
			return;
		}
		cli_error(f, n < 0 ? errno : EPIPE);
		return;
	}
	w->c.bytes_sent += w->run->req;
	f->on_io = cli_wait_rsp;
	if (xp_flow_watch(f, EPOLLIN))
		cli_error(f, errno);
}

static void cli_connected(struct xp_flow *f, uint32_t events)
{
	int soerr = 0;
	socklen_t sl = sizeof(soerr);

	(void)events;
	if (getsockopt(f->fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) || soerr) {
		cli_error(f, soerr ? soerr : errno);
		return;
	}
	cli_send(f, 0);
}

/* With --fastopen (TCP_FASTOPEN_CONNECT) and the server's cookie at
 * hand, connect() returns at once and the SYN leaves with the first send,
 * carrying the hello and the request. */
static void cli_connect(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	struct xp_addr a = w->run->peer;
	struct xp_err err;

	cs(f)->t0 = w->now = xp_now_ns(); /* not the previous close: time from connect() */
	cs(f)->txoff = cs(f)->rxoff = 0;
	f->events = 0;
	cs(f)->phase = CRR_RUNNING;
	f->fd = xp_sock_client(a.ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK, &w->run->so, 0,
			       &err);
	if (f->fd < 0 ||
	    (w->run->so.flowlabel && xp_sock_flowlabel(f->fd, &a, w->run->so.flowlabel, &err))) {
		cli_setup_error(f, &err);
		return;
	}
	if (connect(f->fd, (const struct sockaddr *)&a.ss, a.len) == 0) {
		cli_send(f, 0);
		return;
	}
	if (errno != EINPROGRESS) {
		cli_error(f, errno);
		return;
	}
	f->on_io = cli_connected;
	if (xp_flow_watch(f, EPOLLOUT))
		cli_error(f, errno);
}

static void cli_add(struct xp_flow *f)
{
	cs(f)->phase = CRR_RETRY; /* nothing open until GO */
}

static void cli_go(struct xp_flow *f)
{
	if (cli_take(f))
		cli_connect(f);
	else
		xp_flow_finish(f);
}

static void cli_stop(struct xp_flow *f)
{
	f->stopping = 1;
	if (cs(f)->phase == CRR_RETRY)
		xp_flow_finish(f);
}

static void cli_tick(struct xp_flow *f)
{
	uint64_t limit = f->w->run->connect_timeout_ns;

	if (f->on_io == cli_connected && limit && xp_now_ns() - cs(f)->t0 > limit)
		cli_error(f, ETIMEDOUT); /* --connect-timeout: count it, retry */
	if (cs(f)->phase == CRR_RETRY && f->w->going && !f->stopping)
		cli_connect(f);
}

/* Server: read the request, send the response, close. */
static void srv_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	ssize_t n;

	(void)events;
	while (cs(f)->rxoff < w->run->req) {
		n = xp_recv(f->fd, w->buf, w->buflen, MSG_DONTWAIT);
		if (n > 0) {
			cs(f)->rxoff += (uint64_t)n;
			w->c.bytes_received += (uint64_t)n;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		xp_flow_fail(f, n < 0 ? errno : ECONNRESET);
		return;
	}
	while (cs(f)->txoff < w->run->rsp) {
		uint64_t left = w->run->rsp - cs(f)->txoff;

		n = xp_send(f->fd, w->txbuf, left < w->txlen ? left : w->txlen,
			 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			cs(f)->txoff += (uint64_t)n;
			w->c.bytes_sent += (uint64_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			if (xp_flow_watch(f, EPOLLOUT))
				xp_flow_fail(f, errno);
			return;
		}
		xp_flow_fail(f, n < 0 ? errno : EPIPE);
		return;
	}
	w->c.transactions++;
	xp_flow_finish(f);
}

static void srv_add(struct xp_flow *f)
{
	if (f->w->run->fastopen && xp_sock_syn_data(f->fd))
		f->w->c.fastopen_syn_data++;
	f->on_io = srv_io;
	if (xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

const struct xp_side_ops xp_crr_client = {
	.state = sizeof(struct crr_state), .sends = 1,
	.add = cli_add, .go = cli_go, .stop = cli_stop, .tick = cli_tick,
};

const struct xp_side_ops xp_crr_server = {
	.state = sizeof(struct crr_state),
	.add = srv_add,
};
