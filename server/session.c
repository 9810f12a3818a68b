/* SPDX-License-Identifier: BSD-2-Clause */
#include "server/session.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/cpu.h"
#include "common/ctl.h"
#include "common/live.h"
#include "common/log.h"
#include "common/sockpath.h"
#include "common/units.h"
#include "common/engine/engines.h"
#include "common/engine/pace.h"
#include "proto/hello.h"

#define REGISTER_WAIT_MS 10000
#define MAIL_BYTES 8 /* a descriptor and a flow index (common/engine/mailbox.c) */

static int idle_ms(const struct xp_session *s)
{
	return (int)(s->cfg->idle_timeout_ns / XP_NS_PER_MS);
}

static void fill_run(struct xp_session *s)
{
	const struct xp_msg_setup *p = &s->setup;
	struct xp_run *r = &s->run;

	r->test = (int)p->test;
	r->role = XP_ROLE_SERVER;
	r->req = (uint32_t)p->req_size;
	r->rsp = (uint32_t)p->rsp_size;
	r->so.nodelay = (int)p->nodelay;
	r->so.sndbuf = p->sndbuf;
	r->so.rcvbuf = p->rcvbuf;
	r->rr_timeout_ns = p->rr_timeout_ms * XP_NS_PER_MS;
	r->cookie = s->cookie;
	r->flows = (uint32_t)p->flows;
	r->threads = (uint32_t)p->threads;
	r->spin = (p->flags & XP_SETUP_F_SPIN) != 0;
	r->gso = !(p->flags & XP_SETUP_F_NO_GSO);
	r->zerocopy = (p->flags & XP_SETUP_F_ZEROCOPY) != 0;
	r->self_probes = (p->flags & XP_SETUP_F_SELF_PROBES) != 0;
	r->burst = p->burst ? (uint32_t)p->burst : 1;
	r->rate_bps = p->rate_bps;
	r->rcvlowat = p->rcvlowat;
	r->read_size = p->read_size;
	r->pace_burst = p->pace_burst ? (uint32_t)p->pace_burst : 8;
	r->so.busy_poll_us = p->busy_poll_us;
	if (xp_test(r->test)->bulk && !xp_test(r->test)->udp &&
	    (xp_test(r->test)->server_sends || p->bidir))
		r->so.pacing_Bps = xp_pacing_Bps(p->rate_bps);
	memcpy(r->so.cc, p->congestion, sizeof(r->so.cc));
	r->so.tos_set = (p->tos & XP_SETUP_TOS_SET) != 0;
	r->so.tos = (uint8_t)(p->tos & 0xff);
	r->fastopen = (p->sock_flags & XP_SETUP_S_FASTOPEN) != 0;
	/* whichever of its flows the server sends on (TCP_MAERTS, --bidir) */
	r->sendfile = (p->sock_flags & XP_SETUP_S_SENDFILE) != 0;
	r->note_mptcp = (p->sock_flags & XP_SETUP_S_MPTCP) != 0;
	r->bidir = (uint8_t)p->bidir;
	r->omit = p->omit_ms != 0;
	r->quota = p->quota;
	r->quota_flows = xp_run_quota_flows(r, XP_ROLE_SERVER);
	r->done_fd = -1;
	xp_run_set_stamps(r, p->stamps);
}

/* The workers, without their threads and buffers: those come at READY,
 * when the client has opened its flows (a SETUP alone costs little). */
