/* SPDX-License-Identifier: BSD-2-Clause */
/* A test against a stock iperf3 server: its parameters, its streams
 * (TCP: connect and the cookie; UDP: the connect datagram and the
 * server's answer), and both ends' results turned into xperf's
 * (client/iperf3_client_int.h). */
#include "client/iperf3_client_int.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0"
#endif

#define CONNECT_MS 5000
#define UDP_REPLY_MS 10000
#define UDP_OTHER_MAX 64 /* datagrams tolerated before the answer (-R) */

uint32_t xp_i3c_len(const struct xp_i3c *cl)
{
	uint64_t m = cl->o->msg_size;

	if (m)
		return (uint32_t)m;
	return cl->c->udp ? 1472 : 128u << 10;
}

void xp_i3c_params(const struct xp_i3c *cl, struct xp_i3_params *p)
{
	const struct xp_opts *o = cl->o;
	uint64_t secs = (o->length + XP_NS_PER_SEC - 1) / XP_NS_PER_SEC;

	xp_i3_params_init(p);
	p->proto = cl->c->udp ? XP_I3_PROTO_UDP : XP_I3_PROTO_TCP;
	p->omit = cl->c->omit_s;
	p->time = (int64_t)(secs ? secs : 1);
	p->num = p->blockcount = 0;
	p->parallel = (int64_t)o->flows;
	p->reverse = cl->c->reverse;
	p->bidir = cl->c->bidir;
	p->len = xp_i3c_len(cl);
	p->bandwidth = (int64_t)o->rate;
	p->pacing_timer = 1000;
	p->nodelay = xp_opts_nodelay(o);
	p->udp64 = cl->c->udp64;
	if (o->window)
		p->window = (int64_t)o->window;
	snprintf(p->client_version, sizeof(p->client_version), "xperf %s", PACKAGE_VERSION);
}

static void side_cfg(const struct xp_i3c *cl, struct xp_i3_side_cfg *s)
{
	const struct xp_opts *o = cl->o;

	memset(s, 0, sizeof(*s));
	s->role = XP_ROLE_CLIENT;
	s->udp = cl->c->udp;
	s->reverse = cl->c->reverse;
	s->bidir = cl->c->bidir;
	s->udp64 = cl->c->udp64;
	s->parallel = (uint32_t)o->flows;
	s->len = xp_i3c_len(cl);
	s->rate_bps = o->rate;
	s->gso = !o->no_gso;
	s->so.nodelay = xp_opts_nodelay(o);
	s->so.sndbuf = o->sndbuf ? o->sndbuf : o->window;
	s->so.rcvbuf = o->rcvbuf ? o->rcvbuf : o->window;
	s->so.busy_poll_us = o->busy_poll;
	s->cpus = o->cpus;
	s->max_threads = (uint32_t)o->threads;
}

static int tcp_stream(struct xp_i3c *cl, struct xp_err *err)
{
	int fd = xp_connect_tcp(&cl->addr, &cl->so, CONNECT_MS, err);

	if (fd < 0)
		return -1;
	if (xp_send_all(fd, cl->out->cookie, XP_I3_COOKIE_LEN, CONNECT_MS, cl->peer, err) ||
	    xp_set_nonblock(fd, 1)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The connect datagram until the server answers; with -R its data may
 * come first (a few datagrams are skipped). */
static int udp_handshake(struct xp_i3c *cl, int fd, struct xp_err *err)
{
	uint64_t deadline = xp_now_ns() + UDP_REPLY_MS * XP_NS_PER_MS;
	uint8_t b[XP_I3_UDP_MAX];
	int other = 0;

	if (send(fd, xp_i3_udp_connect_msg, 4, 0) != 4)
		return xp_err_sys(err, errno, "%s: UDP connect datagram", cl->peer);
	while (other < UDP_OTHER_MAX) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		uint64_t now = xp_now_ns();
		ssize_t n;

		if (now >= deadline || poll(&p, 1, (int)((deadline - now) / XP_NS_PER_MS) + 1) <= 0)
			break;
		n = recv(fd, b, sizeof(b), MSG_DONTWAIT);
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return xp_err_sys(err, errno, "%s: UDP stream", cl->peer);
		if (xp_i3_udp_reply_ok(b, n > 0 ? (size_t)n : 0))
			return 0;
		other += n >= 0;
	}
	return xp_err_set(err, "%s: no answer to the UDP connect datagram within %d s "
			  "(is UDP port %u open?)", cl->peer, UDP_REPLY_MS / 1000,
			  xp_addr_port(&cl->addr));
}

static int udp_stream(struct xp_i3c *cl, struct xp_err *err)
{
	int fd = socket(cl->addr.ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return xp_err_sys(err, errno, "udp socket");
	if (xp_apply_sockopts(fd, SOCK_DGRAM, &cl->so, err) ||
	    connect(fd, (const struct sockaddr *)&cl->addr.ss, cl->addr.len)) {
		if (!err->msg[0])
			xp_err_sys(err, errno, "connect UDP to %s", cl->peer);
		close(fd);
		return -1;
	}
	if (udp_handshake(cl, fd, err) || xp_set_nonblock(fd, 1)) {
		close(fd);
		return -1;
	}
	return fd;
}

static void addresses(int fd, struct xp_i3_client_stream *s)
{
	struct xp_addr a = { .len = sizeof(a.ss) };

	if (getsockname(fd, (struct sockaddr *)&a.ss, &a.len) == 0)
		xp_addr_str(&a, s->local, sizeof(s->local));
	a.len = sizeof(a.ss);
	if (getpeername(fd, (struct sockaddr *)&a.ss, &a.len) == 0)
		xp_addr_str(&a, s->remote, sizeof(s->remote));
}

int xp_i3c_open_streams(struct xp_i3c *cl, struct xp_err *err)
{
	struct xp_i3_side_cfg c;
	uint32_t pos;

	side_cfg(cl, &c);
	cl->side_made = 1;
	if (xp_i3_side_init(&cl->side, &c, err))
		return -1;
	cl->so = c.so;
	for (pos = 0; pos < cl->side.nst; pos++) {
		int fd;

		err->msg[0] = 0;
		fd = c.udp ? udp_stream(cl, err) : tcp_stream(cl, err);
		if (fd < 0)
			return -1;
		addresses(fd, &cl->out->streams[pos]);
		cl->out->streams[pos].sender = cl->side.st[pos].sender;
		if (xp_i3_side_add(&cl->side, pos, fd, err)) {
			close(fd);
			return -1;
		}
	}
	cl->out->nstreams = cl->side.nst;
	return 0;
}
