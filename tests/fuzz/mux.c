/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: MUX frames (proto/mux.h), as the pumps at both ends
 * read them off one control connection.  The first byte picks the
 * connection's channel count (1..XP_MUX_CHANNELS_MAX), the rest is the
 * byte stream.  A frame taken is within the bytes, on a channel of the
 * connection, its head re-encodes to the same four bytes and a DATA
 * frame's length is its message's; a stream cut short never yields more
 * than the whole one (a prefix of a frame is "not yet", never another
 * frame); a refusal says why.  The stream is walked frame by frame as a
 * pump does, until it stops or is refused. */
#include "tests/fuzz/fuzz.h"

#include "proto/mux.h"

/* One frame at the start of b (n bytes) and its invariants; its length,
 * 0 or -1 as xp_mux_frame_take. */
static long check_frame(const uint8_t *b, size_t n, uint32_t nchan)
{
	struct xp_mux_frame f;
	struct xp_why why = { "" };
	uint8_t head[XP_MUX_HEAD_LEN];
	long rc = xp_mux_frame_take(b, n, nchan, &f, &why);

	if (rc < 0) {
		FUZZ_ERR_OK(why);
		if (!why.msg[0])
			abort();
		return rc;
	}
	if (rc == 0)
		return 0;
	if ((size_t)rc > n || rc < XP_MUX_HEAD_LEN || rc > (long)XP_MUX_FRAME_MAX || f.chan > nchan)
		abort();
	xp_mux_head_encode(head, f.chan, f.kind);
	if (memcmp(head, b, XP_MUX_HEAD_LEN))
		abort();
	if (f.kind == XP_MUX_CLOSE && (rc != XP_MUX_HEAD_LEN || f.msg_len))
		abort();
	if (f.kind == XP_MUX_DATA &&
	    (rc != (long)(XP_MUX_HEAD_LEN + f.msg_len) ||
	     xp_mux_msg_take(b + XP_MUX_HEAD_LEN, n - XP_MUX_HEAD_LEN, &why) != (long)f.msg_len))
		abort();
	if (f.kind != XP_MUX_DATA && f.kind != XP_MUX_CLOSE)
		abort();
	return rc;
}

/* The same bytes cut one short: the frame taken from the whole, if it
 * fits, again; else not yet or refused. */
static void check_prefix(const uint8_t *b, size_t n, uint32_t nchan, long whole)
{
	struct xp_mux_frame f;
	struct xp_why why = { "" };
	long rc;
	int ok;

	if (!n)
		return;
	rc = xp_mux_frame_take(b, n - 1, nchan, &f, &why);
	if (whole > 0 && (size_t)whole <= n - 1)
		ok = rc == whole;
	else if (whole >= 0)
		ok = rc == 0; /* a frame, or "not yet", cut short is "not yet" */
	else
		ok = rc <= 0; /* refused: less of it is refused or not yet */
	if (!ok)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t nchan;
	uint8_t *b;
	size_t off = 0, n;

	if (!size)
		return 0;
	nchan = 1 + data[0] % XP_MUX_CHANNELS_MAX;
	n = size - 1;
	b = malloc(n ? n : 1); /* exactly the bytes: ASan sees a read past them */
	if (!b)
		abort();
	memcpy(b, data + 1, n);
	while (off < n) {
		long rc = check_frame(b + off, n - off, nchan);

		check_prefix(b + off, n - off, nchan, rc);
		if (rc <= 0)
			break;
		off += (size_t)rc;
	}
	free(b);
	return 0;
}
