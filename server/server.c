/* SPDX-License-Identifier: BSD-2-Clause */
/* The accept loop: its descriptors, the registry of sessions, routing of
 * data connections, and the loop itself.  One thread owns the listening
 * sockets (TCP and UDP on one port number), the connections not yet tests
 * (accept.c, admit.c), the UDP handshakes (udp_hello.c) and the resource
 * budget (limits.c); see server/server_int.h. */
#include "server/server.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/sock.h"
#include "common/sockpath.h"
#include "common/tests.h"
#include "server/iperf3/server.h"
#include "server/server_int.h"

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
		xp_srv_watch(s, s->ufd[i], i ? EV_UDP6 : EV_UDP4, EPOLLIN);
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
	s->listening = 1;
	return xp_srv_watch(s, s->lfd, EV_LISTEN, EPOLLIN);
}

/* An iperf3 test's -w or -M stays on the listener once its streams are in
 * (a socket buffer once set is locked, and connections inherit it): take
 * what is queued, then listen afresh on the same address.  A connection
 * attempt in the microseconds between is refused. */
static void reopen_listener(struct xp_server *s)
{
	struct xp_addr a = { .len = sizeof(a.ss) };
	struct xp_err err;

	xp_srv_on_accept(s, s->lfd);
	getsockname(s->lfd, (struct sockaddr *)&a.ss, &a.len);
	if (s->listening)
		epoll_ctl(s->epfd, EPOLL_CTL_DEL, s->lfd, NULL);
	close(s->lfd);
	s->lfd = listen_on(s, &a, &err);
	xp_i3srv_set_listener(s->i3, s->lfd);
	if (s->lfd < 0) {
		xp_log(s->cfg.log, "server: listening again after an iperf3 test: %s", err.msg);
		s->status = 1;
		s->quit = 1;
		return;
	}
	listen_fastopen(s);
	xp_set_nonblock(s->lfd, 1);
	if (s->listening && xp_srv_watch(s, s->lfd, EV_LISTEN, EPOLLIN))
		s->listening = 0; /* the tick tries again */
}

static struct xp_i3srv_cfg i3_cfg(const struct xp_server_cfg *c)
{
	struct xp_i3srv_cfg i = {
		.max_flows = c->max_flows, .max_threads = c->max_threads,
		.max_duration_ns = c->max_duration_ns, .max_msg = c->max_msg,
		.idle_timeout_ns = c->idle_timeout_ns, .cpus = c->cpus,
		.verbose = c->verbose, .log = c->log, .i3_hooks = c->i3_hooks,
	};
	return i;
}

#define PORT_TRIES 16 /* ephemeral ports tried for one free for TCP and UDP alike */

/* The TCP listener and the UDP sockets on one port.  A port the kernel
 * chose (-p 0: the embedded servers) is free for TCP only: another
 * process may hold it for UDP ("bind udp ...: Address already in use"
 * in a suite run beside others), so then another is taken.  The refused
 * listeners stay open until one fits, or the kernel hands the same port
 * out again (it scans from the bottom of its range). */
