/* SPDX-License-Identifier: BSD-2-Clause */
/* SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), for the optional
 * pre-shared-key authentication of the control connection (common/auth.h).
 * Written from the specifications; no dependency beyond libc.  Portable C
 * with no table lookups indexed by data, so timing does not depend on the
 * bytes hashed (only on their length).
 *
 * Incremental use: init, any number of updates, final.  A context may be
 * reused after final by calling init again.  The one-shot helpers do the
 * three steps.  Final wipes the context (it may hold key material). */
#ifndef XP_SHA256_H
#define XP_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define XP_SHA256_LEN 32   /* digest bytes */
#define XP_SHA256_BLOCK 64 /* block bytes (also the HMAC key block) */

struct xp_sha256 {
	uint32_t h[8];                  /* chaining state */
	uint64_t len;                   /* bytes hashed so far */
	uint8_t buf[XP_SHA256_BLOCK];   /* partial block */
	size_t nbuf;                    /* bytes in buf */
};

void xp_sha256_init(struct xp_sha256 *c);
void xp_sha256_update(struct xp_sha256 *c, const void *data, size_t n);
void xp_sha256_final(struct xp_sha256 *c, uint8_t out[XP_SHA256_LEN]);
/* The digest of n bytes at data. */
void xp_sha256(const void *data, size_t n, uint8_t out[XP_SHA256_LEN]);

/* HMAC-SHA-256: H((K ^ opad) || H((K ^ ipad) || m)), keys longer than a
 * block hashed first (RFC 2104 section 2).  Any key length is accepted;
 * the caller enforces a minimum. */
struct xp_hmac_sha256 {
	struct xp_sha256 inner, outer; /* both already keyed by init */
};

void xp_hmac_sha256_init(struct xp_hmac_sha256 *c, const void *key,
			 size_t klen);
void xp_hmac_sha256_update(struct xp_hmac_sha256 *c, const void *data,
			   size_t n);
void xp_hmac_sha256_final(struct xp_hmac_sha256 *c,
			  uint8_t out[XP_SHA256_LEN]);
void xp_hmac_sha256(const void *key, size_t klen, const void *data, size_t n,
		    uint8_t out[XP_SHA256_LEN]);

/* 1 if the n bytes at a and b are equal, else 0.  Reads every byte
 * whatever the data, so the time taken says nothing about where the
 * first difference is (use it for MACs, never memcmp). */
int xp_ct_equal(const void *a, const void *b, size_t n);

/* Zero n bytes in a way the compiler may not drop as a dead store. */
void xp_wipe(void *p, size_t n);

#endif
