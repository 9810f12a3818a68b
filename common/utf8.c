/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/utf8.h"

size_t xp_utf8_seq(const unsigned char *s, size_t avail, uint32_t *cp)
{
	static const uint32_t min_cp[] = { 0, 0, 0x80, 0x800, 0x10000 };
	uint32_t c;
	size_t n, i;

	if (!avail)
		return 0;
	if (s[0] < 0x80)
		n = 1, c = s[0];
	else if ((s[0] & 0xe0) == 0xc0)
		n = 2, c = s[0] & 0x1fu;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, c = s[0] & 0x0fu;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, c = s[0] & 0x07u;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if (i >= avail || (s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3fu);
	}
	if (c < min_cp[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}