static int make_workers(struct xp_session *s, struct xp_err *err)
{
	const char *cpus = s->setup.cpus[0] ? s->setup.cpus : s->cfg->cpus;
	uint64_t need;
	int i;

	fill_run(s);
	if (s->run.quota_flows &&
	    (s->run.done_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0)
		return xp_err_sys(err, errno, "eventfd for -n/-k");
	if (xp_group_create(&s->group, &s->run, (int)s->setup.threads, cpus,
			    "remote CPUs", err))
		return -1;
	/* the flows wait in the mailboxes until READY: room for all of them
	 * (a pipe holds 64 KiB unless told otherwise; best effort) */
	need = (s->setup.flows / s->setup.threads + 1) * MAIL_BYTES + 4096;
	for (i = 0; need > 65536 && i < s->group.n; i++)
		fcntl(s->group.w[i].mbox[1], F_SETPIPE_SZ, (int)(need < (1u << 20) ? need : 1u << 20));
	return 0;
}

static int wait_registered(struct xp_session *s, struct xp_err *err)
{
	uint32_t want = xp_test(s->run.test)->persistent ? s->run.flows : 0;
	uint64_t deadline = xp_now_ns() + REGISTER_WAIT_MS * XP_NS_PER_MS +
			    (uint64_t)want * XP_SETUP_NS_PER_FLOW;

	while (atomic_load(&s->run.registered) < want) {
		if (xp_now_ns() > deadline)
			return xp_err_set(err, "only %u of %u data flows arrived within %.1f s",
					  atomic_load(&s->run.registered), want,
					  REGISTER_WAIT_MS / 1e3 + want * (XP_SETUP_NS_PER_FLOW / 1e9));
		usleep(1000);
	}
	return 0;
}

static void fill_result(struct xp_session *s, const struct xp_cpu_snap *a,
			const struct xp_cpu_snap *b, struct xp_side_result *r)
{
	xp_group_sum(&s->group, r);
	xp_cpu_fill(r, a, b);
}

static int send_msg(struct xp_session *s, struct xp_msg *m, struct xp_err *err)
{
	return xp_ctl_send(s->ctl_fd, m, 5000, "client", err);
}

/* Every persistent server flow's result (counters, TCP_INFO), one FLOW
 * message each, before RESULT. */
static int send_flows(struct xp_session *s, struct xp_err *err)
{
	struct xp_msg m;
	uint32_t k;
	int i;

	for (i = 0; i < s->group.n; i++) {
		for (k = 0; k < s->group.w[i].nfres; k++) {
			memset(&m, 0, sizeof(m));
			m.type = XP_MSG_FLOW;
			m.u.flow = s->group.w[i].fres[k];
			if (send_msg(s, &m, err))
				return -1;
		}
	}
	return 0;
}

/* The local address of the control connection, port 0, IPv4-mapped
 * addresses as IPv4: where the test's data listener binds. */
static int ctl_local_addr(const struct xp_session *s, struct xp_addr *a,
			  struct xp_err *err)
{
	const struct sockaddr_in6 *s6 = (const void *)&a->ss;

	a->len = sizeof(a->ss);
	if (getsockname(s->ctl_sock, (struct sockaddr *)&a->ss, &a->len))
		return xp_err_sys(err, errno, "getsockname of the control connection");
	if (a->ss.ss_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
		struct sockaddr_in s4 = { .sin_family = AF_INET };

		memcpy(&s4.sin_addr, &s6->sin6_addr.s6_addr[12], 4);
		memset(&a->ss, 0, sizeof(a->ss));
		memcpy(&a->ss, &s4, sizeof(s4));
		a->len = sizeof(s4);
	}
	xp_addr_set_port(a, 0);
	return 0;
}

/* The window scale and the first window a TCP receiver announces are
 * fixed by its receive buffer during the handshake.  A buffer shrunk after
 * accept() leaves the sender with a segment size (half the largest window
 * it has seen) above every window the receiver can still offer, and the
 * sender then waits for its persist timer, 200 ms, before each send
 * (-w 8K over loopback: 0.001 instead of 2 Gbit/s).  So a TCP test that
 * sets the server's buffers gets a listener of its own with the buffers set
 * before the client learns its port (accepted sockets inherit them), as
 * netperf's netserver does; port N keeps taking its data connections too,
 * for a client that cannot reach this one.  The port, 0 if none is needed. */
static int open_data_listener(struct xp_session *s, struct xp_err *err)
{
	struct xp_sockopts so = { .sndbuf = s->run.so.sndbuf, .rcvbuf = s->run.so.rcvbuf };
	struct xp_addr a;

	if (xp_test(s->run.test)->sock_type != SOCK_STREAM || (!so.sndbuf && !so.rcvbuf))
		return 0;
	if (ctl_local_addr(s, &a, err))
		return -1;
	s->data_lfd = xp_listen_tcp(&a, 1024, err);
	if (s->data_lfd < 0 || xp_apply_sockopts(s->data_lfd, SOCK_STREAM, &so, err))
		return -1;
	a.len = sizeof(a.ss);
	if (getsockname(s->data_lfd, (struct sockaddr *)&a.ss, &a.len) ||
	    xp_set_nonblock(s->data_lfd, 1) || xp_server_watch_listener(s->srv, s->data_lfd))
		return xp_err_sys(err, errno, "data listener for the test");
	return xp_addr_port(&a);
}

/* UDP tests: until READY a flow's socket waits in its worker's mailbox
 * with no thread to read it.  A client whose confirm's echo was lost (a
 * lossy path) repeats its confirm, which reaches that socket (connected
 * to it), so the session echoes those itself until READY: the client
 * sends nothing else on them before it, and READY only once every flow's
 * handshake is done. */
static void echo_confirms(struct xp_session *s)
{
	struct epoll_event ev[64];
	int n = epoll_wait(s->hello_ep, ev, 64, 0), i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < 8; k++) {
			uint8_t b[64];
			uint64_t cookie;
			ssize_t r = recv(ev[i].data.fd, b, sizeof(b), MSG_DONTWAIT);

			if (r < 0 && errno != ECONNREFUSED)
				break;
			if (r > 0 && !xp_udp_confirm_decode(b, (size_t)r, &cookie, NULL, NULL) &&
			    cookie == s->cookie &&
			    send(ev[i].data.fd, b, (size_t)r, MSG_DONTWAIT) < 0) {
				/* as any datagram: the client repeats it */
			}
		}
	}
}

