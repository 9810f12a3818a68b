/* SPDX-License-Identifier: BSD-2-Clause */
/* New TCP connections.  Each waits in the pending table until its first
 * bytes say what it is: a data hello ("XPDT" + cookie + flow index, or
 * "XPDP" with pad bytes after it) is routed to its test's worker; a control connection ("XPCT") goes to
 * admit.c until it is a test.  What a pending connection may cost is
 * bounded: a deadline of its own (--header-timeout, and never more than
 * --idle-timeout) for its whole first exchange, a number per source
 * address (--max-pending-per-addr), and a table of at most a quarter of
 * the descriptors, where a newcomer evicts the oldest entry when it is
 * full.  At the descriptor limit one spare descriptor turns connections
 * away (accepted and closed at once) rather than letting the loop spin on
 * EMFILE; without one the listener pauses for a second. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <linux/sockios.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/log.h"
#include "proto/be.h"
#include "proto/iperf3.h"
#include "server/iperf3/server.h"
#include "server/netperf/peer.h"
#include "server/server_int.h"

#define PENDING_EVENTS (EPOLLIN | EPOLLRDHUP | EPOLLET)

/* A data connection's hello.  1: handled (routed or closed); 0: wait. */
static int data_hello(struct xp_server *s, struct xp_pending *p, ssize_t n)
{
	uint8_t hello[XP_DATA_HELLO_LEN];
	uint64_t cookie;
	uint32_t idx;
	int fd = p->fd;
	char peer[sizeof(p->peer)];

	if (n < XP_DATA_HELLO_LEN)
		return 0;
	memcpy(peer, p->peer, sizeof(peer));
	xp_srv_unpend(s, p);
	if (recv(fd, hello, sizeof(hello), 0) != (ssize_t)sizeof(hello) ||
	    xp_data_hello_decode(hello, sizeof(hello), &cookie, &idx) ||
	    xp_srv_route(s, fd, SOCK_STREAM, cookie, idx, peer))
		close(fd);
	return 1;
}

/* Read and discard n bytes that SIOCINQ showed queued.  0: all gone. */
static int skip_bytes(int fd, size_t n)
{
	uint8_t junk[4096];

	while (n) {
		ssize_t r = recv(fd, junk, n < sizeof(junk) ? n : sizeof(junk), 0);

		if (r <= 0)
			return -1;
		n -= (size_t)r;
	}
	return 0;
}

/* A padded data hello (proto/msg.h): routed once its head and all its pad
 * bytes are in the socket, the pad read and dropped.  1: handled (routed
 * or closed); 0: wait. */
static int padded_hello(struct xp_server *s, struct xp_pending *p, const uint8_t *b,
			ssize_t n, int hup)
{
	uint64_t cookie;
	uint32_t idx, pad;
	int fd = p->fd, queued = 0;
	char peer[sizeof(p->peer)];

	if (n < XP_DATA_PAD_HEAD_LEN && !hup)
		return 0;
	if (n < XP_DATA_PAD_HEAD_LEN ||
	    xp_data_pad_hello_decode(b, (size_t)n, &cookie, &idx, &pad)) {
		xp_ratelog(s->cfg.log, &s->rl[XP_RL_NOISE], "%s: bad padded data hello "
			   "(%zd bytes), closed", p->peer, n);
		xp_srv_drop(s, p);
		return 1;
	}
	if (ioctl(fd, SIOCINQ, &queued) || (uint64_t)queued < XP_DATA_PAD_HEAD_LEN + (uint64_t)pad) {
		if (!hup)
			return 0;
		xp_ratelog(s->cfg.log, &s->rl[XP_RL_NOISE], "%s: connection closed by peer "
			   "inside a padded data hello", p->peer);
		xp_srv_drop(s, p);
		return 1;
	}
	memcpy(peer, p->peer, sizeof(peer));
	xp_srv_unpend(s, p);
	if (skip_bytes(fd, XP_DATA_PAD_HEAD_LEN + (size_t)pad) ||
	    xp_srv_route(s, fd, SOCK_STREAM, cookie, idx, peer))
		close(fd);
	return 1;
}

/* A stock iperf3 client (its 37-byte cookie first)?  1: p is gone (taken
 * or refused); 0: maybe, wait; -1: not iperf3's.  With --auth-file none
 * is served: iperf3 cannot authenticate. */
