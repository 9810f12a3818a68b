/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef XP_UTF8_H
#define XP_UTF8_H
/* UTF-8 checked once for every writer and reader of peer or user text. */
#include <stddef.h>
#include <stdint.h>

/* Length (1-4) of the valid UTF-8 sequence at s, of at most avail bytes,
 * its code point in *cp; 0 when it is not one: a stray continuation byte,
 * an overlong form, a surrogate, a code point above U+10FFFF, or a
 * sequence cut short.  Reads no byte past the first that is not a
 * continuation, so a NUL-terminated string may pass SIZE_MAX. */
size_t xp_utf8_seq(const unsigned char *s, size_t avail, uint32_t *cp);

#endif
