/* SPDX-License-Identifier: BSD-2-Clause */
/* The accept loop.  One thread owns the listening sockets and the registry
 * of sessions.  A new TCP connection is classified by its first bytes
 * (peeked, so a control session gets its stream untouched): "XPCT" starts a
 * control session in a thread of its own; "XPDT" + cookie + flow index is a
 * data connection, routed to the worker of that test (index modulo
 * threads) through the worker's mailbox.  UDP flows start with a hello
 * datagram on the listening UDP socket; the loop answers it from a new
 * socket connected back to the client and bound to the same port
 * (SO_REUSEPORT), which then receives that flow's datagrams. */
#include "server/server.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/ctl.h"
#include "common/log.h"
#include "common/sock.h"
#include "common/sockpath.h"
#include "common/tests.h"
#include "proto/be.h"
#include "proto/iperf3.h"
#include "server/iperf3_server.h"
#include "server/netperf_peer.h"
#include "server/session.h"

#define MAX_PENDING 1024
#define HELLO_TIMEOUT_NS (10 * XP_NS_PER_SEC)

enum ev_kind { EV_LISTEN = 1, EV_UDP4, EV_UDP6, EV_STOP, EV_DONE, EV_SIG, EV_PENDING };

struct pending {
	int fd;
	uint64_t deadline;
	char peer[80];
};

struct xp_server {
	struct xp_server_cfg cfg;
	int lfd, ufd[2], epfd, stopfd, done[2];
	uint16_t port;
	struct xp_session **sess;
	uint32_t nsess;
	struct pending pend[MAX_PENDING];
	uint32_t npend;
	int quit, status;
	struct xp_i3srv *i3; /* stock iperf3 clients (server/iperf3_server.h) */
};

static uint64_t ev_data(enum ev_kind k, int fd)
{
	return (uint64_t)k << 32 | (uint32_t)fd;
}

static int watch(struct xp_server *s, int fd, enum ev_kind k, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.u64 = ev_data(k, fd) };

	return epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev);
}

static int set_pktinfo(int fd, int family)
{
	int one = 1;

	if (family == AF_INET6)
		return setsockopt(fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, &one, sizeof(one));
	return setsockopt(fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one));
}

/* UDP listeners: one per family, on the TCP port's number. */
static int open_udp(struct xp_server *s, const struct xp_addr *tcp, struct xp_err *err)
{
	struct xp_addr a;
	int fams[2] = { AF_INET, AF_INET6 }, i, opened = 0;

	for (i = 0; i < 2; i++) {
		s->ufd[i] = -1;
		if (s->cfg.bind && tcp->ss.ss_family != fams[i])
			continue;
		if (s->cfg.family != AF_UNSPEC && s->cfg.family != fams[i])
			continue;
		if (s->cfg.bind)
			a = *tcp;
		else if (xp_resolve(NULL, s->port, fams[i], &a, err))
			continue;
		s->ufd[i] = xp_bind_udp(&a, err);
		if (s->ufd[i] < 0)
			continue;
		xp_set_nonblock(s->ufd[i], 1);
		set_pktinfo(s->ufd[i], fams[i]);
		watch(s, s->ufd[i], i ? EV_UDP6 : EV_UDP4, EPOLLIN);
		opened++;
	}
	return opened ? 0 : -1;
}

/* An MPTCP listener where the kernel has MPTCP, so that a client's MPTCP
 * connections are MPTCP end to end; it takes plain TCP clients too, and
 * accept() hands those over as plain TCP sockets.  Else a TCP listener. */
static int listen_on(struct xp_server *s, const struct xp_addr *a, struct xp_err *err)
{
	int fd = -1;

	if (xp_mptcp_check("server", NULL) == 0)
		fd = xp_listen_stream(a, 1024, IPPROTO_MPTCP, err);
	s->cfg.listen_mptcp = fd >= 0;
	return fd >= 0 ? fd : xp_listen_tcp(a, 1024, err);
}

