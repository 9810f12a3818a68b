/* SPDX-License-Identifier: BSD-2-Clause */
/* A test's data flows opened (client/client_int.h): TCP connections with
 * their hello, UDP sockets through their handshake.  Each takes one
 * round trip (TCP) or two (UDP) at least, so on a long path they are
 * opened by up to OPENERS threads at once, not one after the other: 1000
 * TCP_RR flows over a 300 ms round trip take seconds, not five minutes.
 * The flows then go to the workers in their order; a flow that could not
 * be opened fails the test, saying how many did not and why the first
 * one did not. */
#include "client/client_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include "client/client_path.h"
#include "client/udp_hello.h"
#include "common/clock.h"
#include "common/sockpath.h"

/* At most this many flows are being opened at once: a server keeps 64
 * connections per address that have not yet sent their hello by default
 * (--max-pending-per-addr), and so many handshakes are a burst a path
 * takes. */
#define OPENERS 64
#define OPENER_STACK (256 * 1024)

struct opening {
	struct client *cl;
	int *fd;                /* per flow: its socket, -1 not (yet) opened */
	pthread_mutex_t mu;     /* next, failed, first, the fallback below */
	uint32_t next, failed;
	uint32_t first_idx;     /* the first flow (lowest index) that failed */
	struct xp_err first;    /* ... and why */
	int fell_back;          /* the data port was out of reach: cl->addr's port */
};

/* The pad that puts a flow's first test byte on a segment boundary: where
 * the server announces windows without scaling, the kernel rounds each one
 * down to whole segments from where its sender stood, so a 16-byte hello
 * leaves every window edge 16 bytes off the test's messages; each message
 * then ends in a sliver segment (-w 16K -m 64K TCP_RR: 9 segments a
 * message instead of 8, at 0.5 of netperf's rate).  A hello of exactly one
 * segment keeps them aligned.  0: the plain hello. */
static uint32_t hello_pad(const struct client *cl, int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	if (!cl->padded_hello || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) ||
	    ((ti.tcpi_options & TCPI_OPT_WSCALE) && ti.tcpi_snd_wscale) ||
	    ti.tcpi_snd_mss <= XP_DATA_PAD_HEAD_LEN ||
	    ti.tcpi_snd_mss - XP_DATA_PAD_HEAD_LEN > XP_DATA_PAD_MAX)
		return 0;
	return ti.tcpi_snd_mss - XP_DATA_PAD_HEAD_LEN;
}

/* The data hello, plain or padded to one segment (hello_pad). */
static int send_hello(struct client *cl, int fd, uint32_t idx, int ms, struct xp_err *err)
{
	uint8_t hello[XP_DATA_HELLO_LEN], *buf;
	uint32_t pad = hello_pad(cl, fd);
	int rc;

	if (!pad) {
		xp_data_hello_encode(hello, cl->run.cookie, idx);
		return xp_send_all(fd, hello, sizeof(hello), ms, cl->peer, err);
	}
	buf = calloc(1, XP_DATA_PAD_HEAD_LEN + (size_t)pad);
	if (!buf)
		return xp_err_sys(err, ENOMEM, "data hello of %u bytes", pad);
	xp_data_pad_hello_encode(buf, cl->run.cookie, idx, pad);
	rc = xp_send_all(fd, buf, XP_DATA_PAD_HEAD_LEN + (size_t)pad, ms, cl->peer, err);
	free(buf);
	return rc;
}

/* Where the flows go: the test's data port, or the server's own port once
 * the data port was found out of reach (by any flow). */
static struct xp_addr peer_of(struct opening *op)
{
	struct xp_addr a;

	pthread_mutex_lock(&op->mu);
	a = op->fell_back ? op->cl->addr : op->cl->run.peer;
	pthread_mutex_unlock(&op->mu);
	return a;
}

/* The test's own data port is out of reach (a port forward or a firewall
 * that passes the server's port only): that port serves too, with the
 * server's buffers set after the handshake. */
static void fall_back(struct opening *op, uint16_t port, const struct xp_err *why)
{
	struct client *cl = op->cl;

	pthread_mutex_lock(&op->mu);
	if (!op->fell_back)
		snprintf(cl->note, sizeof(cl->note), "data port %u unreachable (%.96s); flows "
			 "use port %u, where the server's socket buffers are set only "
			 "after the handshake", port, why->msg, xp_addr_port(&cl->addr));
	op->fell_back = 1;
	pthread_mutex_unlock(&op->mu);
}

