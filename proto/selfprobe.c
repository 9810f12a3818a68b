/* SPDX-License-Identifier: BSD-2-Clause */
/* The self-probe record header (proto/selfprobe.h): pure. */
#include "proto/selfprobe.h"

#include "proto/be.h"

void xp_self_encode(uint8_t out[XP_SELF_HDR], const struct xp_self_hdr *h)
{
	out[0] = 'X';
	out[1] = 'S';
	out[2] = 'R';
	out[3] = h->kind;
	xp_put32(out + 4, h->seq);
	xp_put64(out + 8, h->stamp);
}

int xp_self_decode(const uint8_t in[XP_SELF_HDR], struct xp_self_hdr *h)
{
	if (in[0] != 'X' || in[1] != 'S' || in[2] != 'R' ||
	    (in[3] != XP_SELF_FILL && in[3] != XP_SELF_PROBE))
		return -1;
	h->kind = in[3];
	h->seq = xp_get32(in + 4);
	h->stamp = xp_get64(in + 8);
	return 0;
}
