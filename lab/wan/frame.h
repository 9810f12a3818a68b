/* SPDX-License-Identifier: BSD-2-Clause */
/* What the delay line reads of a frame: its virtio-net header (a GSO
 * frame carries several wire packets), Ethernet, IPv4 or IPv6, TCP or
 * UDP.  From that: how many wire packets and wire bytes it stands for,
 * its flow (for counting frames that arrive after a later frame of the
 * same flow, which is what a receiver counts as out of order), and how
 * many of xperf's test datagrams it holds: every UDP datagram but the
 * UDP handshake's hello, challenge and confirm, so that the line's UDP
 * counts are the ones a UDP test's receiver can be held to.  IP fragments
 * (and IPv6 extension headers) are read as frames of no flow and no
 * datagram: a fragment is not a datagram.  Pure. */
#ifndef XP_WAN_FRAME_H
#define XP_WAN_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define XP_WAN_VNET_LEN 10 /* struct virtio_net_hdr */
#define XP_WAN_FLOWS 1024  /* flows told apart; more share slots */

struct xp_wan_frame {
	uint32_t segs;      /* wire packets (1 unless GSO) */
	uint32_t wire;      /* their Ethernet frames' bytes (no preamble/FCS) */
	uint32_t udp;       /* test datagrams (0 unless UDP data) */
	uint32_t tcp;       /* a TCP segment (1) or not (0) */
	uint64_t flow_hash; /* 0: not TCP or UDP over IP */
};

/* Read frame p of len bytes (virtio-net header first). */
void xp_wan_frame_read(const uint8_t *p, size_t len, struct xp_wan_frame *f);

/* Flows by hash, each with the newest arrival number released so far. */
struct xp_wan_flows {
	uint64_t hash[XP_WAN_FLOWS];
	uint64_t newest[XP_WAN_FLOWS]; /* arrival number + 1 (0: none yet) */
};

/* The slot of a flow (an empty one is taken; when none is left, the
 * flows share the slot their hash points at). */
uint32_t xp_wan_flow_slot(struct xp_wan_flows *t, uint64_t hash);
/* A frame of arrival number index of the flow in slot is released:
 * 1 if a later arrival of that flow left before it (it is late). */
int xp_wan_flow_release(struct xp_wan_flows *t, uint32_t slot, uint64_t index);

#endif
