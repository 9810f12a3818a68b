/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: the UDP flow handshake's datagrams (proto/hello.h)
 * and the client's reading of what the server sends during it
 * (client/udp_hello.h).  Whatever decodes re-encodes to the same bytes;
 * the client moves from hello to confirm only on a challenge for its own
 * flow, and is done only on the echo of its own confirm. */
#include "tests/fuzz/fuzz.h"

#include "client/udp_hello.h"
#include "proto/hello.h"
#include "proto/msg.h"

static void check_codec(const uint8_t *data, size_t size)
{
	uint8_t again[XP_UDP_CONFIRM_LEN];
	uint64_t cookie, nonce;
	uint32_t flow;

	if (xp_udp_challenge_decode(data, size, &flow, &nonce) == 0) {
		xp_udp_challenge_encode(again, flow, nonce);
		if (size != XP_UDP_CHALLENGE_LEN || memcmp(again, data, size))
			abort();
	}
	if (xp_udp_confirm_decode(data, size, &cookie, &flow, &nonce) == 0) {
		xp_udp_confirm_encode(again, cookie, flow, nonce);
		if (size != XP_UDP_CONFIRM_LEN || memcmp(again, data, size))
			abort();
	}
}

/* The client for flow 3 of cookie 42 receives the input, split into
 * datagrams of at most 24 bytes. */
static void check_client(const uint8_t *data, size_t size)
{
	uint8_t out[XP_UDP_CONFIRM_LEN];
	size_t len = XP_DATA_HELLO_LEN, off = 0;
	int done = 0;

	xp_data_hello_encode(out, 42, 3);
	while (off < size && !done) {
		size_t n = size - off < 24 ? size - off : 24;
		size_t before = len;
		int rc = xp_udp_answer(data + off, (ssize_t)n, 42, 3, out, &len);

		if (rc == 2 && xp_udp_challenge_decode(data + off, n, NULL, NULL))
			abort();
		if (rc == 1 && (before != XP_UDP_CONFIRM_LEN || n != XP_UDP_CONFIRM_LEN))
			abort();
		done = rc == 1;
		off += n;
	}
	if (len != XP_DATA_HELLO_LEN &&
	    xp_udp_confirm_decode(out, len, NULL, NULL, NULL))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_codec(data, size);
	check_client(data, size);
	return 0;
}
