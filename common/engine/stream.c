/* SPDX-License-Identifier: BSD-2-Clause */
/* TCP bulk transfer.  The sender writes -m bytes per send() until the
 * socket is full and waits for EPOLLOUT; at STOP it shuts down its write
 * side, so the receiver, which reads until end of stream, counts every
 * byte the sender's send() calls accepted. */
#include <errno.h>
#include <time.h>
#include <linux/errqueue.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/engine/engines.h"
#include "common/engine/pace.h"
#include "common/engine/rcvlowat.h"
#include "common/engine/stream_int.h"
#include "common/engine/sysio.h"

/* A sender's turn: up to 64 KiB, in at least 8 and at most 1024 sends
 * (8 of 128 KiB; 1024 of -m 64 or less).  With 8 sends a turn a small
 * -m paid one epoll_wait per 8 sends: 194,182 sendto and 24,273
 * epoll_pwait (strace, 2 s of -m 64); now 42,290 and 41, and -m 1 to 1K
 * move 2-4% more over loopback. */
#define SENDS_PER_EVENT 8
#define SEND_BYTES_PER_EVENT (64u << 10)
#define SENDS_PER_EVENT_MAX 1024
#define RECVS_PER_EVENT 8

static struct xp_stream_state *ss(struct xp_flow *f)
{
	return xp_flow_state(f);
}

/* MSG_ZEROCOPY completions arrive on the error queue as ranges of send
 * numbers; SO_EE_CODE_ZEROCOPY_COPIED says the kernel copied after all
 * (always so over loopback and veth). */
