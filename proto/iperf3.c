/* SPDX-License-Identifier: BSD-2-Clause */
/* iperf3's wire protocol, the pure parts (proto/iperf3.h). */
#include "proto/iperf3.h"

#include <stdio.h>
#include <string.h>

#include "proto/be.h"

static const char cookie_chars[] = "abcdefghijklmnopqrstuvwxyz234567";

const uint8_t xp_i3_udp_connect_msg[4] = { '9', '8', '7', '6' };

const char *xp_i3_state_name(int state, char *buf, size_t len)
{
	switch (state) {
	case XP_I3_TEST_START: return "TEST_START";
	case XP_I3_TEST_RUNNING: return "TEST_RUNNING";
	case XP_I3_TEST_END: return "TEST_END";
	case XP_I3_PARAM_EXCHANGE: return "PARAM_EXCHANGE";
	case XP_I3_CREATE_STREAMS: return "CREATE_STREAMS";
	case XP_I3_SERVER_TERMINATE: return "SERVER_TERMINATE";
	case XP_I3_CLIENT_TERMINATE: return "CLIENT_TERMINATE";
	case XP_I3_EXCHANGE_RESULTS: return "EXCHANGE_RESULTS";
	case XP_I3_DISPLAY_RESULTS: return "DISPLAY_RESULTS";
	case XP_I3_IPERF_DONE: return "IPERF_DONE";
	case XP_I3_ACCESS_DENIED: return "ACCESS_DENIED";
	case XP_I3_SERVER_ERROR: return "SERVER_ERROR";
	default:
		snprintf(buf, len, "state %d", state);
		return buf;
	}
}

const char *xp_i3_errno_text(int code)
{
	static const struct {
		int code;
		const char *text;
	} t[] = {
		{ XP_I3E_DURATION, "test too long" },
		{ XP_I3E_NUMSTREAMS, "too many parallel streams" },
		{ XP_I3E_BLOCKSIZE, "block size out of range" },
		{ XP_I3E_BUFSIZE, "socket buffer too large" },
		{ XP_I3E_MSS, "MSS too large" },
		{ XP_I3E_OMIT, "bad --omit" },
		{ XP_I3E_UNIMP, "option not supported" },
		{ XP_I3E_BURST, "bad burst" },
		{ XP_I3E_ENDCONDITIONS, "bad end condition" },
		{ XP_I3E_NOSCTP, "no SCTP" },
		{ XP_I3E_UDPBLOCKSIZE, "UDP datagram size out of range" },
		{ XP_I3E_BADTOS, "bad TOS" },
		{ XP_I3E_REVERSEBIDIR, "both reverse and bidirectional" },
		{ XP_I3E_MAXDURATION, "test longer than the server allows" },
		{ XP_I3E_INITTEST, "test initialization failed" },
		{ XP_I3E_ACCESSDENIED, "server busy" },
		{ XP_I3E_SETFLOW, "flow label not supported" },
		{ XP_I3E_AFFINITY, "bad CPU affinity" },
		{ XP_I3E_SETCONGESTION, "congestion control not available" },
		{ XP_I3E_AUTHTEST, "authentication failed" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].code == code)
			return t[i].text;
	return "unknown";
}

void xp_i3_cookie_make(char out[XP_I3_COOKIE_LEN], const uint8_t rnd[XP_I3_COOKIE_CHARS])
{
	size_t i;

	for (i = 0; i < XP_I3_COOKIE_CHARS; i++)
		out[i] = cookie_chars[rnd[i] % 32];
	out[XP_I3_COOKIE_CHARS] = '\0';
}

static int cookie_char(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= '2' && c <= '7');
}

int xp_i3_cookie_check(const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < XP_I3_COOKIE_CHARS; i++)
		if (!cookie_char(b[i]))
			return -1;
	if (n < XP_I3_COOKIE_LEN)
		return 0;
	return b[XP_I3_COOKIE_CHARS] == '\0' ? 1 : -1;
}

int xp_i3_server_first_byte(uint8_t b)
{
	return b == XP_I3_PARAM_EXCHANGE || b == (uint8_t)XP_I3_ACCESS_DENIED ||
	       b == (uint8_t)XP_I3_SERVER_ERROR;
}

void xp_i3_len_encode(uint8_t out[4], uint32_t len)
{
	xp_put32(out, len);
}

