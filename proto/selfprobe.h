/* SPDX-License-Identifier: BSD-2-Clause */
/* A TCP load flow that carries self probes (SETUP flag
 * XP_SETUP_F_SELF_PROBES, -t RRUL's load; proto/PROTOCOL.md section 12).
 * Its bulk direction is cut into records, each opening with a 16-byte
 * header: "XSRF" (filler: XP_SELF_REC bytes in all) or "XSRP" (a probe:
 * the header alone), then a 32-bit sequence number and a 64-bit stamp,
 * big-endian.  The
 * other, idle direction carries bare 16-byte probe headers.  The client
 * sends a probe (a record in its bulk direction, or a bare header in the
 * idle one) and the server echoes its number and stamp the other way: a
 * bare header when the client is the bulk sender, else the next record
 * it starts.  The stamp is the client's own clock: only it reads it. */
#ifndef XP_PROTO_SELFPROBE_H
#define XP_PROTO_SELFPROBE_H

#include <stdint.h>

#define XP_SELF_REC 16384u /* record: an HTTP/2 frame's default most */
#define XP_SELF_HDR 16u

enum xp_self_kind { XP_SELF_FILL = 'F', XP_SELF_PROBE = 'P' };

struct xp_self_hdr {
	uint8_t kind;   /* enum xp_self_kind */
	uint32_t seq;
	uint64_t stamp;
};

/* The length of a record of this kind, its header included. */
static inline uint32_t xp_self_len(uint8_t kind)
{
	return kind == XP_SELF_PROBE ? XP_SELF_HDR : XP_SELF_REC;
}

void xp_self_encode(uint8_t out[XP_SELF_HDR], const struct xp_self_hdr *h);
/* 0, or -1 when the bytes are no header (the stream is out of step). */
int xp_self_decode(const uint8_t in[XP_SELF_HDR], struct xp_self_hdr *h);

#endif
