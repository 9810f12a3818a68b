/* SPDX-License-Identifier: BSD-2-Clause */
/* Big-endian integers in byte buffers: the wire's byte order, used by the
 * control codec, the data hello and the UDP sequence numbers. */
#ifndef XP_PROTO_BE_H
#define XP_PROTO_BE_H

#include <stdint.h>

static inline void xp_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void xp_put32(uint8_t *p, uint32_t v)
{
	xp_put16(p, (uint16_t)(v >> 16));
	xp_put16(p + 2, (uint16_t)v);
}

static inline void xp_put64(uint8_t *p, uint64_t v)
{
	xp_put32(p, (uint32_t)(v >> 32));
	xp_put32(p + 4, (uint32_t)v);
}

static inline uint16_t xp_get16(const uint8_t *p)
{
	return (uint16_t)((uint16_t)p[0] << 8 | p[1]);
}

static inline uint32_t xp_get32(const uint8_t *p)
{
	return (uint32_t)xp_get16(p) << 16 | xp_get16(p + 2);
}

static inline uint64_t xp_get64(const uint8_t *p)
{
	return (uint64_t)xp_get32(p) << 32 | xp_get32(p + 4);
}

#endif