/* READY, the flows' repeated confirms answered meanwhile (UDP tests). */
static int wait_ready(struct xp_session *s, struct xp_msg *m, struct xp_err *err)
{
	uint64_t end = xp_now_ns() + (uint64_t)idle_ms(s) * XP_NS_PER_MS;
	struct pollfd p[2] = { { .fd = s->ctl_fd, .events = POLLIN },
			       { .fd = s->hello_ep, .events = POLLIN } };

	while (s->hello_ep >= 0) {
		uint64_t now = xp_now_ns();
		int rc = poll(p, 2, now < end ? (int)((end - now) / XP_NS_PER_MS) + 1 : 0);

		if (rc > 0 && p[1].revents)
			echo_confirms(s);
		if (rc == 0 || (rc > 0 && p[0].revents) || (rc < 0 && errno != EINTR))
			break;
	}
	/* the CLOCK exchange (--one-way) comes once every flow is in */
	return xp_session_expect_ready(s, m, xp_now_ns() < end ?
				       (int)((end - xp_now_ns()) / XP_NS_PER_MS) + 1 : 1, err);
}

/* Setup: the SETUP was admitted; workers made, SETUP_OK out, flows in,
 * READY in, worker threads started. */
static int setup(struct xp_session *s, struct xp_err *err)
{
	struct xp_msg m;

	int port;

	if (make_workers(s, err))
		return -2;
	port = open_data_listener(s, err);
	if (port < 0)
		return -2;
	if (xp_test(s->run.test)->udp && xp_test(s->run.test)->persistent &&
	    (s->hello_ep = epoll_create1(EPOLL_CLOEXEC)) < 0) {
		xp_err_sys(err, errno, "epoll for the UDP flows' handshakes");
		return -2;
	}
	atomic_store(&s->ready, 1);
	memset(&m, 0, sizeof(m));
	m.u.setup_ok.data_port = (uint64_t)port;
	m.type = XP_MSG_SETUP_OK;
	m.u.setup_ok.cookie = s->cookie;
	m.u.setup_ok.threads = (uint64_t)s->group.n;
	m.u.setup_ok.heartbeat_ms = XP_HEARTBEAT_MS;
	m.u.setup_ok.padded_hello = 1;
	m.u.setup_ok.clock = 1;
	xp_group_cpus(&s->group, 0, m.u.setup_ok.cpus, sizeof(m.u.setup_ok.cpus));
	if (send_msg(s, &m, err) ||
	    wait_ready(s, &m, err))
		return -1;
	if (xp_group_start(&s->group, err))
		return -2;
	atomic_store(&s->running, 1);
	if (wait_registered(s, err))
		return -2;
	if (xp_test(s->run.test)->persistent) /* every socket is in: see worker.h */
		xp_group_own_fds(&s->group);
	return 0;
}