/* TCP Fast Open on the listener, for TCP_CRR --fastopen: a client without
 * the option never asks for a cookie, so nothing changes for it.  Whether
 * the kernel lets servers use it (net.ipv4.tcp_fastopen bit 2) is checked
 * when a test asks. */
static void listen_fastopen(struct xp_server *s)
{
	int qlen = 1024;

	s->cfg.listen_fastopen =
		setsockopt(s->lfd, IPPROTO_TCP, TCP_FASTOPEN, &qlen, sizeof(qlen)) == 0;
}

static int open_tcp(struct xp_server *s, struct xp_addr *a, struct xp_err *err)
{
	const char *host = s->cfg.bind;
	int fam = s->cfg.family;

	/* all addresses: one dual-stack IPv6 socket where IPv6 exists */
	if (!host && fam == AF_UNSPEC)
		fam = AF_INET6;
	s->lfd = -1;
	if (xp_resolve(host, s->cfg.port, fam, a, err) == 0)
		s->lfd = listen_on(s, a, err);
	if (s->lfd < 0 && !host && s->cfg.family == AF_UNSPEC) {
		/* no IPv6 on this host: IPv4 only */
		if (xp_resolve(NULL, s->cfg.port, AF_INET, a, err))
			return -1;
		s->lfd = listen_on(s, a, err);
	}
	if (s->lfd < 0)
		return -1;
	listen_fastopen(s);
	a->len = sizeof(a->ss);
	getsockname(s->lfd, (struct sockaddr *)&a->ss, &a->len);
	s->port = xp_addr_port(a);
	xp_set_nonblock(s->lfd, 1);
	return watch(s, s->lfd, EV_LISTEN, EPOLLIN);
}

struct xp_server *xp_server_open(const struct xp_server_cfg *cfg, struct xp_err *err)
{
	struct xp_server *s = calloc(1, sizeof(*s));
	struct xp_addr a;

	if (!s) {
		xp_err_set(err, "server: out of memory");
		return NULL;
	}
	s->cfg = *cfg;
	s->i3 = xp_i3srv_new(&s->cfg);
	s->lfd = s->ufd[0] = s->ufd[1] = s->stopfd = s->done[0] = s->done[1] = -1;
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	s->stopfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (!s->i3 || s->epfd < 0 || s->stopfd < 0 || pipe2(s->done, O_CLOEXEC)) {
		xp_err_sys(err, errno, "server: epoll/eventfd/pipe");
		goto fail;
	}
	watch(s, s->stopfd, EV_STOP, EPOLLIN);
	watch(s, s->done[0], EV_DONE, EPOLLIN);
	if (cfg->sigfd >= 0)
		watch(s, cfg->sigfd, EV_SIG, EPOLLIN);
	if (open_tcp(s, &a, err) || open_udp(s, &a, err))
		goto fail;
	return s;
fail:
	xp_server_close(s);
	return NULL;
}

int xp_server_watch_signals(struct xp_server *s, int sigfd, FILE *log)
{
	s->cfg.log = log;
	s->cfg.sigfd = sigfd;
	return sigfd >= 0 ? watch(s, sigfd, EV_SIG, EPOLLIN) : -1;
}

uint16_t xp_server_port(const struct xp_server *s)
{
	return s->port;
}

const struct xp_server_cfg *xp_server_cfg(const struct xp_server *s)
{
	return &s->cfg;
}

void xp_server_stop(struct xp_server *s)
{
	uint64_t one = 1;

	if (write(s->stopfd, &one, sizeof(one)) < 0) {
		/* eventfd counter cannot overflow here */
	}
}

static struct xp_session *find_session(struct xp_server *s, uint64_t cookie)
{
	uint32_t i;

	for (i = 0; i < s->nsess; i++)
		if (s->sess[i]->cookie == cookie && atomic_load(&s->sess[i]->ready))
			return s->sess[i];
	return NULL;
}

