/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer target for the histogram text codec (common/hist_codec.c).
 * Build by hand until `make fuzz` exists:
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. \
 *         tests/fuzz/hist_codec.c common/hist_codec.c common/hist.c \
 *         common/err.c -lm -o /tmp/fuzz_hist_codec
 *   /tmp/fuzz_hist_codec -max_total_time=60
 * Inputs are tried as they are and behind a valid "xph1:7:ns:" prefix.
 * Properties: a refused text leaves the histogram untouched; an accepted
 * one re-encodes to exactly the same text (the encoding is canonical). */
#include "common/hist_codec.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void try_text(struct xp_hist *h, const char *text, size_t len)
{
	static char again[1 << 17];
	struct xp_err err;
	size_t n;

	xp_hist_reset(h);
	xp_hist_add(h, 7);
	if (xp_hist_decode(h, text, len, &err) < 0) {
		if (xp_hist_count(h) != 1 || xp_hist_min(h) != 7)
			abort();
		return;
	}
	n = xp_hist_encode(h, again, sizeof(again));
	if (n >= sizeof(again) || n != len || memcmp(again, text, len) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char prefix[] = "xph1:7:ns:";
	struct xp_hist *h = xp_hist_new();
	char *buf = malloc(size + sizeof(prefix));

	if (!h || !buf)
		abort();
	try_text(h, (const char *)data, size);
	memcpy(buf, prefix, sizeof(prefix) - 1);
	memcpy(buf + sizeof(prefix) - 1, data, size);
	try_text(h, buf, size + sizeof(prefix) - 1);
	free(buf);
	xp_hist_free(h);
	return 0;
}
