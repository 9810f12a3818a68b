/* SPDX-License-Identifier: BSD-2-Clause */
/* Text received from a peer (error messages, warnings, names) made safe
 * to print in a log line or on a terminal.
 *
 * Printable ASCII (0x20-0x7e) is copied, except the backslash, which
 * becomes "\\" so every escape below is unambiguous and the output can
 * be turned back into the input.  \n, \r and \t become "\n", "\r", "\t";
 * every other byte, including NUL, ESC, DEL and all bytes >= 0x80,
 * becomes "\xNN" (two lower-case hex digits).
 *
 * Why bytes >= 0x80 are escaped even when they form valid UTF-8: what a
 * peer sends xperf is ASCII by protocol (versions, CPU lists, strerror
 * text), and passing UTF-8 through would mean policing it too: C1
 * controls (U+0080-U+009F, e.g. U+009B, a one-character CSI some
 * terminals obey), U+2028/U+2029 line separators and bidirectional
 * overrides all forge lines or rearrange what the reader sees. */
#ifndef XP_SANITIZE_H
#define XP_SANITIZE_H

#include <stddef.h>

/* The truncation mark: cannot come from input (a '\' from the input is
 * always followed by '\', 'n', 'r', 't' or 'x'). */
#define XP_SANITIZE_MORE "\\..."

/* Escape len bytes at src (NUL bytes included, src may be NULL when len
 * is 0) into dst, always NUL-terminated when cap > 0.  An escape is never
 * split; when the whole does not fit, the output is the longest prefix
 * of whole escapes that leaves room for XP_SANITIZE_MORE, then the mark
 * (cut short itself if cap < 5).  Returns the length of the complete
 * escaped text, excluding the NUL, like snprintf: the output was
 * truncated if and only if the result >= cap. */
size_t xp_sanitize(char *dst, size_t cap, const char *src, size_t len);

#endif