/* Route a data socket (TCP, or a connected UDP socket) to its worker. */
static int route(struct xp_server *s, int fd, uint64_t cookie, uint32_t idx,
		 const char *peer)
{
	struct xp_session *ss = find_session(s, cookie);

	if (!ss) {
		xp_log(s->cfg.log, "%s: data connection for unknown test, closed", peer);
		return -1;
	}
	if (idx >= ss->run.flows) {
		xp_log(s->cfg.log, "%s: flow index %u out of range (%u flows), closed",
		       peer, idx, ss->run.flows);
		return -1;
	}
	if (xp_test(ss->run.test)->persistent) {
		if (ss->seen[idx / 8] & (1u << (idx % 8)))
			return -1; /* repeated flow: ignore */
		ss->seen[idx / 8] |= (uint8_t)(1u << (idx % 8));
	}
	if (xp_worker_mail(&ss->group.w[idx % (uint32_t)ss->group.n], fd, idx)) {
		xp_log(s->cfg.log, "%s: worker mailbox full, connection closed", peer);
		return -1;
	}
	return 0;
}

static void new_session(struct xp_server *s, int fd, const char *peer)
{
	struct xp_session *ss;
	struct xp_err err;
	char msg[128];

	if (s->nsess >= s->cfg.max_tests) {
		snprintf(msg, sizeof(msg), "server busy: %u tests running (--max-tests %u)",
			 s->nsess, s->cfg.max_tests);
		xp_ctl_send_error(fd, 3, msg);
		xp_log(s->cfg.log, "%s: %s; refused", peer, msg);
		close(fd);
		return;
	}
	ss = calloc(1, sizeof(*ss));
	if (ss)
		ss->seen = calloc(s->cfg.max_flows / 8 + 1, 1);
	if (!ss || !ss->seen || getrandom(&ss->cookie, sizeof(ss->cookie), 0) !=
					sizeof(ss->cookie)) {
		xp_log(s->cfg.log, "%s: cannot start a session (memory or randomness)", peer);
		if (ss)
			free(ss->seen);
		free(ss);
		close(fd);
		return;
	}
	ss->ctl_fd = fd;
	ss->cfg = &s->cfg;
	ss->done_fd = s->done[1];
	snprintf(ss->peer, sizeof(ss->peer), "%s", peer);
	s->sess[s->nsess++] = ss;
	if (xp_session_start(ss, &err)) {
		xp_log(s->cfg.log, "%s", err.msg);
		s->nsess--;
		free(ss->seen);
		free(ss);
		close(fd);
		return;
	}
	if (s->cfg.verbose)
		xp_log(s->cfg.log, "%s: control connection", peer);
}

/* 1: handled (fd owned elsewhere or closed); 0: wait for more bytes. */
static int classify(struct xp_server *s, int fd, const char *peer)
{
	uint8_t b[XP_I3_COOKIE_LEN]; /* the longest first message: an iperf3 cookie */
	uint64_t cookie;
	uint32_t idx;
	ssize_t n = recv(fd, b, sizeof(b), MSG_PEEK);
	int i3;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		close(fd);
		return 1;
	}
	if (n >= 4 && xp_get32(b) == XP_MSG_MAGIC) {
		new_session(s, fd, peer);
		return 1;
	}
	if (xp_netperf_request(b, (size_t)n)) {
		xp_netperf_refuse(fd, b, peer, s->cfg.log);
		return 1;
	}
	i3 = xp_i3srv_classify(s->i3, fd, b, (size_t)n, peer);
	if (i3 >= 0)
		return i3;
	if (n >= 4 && xp_get32(b) != XP_DATA_MAGIC) {
		xp_log(s->cfg.log, "%s: not an xperf peer (first bytes 0x%08x), closed",
		       peer, xp_get32(b));
		close(fd);
		return 1;
	}
	if (n < XP_DATA_HELLO_LEN)
		return 0;
	if (recv(fd, b, XP_DATA_HELLO_LEN, 0) != XP_DATA_HELLO_LEN ||
	    xp_data_hello_decode(b, XP_DATA_HELLO_LEN, &cookie, &idx) ||
	    route(s, fd, cookie, idx, peer))
		close(fd);
	return 1;
}

