/* SPDX-License-Identifier: BSD-2-Clause */
/* MUX frames (proto/mux.h): pure. */
#include "proto/mux.h"

#include <stdio.h>

#include "proto/be.h"

void xp_mux_head_encode(uint8_t out[XP_MUX_HEAD_LEN], uint16_t chan, uint8_t kind)
{
	xp_put16(out, chan);
	out[2] = kind;
	out[3] = 0;
}

long xp_mux_msg_take(const uint8_t *b, size_t n, struct xp_why *why)
{
	uint16_t version, type;
	uint32_t blen;

	if (n < XP_MSG_HDR_LEN)
		return 0;
	if (xp_msg_hdr_decode(b, &version, &type, &blen, why))
		return -1;
	return n < XP_MSG_HDR_LEN + (size_t)blen ? 0 : (long)(XP_MSG_HDR_LEN + blen);
}

long xp_mux_frame_take(const uint8_t *b, size_t n, uint32_t nchan, struct xp_mux_frame *f,
		       struct xp_why *why)
{
	long m;

	if (n < XP_MUX_HEAD_LEN)
		return 0;
	f->chan = xp_get16(b);
	f->kind = b[2];
	f->msg_len = 0;
	if (b[3] || f->kind > XP_MUX_CLOSE) {
		snprintf(why->msg, sizeof(why->msg), "mux frame: bad head 0x%02x%02x%02x%02x",
			 b[0], b[1], b[2], b[3]);
		return -1;
	}
	if (f->chan > nchan) {
		snprintf(why->msg, sizeof(why->msg), "mux frame: channel %u of a connection of %u",
			 (unsigned)f->chan, (unsigned)nchan);
		return -1;
	}
	if (f->kind == XP_MUX_CLOSE)
		return XP_MUX_HEAD_LEN;
	m = xp_mux_msg_take(b + XP_MUX_HEAD_LEN, n - XP_MUX_HEAD_LEN, why);
	if (m <= 0)
		return m;
	f->msg_len = (uint32_t)m;
	return XP_MUX_HEAD_LEN + m;
}
