/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/sock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/sockpath.h"

static int set_int(int fd, int level, int name, int val)
{
	return setsockopt(fd, level, name, &val, sizeof(val));
}

static int bind_socket(int type, int proto, const struct xp_addr *a, int reuseport,
		       struct xp_err *err)
{
	char as[80];
	int fd = socket(a->ss.ss_family, type | SOCK_CLOEXEC, proto);

	if (fd < 0)
		return xp_err_sys(err, errno, "socket %s", xp_addr_str(a, as, sizeof(as)));
	set_int(fd, SOL_SOCKET, SO_REUSEADDR, 1);
	if (reuseport)
		set_int(fd, SOL_SOCKET, SO_REUSEPORT, 1);
	if (a->ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)&a->ss;

		set_int(fd, IPPROTO_IPV6, IPV6_V6ONLY,
			!IN6_IS_ADDR_UNSPECIFIED(&s6->sin6_addr));
	}
	if (bind(fd, (const struct sockaddr *)&a->ss, a->len)) {
		int e = errno;

		close(fd);
		return xp_err_sys(err, e, "bind %s%s", type == SOCK_DGRAM ? "udp " : "",
				  xp_addr_str(a, as, sizeof(as)));
	}
	return fd;
}

int xp_listen_tcp(const struct xp_addr *a, int backlog, struct xp_err *err)
{
	return xp_listen_stream(a, backlog, 0, err);
}

int xp_listen_stream(const struct xp_addr *a, int backlog, int proto, struct xp_err *err)
{
	char as[80];
	int fd = bind_socket(SOCK_STREAM, proto, a, 0, err);

	if (fd < 0)
		return -1;
	if (listen(fd, backlog)) {
		int e = errno;

		close(fd);
		return xp_err_sys(err, e, "listen %s", xp_addr_str(a, as, sizeof(as)));
	}
	return fd;
}

int xp_bind_udp(const struct xp_addr *a, struct xp_err *err)
{
	return bind_socket(SOCK_DGRAM, 0, a, 1, err);
}

int xp_set_nonblock(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -1;
	fl = on ? (fl | O_NONBLOCK) : (fl & ~O_NONBLOCK);
	return fcntl(fd, F_SETFL, fl);
}

static int wait_connected(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	socklen_t sl = sizeof(int);
	int rc, soerr = 0;

	rc = poll(&p, 1, timeout_ms);
	if (rc == 0)
		return ETIMEDOUT;
	if (rc < 0)
		return errno;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl))
		return errno;
	return soerr;
}

int xp_connect_tcp(const struct xp_addr *a, const struct xp_sockopts *so,
		   int timeout_ms, struct xp_err *err)
{
	return xp_connect_tcp_port(a, so, 0, timeout_ms, err);
}

int xp_connect_tcp_port(const struct xp_addr *a, const struct xp_sockopts *so,
			uint16_t lport, int timeout_ms, struct xp_err *err)
{
	struct xp_addr dst = *a;
	char as[80];
	int e, fd = so ? xp_sock_client(a->ss.ss_family, SOCK_STREAM, so, lport, err)
		       : socket(a->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return so ? -1 : xp_err_sys(err, errno, "socket");
	if (so && so->flowlabel && xp_sock_flowlabel(fd, &dst, so->flowlabel, err)) {
		close(fd);
		return -1;
	}
	xp_set_nonblock(fd, 1);
	e = connect(fd, (const struct sockaddr *)&dst.ss, dst.len) ? errno : 0;
	if (e == EINPROGRESS)
		e = wait_connected(fd, timeout_ms);
	if (e) {
		close(fd);
		if (e == EADDRNOTAVAIL) /* every local port toward a taken */
			return xp_err_sys(err, e, "connect %s (no free local port: see "
					  "net.ipv4.ip_local_port_range, and TIME_WAIT "
					  "connections of earlier tests in `ss -s`)",
					  xp_addr_str(a, as, sizeof(as)));
		return xp_err_sys(err, e, "connect %s", xp_addr_str(a, as, sizeof(as)));
	}
	xp_set_nonblock(fd, 0);
	return fd;
}

static int wait_io(int fd, short ev, uint64_t deadline)
{
	uint64_t now = xp_now_ns();
	struct pollfd p = { .fd = fd, .events = ev };
	int rc;

	if (now >= deadline)
		return ETIMEDOUT;
	rc = poll(&p, 1, (int)((deadline - now) / XP_NS_PER_MS) + 1);
	if (rc == 0)
		return ETIMEDOUT;
	return rc < 0 && errno != EINTR ? errno : 0;
}

int xp_send_all(int fd, const void *buf, size_t len, int timeout_ms,
		const char *what, struct xp_err *err)
{
	uint64_t deadline = xp_now_ns() + (uint64_t)timeout_ms * XP_NS_PER_MS;
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		int e;

		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return xp_err_sys(err, errno, "send to %s", what);
		e = wait_io(fd, POLLOUT, deadline);
		if (e)
			return xp_err_sys(err, e, "send to %s", what);
	}
	return 0;
}

int xp_recv_all(int fd, void *buf, size_t len, int timeout_ms,
		const char *what, struct xp_err *err)
{
	uint64_t deadline = xp_now_ns() + (uint64_t)timeout_ms * XP_NS_PER_MS;
	char *p = buf;

	while (len) {
		ssize_t n = recv(fd, p, len, MSG_DONTWAIT);
		int e;

		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n == 0)
			return xp_err_set(err, "receive from %s: connection closed by peer",
					  what);
		if (errno != EAGAIN && errno != EINTR)
			return xp_err_sys(err, errno, "receive from %s", what);
		e = wait_io(fd, POLLIN, deadline);
		if (e == ETIMEDOUT)
			return xp_err_set(err, "receive from %s: no answer within %d ms",
					  what, timeout_ms);
		if (e)
			return xp_err_sys(err, e, "receive from %s", what);
	}
	return 0;
}
