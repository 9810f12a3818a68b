/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/sockpath.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <linux/in6.h> /* struct in6_flowlabel_req (after netinet/in.h) */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef SOL_MPTCP
#define SOL_MPTCP 284
#endif
#define XP_MPTCP_INFO 1 /* linux/mptcp.h */

#define PROC_CC_AVAIL "/proc/sys/net/ipv4/tcp_available_congestion_control"
#define PROC_CC_ALLOWED "/proc/sys/net/ipv4/tcp_allowed_congestion_control"
#define PROC_TFO "/proc/sys/net/ipv4/tcp_fastopen"
#define PROC_MPTCP "/proc/sys/net/mptcp/enabled"

static int set_int(int fd, int level, int name, int val)
{
	return setsockopt(fd, level, name, &val, sizeof(val));
}

static int sock_family(int fd)
{
	int v = 0;
	socklen_t len = sizeof(v);

	return getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &v, &len) ? -1 : v;
}

/* A small /proc file, its trailing newline dropped.  0 or -1. */
static int read_proc(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	return 0;
}

/* 1 if fd is connected to an IPv4 peer through a v4-mapped address. */
static int v4_mapped_peer(int fd)
{
	struct sockaddr_in6 p;
	socklen_t len = sizeof(p);

	return getpeername(fd, (struct sockaddr *)&p, &len) == 0 && p.sin6_family == AF_INET6 &&
	       IN6_IS_ADDR_V4MAPPED(&p.sin6_addr);
}

/* On an IPv6 socket the traffic class, and IP_TOS too: an IPv4 peer of a
 * dual-stack socket (a v4-mapped address) gets its packets' TOS there.
 * MPTCP sockets take IP_TOS but refuse IPV6_TCLASS (EOPNOTSUPP), which is
 * then only an error for a true IPv6 peer. */
static int set_tos(int fd, int tos, struct xp_err *err)
{
	if (sock_family(fd) == AF_INET6) {
		int v4 = set_int(fd, IPPROTO_IP, IP_TOS, tos) == 0, e;

		if (!set_int(fd, IPPROTO_IPV6, IPV6_TCLASS, tos))
			return 0;
		e = errno;
		if (v4 && v4_mapped_peer(fd))
			return 0;
		return xp_err_sys(err, e, "setsockopt IPV6_TCLASS 0x%02x", tos);
	}
	if (set_int(fd, IPPROTO_IP, IP_TOS, tos))
		return xp_err_sys(err, errno, "setsockopt IP_TOS 0x%02x", tos);
	return 0;
}

static int set_cc(int fd, const char *cc, struct xp_err *err)
{
	char avail[512] = "";
	int e;

	if (!setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, (socklen_t)strlen(cc)))
		return 0;
	e = errno;
	if (e == EPERM && !read_proc(PROC_CC_ALLOWED, avail, sizeof(avail)))
		return xp_err_sys(err, e, "setsockopt TCP_CONGESTION %s (without CAP_NET_ADMIN "
				  "only net.ipv4.tcp_allowed_congestion_control: %s)", cc, avail);
	if (!read_proc(PROC_CC_AVAIL, avail, sizeof(avail)))
		return xp_err_sys(err, e, "setsockopt TCP_CONGESTION %s (available: %s)", cc,
				  avail);
	return xp_err_sys(err, e, "setsockopt TCP_CONGESTION %s", cc);
}

int xp_sock_path_apply(int fd, int type, const struct xp_sockopts *so, struct xp_err *err)
{
	if (so->tos_set && set_tos(fd, so->tos, err))
		return -1;
	if (type != SOCK_STREAM)
		return 0;
	if (so->cc[0] && set_cc(fd, so->cc, err))
		return -1;
	if (so->mss && set_int(fd, IPPROTO_TCP, TCP_MAXSEG, (int)so->mss))
		return xp_err_sys(err, errno, "setsockopt TCP_MAXSEG %u", so->mss);
	return 0;
}

/* Bind to so->local (or the wildcard address of `family`) with port
 * lport, or so->local's own port when lport is 0. */
static int bind_local(int fd, int family, const struct xp_sockopts *so, uint16_t lport,
		      struct xp_err *err)
{
	struct xp_addr a;
	char as[80];

