/* SPDX-License-Identifier: BSD-2-Clause */
/* The UDP flow handshake (protocol version 2), after the data hello of
 * proto/msg.h.  A UDP flow is registered only once its client has shown
 * that it receives at the address the hello came from, so that a hello
 * with a forged source address cannot aim the server's traffic at someone
 * else (proto/PROTOCOL.md section 6.2):
 *
 *   client -> server  HELLO      "XPDT" | cookie u64 | flow u32           16 bytes
 *   server -> client  CHALLENGE  "XPDN" | flow u32 | nonce u64            16 bytes
 *   client -> server  CONFIRM    "XPDC" | cookie u64 | flow u32 | nonce u64  24 bytes
 *   server -> client  the CONFIRM echoed, from the flow's own socket    24 bytes
 *
 * Every answer is no larger than what it answers, and the server answers
 * only hellos from the address of the test's control connection.  All
 * big-endian.  Pure functions: no I/O. */
#ifndef XP_PROTO_HELLO_H
#define XP_PROTO_HELLO_H

#include <stddef.h>
#include <stdint.h>

#define XP_UDP_CHALLENGE_MAGIC 0x5850444eu /* "XPDN" */
#define XP_UDP_CONFIRM_MAGIC 0x58504443u   /* "XPDC" */
#define XP_UDP_CHALLENGE_LEN 16
#define XP_UDP_CONFIRM_LEN 24

void xp_udp_challenge_encode(uint8_t *buf, uint32_t flow, uint64_t nonce);
/* 0 if buf holds exactly a challenge (len == XP_UDP_CHALLENGE_LEN and the
 * magic), else -1.  Outputs may be NULL. */
int xp_udp_challenge_decode(const uint8_t *buf, size_t len, uint32_t *flow,
			    uint64_t *nonce);

void xp_udp_confirm_encode(uint8_t *buf, uint64_t cookie, uint32_t flow,
			   uint64_t nonce);
/* 0 if buf holds exactly a confirm, else -1.  Outputs may be NULL. */
int xp_udp_confirm_decode(const uint8_t *buf, size_t len, uint64_t *cookie,
			  uint32_t *flow, uint64_t *nonce);

#endif