/* After STOP the workers drain (up to seconds): heartbeats go on, so the
 * client can tell a draining server from a frozen one.  The client sends
 * none after STOP. */
static void join_beating(struct xp_session *s, struct xp_live *live)
{
	struct xp_err ignored;

	live->dead_ns = 0;
	while (!xp_group_join_until(&s->group, xp_now_ns() + 200 * XP_NS_PER_MS))
		if (xp_live_tick(live, &ignored)) {
			/* a client gone now is seen when RESULT cannot be sent */
		}
}

static int run(struct xp_session *s, struct xp_err *err)
{
	struct xp_cpu_snap a, b;
	struct xp_live live;
	struct xp_msg m;
	int rc = setup(s, err);

	if (rc)
		return rc;
	xp_cpu_snap(&a);
	/* GO leaves before the workers start, so a server that sends is not
	 * ahead of it in a queue on the path (a shaped link held GO behind a
	 * second of UDP_MAERTS data); the client's data can only come after */
	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_GO;
	if (send_msg(s, &m, err))
		return -1;
	/* heartbeats for a client that announced its own ("client": the log
	 * line starts with its address) */
	xp_live_init(&live, s->ctl_fd, "client", s->setup.heartbeat_ms ? XP_HEARTBEAT_MS : 0,
		     s->setup.heartbeat_ms);
	live.info_fd = s->ctl_sock;
	xp_group_cmd(&s->group, XP_CMD_GO);
	xp_session_iv_start(s, xp_now_ns());
	if (xp_session_wait_stop(s, &a, &live, err))
		return -1;
	xp_session_iv_end(s, xp_now_ns());
	/* the STOP may have overtaken the client's last datagrams */
	s->run.drain_grace_ns = xp_sock_rtt_bound_ns(s->ctl_sock);
	xp_group_cmd(&s->group, XP_CMD_STOP);
	join_beating(s, &live);
	xp_cpu_snap(&b);
	if (xp_session_iv_send(s, err) || send_flows(s, err) || xp_session_send_owd(s, err))
		return -1;
	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_RESULT;
	fill_result(s, &a, &b, &m.u.result);
	if (send_msg(s, &m, err))
		return -1;
	if (m.u.result.warning[0])
		xp_log(s->cfg->log, "%s: %s: %s", s->peer, xp_test_name(s->run.test),
		       m.u.result.warning);
	if (s->cfg->verbose)
		xp_log(s->cfg->log, "%s: %s done: %llu flows, %llu bytes received, "
		       "%llu transactions", s->peer, xp_test_name(s->run.test),
		       (unsigned long long)s->setup.flows,
		       (unsigned long long)m.u.result.c.bytes_received,
		       (unsigned long long)m.u.result.c.transactions);
	return 0;
}

#define LINGER_MS 5000          /* how long a failed session waits for the client's close */
#define LINGER_BYTES (64 * 1024) /* ... and reads of what it still sends */