static void zc_reap(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	char ctl[128];
	struct msghdr mh = { .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c;

	while (recvmsg(f->fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) >= 0) {
		for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
			struct sock_extended_err ee;
			uint64_t n;

			if (c->cmsg_type != IP_RECVERR && c->cmsg_type != IPV6_RECVERR)
				continue;
			memcpy(&ee, CMSG_DATA(c), sizeof(ee));
			if (ee.ee_origin != SO_EE_ORIGIN_ZEROCOPY)
				continue;
			n = (uint64_t)(ee.ee_data - ee.ee_info) + 1;
			w->c.zc_completions += n;
			if (ee.ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
				w->c.zc_copied += n;
		}
		mh.msg_controllen = sizeof(ctl);
	}
}

static void tx_stop(struct xp_flow *f);

/* 1 when that was the last of the flow's -n share: it has finished then,
 * as at STOP. */
static int tx_sent(struct xp_flow *f, uint64_t n)
{
	struct xp_worker *w = f->w;

	f->bytes += n;
	w->c.bytes_sent += n;
	w->c.send_calls++;
	if (w->run->zerocopy)
		ss(f)->zc_next++;
	if (w->run->rate_bps)
		f->next_send += xp_pace_ns(n, w->run->rate_bps);
	if (!xp_flow_spend(f, n))
		return 0;
	tx_stop(f);
	return 1;
}

/* --sendfile: the worker's senders share one memory file holding a send
 * (a page-cache file, as a file server's would be; sendfile(2) also takes
 * /dev/zero on recent kernels, but not on older ones). */
static int sendfile_file(struct xp_worker *w)
{
	size_t done = 0;
	int fd;

	if (w->sf_fd >= 0)
		return 0;
	fd = memfd_create("xperf-sendfile", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	while (done < w->run->req) {
		ssize_t n = write(fd, w->txbuf, w->run->req - done);

		if (n <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	w->sf_fd = fd;
	return 0;
}

/* One send of len bytes, by send(2) or sendfile(2).  The socket does not
 * block, so sendfile returns what fitted, or EAGAIN, as send does. */
static ssize_t tx_send(struct xp_flow *f, size_t len, int flags)
{
	struct xp_worker *w = f->w;
	off_t off = 0;

	if (w->run->sendfile)
		return sendfile(f->fd, w->sf_fd, &off, len);
	return xp_send(f->fd, w->txbuf, len, flags);
}

static int sends_per_event(uint64_t len)
{
	uint64_t n = len ? SEND_BYTES_PER_EVENT / len : SENDS_PER_EVENT_MAX;

	if (n < SENDS_PER_EVENT)
		return SENDS_PER_EVENT;
	return n > SENDS_PER_EVENT_MAX ? SENDS_PER_EVENT_MAX : (int)n;
}

static void tx_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	int flags = MSG_NOSIGNAL | MSG_DONTWAIT | (w->run->zerocopy ? MSG_ZEROCOPY : 0);
	int i, sends = sends_per_event(w->run->req);

	if (w->run->zerocopy && (events & EPOLLERR))
		zc_reap(f);
	for (i = 0; i < sends; i++) {
		size_t len = (size_t)xp_flow_allow(f, w->run->req);
		ssize_t n;

		if (!xp_flow_pace(f, len))
			return;
		n = tx_send(f, len, flags);
		if (n > 0) {
			if (tx_sent(f, (uint64_t)n))
				return;
			if ((size_t)n < len)
				break; /* socket full: wait for EPOLLOUT */
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		if (n < 0 && errno == ENOBUFS && w->run->zerocopy) {
			zc_reap(f); /* too much pinned: wait for completions */
			break;
		}
		xp_flow_fail(f, n < 0 ? errno : EPIPE);
		return;
	}
	if (!(f->events & EPOLLOUT) && xp_flow_watch(f, EPOLLOUT))
		xp_flow_fail(f, errno);
}

static void tx_add(struct xp_flow *f)
{
	int one = 1;

	f->on_io = tx_io;
	if (f->w->run->zerocopy &&
	    setsockopt(f->fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)))
		xp_flow_fail(f, errno);
	else if (f->w->run->sendfile && sendfile_file(f->w))
		xp_flow_fail(f, errno);
}

static void tx_go(struct xp_flow *f)
{
	if (f->quota && !f->left) /* -n: a share of nothing */
		tx_stop(f);
	else if (xp_flow_watch(f, EPOLLOUT))
		xp_flow_fail(f, errno);
}

static void tx_stop(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	uint64_t until;

	w->now = xp_now_ns(); /* also when -n ends the flow between commands */
	until = w->now + 200 * XP_NS_PER_MS;
	shutdown(f->fd, SHUT_WR);
	/* collect the completions still in flight, briefly */
	while (w->run->zerocopy && ss(f)->zc_next > 0 && xp_now_ns() < until) {
		uint64_t before = w->c.zc_completions;

		zc_reap(f);
		if (w->c.zc_completions == before)
			usleep(1000);
		if (w->c.zc_completions >= ss(f)->zc_next)
			break;
	}
	w->t_end = w->now;
	xp_flow_finish(f);
}

/* Bytes per read: --read-size, else the whole buffer (1 MiB or more). */
size_t xp_stream_rx_len(const struct xp_worker *w)
{
	uint64_t want = w->run->read_size;

	return want && want < w->buflen ? (size_t)want : w->buflen;
}

/* Bytes already readable when the warm-up (--omit) ends crossed the path
 * in it: they are the warm-up's, though read after.  Counted so, a
 * receiver whose queue held a backlog at the boundary (a reader waiting
 * for its SO_RCVLOWAT mark, a burst a retransmission made readable) no
 * longer reads faster than the link: 104 Mbit/s through a 100 Mbit/s,
 * 100 ms path (2 s after -O 1) before. */
void xp_stream_rx_measure(struct xp_flow *f)
{
	int n = 0;

	if (ioctl(f->fd, SIOCINQ, &n) == 0 && n > 0)
		ss(f)->early = (uint64_t)n;
}

void xp_stream_rx_count(struct xp_flow *f, uint64_t n)
{
	struct xp_stream_state *s = ss(f);
	struct xp_worker *w = f->w;

	if (s->early) {
		uint64_t early = s->early < n ? s->early : n;

		s->early -= early;
		f->omitted += early;
		w->warm.bytes_received += early;
		n -= early;
	}
	f->bytes += n;
	w->c.bytes_received += n;
	w->c.recv_calls++;
}

static void rx_io(struct xp_flow *f, uint32_t events)
{
	struct xp_worker *w = f->w;
	size_t len = xp_stream_rx_len(w);
	int i;

	(void)events;
	xp_lowat_step(f, &ss(f)->lowat);
	for (i = 0; i < RECVS_PER_EVENT; i++) {
		ssize_t n = xp_recv(f->fd, w->buf, len, MSG_DONTWAIT);

		if (n > 0) {
			xp_stream_rx_count(f, (uint64_t)n);
			if ((size_t)n < len)
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
	xp_lowat_fixed(f);
	if (xp_flow_watch(f, EPOLLIN))
		xp_flow_fail(f, errno);
}

/* Direct mode (common/engine/direct.c), the socket blocking, for a lone
 * flow whose window is bounded (xp_direct_ok): one whole send of -m
 * bytes, as the plain loop makes it; a kick interrupts it (EINTR, or a
 * part sent, which counts). */
static void tx_direct(struct xp_flow *f)
{
	size_t len = (size_t)xp_flow_allow(f, f->w->run->req);
	ssize_t n = tx_send(f, len, MSG_NOSIGNAL);

	if (n > 0)
		tx_sent(f, (uint64_t)n);
	else if (n == 0 || (errno != EINTR && errno != EAGAIN))
		xp_flow_fail(f, n == 0 ? EPIPE : errno);
}

/* One blocking read: it returns once data has arrived, at end of stream,
 * or when a kick interrupts it. */
static void rx_direct(struct xp_flow *f)
{
	struct xp_worker *w = f->w;
	ssize_t n;

	xp_lowat_step(f, &ss(f)->lowat);
	n = xp_recv(f->fd, w->buf, xp_stream_rx_len(w), 0);
	if (n > 0) {
		xp_stream_rx_count(f, (uint64_t)n);
	} else if (n == 0) {
		w->now = w->t_end = xp_now_ns();
		xp_flow_finish(f);
	} else if (errno != EINTR && errno != EAGAIN) {
		xp_flow_fail(f, errno);
	}
}

const struct xp_side_ops xp_stream_tx = {
	.state = sizeof(struct xp_stream_state), .sends = 1,
	.add = tx_add, .go = tx_go, .stop = tx_stop, .direct = tx_direct,
};

/* The receiver ignores STOP: it finishes at end of stream. */
const struct xp_side_ops xp_stream_rx = {
	.state = sizeof(struct xp_stream_state),
	.add = rx_add, .measure = xp_stream_rx_measure, .direct = rx_direct,
};