static void add_pending(struct xp_server *s, int fd, const char *peer)
{
	struct pending *p;

	if (s->npend >= MAX_PENDING || watch(s, fd, EV_PENDING, EPOLLIN | EPOLLET)) {
		xp_log(s->cfg.log, "%s: too many connections without a hello, closed", peer);
		close(fd);
		return;
	}
	p = &s->pend[s->npend++];
	p->fd = fd;
	p->deadline = xp_now_ns() + HELLO_TIMEOUT_NS;
	snprintf(p->peer, sizeof(p->peer), "%s", peer);
}

static void on_pending(struct xp_server *s, int fd)
{
	uint32_t i;

	for (i = 0; i < s->npend; i++) {
		if (s->pend[i].fd != fd)
			continue;
		epoll_ctl(s->epfd, EPOLL_CTL_DEL, fd, NULL);
		if (classify(s, fd, s->pend[i].peer))
			s->pend[i] = s->pend[--s->npend];
		else
			watch(s, fd, EV_PENDING, EPOLLIN | EPOLLET);
		return;
	}
}

static void expire_pending(struct xp_server *s)
{
	uint64_t now = xp_now_ns();
	uint32_t i = 0;

	while (i < s->npend) {
		if (now < s->pend[i].deadline) {
			i++;
			continue;
		}
		xp_log(s->cfg.log, "%s: no hello within %llu s, closed", s->pend[i].peer,
		       (unsigned long long)(HELLO_TIMEOUT_NS / XP_NS_PER_SEC));
		epoll_ctl(s->epfd, EPOLL_CTL_DEL, s->pend[i].fd, NULL);
		close(s->pend[i].fd);
		s->pend[i] = s->pend[--s->npend];
	}
}

static void on_accept(struct xp_server *s)
{
	for (;;) {
		struct xp_addr peer = { .len = sizeof(peer.ss) };
		char ps[80];
		int fd = accept4(s->lfd, (struct sockaddr *)&peer.ss, &peer.len,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE)
				xp_log(s->cfg.log, "accept: %s", strerror(errno));
			return;
		}
		xp_addr_str(&peer, ps, sizeof(ps));
		if (!classify(s, fd, ps))
			add_pending(s, fd, ps);
	}
}

/* The local address a datagram was sent to, from IP(V6)_PKTINFO, with the
 * server's port: the flow socket binds to it so its replies come from the
 * address the client talks to. */
static void local_addr(struct msghdr *mh, int family, uint16_t port, struct xp_addr *a)
{
	struct cmsghdr *c;

	memset(a, 0, sizeof(*a));
	a->ss.ss_family = (sa_family_t)family;
	a->len = family == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);
	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO) {
			struct in_pktinfo pi;

			memcpy(&pi, CMSG_DATA(c), sizeof(pi));
			((struct sockaddr_in *)&a->ss)->sin_addr = pi.ipi_addr;
		} else if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_PKTINFO) {
			struct in6_pktinfo pi;

			memcpy(&pi, CMSG_DATA(c), sizeof(pi));
			((struct sockaddr_in6 *)&a->ss)->sin6_addr = pi.ipi6_addr;
		}
	}
	xp_addr_set_port(a, port);
}

static int flow_socket(const struct xp_addr *local, const struct xp_addr *peer,
		       struct xp_err *err)
{
	int fd = xp_bind_udp(local, err);

	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)&peer->ss, peer->len)) {
		xp_err_sys(err, errno, "connect udp flow socket");
		close(fd);
		return -1;
	}
	xp_set_nonblock(fd, 1);
	return fd;
}

static void udp_hello(struct xp_server *s, int family, const uint8_t *b, ssize_t n,
		      struct msghdr *mh, struct xp_addr *peer)
{
	struct xp_addr local;
	struct xp_err err;
	uint64_t cookie;
	uint32_t idx;
	char ps[80];
	int fd;

