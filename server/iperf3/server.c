/* SPDX-License-Identifier: BSD-2-Clause */
/* The accept loop's side of serving iperf3 clients
 * (server/iperf3/server.h): which connection or datagram is iperf3's,
 * the one test running, and its streams handed to its workers. */
#include "server/iperf3/server.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/log.h"
#include "server/iperf3/session.h"

struct xp_i3srv {
	const struct xp_i3srv_cfg *cfg;
	pthread_mutex_t mu;
	struct xp_i3sess *cur; /* the test being served, or NULL */
	struct xp_i3lst lst;   /* the listener (under mu) */
};

struct xp_i3srv *xp_i3srv_new(const struct xp_i3srv_cfg *cfg)
{
	struct xp_i3srv *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->cfg = cfg;
	s->lst.fd = -1;
	pthread_mutex_init(&s->mu, NULL);
	return s;
}

/* Under mu: forget a test whose thread has finished. */
static void reap(struct xp_i3srv *s)
{
	if (s->cur && atomic_load(&s->cur->done)) {
		xp_i3sess_free(s->cur);
		s->cur = NULL;
	}
}

static void new_test(struct xp_i3srv *s, int fd, const char *peer)
{
	struct xp_i3sess *t = calloc(1, sizeof(*t));
	struct xp_err err;

	if (t)
		t->res = malloc(sizeof(*t->res));
	if (!t || !t->res) {
		xp_log(s->cfg->log, "%s: iperf3 client: out of memory, closed", peer);
		if (t)
			free(t->res);
		free(t);
		close(fd);
		return;
	}
	t->cfg = s->cfg;
	t->mu = &s->mu;
	t->lst = &s->lst;
	t->ctl = fd;
	/* one-byte states back to back: Nagle would hold each behind the
	 * client's delayed ACK (iperf3 sets it too) */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &(int){ 1 }, sizeof(int));
	snprintf(t->peer, sizeof(t->peer), "%s", peer);
	t->peer_addr.len = sizeof(t->peer_addr.ss);
	getpeername(fd, (struct sockaddr *)&t->peer_addr.ss, &t->peer_addr.len);
	if (xp_i3sess_start(t, &err)) {
		xp_log(s->cfg->log, "%s: %s", peer, err.msg);
		free(t->res);
		free(t);
		close(fd);
		return;
	}
	s->cur = t;
}

/* Under mu: a TCP data stream of the running test, its cookie first. */
static int take_stream(struct xp_i3sess *t, int fd, const uint8_t *b, const char *peer)
{
	uint8_t c[XP_I3_COOKIE_LEN];
	uint32_t pos;

	if (t->phase != XP_I3P_STREAMS || t->udp || t->accepted >= t->want ||
	    memcmp(b, t->cookie, XP_I3_COOKIE_LEN))
		return -1;
	if (recv(fd, c, sizeof(c), MSG_DONTWAIT) != (ssize_t)sizeof(c))
		return -1;
	pos = t->accepted++;
	xp_i3sess_sockopts(t, fd, 0);
	xp_i3rep_addr(t, pos, fd);
	if (xp_i3_side_mail(&t->side, pos, fd)) {
		xp_log(t->cfg->log, "%s: iperf3 stream %u: worker mailbox full, closed", peer, pos);
		close(fd);
	}
	return 0;
}

