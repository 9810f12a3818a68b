/* SPDX-License-Identifier: BSD-2-Clause */
/* The client's side of the UDP flow handshake (proto/hello.h). */
#ifndef XP_CLIENT_UDP_HELLO_H
#define XP_CLIENT_UDP_HELLO_H

#include <stdint.h>
#include <sys/types.h>

#include "common/err.h"

/* On fd, a UDP socket connected to the server: the hello, repeated every
 * 100 ms until the server's challenge comes, then the confirm, repeated
 * until the flow's socket echoes it; at most 50 sends, and not past
 * deadline (xp_now_ns time).  peer names the server in errors.  0 or -1. */
int xp_udp_handshake(int fd, uint64_t cookie, uint32_t idx, uint64_t deadline,
		     const char *peer, struct xp_err *err);

/* One datagram received during the handshake (n bytes at b; n < 0: none).
 * out holds what the client sends (*len bytes: the hello, then the
 * confirm).  1: the echo of our confirm (done); 2: the server's challenge
 * for flow idx (out and *len now hold the confirm); 0: anything else. */
int xp_udp_answer(const uint8_t *b, ssize_t n, uint64_t cookie, uint32_t idx,
		  uint8_t *out, size_t *len);

#endif
