/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: the readers of an iperf3 peer's bytes in
 * proto/iperf3.h (the cookie, a JSON length, SERVER_ERROR's words, UDP
 * connect datagrams and replies, the UDP data header) and the receiver's
 * accounting fed with headers from the input.  Built by `make fuzz`, run
 * by tests/fuzz/run.sh.  Properties: a whole cookie re-checks as one and
 * every prefix of it as a beginning; a length that decodes is within its
 * bounds; a decoded header re-encodes to the same bytes; the accounting
 * never counts more lost than the highest count seen, nor a negative or
 * non-finite jitter. */
#include "proto/iperf3.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"

static void cookie(const uint8_t *d, size_t n)
{
	size_t i;

	if (xp_i3_cookie_check(d, n) != 1)
		return;
	for (i = 0; i < XP_I3_COOKIE_LEN; i++)
		if (xp_i3_cookie_check(d, i) != 0)
			abort();
}

static void small(const uint8_t *d, size_t n)
{
	struct xp_why why;
	uint8_t reply[4];
	uint32_t len;
	int32_t a, b;

	if (n >= 4 && xp_i3_len_decode(d, 8192, &len, &why) == 0 && (len == 0 || len > 8192))
		abort();
	if (n >= 4 && xp_i3_len_decode(d, 8192, &len, &why) && !memchr(why.msg, 0, sizeof(why.msg)))
		abort();
	if (n >= 8)
		xp_i3_error_decode(d, &a, &b);
	if (xp_i3_udp_connect_reply(d, n, reply) == 0 && !xp_i3_udp_reply_ok(reply, 4) &&
	    memcmp(reply, "9876", 4))
		abort();
	(void)xp_i3_udp_reply_ok(d, n);
}

static void udp(const uint8_t *d, size_t n, int c64)
{
	size_t hl = xp_i3_udp_hdr_len(c64), off;
	struct xp_i3_udp_hdr h;
	struct xp_i3_rx r;
	uint8_t out[16];

	memset(&r, 0, sizeof(r));
	for (off = 0; off + hl <= n; off += hl) {
		if (xp_i3_udp_hdr_decode(d + off, n - off, c64, &h))
			abort();
		xp_i3_udp_hdr_encode(out, &h, c64);
		if (memcmp(out, d + off, hl))
			abort();
		xp_i3_rx_add(&r, h.count, h.sec, h.usec, (uint64_t)off * 1000003u);
		if (r.lost > r.max_seen || !isfinite(r.jitter) || r.jitter < 0)
			abort();
	}
	if (n < hl && xp_i3_udp_hdr_decode(d, n, c64, &h) == 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cookie(data, size);
	small(data, size);
	udp(data, size, 0);
	udp(data, size, 1);
	return 0;
}
