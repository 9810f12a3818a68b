/* SPDX-License-Identifier: BSD-2-Clause */
/* Socket- and path-level options: the TOS byte, the congestion control,
 * the MSS, MPTCP, TCP Fast Open, the IPv6 flow label, the local address
 * and device of the sockets a client opens; what the kernel offers of
 * them; and what a socket ended up with.  Each returns 0 (or a file
 * descriptor) on success, or -1 with a message naming the call, the value
 * and the reason. */
#ifndef XP_SOCKPATH_H
#define XP_SOCKPATH_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "common/sock.h"

/* so's TOS (IP_TOS, and IPV6_TCLASS on an IPv6 socket), TCP_CONGESTION
 * and TCP_MAXSEG on fd (type SOCK_STREAM or SOCK_DGRAM); the ones not
 * asked for are left alone.  xp_apply_sockopts calls it. */
int xp_sock_path_apply(int fd, int type, const struct xp_sockopts *so, struct xp_err *err);

/* A socket a client opens: family, type (SOCK_STREAM or SOCK_DGRAM,
 * possibly | SOCK_NONBLOCK), IPPROTO_MPTCP when so->mptcp (TCP), every
 * option of so (xp_apply_sockopts), TCP_FASTOPEN_CONNECT when
 * so->fastopen, SO_BINDTODEVICE so->bind_dev, and bound to so->local with
 * port lport (0: so->local's port; no so->local: the wildcard address).
 * Not connected. */
int xp_sock_client(int family, int type, const struct xp_sockopts *so, uint16_t lport,
		   struct xp_err *err);

/* IPv6 flow label `label` for the connection fd is about to make to dst:
 * a label lease (IPV6_FLOWLABEL_MGR), IPV6_FLOWINFO_SEND, and dst's
 * sin6_flowinfo set to it. */
int xp_sock_flowlabel(int fd, struct xp_addr *dst, uint32_t label, struct xp_err *err);

/* What the kernel offers, checked before a test asks for it.  `who`
 * names the host in messages ("client", "server").
 * Congestion control `name`: in tcp_available_congestion_control (and
 * for a process that is not root, tcp_allowed_congestion_control); the
 * message lists what there is. */
int xp_cc_check(const char *name, const char *who, struct xp_err *err);
/* net.ipv4.tcp_fastopen has bit `bit` (1: client, 2: server). */
int xp_tfo_check(int bit, const char *who, struct xp_err *err);
/* net.mptcp.enabled is 1 and an MPTCP socket can be made. */
int xp_mptcp_check(const char *who, struct xp_err *err);

/* What a socket ended up with. */
/* Its congestion control into buf ("" when not TCP or unknown). */
void xp_sock_cc(int fd, char *buf, size_t len);
/* 1 if it is an MPTCP connection that did not fall back to TCP. */
int xp_sock_is_mptcp(int fd);
/* 1 if its SYN carried data that the other end took (TCP Fast Open). */
int xp_sock_syn_data(int fd);
/* A TCP connection's smoothed round trip plus four times its variation
 * (the kernel's view, in ns: about its retransmission timeout without
 * the floor); 0 when unknown. */
uint64_t xp_sock_rtt_bound_ns(int fd);
/* A TCP connection's smoothed round trip in us (the handshake's on a
 * socket that has only received); 0 when unknown. */
uint32_t xp_sock_srtt_us(int fd);

#endif
