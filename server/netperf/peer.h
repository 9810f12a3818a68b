/* SPDX-License-Identifier: BSD-2-Clause */
/* A netperf client calling an xperf server: recognised by its first
 * bytes and answered as a netserver that does not offer the test, so
 * that netperf says at once what is wrong ("netperf: remote error 93",
 * "Protocol not supported") instead of "Connection reset by peer". */
#ifndef XP_NETPERF_PEER_H
#define XP_NETPERF_PEER_H

#include <stddef.h>
#include <stdint.h>

/* 1 if b[0..n) starts as netperf's 656-byte control request: a request
 * type from 1 to 1000, then the remote CPU to bind to (0xffffffff for
 * none, or a CPU number below 4096), both big-endian. */
int xp_netperf_request(const uint8_t *b, size_t n);

/* Read the request (its first segment, so that closing sends FIN, not
 * RST), answer it with netperf's 656-byte response (type = request + 1,
 * serv_errno = EPROTONOSUPPORT) and shut the write side.  The caller
 * closes fd.  Returns the request type. */
unsigned xp_netperf_refuse(int fd, const uint8_t *b);

#endif
