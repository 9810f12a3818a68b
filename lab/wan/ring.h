/* SPDX-License-Identifier: BSD-2-Clause */
/* One direction's held frames: a byte ring the frames are received into
 * directly (no copy on the way in, none on the way out: the send reads
 * them where they are), each behind a small record, and two FIFOs
 * threaded through it, the delayed frames and those sent ahead.  Each
 * FIFO is in release order by construction (lab/wan/sched.h), so the
 * next frame due is the earlier of the two heads: O(1) per frame.
 * Records are released out of ring order when frames are sent ahead; the
 * ring's space is reclaimed from its oldest record once that one is
 * released.  Pure: no I/O. */
#ifndef XP_WAN_RING_H
#define XP_WAN_RING_H

#include <stddef.h>
#include <stdint.h>

enum { XP_WAN_Q_DELAYED, XP_WAN_Q_AHEAD, XP_WAN_QUEUES };

#define XP_WAN_REC_DUP 1u   /* a duplicate's copy */
#define XP_WAN_REC_DONE 2u  /* released: its space is reclaimable */

struct xp_wan_rec {
	uint32_t size;        /* of the record with its frame, 8-aligned; 0: wrap */
	uint32_t len;         /* frame bytes (with the virtio-net header) */
	uint32_t next;        /* next record of the same FIFO (offset), or none */
	uint16_t flags;
	uint16_t segs;        /* wire packets it carries (a GSO frame: several) */
	uint32_t wire;        /* wire bytes: its packets' Ethernet frames */
	uint32_t udp;         /* test datagrams in it (UDP data; 0: none) */
	uint32_t flow;        /* its flow's slot (lab/wan/frame.h) */
	uint32_t pad;
	uint64_t release_ns;
	uint64_t index;       /* arrival number; a copy has its original's */
};

struct xp_wan_ring {
	uint8_t *buf;
	size_t size;
	size_t head, tail;    /* oldest record; where the next one goes */
	size_t used;          /* bytes from head to tail, wrap waste included */
	uint64_t held_bytes;  /* frame bytes not yet released */
	uint32_t held;        /* frames not yet released */
	uint32_t first[XP_WAN_QUEUES], last[XP_WAN_QUEUES];
};

/* A ring of size bytes (rounded up to 8).  0, or -1 if out of memory. */
int xp_wan_ring_init(struct xp_wan_ring *r, size_t size);
void xp_wan_ring_free(struct xp_wan_ring *r);
/* Where a frame of up to max bytes can be written at the tail, or NULL
 * if the ring has no such room now. */
uint8_t *xp_wan_ring_space(struct xp_wan_ring *r, uint32_t max);
/* Append the frame of len bytes just written at the space returned (with
 * a max no smaller than len) to FIFO q; the caller fills the record's
 * other fields. */
struct xp_wan_rec *xp_wan_ring_push(struct xp_wan_ring *r, int q, uint32_t len);
/* The oldest record of FIFO q, or NULL. */
struct xp_wan_rec *xp_wan_ring_first(const struct xp_wan_ring *r, int q);
/* The record after rec in its FIFO, or NULL. */
struct xp_wan_rec *xp_wan_ring_after(const struct xp_wan_ring *r,
				     const struct xp_wan_rec *rec);
/* The FIFO whose first record is released first (-1: both empty). */
int xp_wan_ring_next_q(const struct xp_wan_ring *r);
/* Release the oldest record of FIFO q. */
void xp_wan_ring_pop(struct xp_wan_ring *r, int q);

static inline uint8_t *xp_wan_rec_data(struct xp_wan_rec *rec)
{
	return (uint8_t *)(rec + 1);
}

#endif