	xp_addr_str(peer, ps, sizeof(ps));
	if (xp_data_hello_decode(b, (size_t)n, &cookie, &idx)) {
		local_addr(mh, family, s->port, &local);
		if (xp_i3srv_udp(s->i3, b, (size_t)n, &local, peer) == 0)
			return;
		if (s->cfg.verbose)
			xp_log(s->cfg.log, "%s: stray %zd-byte UDP datagram ignored", ps, n);
		return;
	}
	local_addr(mh, family, s->port, &local);
	fd = flow_socket(&local, peer, &err);
	if (fd < 0) {
		xp_log(s->cfg.log, "%s: %s", ps, err.msg);
		return;
	}
	if (send(fd, b, XP_DATA_HELLO_LEN, MSG_DONTWAIT) < 0 ||
	    route(s, fd, cookie, idx, ps))
		close(fd);
}

static void on_udp(struct xp_server *s, int fd, int family)
{
	int i;

	for (i = 0; i < 64; i++) {
		uint8_t b[64];
		union {
			char buf[256];
			struct cmsghdr align;
		} ctl;
		struct xp_addr peer;
		struct iovec iov = { b, sizeof(b) };
		struct msghdr mh = {
			.msg_name = &peer.ss, .msg_namelen = sizeof(peer.ss),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
		};
		ssize_t n = recvmsg(fd, &mh, MSG_DONTWAIT);

		if (n < 0)
			return;
		peer.len = mh.msg_namelen;
		udp_hello(s, family, b, n, &mh, &peer);
	}
}

static void unregister(struct xp_server *s, struct xp_session *ss)
{
	uint32_t i;

	for (i = 0; i < s->nsess; i++) {
		if (s->sess[i] == ss) {
			s->sess[i] = s->sess[--s->nsess];
			break;
		}
	}
}

static void on_done(struct xp_server *s)
{
	struct xp_session *ss;

	if (read(s->done[0], &ss, sizeof(ss)) != (ssize_t)sizeof(ss))
		return;
	unregister(s, ss);
	if (s->cfg.one_off) {
		s->quit = 1;
		s->status = ss->ok ? 0 : 1;
	}
	xp_session_destroy(ss);
}

static void on_event(struct xp_server *s, uint64_t data)
{
	int fd = (int)(uint32_t)data;

	switch ((enum ev_kind)(data >> 32)) {
	case EV_LISTEN:
		on_accept(s);
		break;
	case EV_UDP4:
		on_udp(s, fd, AF_INET);
		break;
	case EV_UDP6:
		on_udp(s, fd, AF_INET6);
		break;
	case EV_DONE:
		on_done(s);
		break;
	case EV_PENDING:
		on_pending(s, fd);
		break;
	case EV_STOP:
	case EV_SIG:
		s->quit = 1;
		break;
	}
}

int xp_server_run(struct xp_server *s)
{
	struct epoll_event ev[32];

	s->sess = calloc(s->cfg.max_tests + 1, sizeof(*s->sess));
	if (!s->sess)
		return 1;
	while (!s->quit) {
		int i, n = epoll_wait(s->epfd, ev, 32, 1000);

		for (i = 0; i < n; i++)
			on_event(s, ev[i].data.u64);
		expire_pending(s);
	}
	/* shut down: abort running tests and wait for their threads */
	for (uint32_t i = 0; i < s->nsess; i++)
		xp_session_abort(s->sess[i]);
	while (s->nsess)
		on_done(s);
	return s->status;
}

void xp_server_close(struct xp_server *s)
{
	int *fds[] = { &s->lfd, &s->ufd[0], &s->ufd[1], &s->epfd, &s->stopfd,
		       &s->done[0], &s->done[1] };
	size_t i;

	if (!s)
		return;
	xp_i3srv_free(s->i3);
	while (s->npend)
		close(s->pend[--s->npend].fd);
	for (i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] >= 0)
			close(*fds[i]);
	free(s->sess);
	free(s);
}
