/* TCP bulk transfer.  The sender writes -m bytes per send() until the
 * socket is full and waits for EPOLLOUT; at STOP it shuts down its write
 * side, so the receiver, which reads until end of stream, counts every
 * byte the sender's send() calls accepted. */
#include <errno.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "common/engines.h"

#define SENDS_PER_EVENT 8
#define RECVS_PER_EVENT 8

static void tx_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	size_t len = w->run->req;
	int i;

	(void)events;
	for (i = 0; i < SENDS_PER_EVENT; i++) {
		ssize_t n = send(f->fd, w->txbuf, len, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n > 0) {
			f->bytes += (uint64_t)n;
			w->c.bytes_sent += (uint64_t)n;
			if ((size_t)n < len)
				return; /* socket full: wait for EPOLLOUT */
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		xp_flow_fail(f, n < 0 ? errno : EPIPE);
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
	shutdown(f->fd, SHUT_WR);
	f->w->t_end = f->w->now;
	xp_flow_finish(f);
}

static void rx_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	int i;

	(void)events;
	for (i = 0; i < RECVS_PER_EVENT; i++) {
		ssize_t n = recv(f->fd, w->buf, w->buflen, MSG_DONTWAIT);

		if (n > 0) {
			f->bytes += (uint64_t)n;
			w->c.bytes_recv += (uint64_t)n;
			if ((size_t)n < w->buflen)
				return; /* drained: level-triggered epoll says when */
			continue;
		}
		if (n == 0) {
			w->now = w->t_end = xp_now_ns();
			xp_flow_finish(f);
			return;
		}
		if (errno == EAGAIN || errno == EINTR)
			return;
		xp_flow_fail(f, errno);
		return;
	}
}

static void rx_add(struct xp_flow *f)
{
	f->on_io = rx_io;
	if (xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

const struct xp_side_ops xp_stream_tx = {
	.add = tx_add, .go = tx_go, .stop = tx_stop,
};

/* The receiver ignores STOP: it finishes at end of stream. */
const struct xp_side_ops xp_stream_rx = {
	.add = rx_add,
};