static int open_ports(struct xp_server *s, struct xp_addr *a, struct xp_err *err)
{
	int held[PORT_TRIES], n = 0, rc = -1, i;

	while (!open_tcp(s, a, err)) {
		if (!open_udp(s, a, err)) {
			rc = 0;
			break;
		}
		if (s->cfg.port || n + 1 >= PORT_TRIES)
			break;
		epoll_ctl(s->epfd, EPOLL_CTL_DEL, s->lfd, NULL);
		held[n++] = s->lfd;
		s->lfd = -1;
		s->listening = 0;
	}
	for (i = 0; i < n; i++)
		close(held[i]);
	return rc;
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
	s->i3cfg = i3_cfg(cfg);
	s->i3 = xp_i3srv_new(&s->i3cfg);
	if (!s->cfg.header_timeout_ns)
		s->cfg.header_timeout_ns = XP_HEADER_TIMEOUT_NS;
	s->lfd = s->ufd[0] = s->ufd[1] = s->stopfd = s->done[0] = s->done[1] = -1;
	s->adopt[0] = s->adopt[1] = -1;
	s->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	xp_srv_budget_init(s);
	xp_srv_caps_init(s);
	s->pend = calloc(s->maxpend, sizeof(*s->pend));
	s->sess = calloc(s->cfg.max_tests + 1, sizeof(*s->sess));
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	s->stopfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (!s->pend || !s->sess || !s->i3) {
		xp_err_set(err, "server: out of memory");
		goto fail;
	}
	if (s->epfd < 0 || s->stopfd < 0 || pipe2(s->done, O_CLOEXEC) ||
	    pipe2(s->adopt, O_CLOEXEC | O_NONBLOCK)) {
		xp_err_sys(err, errno, "server: epoll/eventfd/pipe");
		goto fail;
	}
	xp_srv_watch(s, s->stopfd, EV_STOP, EPOLLIN);
	xp_srv_watch(s, s->done[0], EV_DONE, EPOLLIN);
	xp_srv_watch(s, s->adopt[0], EV_ADOPT, EPOLLIN);
	if (cfg->sigfd >= 0)
		xp_srv_watch(s, cfg->sigfd, EV_SIG, EPOLLIN);
	if (open_ports(s, &a, err))
		goto fail;
	xp_i3srv_set_listener(s->i3, s->lfd);
	return s;
fail:
	xp_server_close(s);
	return NULL;
}

int xp_server_watch_signals(struct xp_server *s, int sigfd, FILE *log)
{
	s->cfg.log = s->i3cfg.log = log;
	s->cfg.sigfd = sigfd;
	return sigfd >= 0 ? xp_srv_watch(s, sigfd, EV_SIG, EPOLLIN) : -1;
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
	xp_srv_release(s, &ss->cost);
	if (s->cfg.one_off && ss->chan) /* one of a MUX's tests: the MUX is the one */
		s->mux_failed |= !ss->ok;
	else if (s->cfg.one_off) {
		s->quit = 1;
		s->status = ss->ok && !s->mux_failed ? 0 : 1;
	}
	xp_session_destroy(ss);
}

static void on_event(struct xp_server *s, uint64_t data, uint32_t events)
{
	int fd = (int)(uint32_t)data;

	switch ((enum xp_ev_kind)(data >> 32)) {
	case EV_LISTEN:
		xp_srv_on_accept(s, fd);
		break;
	case EV_UDP4:
		xp_srv_on_udp(s, fd, AF_INET);
		break;
	case EV_UDP6:
		xp_srv_on_udp(s, fd, AF_INET6);
		break;
	case EV_DONE:
		on_done(s);
		break;
	case EV_PENDING:
		xp_srv_on_pending(s, fd, events);
		break;
	case EV_ADOPT:
		xp_srv_on_adopt(s);
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

	while (!s->quit) {
		/* pending deadlines are checked ten times a second */
		int fast = s->npend || !s->listening || xp_i3srv_listener_tuned(s->i3);
		int i, n = epoll_wait(s->epfd, ev, 32, fast ? 100 : 1000);

		for (i = 0; i < n; i++)
			on_event(s, ev[i].data.u64, ev[i].events);
		xp_srv_tick(s);
		if (xp_i3srv_listener_stale(s->i3))
			reopen_listener(s);
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
		       &s->done[0], &s->done[1], &s->spare_fd, &s->adopt[1] };
	struct xp_adopt a;
	size_t i;

	if (!s)
		return;
	xp_i3srv_free(s->i3);
	while (s->npend) {
		close(s->pend[--s->npend].fd);
		if (s->pend[s->npend].sock >= 0)
			close(s->pend[s->npend].sock);
	}
	/* channels handed over too late (at shut down) */
	while (s->adopt[0] >= 0 && read(s->adopt[0], &a, sizeof(a)) == (ssize_t)sizeof(a)) {
		close(a.fd);
		close(a.sock);
	}
	if (s->adopt[0] >= 0)
		close(s->adopt[0]);
	for (i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] >= 0)
			close(*fds[i]);
	free(s->pend);
	free(s->sess);
	free(s);
}
