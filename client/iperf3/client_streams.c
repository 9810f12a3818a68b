/* SPDX-License-Identifier: BSD-2-Clause */
/* A test against a stock iperf3 server: its parameters, its streams
 * (TCP: connect and the cookie; UDP: the connect datagram and the
 * server's answer), and both ends' results turned into xperf's
 * (client/iperf3/client_int.h). */
#include "client/iperf3/client_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "client/client_path.h"
#include "common/clock.h"
#include "common/sockpath.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0"
#endif

#define CONNECT_MS 5000
#define UDP_REPLY_MS 10000
#define UDP_OTHER_MAX 64 /* datagrams tolerated before the answer (-R) */

uint32_t xp_i3c_len(const struct xp_i3c *cl)
{
	uint64_t m = cl->o->msg_size;
	uint32_t mss = cl->out ? cl->out->ctl_mss : 0;

	if (m)
		return (uint32_t)m;
	if (!cl->c->udp)
		return 128u << 10;
	/* iperf3's UDP default: the control connection's MSS, else 1460 */
	return mss >= XP_I3_UDP_MIN && mss <= XP_I3_UDP_MAX ? mss : 1460;
}

/* -n/-k as the units the senders count: bytes (TCP), datagrams (UDP). */
uint64_t xp_i3c_quota(const struct xp_i3c *cl)
{
	uint64_t len = xp_i3c_len(cl);

	if (cl->c->blockcount)
		return cl->c->udp ? cl->c->blockcount : cl->c->blockcount * len;
	if (!cl->c->num)
		return 0;
	return cl->c->udp ? (cl->c->num + len - 1) / len : cl->c->num;
}

void xp_i3c_params(const struct xp_i3c *cl, struct xp_i3_params *p)
{
	const struct xp_opts *o = cl->o;
	uint64_t secs = (o->length + XP_NS_PER_SEC - 1) / XP_NS_PER_SEC;

	xp_i3_params_init(p);
	p->proto = cl->c->udp ? XP_I3_PROTO_UDP : XP_I3_PROTO_TCP;
	p->omit = cl->c->omit_s;
	p->time = cl->c->num || cl->c->blockcount ? 0 : (int64_t)(secs ? secs : 1);
	p->num = (int64_t)cl->c->num;
	p->blockcount = (int64_t)cl->c->blockcount;
	p->parallel = (int64_t)o->flows;
	p->reverse = cl->c->reverse;
	p->bidir = cl->c->bidir;
	p->len = xp_i3c_len(cl);
	p->bandwidth = (int64_t)o->rate;
	p->pacing_timer = cl->c->pacing_timer ? cl->c->pacing_timer : 1000;
	p->nodelay = xp_opts_nodelay(o);
	p->udp64 = cl->c->udp64;
	if (o->window)
		p->window = (int64_t)o->window;
	xp_i3c_params_more(cl, p);
	snprintf(p->client_version, sizeof(p->client_version), "xperf %s", PACKAGE_VERSION);
}

/* The parameters that only the iperf3 front end's options set. */
void xp_i3c_params_more(const struct xp_i3c *cl, struct xp_i3_params *p)
{
	const struct xp_opts *o = cl->o;
	const struct xp_i3_client_cfg *c = cl->c;
	int tos = xp_opts_tos(o);

	if (o->set_mss)
		p->mss = (int64_t)o->set_mss;
	if (tos > 0)
		p->tos = tos;
	if (o->flowlabel)
		p->flowlabel = (int64_t)o->flowlabel;
	if (o->congestion)
		snprintf(p->congestion, sizeof(p->congestion), "%s", o->congestion);
	if (c->server_affinity >= 0)
		p->server_affinity = c->server_affinity;
	if (c->burst)
		p->burst = c->burst;
	if (c->fqrate)
		p->fqrate = (int64_t)c->fqrate;
	p->get_server_output = c->get_server_output;
	p->repeating_payload = c->repeating_payload;
	p->dont_fragment = c->dont_fragment;
	p->zerocopy = c->zerocopy;
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
	s->quota = xp_i3c_quota(cl);
	s->done_fd = cl->done_fd;
	s->pace_burst = cl->c->burst;
	xp_client_path_sockopts(o, &s->so);
	s->so.local = cl->local;
}

/* --cport: stream pos's source port (0: any). */
static uint16_t cport(const struct xp_i3c *cl, uint32_t pos)
{
	uint64_t p = cl->o->cport ? cl->o->cport + pos : 0;

	return p <= 65535 ? (uint16_t)p : 0;
}

static int tcp_stream(struct xp_i3c *cl, uint32_t pos, struct xp_err *err)
{
	int fd = xp_connect_tcp_port(&cl->addr, &cl->so, cport(cl, pos),
				     xp_client_connect_ms(cl->o), err);

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

static int udp_stream(struct xp_i3c *cl, uint32_t pos, struct xp_err *err)
{
	int fd = xp_sock_client(cl->addr.ss.ss_family, SOCK_DGRAM, &cl->so, cport(cl, pos), err);
	struct xp_addr dst = cl->addr;

	if (fd < 0)
		return -1;
	if ((cl->so.flowlabel && xp_sock_flowlabel(fd, &dst, cl->so.flowlabel, err)) ||
	    connect(fd, (const struct sockaddr *)&dst.ss, dst.len)) {
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
		fd = c.udp ? udp_stream(cl, pos, err) : tcp_stream(cl, pos, err);
		if (fd < 0)
			return -1;
		addresses(fd, &cl->out->streams[pos]);
		/* a copy for TCP_INFO: the worker's table may be its own */
		cl->out->streams[pos].fd = c.udp ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, 3);
		cl->out->streams[pos].sender = cl->side.st[pos].sender;
		if (xp_i3_side_add(&cl->side, pos, fd, err)) {
			close(fd);
			return -1;
		}
	}
	cl->out->nstreams = cl->side.nst;
	return 0;
}