	if (so->local.len) {
		a = so->local;
	} else {
		memset(&a, 0, sizeof(a));
		a.ss.ss_family = (sa_family_t)family;
		a.len = family == AF_INET6 ? sizeof(struct sockaddr_in6)
					   : sizeof(struct sockaddr_in);
	}
	if (lport)
		xp_addr_set_port(&a, lport);
	if (a.ss.ss_family != family)
		return xp_err_set(err, "bind %s: the server's address is IPv%d",
				  xp_addr_str(&a, as, sizeof(as)), family == AF_INET6 ? 6 : 4);
	if (xp_addr_port(&a))
		set_int(fd, SOL_SOCKET, SO_REUSEADDR, 1); /* a port a past run left in TIME_WAIT */
	else /* the port is chosen at connect(), per destination, not at bind() */
		set_int(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1);
	if (bind(fd, (const struct sockaddr *)&a.ss, a.len))
		return xp_err_sys(err, errno, "bind %s", xp_addr_str(&a, as, sizeof(as)));
	return 0;
}

static int setup_client(int fd, int family, int base, const struct xp_sockopts *so,
			uint16_t lport, struct xp_err *err)
{
	if (xp_apply_sockopts(fd, base, so, err))
		return -1;
	if (so->fastopen && base == SOCK_STREAM &&
	    set_int(fd, IPPROTO_TCP, TCP_FASTOPEN_CONNECT, 1))
		return xp_err_sys(err, errno, "setsockopt TCP_FASTOPEN_CONNECT");
	if (so->bind_dev && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, so->bind_dev,
				       (socklen_t)strlen(so->bind_dev) + 1))
		return xp_err_sys(err, errno, "setsockopt SO_BINDTODEVICE %s", so->bind_dev);
	if ((so->local.len || lport) && bind_local(fd, family, so, lport, err))
		return -1;
	return 0;
}

int xp_sock_client(int family, int type, const struct xp_sockopts *so, uint16_t lport,
		   struct xp_err *err)
{
	int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
	int proto = so->mptcp && base == SOCK_STREAM ? IPPROTO_MPTCP : 0;
	int fd = socket(family, type | SOCK_CLOEXEC, proto);

	if (fd < 0)
		return xp_err_sys(err, errno, "socket%s", proto ? " IPPROTO_MPTCP" : "");
	if (setup_client(fd, family, base, so, lport, err)) {
		close(fd);
		return -1;
	}
	return fd;
}

int xp_sock_flowlabel(int fd, struct xp_addr *dst, uint32_t label, struct xp_err *err)
{
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&dst->ss;
	struct in6_flowlabel_req req;

	if (dst->ss.ss_family != AF_INET6)
		return xp_err_set(err, "--flowlabel %u: the server's address is not IPv6", label);
	memset(&req, 0, sizeof(req));
	req.flr_dst = s6->sin6_addr;
	req.flr_label = htonl(label & IPV6_FLOWINFO_FLOWLABEL);
	req.flr_action = IPV6_FL_A_GET;
	req.flr_flags = IPV6_FL_F_CREATE;
	req.flr_share = IPV6_FL_S_ANY; /* every flow of the test shares the label */
	if (setsockopt(fd, IPPROTO_IPV6, IPV6_FLOWLABEL_MGR, &req, sizeof(req)))
		return xp_err_sys(err, errno, "setsockopt IPV6_FLOWLABEL_MGR %u", label);
	if (set_int(fd, IPPROTO_IPV6, IPV6_FLOWINFO_SEND, 1))
		return xp_err_sys(err, errno, "setsockopt IPV6_FLOWINFO_SEND");
	s6->sin6_flowinfo = req.flr_label;
	return 0;
}

/* 1 if `name` is a word of the space-separated list. */
static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name)) != NULL) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
			return 1;
		p += n;
	}
	return 0;
}

int xp_cc_check(const char *name, const char *who, struct xp_err *err)
{
	char avail[512], allowed[512];

	if (read_proc(PROC_CC_AVAIL, avail, sizeof(avail)))
		return 0; /* no /proc here: setsockopt will say */
	if (!in_list(avail, name))
		return xp_err_set(err, "%s: congestion control '%s' is not available in this "
				  "kernel (net.ipv4.tcp_available_congestion_control: %s; a "
				  "module may be missing)", who, name, avail);
	if (geteuid() != 0 && !read_proc(PROC_CC_ALLOWED, allowed, sizeof(allowed)) &&
	    !in_list(allowed, name))
		return xp_err_set(err, "%s: congestion control '%s' is available but not "
				  "allowed to a process without CAP_NET_ADMIN "
				  "(net.ipv4.tcp_allowed_congestion_control: %s)", who, name,
				  allowed);
	return 0;
}

