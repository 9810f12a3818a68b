/* SPDX-License-Identifier: BSD-2-Clause */
/* UDP flows (proto/hello.h).  A datagram on a listening UDP socket is
 * answered only when it is a hello or a confirm for a live test, from the
 * IP address of that test's control connection:
 *   hello    -> a challenge, sent from the listening socket itself (one
 *               16-byte datagram for one 16-byte hello), with a nonce
 *               that is a MAC of the hello's source address and flow
 *               under a key of the test, so the server keeps no state;
 *   confirm  -> (its nonce matches the source it comes from) the flow's
 *               socket, connected to that source, which echoes the
 *               confirm and is handed to the test's worker.
 * So nothing but a challenge goes to an address before it has shown it
 * receives there, and never to an address other than the client's.
 * Anything else is dropped without an answer or a socket, and counted in
 * a log line a second at most. */
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/log.h"
#include "common/sha256.h"
#include "proto/hello.h"
#include "server/iperf3/server.h"
#include "server/server_int.h"

struct dgram {
	const uint8_t *b;
	size_t n;
	struct msghdr *mh;   /* with its IP(V6)_PKTINFO */
	struct xp_addr peer;
	char ps[80];
	int family;
};

static void stray(struct xp_server *s, const struct dgram *d, const char *why)
{
	xp_ratelog(s->cfg.log, &s->rl[XP_RL_UDP], "%s: %zu-byte UDP datagram dropped: %s",
		   d->ps, d->n, why);
}

/* The challenge nonce for a flow at a source address. */
static uint64_t nonce_of(const struct xp_session *ss, const struct xp_addr *peer,
			 uint32_t idx)
{
	uint8_t in[22], mac[XP_SHA256_LEN];
	uint16_t port = xp_addr_port(peer);
	uint64_t v = 0;
	int i;

	xp_ip_key(peer, in);
	in[16] = (uint8_t)(port >> 8);
	in[17] = (uint8_t)port;
	for (i = 0; i < 4; i++)
		in[18 + i] = (uint8_t)(idx >> (24 - 8 * i));
	xp_hmac_sha256(ss->udp_key, sizeof(ss->udp_key), in, sizeof(in), mac);
	for (i = 0; i < 8; i++)
		v = v << 8 | mac[i];
	return v;
}

/* The live test this datagram may speak for, or NULL (counted as stray). */
static struct xp_session *owner(struct xp_server *s, const struct dgram *d,
				uint64_t cookie, uint32_t idx)
{
	struct xp_session *ss = xp_srv_find(s, cookie);

	if (!ss)
		stray(s, d, "no test has its cookie");
	else if (!xp_same_ip(&d->peer, &ss->addr))
		stray(s, d, "not from the address of its test's control connection");
	else if (idx >= ss->setup.flows)
		stray(s, d, "flow index out of range");
	else if (xp_test((int)ss->setup.test)->sock_type != SOCK_DGRAM)
		stray(s, d, "its test is not a UDP test");
	else
		return ss;
	return NULL;
}

/* The local address a datagram was sent to, from IP(V6)_PKTINFO, with the
 * server's port: replies come from the address the client talks to. */
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

/* Send buf from the listening socket to the datagram's source, from the
 * address it was sent to. */