static int iperf3(struct xp_server *s, struct xp_pending *p, const uint8_t *b, ssize_t n)
{
	char peer[sizeof(p->peer)];
	int fd = p->fd, c;

	if (s->cfg.auth) {
		c = xp_i3_cookie_check(b, (size_t)n);
		if (c == 1) {
			xp_ratelog(s->cfg.log, &s->rl[XP_RL_AUTH], "%s: iperf3 client refused: "
				   "this server requires authentication (--auth-file)", p->peer);
			xp_srv_drop(s, p);
		}
		return c;
	}
	memcpy(peer, p->peer, sizeof(peer));
	c = xp_i3srv_classify(s->i3, fd, b, (size_t)n, peer);
	if (c == 1)
		xp_srv_unpend(s, p); /* the iperf3 server's now, or closed */
	return c;
}

/* What the first bytes say.  1: p is gone (handed over or closed); 0: wait. */
static int classify(struct xp_server *s, struct xp_pending *p, int hup)
{
	uint8_t b[XP_I3_COOKIE_LEN]; /* the longest first message: an iperf3 cookie */
	ssize_t n = recv(p->fd, b, sizeof(b), MSG_PEEK);
	int i3;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		xp_srv_drop(s, p);
		return 1;
	}
	if (n >= 4 && xp_get32(b) == XP_MSG_MAGIC) {
		p->state = XP_P_CTL;
		return xp_srv_ctl_step(s, p, hup);
	}
	if (xp_netperf_request(b, (size_t)n)) {
		xp_ratelog(s->cfg.log, &s->rl[XP_RL_NOISE], "%s: netperf's control protocol "
			   "(request %u): this is an xperf server, answered 'protocol not "
			   "supported' (run netserver there, or xperf's netperf mode against this "
			   "server)", p->peer, xp_netperf_refuse(p->fd, b));
		xp_srv_drop(s, p);
		return 1;
	}
	i3 = iperf3(s, p, b, n);
	if (i3 >= 0)
		return i3;
	if (n >= 4 && xp_get32(b) == XP_DATA_PAD_MAGIC)
		return padded_hello(s, p, b, n, hup);
	if (n >= 4 && xp_get32(b) != XP_DATA_MAGIC) {
		xp_ratelog(s->cfg.log, &s->rl[XP_RL_NOISE], "%s: not an xperf peer (first "
			   "bytes 0x%08x), closed", p->peer, xp_get32(b));
		xp_srv_drop(s, p);
		return 1;
	}
	if (n < XP_DATA_HELLO_LEN && hup) {
		xp_ratelog(s->cfg.log, &s->rl[XP_RL_NOISE], "%s: connection closed by peer "
			   "after %zd bytes of a data hello", p->peer, n);
		xp_srv_drop(s, p);
		return 1;
	}
	return data_hello(s, p, n);
}

static uint64_t deadline_ns(const struct xp_server *s)
{
	uint64_t t = s->cfg.header_timeout_ns;

	if (s->cfg.idle_timeout_ns && s->cfg.idle_timeout_ns < t)
		t = s->cfg.idle_timeout_ns;
	return t;
}

/* The table is full: the oldest entry goes (a connection that has said
 * nothing for longest; a real client's first message comes at once). */
static void evict_oldest(struct xp_server *s)
{
	uint32_t i, old = 0;

	for (i = 1; i < s->npend; i++)
		if (s->pend[i].born < s->pend[old].born)
			old = i;
	xp_ratelog(s->cfg.log, &s->rl[XP_RL_NOISE], "%s: %u connections still to send "
		   "their first message: the oldest closed", s->pend[old].peer, s->npend);
	xp_srv_drop(s, &s->pend[old]);
}

/* The new entry, or NULL (fd closed). */
static struct xp_pending *add_pending(struct xp_server *s, int fd, const struct xp_addr *a,
				      const char *peer)
{
	uint32_t per = s->cfg.max_pending_per_addr;
	struct xp_pending *p;

	if (per && xp_srv_pending_from(s, a) >= per) {
		xp_ratelog(s->cfg.log, &s->rl[XP_RL_NOISE], "%s: %u connections from this "
			   "address still to send their first message (max %u per address, "
			   "--max-pending-per-addr), closed", peer, per, per);
		close(fd);
		return NULL;
	}
	if (s->npend >= s->maxpend)
		evict_oldest(s);
	p = &s->pend[s->npend];
	memset(p, 0, sizeof(*p));
	p->fd = fd;
	p->sock = -1;
	p->state = XP_P_NEW;
	p->addr = *a;
	p->born = xp_now_ns();
	p->deadline = p->born + deadline_ns(s);
	snprintf(p->peer, sizeof(p->peer), "%s", peer);
	if (xp_srv_watch(s, fd, EV_PENDING, PENDING_EVENTS)) {
		close(fd);
		return NULL;
	}
	s->npend++;
	return p;
}