static int tcp_flow(struct opening *op, uint32_t idx, struct xp_err *err)
{
	struct client *cl = op->cl;
	uint16_t lport = cl->o->cport ? (uint16_t)(cl->o->cport + idx) : 0;
	int ms = xp_cl_ms_left(cl, xp_client_connect_ms(cl->o));
	struct xp_addr peer = peer_of(op);
	uint16_t port = xp_addr_port(&peer);
	int fd = xp_connect_tcp_port(&peer, &cl->run.so, lport, ms, err);

	if (fd < 0 && port != xp_addr_port(&cl->addr)) {
		fall_back(op, port, err);
		err->msg[0] = 0;
		fd = xp_connect_tcp_port(&cl->addr, &cl->run.so, lport, ms, err);
	}
	if (fd < 0)
		return -1;
	if (send_hello(cl, fd, idx, ms, err)) {
		close(fd);
		return -1;
	}
	xp_set_nonblock(fd, 1);
	return fd;
}

static int udp_flow(struct client *cl, uint32_t idx, struct xp_err *err)
{
	uint16_t lport = cl->o->cport ? (uint16_t)(cl->o->cport + idx) : 0;
	struct xp_addr dst = cl->addr;
	int fd = xp_sock_client(dst.ss.ss_family, SOCK_DGRAM, &cl->run.so, lport, err);
	uint64_t until = xp_now_ns() + (uint64_t)xp_client_connect_ms(cl->o) * XP_NS_PER_MS;

	if (fd < 0)
		return -1;
	if ((cl->run.so.flowlabel && xp_sock_flowlabel(fd, &dst, cl->run.so.flowlabel, err)) ||
	    connect(fd, (const struct sockaddr *)&dst.ss, dst.len)) {
		if (!err->msg[0])
			xp_err_sys(err, errno, "connect udp %s", cl->peer);
		close(fd);
		return -1;
	}
	if (xp_udp_handshake(fd, cl->run.cookie, idx, until < cl->deadline ? until : cl->deadline,
			     cl->peer, err)) {
		close(fd);
		return -1;
	}
	xp_set_nonblock(fd, 1);
	return fd;
}

/* One opener: the next flow not yet taken, until none is left or one
 * failed (the others then stop starting new ones). */
static void *opener(void *arg)
{
	struct opening *op = arg;
	struct client *cl = op->cl;

	for (;;) {
		struct xp_err err = { "" };
		uint32_t i;
		int fd;

		pthread_mutex_lock(&op->mu);
		i = op->failed ? cl->run.flows : op->next++;
		pthread_mutex_unlock(&op->mu);
		if (i >= cl->run.flows)
			return NULL;
		fd = cl->ops->sock_type == SOCK_DGRAM ? udp_flow(cl, i, &err) : tcp_flow(op, i, &err);
		pthread_mutex_lock(&op->mu);
		op->fd[i] = fd;
		if (fd < 0 && (!op->failed++ || i < op->first_idx)) {
			op->first_idx = i;
			op->first = err;
		}
		pthread_mutex_unlock(&op->mu);
	}
}

/* Open every flow, OPENERS at a time.  0, or -1 with err saying how many
 * flows were not opened and why the first of them was not. */
static int open_all(struct opening *op, struct xp_err *err)
{
	pthread_t t[OPENERS];
	pthread_attr_t attr;
	uint32_t n = op->cl->run.flows < OPENERS ? op->cl->run.flows : OPENERS, k, started = 0;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, OPENER_STACK);
	for (k = 0; k < n; k++)
		if (!pthread_create(&t[k], &attr, opener, op))
			started++;
		else if (!started)
			break;
	pthread_attr_destroy(&attr);
	if (!started)
		opener(op); /* no thread to be had: one after the other */
	for (k = 0; k < started; k++)
		pthread_join(t[k], NULL);
	if (op->failed) {
		uint32_t missing = 0;

		for (k = 0; k < op->cl->run.flows; k++)
			missing += op->fd[k] < 0;
		return xp_err_set(err, "%u of %u flows not opened (%u failed, the others not "
				  "tried after that); flow %u: %s", missing, op->cl->run.flows,
				  op->failed, op->first_idx, op->first.msg);
	}
	if (op->fell_back)
		op->cl->run.peer = op->cl->addr;
	return 0;
}

int xp_cl_open_flows(struct client *cl, struct xp_err *err)
{
	struct opening op;
	uint32_t i;
	int rc = 0;

	memset(&op, 0, sizeof(op));
	op.cl = cl;
	if (cl->ops->persistent) {
		op.fd = malloc(sizeof(*op.fd) * (cl->run.flows ? cl->run.flows : 1));
		if (!op.fd)
			return xp_err_set(err, "out of memory for %u flows", cl->run.flows);
		for (i = 0; i < cl->run.flows; i++)
			op.fd[i] = -1;
		pthread_mutex_init(&op.mu, NULL);
		rc = open_all(&op, err);
		pthread_mutex_destroy(&op.mu);
	}
	for (i = 0; i < cl->run.flows; i++) {
		int fd = op.fd ? op.fd[i] : -1;

		if (rc) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		err->msg[0] = 0;
		if (xp_worker_add_flow(&cl->g.w[i % (uint32_t)cl->g.n], fd, i, err)) {
			if (fd >= 0)
				close(fd);
			rc = -1;
		}
	}
	free(op.fd);
	return rc;
}
