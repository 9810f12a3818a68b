/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: xp_sanitize (common/sanitize.h).  The first byte
 * picks the output size; the output never leaves its buffer, is printable
 * ASCII and terminated, and when it fits it unescapes to the input. */
#include "tests/fuzz/fuzz.h"

#include "common/sanitize.h"

static int hexval(char c)
{
	return c >= 'a' ? c - 'a' + 10 : c - '0';
}

/* Unescape out and compare with src; abort on any mismatch. */
static void check_inverse(const char *out, const uint8_t *src, size_t len)
{
	size_t i = 0;
	int c;

	for (; *out; i++) {
		if (*out != '\\') {
			c = *out++;
		} else if (out[1] == 'x') {
			c = hexval(out[2]) * 16 + hexval(out[3]);
			out += 4;
		} else {
			c = out[1] == 'n' ? '\n' : out[1] == 'r' ? '\r' :
			    out[1] == 't' ? '\t' : out[1];
			out += 2;
		}
		if (i >= len || c != src[i])
			abort();
	}
	if (i != len)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t cap, n, i;
	char *dst;

	if (!size)
		return 0;
	cap = data[0] == 255 ? 4 * size : data[0];
	dst = malloc(cap ? cap : 1); /* exact size: ASan sees overruns */
	if (!dst)
		abort();
	n = xp_sanitize(dst, cap, (const char *)data + 1, size - 1);
	if (cap) {
		if (!memchr(dst, '\0', cap))
			abort();
		for (i = 0; dst[i]; i++)
			if (dst[i] < 0x20 || dst[i] > 0x7e)
				abort();
		if (n < cap)
			check_inverse(dst, data + 1, size - 1);
		else if (strlen(dst) >= cap)
			abort();
	}
	free(dst);
	return 0;
}