int xp_i3_len_decode(const uint8_t in[4], uint32_t max, uint32_t *len, struct xp_why *why)
{
	uint32_t v = xp_get32(in);

	if (v == 0 || v > max) {
		if (why)
			snprintf(why->msg, sizeof(why->msg),
				 "iperf3 JSON message of %u bytes (allowed 1..%u)", v, max);
		return -1;
	}
	*len = v;
	return 0;
}

void xp_i3_error_encode(uint8_t out[9], int32_t i3_errno, int32_t sys_errno)
{
	out[0] = (uint8_t)XP_I3_SERVER_ERROR;
	xp_put32(out + 1, (uint32_t)i3_errno);
	xp_put32(out + 5, (uint32_t)sys_errno);
}

void xp_i3_error_decode(const uint8_t in[8], int32_t *i3_errno, int32_t *sys_errno)
{
	*i3_errno = (int32_t)xp_get32(in);
	*sys_errno = (int32_t)xp_get32(in + 4);
}

/* Connect datagrams and their replies, byte for byte. */
static const uint8_t udp_pairs[4][2][4] = {
	{ { '9', '8', '7', '6' }, { '6', '7', '8', '9' } },         /* 3.12+ */
	{ { '6', '7', '8', '9' }, { '9', '8', '7', '6' } },         /* 3.12-3.16 big-endian */
	{ { 0x15, 0xcd, 0x5b, 0x07 }, { 0xb1, 0x68, 0xde, 0x3a } }, /* legacy, little-endian */
	{ { 0x07, 0x5b, 0xcd, 0x15 }, { 0x3a, 0xde, 0x68, 0xb1 } }, /* legacy, big-endian */
};

int xp_i3_udp_connect_reply(const uint8_t *b, size_t n, uint8_t reply[4])
{
	size_t i;

	if (n != 4)
		return -1;
	for (i = 0; i < sizeof(udp_pairs) / sizeof(udp_pairs[0]); i++) {
		if (!memcmp(b, udp_pairs[i][0], 4)) {
			memcpy(reply, udp_pairs[i][1], 4);
			return 0;
		}
	}
	return -1;
}

int xp_i3_udp_reply_ok(const uint8_t *b, size_t n)
{
	return n == 4 && (!memcmp(b, udp_pairs[0][1], 4) || !memcmp(b, udp_pairs[2][1], 4) ||
			  !memcmp(b, udp_pairs[3][1], 4));
}

size_t xp_i3_udp_hdr_len(int c64)
{
	return c64 ? XP_I3_UDP_HDR64 : XP_I3_UDP_HDR32;
}

void xp_i3_udp_hdr_encode(uint8_t *p, const struct xp_i3_udp_hdr *h, int c64)
{
	xp_put32(p, h->sec);
	xp_put32(p + 4, h->usec);
	if (c64)
		xp_put64(p + 8, h->count);
	else
		xp_put32(p + 8, (uint32_t)h->count);
}

int xp_i3_udp_hdr_decode(const uint8_t *p, size_t n, int c64, struct xp_i3_udp_hdr *h)
{
	if (n < xp_i3_udp_hdr_len(c64))
		return -1;
	h->sec = xp_get32(p);
	h->usec = xp_get32(p + 4);
	h->count = c64 ? xp_get64(p + 8) : xp_get32(p + 8);
	return 0;
}

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

void xp_i3_rx_add(struct xp_i3_rx *r, uint64_t count, uint32_t sec, uint32_t usec,
		  uint64_t arrival_ns)
{
	uint64_t sent_ns = (uint64_t)sec * 1000000000u + (uint64_t)usec * 1000u;
	uint64_t transit = absdiff(arrival_ns, sent_ns);

	r->received++;
	if (count > r->max_seen) {
		r->lost += count - 1 - r->max_seen;
		r->max_seen = count;
	} else {
		r->ooo++;
		if (r->lost)
			r->lost--;
	}
	if (!r->started) {
		r->started = 1;
		r->prev_transit_ns = transit;
	}
	r->jitter += ((double)absdiff(transit, r->prev_transit_ns) / 1e9 - r->jitter) / 16.0;
	r->prev_transit_ns = transit;
}

int64_t xp_i3_stream_id(uint32_t pos)
{
	return pos ? (int64_t)pos + 2 : 1;
}

int64_t xp_i3_stream_pos(int64_t id)
{
	if (id == 1)
		return 0;
	return id >= 3 && id <= (int64_t)UINT32_MAX ? id - 2 : -1;
}

int xp_i3_c2s(uint32_t pos, uint32_t parallel, int reverse, int bidir)
{
	if (bidir)
		return pos < parallel;
	return !reverse;
}