/* A MUX channel: a control connection whose client has authenticated (on
 * the MUX connection, if the server has a key); its SETUP is next. */
void xp_srv_on_adopt(struct xp_server *s)
{
	struct xp_adopt a;
	struct xp_pending *p;

	if (read(s->adopt[0], &a, sizeof(a)) != (ssize_t)sizeof(a))
		return;
	p = add_pending(s, a.fd, &a.addr, a.peer);
	if (!p) {
		close(a.sock);
		return;
	}
	p->sock = a.sock;
	p->chan = a.chan;
	p->state = XP_P_SETUP;
	xp_srv_ctl_step(s, p, 0);
}

static void pause_listener(struct xp_server *s, uint64_t ns)
{
	if (s->listening && epoll_ctl(s->epfd, EPOLL_CTL_DEL, s->lfd, NULL) == 0)
		s->listening = 0;
	s->resume_ns = xp_now_ns() + ns;
}

/* EMFILE or ENFILE: turn the next connection away with the spare
 * descriptor; without one, stop accepting for a second (a test's own data
 * listener stops for good: its client falls back to port N).  0: go on
 * accepting; -1: stop for now. */
static int out_of_fds(struct xp_server *s, int lfd, int e)
{
	int fd;

	xp_ratelog(s->cfg.log, &s->rl[XP_RL_NOISE], "accept: %s: connections turned "
		   "away (%llu so far; raise ulimit -n?)", strerror(e),
		   (unsigned long long)s->refused_fd + 1);
	if (s->spare_fd < 0 && lfd != s->lfd) {
		epoll_ctl(s->epfd, EPOLL_CTL_DEL, lfd, NULL);
		return -1;
	}
	if (s->spare_fd < 0) {
		pause_listener(s, XP_NS_PER_SEC);
		return -1;
	}
	close(s->spare_fd);
	fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		s->refused_fd++;
	}
	s->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || s->spare_fd < 0) {
		pause_listener(s, XP_NS_PER_SEC);
		return -1;
	}
	return 0;
}

void xp_srv_on_accept(struct xp_server *s, int lfd)
{
	int i;

	for (i = 0; i < 256; i++) { /* then let the other events in */
		struct xp_addr peer = { .len = sizeof(peer.ss) };
		struct xp_pending *p;
		char ps[80];
		int fd = accept4(lfd, (struct sockaddr *)&peer.ss, &peer.len,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0 && (errno == EMFILE || errno == ENFILE)) {
			if (out_of_fds(s, lfd, errno))
				return;
			continue;
		}
		if (fd < 0)
			return;
		xp_addr_str(&peer, ps, sizeof(ps));
		p = add_pending(s, fd, &peer, ps);
		if (p)
			classify(s, p, 0);
	}
}

void xp_srv_on_pending(struct xp_server *s, int fd, uint32_t events)
{
	uint32_t i;
	int hup = (events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0;

	for (i = 0; i < s->npend; i++) {
		struct xp_pending *p = &s->pend[i];

		if (p->fd != fd)
			continue;
		if (p->state == XP_P_NEW)
			classify(s, p, hup);
		else
			xp_srv_ctl_step(s, p, hup);
		return;
	}
}

static void expire(struct xp_server *s, uint64_t now)
{
	uint32_t i = 0;

	while (i < s->npend) {
		struct xp_pending *p = &s->pend[i];

		if (now < p->deadline) {
			i++;
			continue;
		}
		xp_ratelog(s->cfg.log, &s->rl[XP_RL_NOISE], "%s: no answer within %.1f s "
			   "(%s), closed", p->peer, (double)deadline_ns(s) / XP_NS_PER_SEC,
			   p->state == XP_P_NEW ? "first bytes" : p->state == XP_P_CTL
			   ? "first control message" : p->state == XP_P_AUTH
			   ? "authentication" : "SETUP after authentication");
		xp_srv_drop(s, p);
	}
}

void xp_srv_tick(struct xp_server *s)
{
	uint64_t now = xp_now_ns();
	int i;

	expire(s, now);
	if (!s->listening && now >= s->resume_ns &&
	    xp_srv_watch(s, s->lfd, EV_LISTEN, EPOLLIN) == 0)
		s->listening = 1;
	if (s->spare_fd < 0)
		s->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	for (i = 0; i < XP_RL_N; i++)
		xp_ratelog_flush(s->cfg.log, &s->rl[i]);
}
