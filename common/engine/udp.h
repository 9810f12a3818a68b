/* SPDX-License-Identifier: BSD-2-Clause */
/* What the UDP engines (common/engine/udp.c, udp_rr.c) share. */
#ifndef XP_ENGINE_UDP_INT_H
#define XP_ENGINE_UDP_INT_H

#include <stddef.h>
#include <sys/socket.h>
#include <time.h>

#include "common/engine/engines.h"

#define XP_UDP_RX_VLEN 16 /* messages per recvmmsg */
/* A UDP bulk datagram's sequence number with this bit set was sent in the
 * measured part (after --omit); receivers count only those then. */
#define XP_UDP_MEASURED (1ull << 63)
/* Control data per received message: UDP_GRO's segment size and the
 * kernel's receive time (SO_TIMESTAMPNS). */
#define XP_UDP_CTL_LEN (CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(struct timespec)))

/* Batches for sendmmsg and recvmmsg: one area per worker, shared by its
 * flows (used one call at a time). */
struct xp_mmsg {
	struct mmsghdr msgs[XP_UDP_BATCH];
	struct iovec iov[XP_UDP_BATCH];
	char ctl[XP_UDP_RX_VLEN][XP_UDP_CTL_LEN];
	char *bufs;
	size_t bufsz;
};

/* The worker's batch area with receive buffers of at least bufsz bytes;
 * NULL when out of memory. */
struct xp_mmsg *xp_udp_mmsg_get(struct xp_worker *w, size_t bufsz);
/* sendmmsg of n datagrams of the run's request size from the worker's
 * txbuf (laid out one after the other), non-blocking: what sendmmsg
 * returned, or -1 with errno ENOMEM when the batch area cannot be had. */
int xp_udp_send_txbuf(struct xp_worker *w, int fd, uint32_t n);
/* Datagrams per send: XP_UDP_BATCH, fewer when GSO's 64 KiB or the
 * pacing burst allows fewer; at least 1. */
uint32_t xp_udp_batch_size(const struct xp_worker *w, int gso);
/* A datagram that is this test's UDP confirm (proto/hello.h: a client
 * repeats it until the server's flow socket echoes it). */
int xp_udp_is_hello(const struct xp_worker *w, const void *buf, size_t n);
/* A send or receive error that does not end a UDP flow: EAGAIN, EINTR,
 * ECONNREFUSED (an ICMP error for an earlier datagram), ENOBUFS (a full
 * device queue). */
int xp_udp_soft_error(int e);
/* After a failed send (errno set): 0 to try again later (counted when
 * it is an error the network reported), -1 when the flow failed. */
int xp_udp_send_error(struct xp_flow *f);

#endif
