/* SPDX-License-Identifier: BSD-2-Clause */
/* --fill FILE: what a client's send buffers hold.  The client reads the
 * file's first XP_FILL_MAX bytes once, before it connects
 * (xp_fill_load); each worker then repeats them over its send buffer
 * (xp_fill_cycle), which its engine sends from. */
#ifndef XP_FILL_H
#define XP_FILL_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"

#define XP_FILL_MAX (4u << 20) /* bytes of the file used, at most */

/* The first XP_FILL_MAX bytes of path (fewer if it is shorter) into a
 * malloc'd *buf of *len bytes, which the caller frees.  0, or -1 with err
 * naming the file and what failed (open, read, or an empty file). */
int xp_fill_load(const char *path, uint8_t **buf, size_t *len, struct xp_err *err);

/* dst[0..dstlen) = src repeated from its first byte (the last copy cut
 * short).  Nothing when src is NULL or srclen is 0.  Pure. */
void xp_fill_cycle(uint8_t *dst, size_t dstlen, const uint8_t *src, size_t srclen);

#endif
