/* SPDX-License-Identifier: BSD-2-Clause */
/* Several tests on one control connection (MUX, proto/PROTOCOL.md section
 * 13).  After MUX / MUX_OK every byte on the connection belongs to a
 * frame: a 4-byte head (channel u16, kind u8, a zero byte), then, for a
 * DATA frame, one whole control message (its own 12-byte header and
 * body).  Channel 0 is the connection itself (an ERROR that ends it);
 * channels 1..n (n from MUX, at most XP_MUX_CHANNELS_MAX) each carry one
 * test's conversation, exactly as its own control connection would.  A
 * CLOSE frame (the head alone) ends a channel, as closing a control
 * connection ends its test.  Pure: no I/O. */
#ifndef XP_PROTO_MUX_H
#define XP_PROTO_MUX_H

#include <stddef.h>
#include <stdint.h>

#include "proto/msg.h"

#define XP_MUX_HEAD_LEN 4
#define XP_MUX_CHANNELS_MAX 8
/* the longest frame: a head and the longest message */
#define XP_MUX_FRAME_MAX (XP_MUX_HEAD_LEN + XP_MSG_HDR_LEN + XP_MSG_BODY_MAX)

enum xp_mux_kind { XP_MUX_DATA = 0, XP_MUX_CLOSE = 1 };

struct xp_mux_frame {
	uint16_t chan;
	uint8_t kind;     /* enum xp_mux_kind */
	uint32_t msg_len; /* DATA: the message's bytes after the head */
};

void xp_mux_head_encode(uint8_t out[XP_MUX_HEAD_LEN], uint16_t chan, uint8_t kind);

/* The frame at the start of the n bytes in b, on a connection of nchan
 * channels.  >0: its whole length (head and message), f filled; 0: not
 * all of it yet; -1: not a frame (why says what is wrong).  The message's
 * header is checked (magic, body length bounded); its body is the
 * channel's to decode. */
long xp_mux_frame_take(const uint8_t *b, size_t n, uint32_t nchan, struct xp_mux_frame *f,
		       struct xp_why *why);

/* The length of the whole control message at the start of b (n bytes):
 * >0, 0 not all of it yet, -1 not a message (why says). */
long xp_mux_msg_take(const uint8_t *b, size_t n, struct xp_why *why);

#endif
