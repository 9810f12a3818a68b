/* SPDX-License-Identifier: BSD-2-Clause */
/* Node layout shared by the JSON reader's parser (json_read.c) and its
 * accessors (json_read_val.c); not for other users. */
#ifndef XP_JSON_READ_INT_H
#define XP_JSON_READ_INT_H

#include <stdint.h>

#define XP_JF_INT 1 /* number is integral with magnitude < 2^64 (mag) */
#define XP_JF_NEG 2 /* number has a leading '-' */
#define XP_JF_MORE 4 /* another element of the same container follows */

/* 32 bytes.  A container's children follow it in the array; span counts
 * the nodes of its subtree, itself included, so its next sibling is at
 * this + span (this + 1 for scalars). */
struct xp_jval {
	const char *key; /* object members only; into the arena */
	uint32_t keylen;
	uint8_t type;
	uint8_t flags;
	union {
		struct {
			double d;
			uint64_t mag;
		} num;
		struct {
			const char *s;
			uint32_t len;
		} str;
		struct {
			uint32_t count, span;
		} c;
		int b;
	} u;
};

struct xp_jdoc {
	struct xp_jval *nodes;
	size_t n;
	char *arena;
};

#endif
