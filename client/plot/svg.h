/* SPDX-License-Identifier: BSD-2-Clause */
/* A tiny SVG writer: a growing buffer with helpers that keep the output
 * well-formed XML.  Text is escaped (& < > " ') and sanitised (control
 * characters and bytes that are not UTF-8 become '?', since XML 1.0
 * forbids them even escaped).  xp_svg_num prints coordinates with two
 * decimals at most and always a '.'; "%f" in xp_svg_raw formats does too
 * as long as nothing calls setlocale(LC_NUMERIC) (xperf does not).
 *
 * Allocation failure is sticky: later calls do nothing, and
 * xp_svg_finish / xp_svg_write_file report it, so drawing code need not
 * check every call. */
#ifndef XP_SVG_H
#define XP_SVG_H

#include <stddef.h>
#include <stdio.h>

#include "common/err.h"

struct xp_svg {
	char *buf;
	size_t len, cap;
	int failed; /* an allocation failed: the buffer is incomplete */
};

/* An empty buffer (no allocation yet). */
void xp_svg_init(struct xp_svg *s);

/* Free the buffer; s may be reused after xp_svg_init. */
void xp_svg_free(struct xp_svg *s);

/* Append raw markup, printf-style.  The caller escapes any text in it. */
void xp_svg_raw(struct xp_svg *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Append text escaped for element content or a quoted attribute value. */
void xp_svg_text(struct xp_svg *s, const char *text);

/* The same for at most n bytes of text, never cutting a UTF-8 sequence. */
void xp_svg_textn(struct xp_svg *s, const char *text, size_t n);

/* Append a number rounded to 0.01, trailing zeros dropped: 12.5, -3, 0.07.
 * NaN and infinities (which a caller should not pass) print as 0. */
void xp_svg_num(struct xp_svg *s, double v);

/* Start the document: XML declaration and <svg> with width, height, a
 * matching viewBox and font-family (a list of system fonts, escaped). */
void xp_svg_begin(struct xp_svg *s, int width, int height, const char *fonts);

/* Close </svg>.  0, or -1 with err if any allocation failed. */
int xp_svg_finish(struct xp_svg *s, struct xp_err *err);

/* Write the buffer to path (created or truncated).  0 or -1 with err
 * naming the path. */
int xp_svg_write_file(const struct xp_svg *s, const char *path, struct xp_err *err);

/* The number of bytes of text that xp_svg_textn may take from text
 * to show at most chars characters (UTF-8 sequences count as one). */
size_t xp_svg_utf8_prefix(const char *text, size_t chars);

/* Characters (not bytes) in a UTF-8 string; invalid bytes count as one. */
size_t xp_svg_utf8_len(const char *text);

#endif
