/* SPDX-License-Identifier: BSD-2-Clause */
/* SHA-256 per FIPS 180-4 sections 4.1.2, 4.2.2, 5.1.1, 5.3.3 and 6.2;
 * HMAC per RFC 2104.  The constants are the specification's: K[t] the
 * first 32 bits of the fractional parts of the cube roots of the first 64
 * primes, the initial hash the same of the square roots of the first 8. */
#include "common/sha256.h"

#include <string.h>

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t H0[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static uint32_t rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* The message schedule W[0..63] of one block (FIPS 180-4 6.2.2 step 1). */
static void schedule(uint32_t w[64], const uint8_t *block)
{
	int t;

	for (t = 0; t < 16; t++)
		w[t] = be32(block + 4 * t);
	for (t = 16; t < 64; t++) {
		uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^
			      (w[t - 15] >> 3);
		uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^
			      (w[t - 2] >> 10);

		w[t] = s1 + w[t - 7] + s0 + w[t - 16];
	}
}

/* Steps 2-4: 64 rounds over the working variables, then add to h. */
static void compress(uint32_t h[8], const uint8_t *block)
{
	uint32_t w[64], v[8];
	int t, i;

	schedule(w, block);
	memcpy(v, h, sizeof(v));
	for (t = 0; t < 64; t++) {
		uint32_t e = v[4], a = v[0];
		uint32_t ch = (e & v[5]) ^ (~e & v[6]);
		uint32_t maj = (a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]);
		uint32_t t1 = v[7] + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) +
			      ch + K[t] + w[t];
		uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + maj;

		memmove(v + 1, v, 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		h[i] += v[i];
	xp_wipe(w, sizeof(w));
	xp_wipe(v, sizeof(v));
}

void xp_sha256_init(struct xp_sha256 *c)
{
	memcpy(c->h, H0, sizeof(c->h));
	c->len = 0;
	c->nbuf = 0;
}

void xp_sha256_update(struct xp_sha256 *c, const void *data, size_t n)
{
	const uint8_t *p = data;

	c->len += n;
	if (c->nbuf) {
		size_t take = XP_SHA256_BLOCK - c->nbuf;

		if (take > n)
			take = n;
		memcpy(c->buf + c->nbuf, p, take);
		c->nbuf += take;
		p += take;
		n -= take;
		if (c->nbuf < XP_SHA256_BLOCK)
			return;
		compress(c->h, c->buf);
		c->nbuf = 0;
	}
	for (; n >= XP_SHA256_BLOCK; p += XP_SHA256_BLOCK, n -= XP_SHA256_BLOCK)
		compress(c->h, p);
	memcpy(c->buf, p, n);
	c->nbuf = n;
}

/* Padding (5.1.1): a 1 bit, zeros to 448 mod 512, the length in bits. */
void xp_sha256_final(struct xp_sha256 *c, uint8_t out[XP_SHA256_LEN])
{
	uint64_t bits = c->len * 8;
	int i;

	c->buf[c->nbuf++] = 0x80;
	if (c->nbuf > XP_SHA256_BLOCK - 8) {
		memset(c->buf + c->nbuf, 0, XP_SHA256_BLOCK - c->nbuf);
		compress(c->h, c->buf);
		c->nbuf = 0;
	}
	memset(c->buf + c->nbuf, 0, XP_SHA256_BLOCK - 8 - c->nbuf);
	put_be32(c->buf + 56, (uint32_t)(bits >> 32));
	put_be32(c->buf + 60, (uint32_t)bits);
	compress(c->h, c->buf);
	for (i = 0; i < 8; i++)
		put_be32(out + 4 * i, c->h[i]);
	xp_wipe(c, sizeof(*c));
}

void xp_sha256(const void *data, size_t n, uint8_t out[XP_SHA256_LEN])
{
	struct xp_sha256 c;

	xp_sha256_init(&c);
	xp_sha256_update(&c, data, n);
	xp_sha256_final(&c, out);
}

/* Key the inner and outer hashes: K0 is the key zero-padded to a block
 * (or its digest if longer), XORed with 0x36 / 0x5c. */
void xp_hmac_sha256_init(struct xp_hmac_sha256 *c, const void *key,
			 size_t klen)
{
	uint8_t k0[XP_SHA256_BLOCK] = { 0 }, pad[XP_SHA256_BLOCK];
	size_t i;

	if (klen > XP_SHA256_BLOCK)
		xp_sha256(key, klen, k0);
	else if (klen)
		memcpy(k0, key, klen);
	for (i = 0; i < XP_SHA256_BLOCK; i++)
		pad[i] = k0[i] ^ 0x36;
	xp_sha256_init(&c->inner);
	xp_sha256_update(&c->inner, pad, sizeof(pad));
	for (i = 0; i < XP_SHA256_BLOCK; i++)
		pad[i] = k0[i] ^ 0x5c;
	xp_sha256_init(&c->outer);
	xp_sha256_update(&c->outer, pad, sizeof(pad));
	xp_wipe(k0, sizeof(k0));
	xp_wipe(pad, sizeof(pad));
}

void xp_hmac_sha256_update(struct xp_hmac_sha256 *c, const void *data,
			   size_t n)
{
	xp_sha256_update(&c->inner, data, n);
}

void xp_hmac_sha256_final(struct xp_hmac_sha256 *c,
			  uint8_t out[XP_SHA256_LEN])
{
	uint8_t ih[XP_SHA256_LEN];

	xp_sha256_final(&c->inner, ih);
	xp_sha256_update(&c->outer, ih, sizeof(ih));
	xp_sha256_final(&c->outer, out);
	xp_wipe(ih, sizeof(ih));
}

void xp_hmac_sha256(const void *key, size_t klen, const void *data, size_t n,
		    uint8_t out[XP_SHA256_LEN])
{
	struct xp_hmac_sha256 c;

	xp_hmac_sha256_init(&c, key, klen);
	xp_hmac_sha256_update(&c, data, n);
	xp_hmac_sha256_final(&c, out);
}

int xp_ct_equal(const void *a, const void *b, size_t n)
{
	const volatile uint8_t *x = a, *y = b;
	uint32_t d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= (uint32_t)(x[i] ^ y[i]);
	/* d in [0, 255]: (d - 1) >> 8 is all ones only when d == 0. */
	return (int)(((d - 1) >> 8) & 1);
}

void xp_wipe(void *p, size_t n)
{
	explicit_bzero(p, n);
}