/* Bytes we sent that the client has not acknowledged (SIOCOUTQ); 0 when
 * unknown. */
static int unacked(int fd)
{
	int q = 0;

	return ioctl(fd, SIOCOUTQ, &q) == 0 ? q : 0;
}

/* After ERROR: no more from us (FIN), and what the client still sends
 * (heartbeats, a STOP) is read until it closes, or our ERROR is
 * acknowledged and 100 ms more have passed; LINGER_MS and LINGER_BYTES at
 * most.  Closing with unread bytes sends an RST, which can overtake an
 * ERROR still being retransmitted on a lossy path and reach the client
 * first ("connection reset" in place of the reason). */
static void linger_ctl(int fd)
{
	uint64_t now = xp_now_ns(), end = now + LINGER_MS * XP_NS_PER_MS, acked = 0;
	size_t got = 0;
	char buf[4096];

	shutdown(fd, SHUT_WR);
	while (got < LINGER_BYTES && now < end && (!acked || now < acked + 100 * XP_NS_PER_MS)) {
		struct pollfd p = { fd, POLLIN, 0 };
		ssize_t n;

		if (poll(&p, 1, 20) < 0)
			return;
		n = p.revents ? recv(fd, buf, sizeof(buf), MSG_DONTWAIT) : -1;
		if (p.revents && n <= 0 && !(n < 0 && (errno == EAGAIN || errno == EINTR)))
			return; /* closed (or gone) */
		got += n > 0 ? (size_t)n : 0;
		now = xp_now_ns();
		if (!acked && !unacked(fd))
			acked = now;
	}
}

static void *session_main(void *arg)
{
	struct xp_session *s = arg;
	struct xp_err err = { "" };
	int rc;

	if (s->agent || s->mux_channels) {
		if (s->agent)
			s->cfg->agent(s->ctl_fd, s->agent, s->peer, s->cfg->agent_ctx);
		else
			xp_session_mux(s);
		s->ok = s->agent || s->ok;
		if (write(s->done_fd, &s, sizeof(s)) != (ssize_t)sizeof(s))
			xp_log(s->cfg->log, "%s: internal: cannot signal session end", s->peer);
		return NULL;
	}
	rc = run(s, &err);

	s->ok = rc == 0;
	if (rc) {
		/* best effort: a client still listening learns why */
		xp_ctl_send_error(s->ctl_fd, rc == -2 ? 2 : 1, err.msg);
		xp_log(s->cfg->log, "%s: %s; test abandoned", s->peer, err.msg);
		xp_group_cmd(&s->group, XP_CMD_ABORT);
		linger_ctl(s->ctl_fd);
	}
	xp_group_join(&s->group);
	if (write(s->done_fd, &s, sizeof(s)) != (ssize_t)sizeof(s))
		xp_log(s->cfg->log, "%s: internal: cannot signal session end", s->peer);
	return NULL;
}

int xp_session_start(struct xp_session *s, struct xp_err *err)
{
	int rc = pthread_create(&s->thr, NULL, session_main, s);

	if (rc)
		return xp_err_sys(err, rc, "start session thread for %s", s->peer);
	return 0;
}

void xp_session_abort(struct xp_session *s)
{
	shutdown(s->ctl_fd, SHUT_RDWR); /* the session's recv fails at once */
}

void xp_session_destroy(struct xp_session *s)
{
	pthread_join(s->thr, NULL);
	xp_group_destroy(&s->group);
	if (s->run.quota_flows && s->run.done_fd >= 0)
		close(s->run.done_fd);
	if (s->data_lfd >= 0)
		close(s->data_lfd); /* this closes its epoll entry too */
	if (s->hello_ep >= 0)
		close(s->hello_ep);
	free(s->agent);
	free(s->seen);
	xp_session_iv_free(s);
	if (s->ctl_sock != s->ctl_fd)
		close(s->ctl_sock);
	close(s->ctl_fd);
	free(s);
}