int xp_tfo_check(int bit, const char *who, struct xp_err *err)
{
	char v[32];
	int bits;

	if (read_proc(PROC_TFO, v, sizeof(v)) || sscanf(v, "%i", &bits) != 1)
		return xp_err_set(err, "%s: cannot read net.ipv4.tcp_fastopen (" PROC_TFO ")",
				  who);
	if (bits & bit)
		return 0;
	return xp_err_set(err, "%s: TCP Fast Open is off for %ss here: net.ipv4.tcp_fastopen "
			  "is %d, without bit %d (sysctl -w net.ipv4.tcp_fastopen=%d)", who,
			  bit == 1 ? "client" : "server", bits, bit, bits | bit);
}

int xp_mptcp_check(const char *who, struct xp_err *err)
{
	char v[32];
	int fd;

	if (read_proc(PROC_MPTCP, v, sizeof(v)))
		return xp_err_set(err, "%s: this kernel has no MPTCP (no " PROC_MPTCP ")", who);
	if (strcmp(v, "1"))
		return xp_err_set(err, "%s: MPTCP is off here: net.mptcp.enabled is %s "
				  "(sysctl -w net.mptcp.enabled=1)", who, v);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_MPTCP);
	if (fd < 0)
		return xp_err_sys(err, errno, "%s: socket IPPROTO_MPTCP", who);
	close(fd);
	return 0;
}

void xp_sock_cc(int fd, char *buf, size_t len)
{
	socklen_t n = (socklen_t)(len - 1);

	memset(buf, 0, len);
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, buf, &n))
		buf[0] = 0;
	buf[len - 1] = 0;
}

int xp_sock_is_mptcp(int fd)
{
	unsigned char info[256];
	socklen_t n = sizeof(info);

	/* a fallen-back or plain TCP socket refuses MPTCP_INFO */
	return getsockopt(fd, SOL_MPTCP, XP_MPTCP_INFO, info, &n) == 0 && n > 0;
}

/* The connection's TCP_INFO, zeroed where the kernel gave none. */
static struct tcp_info tcp_info_of(int fd)
{
	struct tcp_info ti;
	socklen_t n = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &n))
		memset(&ti, 0, sizeof(ti));
	return ti;
}

int xp_sock_syn_data(int fd)
{
	return (tcp_info_of(fd).tcpi_options & TCPI_OPT_SYN_DATA) != 0;
}

uint64_t xp_sock_rtt_bound_ns(int fd)
{
	struct tcp_info ti = tcp_info_of(fd);

	return ((uint64_t)ti.tcpi_rtt + 4ull * ti.tcpi_rttvar) * 1000;
}

uint32_t xp_sock_srtt_us(int fd)
{
	return tcp_info_of(fd).tcpi_rtt;
}

int xp_apply_sockopts(int fd, int type, const struct xp_sockopts *so,
		      struct xp_err *err)
{
	if (so->nodelay && type == SOCK_STREAM &&
	    set_int(fd, IPPROTO_TCP, TCP_NODELAY, 1))
		return xp_err_sys(err, errno, "setsockopt TCP_NODELAY");
	if (so->sndbuf && set_int(fd, SOL_SOCKET, SO_SNDBUF, (int)so->sndbuf))
		return xp_err_sys(err, errno, "setsockopt SO_SNDBUF %llu",
				  (unsigned long long)so->sndbuf);
	if (so->rcvbuf && set_int(fd, SOL_SOCKET, SO_RCVBUF, (int)so->rcvbuf))
		return xp_err_sys(err, errno, "setsockopt SO_RCVBUF %llu",
				  (unsigned long long)so->rcvbuf);
	if (so->busy_poll_us && set_int(fd, SOL_SOCKET, SO_BUSY_POLL, (int)so->busy_poll_us))
		return xp_err_sys(err, errno, "setsockopt SO_BUSY_POLL %llu",
				  (unsigned long long)so->busy_poll_us);
	if (so->pacing_Bps) {
		unsigned long rate = (unsigned long)so->pacing_Bps;

		if (setsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &rate, sizeof(rate)))
			return xp_err_sys(err, errno, "setsockopt SO_MAX_PACING_RATE %lu", rate);
	}
	return xp_sock_path_apply(fd, type, so, err);
}
