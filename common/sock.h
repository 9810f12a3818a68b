/* SPDX-License-Identifier: BSD-2-Clause */
/* Socket helpers.  Each returns a file descriptor or 0 on success, or -1
 * with a message naming the call, the address and the reason. */
#ifndef XP_SOCK_H
#define XP_SOCK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "common/addr.h"
#include "common/err.h"
#include "proto/result.h" /* XP_CC_NAME_MAX */

/* Listening TCP socket (SO_REUSEADDR; dual-stack when a is "::"). */
int xp_listen_tcp(const struct xp_addr *a, int backlog, struct xp_err *err);
/* The same with protocol proto (0 or IPPROTO_MPTCP). */
int xp_listen_stream(const struct xp_addr *a, int backlog, int proto, struct xp_err *err);
/* UDP socket bound to a with SO_REUSEADDR and SO_REUSEPORT, so that
 * per-flow sockets connected to a client can share the port. */
int xp_bind_udp(const struct xp_addr *a, struct xp_err *err);

/* Blocking connect with a timeout; applies nodelay and buffer sizes
 * before connecting (window scaling is negotiated in the SYN). */
struct xp_sockopts {
	int nodelay;
	uint64_t sndbuf, rcvbuf;
	uint64_t busy_poll_us; /* SO_BUSY_POLL */
	uint64_t pacing_Bps;   /* SO_MAX_PACING_RATE, bytes/s */
	/* Socket and path (common/sockpath.h); all zero: the kernel's. */
	char cc[XP_CC_NAME_MAX]; /* TCP_CONGESTION, "" = default */
	int tos_set;           /* IP_TOS / IPV6_TCLASS tos, when tos_set */
	uint8_t tos;
	uint32_t mss;          /* TCP_MAXSEG before connect */
	/* ... sockets the client opens (xp_sock_client) */
	int mptcp;             /* TCP: IPPROTO_MPTCP */
	int fastopen;          /* TCP: TCP_FASTOPEN_CONNECT */
	uint32_t flowlabel;    /* IPv6 flow label (xp_sock_flowlabel) */
	const char *bind_dev;  /* SO_BINDTODEVICE */
	struct xp_addr local;  /* bind here first (local.len 0: only with a port) */
};
int xp_connect_tcp(const struct xp_addr *a, const struct xp_sockopts *so,
		   int timeout_ms, struct xp_err *err);
/* The same from local port lport (0: so->local's, or any). */
int xp_connect_tcp_port(const struct xp_addr *a, const struct xp_sockopts *so,
			uint16_t lport, int timeout_ms, struct xp_err *err);
int xp_apply_sockopts(int fd, int type, const struct xp_sockopts *so,
		      struct xp_err *err);

int xp_set_nonblock(int fd, int on);

/* Send/receive exactly len bytes on a blocking or non-blocking socket,
 * waiting at most timeout_ms in total.  recv returns -1 with "connection
 * closed by peer" on EOF.  what names the peer/purpose in errors. */
int xp_send_all(int fd, const void *buf, size_t len, int timeout_ms,
		const char *what, struct xp_err *err);
int xp_recv_all(int fd, void *buf, size_t len, int timeout_ms,
		const char *what, struct xp_err *err);

#endif