static void reply(int fd, const struct dgram *d, const uint8_t *buf, size_t len)
{
	union {
		char b[CMSG_SPACE(sizeof(struct in6_pktinfo))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { (void *)buf, len };
	struct msghdr mh = { .msg_name = (void *)&d->peer.ss, .msg_namelen = d->peer.len,
			     .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b };
	struct cmsghdr *c, *in;

	memset(&ctl, 0, sizeof(ctl));
	c = (struct cmsghdr *)ctl.b;
	for (in = CMSG_FIRSTHDR(d->mh); in; in = CMSG_NXTHDR(d->mh, in)) {
		if (in->cmsg_level == IPPROTO_IP && in->cmsg_type == IP_PKTINFO) {
			struct in_pktinfo pi;

			memcpy(&pi, CMSG_DATA(in), sizeof(pi));
			pi.ipi_spec_dst = pi.ipi_addr;
			pi.ipi_ifindex = 0;
			c->cmsg_level = IPPROTO_IP;
			c->cmsg_type = IP_PKTINFO;
			c->cmsg_len = CMSG_LEN(sizeof(pi));
			memcpy(CMSG_DATA(c), &pi, sizeof(pi));
			mh.msg_controllen = CMSG_SPACE(sizeof(pi));
		} else if (in->cmsg_level == IPPROTO_IPV6 && in->cmsg_type == IPV6_PKTINFO) {
			c->cmsg_level = IPPROTO_IPV6;
			c->cmsg_type = IPV6_PKTINFO;
			c->cmsg_len = CMSG_LEN(sizeof(struct in6_pktinfo));
			memcpy(CMSG_DATA(c), CMSG_DATA(in), sizeof(struct in6_pktinfo));
			mh.msg_controllen = CMSG_SPACE(sizeof(struct in6_pktinfo));
		}
	}
	if (!mh.msg_controllen)
		mh.msg_control = NULL;
	if (sendmsg(fd, &mh, MSG_DONTWAIT) < 0) {
		/* like any datagram: the client repeats its hello */
	}
}

static void on_hello(struct xp_server *s, int fd, const struct dgram *d)
{
	uint8_t ch[XP_UDP_CHALLENGE_LEN];
	struct xp_session *ss;
	uint64_t cookie;
	uint32_t idx;

	xp_data_hello_decode(d->b, d->n, &cookie, &idx);
	ss = owner(s, d, cookie, idx);
	if (!ss)
		return;
	xp_udp_challenge_encode(ch, idx, nonce_of(ss, &d->peer, idx));
	reply(fd, d, ch, sizeof(ch));
}

static int flow_socket(struct xp_server *s, const struct dgram *d, struct xp_err *err)
{
	struct xp_addr local;
	int fd;

	local_addr(d->mh, d->family, s->port, &local);
	fd = xp_bind_udp(&local, err);
	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)&d->peer.ss, d->peer.len)) {
		xp_err_sys(err, errno, "connect udp flow socket");
		close(fd);
		return -1;
	}
	xp_set_nonblock(fd, 1);
	return fd;
}

static void on_confirm(struct xp_server *s, const struct dgram *d)
{
	struct xp_session *ss;
	struct xp_err err;
	uint64_t cookie, nonce;
	uint32_t idx;
	uint8_t want[8], got[8];
	int fd, i;

	xp_udp_confirm_decode(d->b, d->n, &cookie, &idx, &nonce);
	ss = owner(s, d, cookie, idx);
	if (!ss)
		return;
	for (i = 0; i < 8; i++) {
		want[i] = (uint8_t)(nonce_of(ss, &d->peer, idx) >> (56 - 8 * i));
		got[i] = (uint8_t)(nonce >> (56 - 8 * i));
	}
	if (!xp_ct_equal(want, got, sizeof(want))) {
		stray(s, d, "a confirm with the wrong nonce");
		return;
	}
	if (ss->seen[idx / 8] & (1u << (idx % 8)))
		return; /* a repeated confirm that beat the flow socket: ignore */
	fd = flow_socket(s, d, &err);
	if (fd < 0) {
		xp_ratelog(s->cfg.log, &s->rl[XP_RL_REFUSED], "%s: %s", d->ps, err.msg);
		return;
	}
	if (send(fd, d->b, d->n, MSG_DONTWAIT) < 0 ||
	    xp_srv_route(s, fd, SOCK_DGRAM, cookie, idx, d->ps))
		close(fd);
}

/* A stock iperf3 client's UDP stream (from its control connection's
 * address only: server/iperf3/server.c)?  1: taken. */
static int iperf3_udp(struct xp_server *s, const struct dgram *d)
{
	struct xp_addr local;

	local_addr(d->mh, d->family, s->port, &local);
	return xp_i3srv_udp(s->i3, d->b, d->n, &local, &d->peer) == 0;
}

static void on_datagram(struct xp_server *s, int fd, struct dgram *d)
{
	xp_addr_str(&d->peer, d->ps, sizeof(d->ps));
	if (xp_data_hello_decode(d->b, d->n, NULL, NULL) == 0 && d->n == XP_DATA_HELLO_LEN)
		on_hello(s, fd, d);
	else if (xp_udp_confirm_decode(d->b, d->n, NULL, NULL, NULL) == 0)
		on_confirm(s, d);
	else if (s->cfg.auth || !iperf3_udp(s, d))
		stray(s, d, "not a hello");
}

void xp_srv_on_udp(struct xp_server *s, int fd, int family)
{
	int i;

	for (i = 0; i < 64; i++) {
		uint8_t b[64];
		union {
			char buf[256];
			struct cmsghdr align;
		} ctl;
		struct dgram d = { .b = b, .family = family };
		struct iovec iov = { b, sizeof(b) };
		struct msghdr mh = {
			.msg_name = &d.peer.ss, .msg_namelen = sizeof(d.peer.ss),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
		};
		ssize_t n = recvmsg(fd, &mh, MSG_DONTWAIT);

		if (n < 0)
			return;
		d.n = (size_t)n;
		d.mh = &mh;
		d.peer.len = mh.msg_namelen;
		on_datagram(s, fd, &d);
	}
}
