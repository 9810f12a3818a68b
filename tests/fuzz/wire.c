/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: the control-protocol codec (proto/msg.h).  Built by
 * `make fuzz`, run by tests/fuzz/run.sh.  Whatever decodes must re-encode
 * and decode to the same message. */
#include "proto/msg.h"

#include <stdlib.h>
#include <string.h>

static void check_header(const uint8_t *data, size_t size)
{
	uint16_t version, type;
	uint32_t body_len;
	struct xp_why err;

	if (size < XP_MSG_HDR_LEN)
		return;
	if (xp_msg_hdr_decode(data, &version, &type, &body_len, &err) == 0 &&
	    body_len > XP_MSG_BODY_MAX)
		abort();
}

static void check_message(const uint8_t *data, size_t size)
{
	static uint8_t out[XP_MSG_HDR_LEN + XP_MSG_BODY_MAX];
	struct xp_msg a, b;
	struct xp_why err;
	size_t n;

	if (xp_msg_decode(data, size, &a, &err) != 0)
		return;
	n = xp_msg_encode(&a, out, sizeof(out));
	if (n == 0 || xp_msg_decode(out, n, &b, &err) != 0)
		abort();
	a.version = b.version; /* a foreign-version ERROR re-encodes as ours */
	if (memcmp(&a, &b, sizeof(a)) != 0)
		abort();
}

static void check_hello(const uint8_t *data, size_t size)
{
	uint8_t again[XP_DATA_HELLO_LEN];
	uint64_t cookie;
	uint32_t flow;

	if (xp_data_hello_decode(data, size, &cookie, &flow) != 0)
		return;
	xp_data_hello_encode(again, cookie, flow);
	if (memcmp(again, data, XP_DATA_HELLO_LEN) != 0)
		abort();
}

static void check_pad_hello(const uint8_t *data, size_t size)
{
	uint8_t again[XP_DATA_PAD_HEAD_LEN];
	uint64_t cookie;
	uint32_t flow, pad;

	if (xp_data_pad_hello_decode(data, size, &cookie, &flow, &pad) != 0)
		return;
	if (pad > XP_DATA_PAD_MAX)
		abort();
	xp_data_pad_hello_encode(again, cookie, flow, pad);
	if (memcmp(again, data, XP_DATA_PAD_HEAD_LEN) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_header(data, size);
	check_message(data, size);
	check_hello(data, size);
	check_pad_hello(data, size);
	return 0;
}
