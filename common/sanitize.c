/* SPDX-License-Identifier: BSD-2-Clause */
/* Escaping of peer text for logs and terminals (common/sanitize.h). */
#include "common/sanitize.h"

#include <string.h>

/* The escape of byte c into e (at most 4 chars, no NUL); its length. */
static size_t escape(unsigned char c, char e[4])
{
	static const char digits[] = "0123456789abcdef";

	if (c >= 0x20 && c < 0x7f && c != '\\') {
		e[0] = (char)c;
		return 1;
	}
	e[0] = '\\';
	switch (c) {
	case '\\': e[1] = '\\'; return 2;
	case '\n': e[1] = 'n'; return 2;
	case '\r': e[1] = 'r'; return 2;
	case '\t': e[1] = 't'; return 2;
	default:
		e[1] = 'x';
		e[2] = digits[c >> 4];
		e[3] = digits[c & 15];
		return 4;
	}
}

size_t xp_sanitize(char *dst, size_t cap, const char *src, size_t len)
{
	const size_t mark = sizeof(XP_SANITIZE_MORE) - 1;
	size_t i, k, out = 0, total = 0, keep = 0;
	int cut = 0;
	char e[4];

	for (i = 0; i < len; i++) {
		k = escape((unsigned char)src[i], e);
		total += k;
		if (cut)
			continue;
		/* room for this escape and the NUL, and for the mark if any
		 * later escape must be dropped */
		if (out + k + 1 <= cap) {
			memcpy(dst + out, e, k);
			out += k;
			if (out + mark + 1 <= cap)
				keep = out;
		} else {
			cut = 1;
		}
	}
	if (cut && cap) {
		out = keep;
		k = cap - 1 - out < mark ? cap - 1 - out : mark;
		memcpy(dst + out, XP_SANITIZE_MORE, k);
		out += k;
	}
	if (cap)
		dst[out] = '\0';
	return total;
}