int xp_i3srv_classify(struct xp_i3srv *s, int fd, const uint8_t *b, size_t n,
		      const char *peer)
{
	int c = xp_i3_cookie_check(b, n);
	uint8_t denied = (uint8_t)XP_I3_ACCESS_DENIED;

	if (c <= 0)
		return c;
	pthread_mutex_lock(&s->mu);
	reap(s);
	if (!s->cur) {
		new_test(s, fd, peer);
	} else if (take_stream(s->cur, fd, b, peer)) {
		if (send(fd, &denied, 1, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
			/* the client learns it from the close */
		}
		if (s->cfg->verbose)
			xp_log(s->cfg->log, "%s: iperf3 connection while an iperf3 test runs: "
			       "ACCESS_DENIED", peer);
		close(fd);
	}
	pthread_mutex_unlock(&s->mu);
	return 1;
}

/* The same host, whatever the ports and an IPv4 address seen through a
 * dual-stack socket (::ffff:a.b.c.d). */
static int same_host(const struct xp_addr *a, const struct xp_addr *b)
{
	uint8_t x[16], y[16];
	const struct xp_addr *ab[2] = { a, b };
	uint8_t *xy[2] = { x, y };
	int i;

	for (i = 0; i < 2; i++) {
		const struct sockaddr_in *s4 = (const void *)&ab[i]->ss;
		const struct sockaddr_in6 *s6 = (const void *)&ab[i]->ss;

		memset(xy[i], 0, 16);
		if (ab[i]->ss.ss_family == AF_INET) {
			xy[i][10] = xy[i][11] = 0xff;
			memcpy(xy[i] + 12, &s4->sin_addr, 4);
		} else if (ab[i]->ss.ss_family == AF_INET6) {
			memcpy(xy[i], &s6->sin6_addr, 16);
		} else {
			return 0;
		}
	}
	return !memcmp(x, y, 16);
}

static int udp_stream_socket(const struct xp_addr *local, const struct xp_addr *peer)
{
	struct xp_err err;
	int fd = xp_bind_udp(local, &err);

	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)&peer->ss, peer->len) ||
	    xp_set_nonblock(fd, 1)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Under mu: one UDP stream of the running test. */
static int take_udp(struct xp_i3sess *t, const uint8_t reply[4], const struct xp_addr *local,
		    const struct xp_addr *peer)
{
	uint32_t pos;
	int fd;

	if (t->phase != XP_I3P_STREAMS || !t->udp || t->accepted >= t->want ||
	    !same_host(&t->peer_addr, peer))
		return -1;
	fd = udp_stream_socket(local, peer);
	if (fd < 0 || send(fd, reply, 4, MSG_DONTWAIT) != 4) {
		xp_log(t->cfg->log, "%s: iperf3 UDP stream: %s", t->peer, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 0;
	}
	pos = t->accepted++;
	xp_i3sess_sockopts(t, fd, t->side.st[pos].sender);
	xp_i3rep_addr(t, pos, fd);
	if (xp_i3_side_mail(&t->side, pos, fd))
		close(fd);
	return 0;
}

int xp_i3srv_udp(struct xp_i3srv *s, const uint8_t *b, size_t n,
		 const struct xp_addr *local, const struct xp_addr *peer)
{
	uint8_t reply[4];
	int rc = -1;

	if (xp_i3_udp_connect_reply(b, n, reply))
		return -1;
	pthread_mutex_lock(&s->mu);
	if (s->cur)
		rc = take_udp(s->cur, reply, local, peer);
	pthread_mutex_unlock(&s->mu);
	return rc;
}

void xp_i3srv_set_listener(struct xp_i3srv *s, int fd)
{
	pthread_mutex_lock(&s->mu);
	s->lst.fd = fd;
	s->lst.tuned = 0;
	pthread_mutex_unlock(&s->mu);
}

int xp_i3srv_listener_stale(struct xp_i3srv *s)
{
	int stale;

	pthread_mutex_lock(&s->mu);
	reap(s);
	stale = s->lst.tuned && (!s->cur || s->cur->phase != XP_I3P_STREAMS);
	pthread_mutex_unlock(&s->mu);
	return stale;
}

int xp_i3srv_listener_tuned(struct xp_i3srv *s)
{
	int tuned;

	pthread_mutex_lock(&s->mu);
	tuned = s->lst.tuned;
	pthread_mutex_unlock(&s->mu);
	return tuned;
}

void xp_i3srv_free(struct xp_i3srv *s)
{
	struct xp_i3sess *t;

	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	t = s->cur;
	s->cur = NULL;
	pthread_mutex_unlock(&s->mu);
	if (t) {
		xp_i3sess_abort(t);
		xp_i3sess_free(t);
	}
	pthread_mutex_destroy(&s->mu);
	free(s);
}
