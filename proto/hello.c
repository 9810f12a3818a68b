/* SPDX-License-Identifier: BSD-2-Clause */
/* The UDP flow handshake's datagrams (proto/hello.h). */
#include "proto/hello.h"

#include "proto/be.h"

void xp_udp_challenge_encode(uint8_t *buf, uint32_t flow, uint64_t nonce)
{
	xp_put32(buf, XP_UDP_CHALLENGE_MAGIC);
	xp_put32(buf + 4, flow);
	xp_put64(buf + 8, nonce);
}

int xp_udp_challenge_decode(const uint8_t *buf, size_t len, uint32_t *flow,
			    uint64_t *nonce)
{
	if (len != XP_UDP_CHALLENGE_LEN || xp_get32(buf) != XP_UDP_CHALLENGE_MAGIC)
		return -1;
	if (flow)
		*flow = xp_get32(buf + 4);
	if (nonce)
		*nonce = xp_get64(buf + 8);
	return 0;
}

void xp_udp_confirm_encode(uint8_t *buf, uint64_t cookie, uint32_t flow,
			   uint64_t nonce)
{
	xp_put32(buf, XP_UDP_CONFIRM_MAGIC);
	xp_put64(buf + 4, cookie);
	xp_put32(buf + 12, flow);
	xp_put64(buf + 16, nonce);
}

int xp_udp_confirm_decode(const uint8_t *buf, size_t len, uint64_t *cookie,
			  uint32_t *flow, uint64_t *nonce)
{
	if (len != XP_UDP_CONFIRM_LEN || xp_get32(buf) != XP_UDP_CONFIRM_MAGIC)
		return -1;
	if (cookie)
		*cookie = xp_get64(buf + 4);
	if (flow)
		*flow = xp_get32(buf + 12);
	if (nonce)
		*nonce = xp_get64(buf + 16);
	return 0;
}
