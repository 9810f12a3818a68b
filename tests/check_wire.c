/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests for the control-protocol codec (proto/msg.c).
 * Tag numbers are written out literally here on purpose: they are the wire
 * contract documented in proto/PROTOCOL.md, and a test that borrowed them
 * from the implementation would not notice a renumbering. */
#include "proto/msg.h"
#include "proto/mux.h"
#include "proto/selfprobe.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BUF_MAX (XP_MSG_HDR_LEN + XP_MSG_BODY_MAX)

static const uint16_t all_types[] = {
	XP_MSG_SETUP, XP_MSG_SETUP_OK, XP_MSG_READY, XP_MSG_GO,
	XP_MSG_STOP,  XP_MSG_RESULT,   XP_MSG_ERROR, XP_MSG_FLOW,
	XP_MSG_MEASURE, XP_MSG_DONE, XP_MSG_INTERVAL, XP_MSG_HEARTBEAT,
	XP_MSG_AUTH_HELLO, XP_MSG_AUTH_CHALLENGE, XP_MSG_AUTH_RESPONSE, XP_MSG_AUTH_OK,
};
#define NTYPES (sizeof(all_types) / sizeof(all_types[0]))

/* ---- helpers ---- */

static void be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void be32(uint8_t *p, uint32_t v)
{
	be16(p, (uint16_t)(v >> 16));
	be16(p + 2, (uint16_t)v);
}

static void be64(uint8_t *p, uint64_t v)
{
	be32(p, (uint32_t)(v >> 32));
	be32(p + 4, (uint32_t)v);
}

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)rd16(p) << 16 | rd16(p + 2);
}

/* Writes a 12-byte header. */
static void put_hdr(uint8_t *p, uint16_t version, uint16_t type,
		    uint32_t body_len)
{
	be32(p, XP_MSG_MAGIC);
	be16(p + 4, version);
	be16(p + 6, type);
	be32(p + 8, body_len);
}

/* Appends one TLV at p; returns its size. */
static size_t put_tlv(uint8_t *p, uint16_t tag, uint16_t len, const void *v)
{
	be16(p, tag);
	be16(p + 2, len);
	if (len)
		memcpy(p + 4, v, len);
	return 4u + len;
}

static size_t put_u64_tlv(uint8_t *p, uint16_t tag, uint64_t v)
{
	uint8_t b[8];

	be64(b, v);
	return put_tlv(p, tag, 8, b);
}

/* Fills n printable, position-dependent characters and a NUL. */
static void fill_str(char *dst, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = (char)('!' + (i * 7 + seed) % 94);
	dst[n] = '\0';
}

static void fill_setup(struct xp_msg_setup *s)
{
	s->test = 6; /* UDP_RR */
	s->duration_ms = 0x0102030405060708ull;
	s->req_size = UINT64_MAX;
	s->rsp_size = 0x8000000000000001ull;
	s->flows = 0x1111111111111111ull;
	s->threads = 0x2222222222222222ull;
	s->nodelay = 1;
	s->sndbuf = 0x3333333333333333ull;
	s->rcvbuf = 0x4444444444444444ull;
	s->rr_timeout_ms = 0x5555555555555555ull;
	s->flags = 0xa5a5a5a5a5a5a5a5ull;
	s->bidir = 1;
	s->quota = 0x6666666666666666ull;
	s->omit_ms = 0x7777777777777777ull;
	fill_str(s->cpus, XP_MSG_STR_MAX, 1);
	s->heartbeat_ms = 0x6666666666666666ull;
	s->interval_ms = 0x1234567812345678ull;
	s->interval_origin_ms = 0x8765432187654321ull;
}

/* Every number of the side result (proto/result.def), each distinct. */
static void fill_result(struct xp_side_result *r)
{
	uint64_t *v[] = {
#define XP_RESULT(g, f, tag, merge) &r->XP_PATH_##g f,
#define XP_PATH_C c.
#define XP_PATH_TCP tcp.
#define XP_PATH_SIDE
#include "proto/result.def"
#undef XP_RESULT
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		*v[i] = 0x0f0e0d0c0b0a0900ull + i * 0x0101010101010101ull;
	r->c.bytes_sent = UINT64_MAX;
	fill_str(r->cpus, XP_MSG_STR_MAX, 5);
	fill_str(r->warning, XP_MSG_STR_MAX, 6);
}

/* Every field set to a distinctive value, strings at maximum length. */
static void fill_msg(struct xp_msg *m, uint16_t type)
{
	memset(m, 0, sizeof(*m));
	m->type = type;
	switch (type) {
	case XP_MSG_SETUP:
		fill_setup(&m->u.setup);
		break;
	case XP_MSG_SETUP_OK:
		m->u.setup_ok.cookie = 0xfedcba9876543210ull;
		m->u.setup_ok.threads = UINT64_MAX;
		fill_str(m->u.setup_ok.cpus, XP_MSG_STR_MAX, 3);
		m->u.setup_ok.data_port = 65535;
		m->u.setup_ok.padded_hello = 1;
		m->u.setup_ok.heartbeat_ms = 1000;
		break;
	case XP_MSG_AUTH_HELLO:
	case XP_MSG_AUTH_CHALLENGE:
		for (size_t i = 0; i < XP_MSG_AUTH_LEN; i++)
			m->u.auth.nonce[i] = (uint8_t)(i * 7); /* NUL bytes included */
		break;
	case XP_MSG_AUTH_RESPONSE:
	case XP_MSG_AUTH_OK:
		for (size_t i = 0; i < XP_MSG_AUTH_LEN; i++)
			m->u.auth.mac[i] = (uint8_t)(255 - i);
		break;
	case XP_MSG_STOP:
		m->u.stop.datagrams_sent = UINT64_MAX;
		break;
	case XP_MSG_INTERVAL: {
		uint64_t *v = &m->u.interval.index;

		for (size_t i = 0; i < sizeof(m->u.interval) / sizeof(*v); i++)
			v[i] = UINT64_MAX - i;
		break;
	}
	case XP_MSG_RESULT:
		fill_result(&m->u.result);
		break;
	case XP_MSG_ERROR:
		m->u.error.code = UINT64_MAX;
		fill_str(m->u.error.text, XP_MSG_STR_MAX, 9);
		break;
	case XP_MSG_FLOW: {
		uint64_t *v = &m->u.flow.flow;

		/* every field of the flow result, each distinct */
		for (size_t i = 0; i < sizeof(m->u.flow) / sizeof(*v); i++)
			v[i] = 0x1f1e1d1c1b1a1900ull + i * 0x0101010101010101ull;
		break;
	}
	}
}

/* Decodes buf, expecting failure; returns the error text. */
static void expect_reject(const uint8_t *buf, size_t len, const char *needle)
{
	struct xp_msg m;
	struct xp_why err = { "" };

	ck_assert_int_eq(xp_msg_decode(buf, len, &m, &err), -1);
	ck_assert_msg(err.msg[0] != '\0', "no error message for len %zu", len);
	if (needle)
		ck_assert_msg(strstr(err.msg, needle), "\"%s\" lacks \"%s\"",
			      err.msg, needle);
}

static void expect_accept(const uint8_t *buf, size_t len, struct xp_msg *m)
{
	struct xp_why err = { "" };
	int rc = xp_msg_decode(buf, len, m, &err);

	ck_assert_msg(rc == 0, "decode failed: %s", err.msg);
}

/* ---- round trips ---- */

START_TEST(test_roundtrip_all_types)
{
	uint8_t buf[BUF_MAX];
	struct xp_msg in, out;
	size_t n;

	for (size_t i = 0; i < NTYPES; i++) {
		fill_msg(&in, all_types[i]);
		n = xp_msg_encode(&in, buf, sizeof(buf));
		ck_assert_uint_gt(n, 0);
		ck_assert_uint_eq(rd32(buf), XP_MSG_MAGIC);
		ck_assert_uint_eq(rd16(buf + 4), XP_PROTO_VERSION);
		ck_assert_uint_eq(rd16(buf + 6), all_types[i]);
		ck_assert_uint_eq(rd32(buf + 8), n - XP_MSG_HDR_LEN);
		expect_accept(buf, n, &out);
		ck_assert_uint_eq(out.type, all_types[i]);
		ck_assert_uint_eq(out.version, XP_PROTO_VERSION);
		in.version = XP_PROTO_VERSION;
		ck_assert_mem_eq(&in, &out, sizeof(in));
	}
}
END_TEST

START_TEST(test_roundtrip_fields_spot_check)
{
	uint8_t buf[BUF_MAX];
	struct xp_msg in, out;
	size_t n;

	fill_msg(&in, XP_MSG_SETUP);
	n = xp_msg_encode(&in, buf, sizeof(buf));
	expect_accept(buf, n, &out);
	ck_assert_uint_eq(out.u.setup.req_size, UINT64_MAX);
	ck_assert_uint_eq(out.u.setup.duration_ms, 0x0102030405060708ull);
	ck_assert_uint_eq(strlen(out.u.setup.cpus), XP_MSG_STR_MAX);
	ck_assert_str_eq(out.u.setup.cpus, in.u.setup.cpus);
}
END_TEST

/* A SETUP padded to netperf's 656 bytes decodes as the unpadded one; the
 * padding is one field of tag 65535; too small a buffer gives 0. */
START_TEST(test_encode_min_padding)
{
	uint8_t buf[BUF_MAX], plain[BUF_MAX];
	struct xp_msg in, out;
	size_t n, p;

	memset(&in, 0, sizeof(in));
	in.type = XP_MSG_SETUP;
	in.u.setup.test = 1;
	in.u.setup.duration_ms = 1000;
	p = xp_msg_encode(&in, plain, sizeof(plain));
	n = xp_msg_encode_min(&in, buf, sizeof(buf), 656);
	ck_assert_uint_eq(n, 656);
	ck_assert_mem_eq(buf + 12, plain + 12, p - 12);
	ck_assert_uint_eq(buf[p], 0xff);
	ck_assert_uint_eq(buf[p + 1], 0xff);
	ck_assert_uint_eq((size_t)(buf[p + 2] << 8 | buf[p + 3]), 656 - p - 4);
	expect_accept(buf, n, &out);
	ck_assert_uint_eq(out.u.setup.duration_ms, 1000);
	ck_assert_uint_eq(xp_msg_encode_min(&in, buf, 600, 656), 0);
	/* already long enough: no padding; 1..3 bytes short: a 4-byte field */
	ck_assert_uint_eq(xp_msg_encode_min(&in, buf, sizeof(buf), p), p);
	ck_assert_uint_eq(xp_msg_encode_min(&in, buf, sizeof(buf), p + 2), p + 4);
	expect_accept(buf, p + 4, &out);
}
END_TEST

/* The socket-and-path fields: SETUP 30-32, RESULT 60-63, FLOW 8. */
START_TEST(test_sockpath_fields)
{
	uint8_t buf[BUF_MAX];
	struct xp_msg in, out;
	size_t n = XP_MSG_HDR_LEN;

	memset(&in, 0, sizeof(in));
	in.type = XP_MSG_SETUP;
	strcpy(in.u.setup.congestion, "cubic");
	in.u.setup.tos = XP_SETUP_TOS_SET | 0xb8;
	in.u.setup.sock_flags = XP_SETUP_S_FASTOPEN | XP_SETUP_S_MPTCP;
	expect_accept(buf, xp_msg_encode(&in, buf, sizeof(buf)), &out);
	ck_assert_str_eq(out.u.setup.congestion, "cubic");
	ck_assert_uint_eq(out.u.setup.tos, 0x1b8);
	ck_assert_uint_eq(out.u.setup.sock_flags, 5);
	/* a congestion control name of 16 bytes does not fit TCP_CA_NAME_MAX */
	n += put_tlv(buf + n, 30, 16, "abcdefghijklmnop");
	put_hdr(buf, XP_PROTO_VERSION, XP_MSG_SETUP, (uint32_t)n - 12);
	expect_reject(buf, n, "exceeds maximum 15");
	memset(&in, 0, sizeof(in));
	in.type = XP_MSG_RESULT;
	strcpy(in.u.result.congestion, "reno");
	in.u.result.tcp.advmss = 1448;
	in.u.result.c.mptcp_flows = 3;
	in.u.result.c.fastopen_syn_data = 7;
	expect_accept(buf, xp_msg_encode(&in, buf, sizeof(buf)), &out);
	ck_assert_str_eq(out.u.result.congestion, "reno");
	ck_assert_uint_eq(out.u.result.tcp.advmss, 1448);
	ck_assert_uint_eq(out.u.result.c.mptcp_flows, 3);
	ck_assert_uint_eq(out.u.result.c.fastopen_syn_data, 7);
	memset(&in, 0, sizeof(in));
	in.type = XP_MSG_FLOW;
	in.u.flow.advmss = 988;
	expect_accept(buf, xp_msg_encode(&in, buf, sizeof(buf)), &out);
	ck_assert_uint_eq(out.u.flow.advmss, 988);
}
END_TEST

/* The exact bytes pin the tag numbers and the big-endian layout. */
START_TEST(test_wire_bytes_exact)
{
	static const uint8_t stop[] = {
		0x58, 0x50, 0x43, 0x54, 0, 2, 0, 5, 0, 0, 0, 12,
		0, 1, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8,
	};
	static const uint8_t error[] = {
		0x58, 0x50, 0x43, 0x54, 0, 2, 0, 7, 0, 0, 0, 18,
		0, 1, 0, 8, 0, 0, 0, 0, 0, 0, 0, 42,
		0, 2, 0, 2, 'h', 'i',
	};
	uint8_t buf[64];
	struct xp_msg m = { .type = XP_MSG_STOP };

	m.u.stop.datagrams_sent = 0x0102030405060708ull;
	ck_assert_uint_eq(xp_msg_encode(&m, buf, sizeof(buf)), sizeof(stop));
	ck_assert_mem_eq(buf, stop, sizeof(stop));
	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_ERROR;
	m.u.error.code = 42;
	strcpy(m.u.error.text, "hi");
	ck_assert_uint_eq(xp_msg_encode(&m, buf, sizeof(buf)), sizeof(error));
	ck_assert_mem_eq(buf, error, sizeof(error));
}
END_TEST

START_TEST(test_empty_bodies_and_missing_fields)
{
	uint8_t buf[BUF_MAX];
	struct xp_msg m;
	size_t n;

	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_READY;
	ck_assert_uint_eq(xp_msg_encode(&m, buf, sizeof(buf)), XP_MSG_HDR_LEN);
	/* A SETUP with no fields decodes to all zeros and "". */
	put_hdr(buf, XP_PROTO_VERSION, XP_MSG_SETUP, 0);
	memset(&m, 0x5a, sizeof(m));
	expect_accept(buf, XP_MSG_HDR_LEN, &m);
	ck_assert_uint_eq(m.u.setup.duration_ms, 0);
	ck_assert_str_eq(m.u.setup.cpus, "");
	/* An empty string is omitted by the encoder... */
	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_SETUP_OK;
	n = xp_msg_encode(&m, buf, sizeof(buf));
	ck_assert_uint_eq(n, XP_MSG_HDR_LEN + 6 * 12); /* cookie, threads, data_port, padded_hello, heartbeat_ms, clock */
	/* ...and accepted with length 0. */
	n = XP_MSG_HDR_LEN + put_tlv(buf + XP_MSG_HDR_LEN, 3, 0, NULL);
	put_hdr(buf, XP_PROTO_VERSION, XP_MSG_SETUP_OK, (uint32_t)n - 12);
	expect_accept(buf, n, &m);
	ck_assert_str_eq(m.u.setup_ok.cpus, "");
}
END_TEST

START_TEST(test_type_names)
{
	ck_assert_str_eq(xp_msg_type_name(XP_MSG_SETUP), "SETUP");
	ck_assert_str_eq(xp_msg_type_name(XP_MSG_SETUP_OK), "SETUP_OK");
	ck_assert_str_eq(xp_msg_type_name(XP_MSG_READY), "READY");
	ck_assert_str_eq(xp_msg_type_name(XP_MSG_GO), "GO");
	ck_assert_str_eq(xp_msg_type_name(XP_MSG_STOP), "STOP");
	ck_assert_str_eq(xp_msg_type_name(XP_MSG_RESULT), "RESULT");
	ck_assert_str_eq(xp_msg_type_name(XP_MSG_ERROR), "ERROR");
	ck_assert_ptr_nonnull(xp_msg_type_name(0));
	ck_assert_ptr_nonnull(xp_msg_type_name(8));
	ck_assert_ptr_nonnull(xp_msg_type_name(0xffff));
}
END_TEST

/* ---- encoder limits ---- */

START_TEST(test_encode_cap_too_small)
{
	uint8_t buf[BUF_MAX];
	struct xp_msg m;
	size_t n;

	for (size_t i = 0; i < NTYPES; i++) {
		fill_msg(&m, all_types[i]);
		n = xp_msg_encode(&m, buf, sizeof(buf));
		ck_assert_uint_gt(n, 0);
		for (size_t cap = 0; cap < n; cap++) {
			memset(buf, 0xaa, sizeof(buf));
			if (xp_msg_encode(&m, buf, cap) != 0)
				ck_abort_msg("type %u cap %zu accepted",
					     all_types[i], cap);
			if (buf[0] != 0xaa || buf[n - 1] != 0xaa)
				ck_abort_msg("type %u cap %zu wrote bytes",
					     all_types[i], cap);
		}
		ck_assert_uint_eq(xp_msg_encode(&m, buf, n), n);
	}
}
END_TEST

START_TEST(test_roundtrip_flow)
{
	uint8_t buf[512];
	struct xp_msg m, d;
	struct xp_why err;
	size_t n;

	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_FLOW;
	m.u.flow.flow = 999;
	m.u.flow.retrans = 7;
	m.u.flow.rtt_us = 123;
	m.u.flow.rttvar_us = 45;
	m.u.flow.cwnd = 10;
	m.u.flow.mss = 1448;
	m.u.flow.delivery_rate_bps = UINT64_MAX;
	m.u.flow.flags = XP_FLOW_F_SENDER | XP_FLOW_F_JITTER | XP_FLOW_F_S2C;
	m.u.flow.bytes = 1ull << 40;
	m.u.flow.omitted_bytes = 5;
	m.u.flow.datagrams = 6;
	m.u.flow.out_of_order = 8;
	m.u.flow.duplicates = 9;
	m.u.flow.transactions = 11;
	m.u.flow.jitter_ns = 12345;
	n = xp_msg_encode(&m, buf, sizeof(buf));
	ck_assert_uint_gt(n, XP_MSG_HDR_LEN);
	ck_assert_int_eq(xp_msg_decode(buf, n, &d, &err), 0);
	ck_assert_uint_eq(d.type, XP_MSG_FLOW);
	ck_assert_mem_eq(&d.u.flow, &m.u.flow, sizeof(m.u.flow));
	/* the type that was TCPINFO, and its TCP_INFO tags, are unchanged */
	ck_assert_uint_eq(XP_MSG_FLOW, 8);
	ck_assert_uint_eq(rd16(buf + XP_MSG_HDR_LEN), 1);
	ck_assert_str_eq(xp_msg_type_name(XP_MSG_FLOW), "FLOW");
	ck_assert_str_eq(xp_msg_type_name(XP_MSG_MEASURE), "MEASURE");
	ck_assert_str_eq(xp_msg_type_name(XP_MSG_DONE), "DONE");
}
END_TEST

/* A TCPINFO from a server that predates the flow counters (tags 1-7
 * only) still decodes: the counters read 0. */
START_TEST(test_flow_from_older_server)
{
	uint8_t buf[256];
	struct xp_msg m;
	size_t n = XP_MSG_HDR_LEN;

	n += put_u64_tlv(buf + n, 1, 3);
	n += put_u64_tlv(buf + n, 2, 7);
	put_hdr(buf, XP_PROTO_VERSION, XP_MSG_FLOW, (uint32_t)n - XP_MSG_HDR_LEN);
	expect_accept(buf, n, &m);
	ck_assert_uint_eq(m.u.flow.flow, 3);
	ck_assert_uint_eq(m.u.flow.retrans, 7);
	ck_assert_uint_eq(m.u.flow.flags, 0);
	ck_assert_uint_eq(m.u.flow.bytes, 0);
}
END_TEST

START_TEST(test_encode_unknown_type)
{
	uint8_t buf[64];
	struct xp_msg m;

	memset(&m, 0, sizeof(m));
	ck_assert_uint_eq(xp_msg_encode(&m, buf, sizeof(buf)), 0);
	m.type = 11; /* the first number no message has */
	ck_assert_uint_eq(xp_msg_encode(&m, buf, sizeof(buf)), 0);
	m.type = 0xffff;
	ck_assert_uint_eq(xp_msg_encode(&m, buf, sizeof(buf)), 0);
}
END_TEST

/* ---- rejections ---- */

/* True if off is where a TLV starts (or the body ends) in a valid body. */
static int at_field_boundary(const uint8_t *body, size_t len, size_t off)
{
	size_t pos = 0;

	while (pos < off && pos < len)
		pos += 4u + rd16(body + pos + 2);
	return pos == off;
}

START_TEST(test_reject_every_truncation)
{
	uint8_t full[BUF_MAX], cut[BUF_MAX];
	struct xp_msg m;
	size_t n;

	for (size_t i = 0; i < NTYPES; i++) {
		fill_msg(&m, all_types[i]);
		n = xp_msg_encode(&m, full, sizeof(full));
		for (size_t p = 0; p < n; p++)
			expect_reject(full, p, NULL);
		/* Same prefixes with the header's length patched to match:
		 * only cuts between fields may decode. */
		for (size_t p = XP_MSG_HDR_LEN; p < n; p++) {
			struct xp_why err;
			int ok;

			memcpy(cut, full, p);
			be32(cut + 8, (uint32_t)(p - XP_MSG_HDR_LEN));
			ok = at_field_boundary(full + 12, n - 12, p - 12);
			if ((xp_msg_decode(cut, p, &m, &err) == 0) != ok)
				ck_abort_msg("type %u prefix %zu: ok=%d",
					     all_types[i], p, ok);
		}
	}
}
END_TEST

START_TEST(test_reject_field_truncated_message)
{
	uint8_t buf[64];
	size_t n = XP_MSG_HDR_LEN;

	n += put_u64_tlv(buf + n, 1, 7);
	be16(buf + n, 3);
	be16(buf + n + 2, 8);
	n += 6; /* 2 of the 8 value bytes */
	put_hdr(buf, XP_PROTO_VERSION, XP_MSG_SETUP, (uint32_t)n - 12);
	expect_reject(buf, n, "field 3 truncated (needs 8 bytes, 2 left)");
	put_hdr(buf, XP_PROTO_VERSION, XP_MSG_SETUP, 14);
	expect_reject(buf, 26, "field header truncated (needs 4 bytes, 2");
}
END_TEST

START_TEST(test_reject_body_too_long)
{
	static uint8_t buf[BUF_MAX + 1];
	uint16_t version, type;
	uint32_t body;
	struct xp_why err;

	put_hdr(buf, XP_PROTO_VERSION, XP_MSG_SETUP, 70000);
	expect_reject(buf, XP_MSG_HDR_LEN,
		      "body length 70000 exceeds maximum 16384");
	ck_assert_int_eq(xp_msg_hdr_decode(buf, &version, &type, &body, &err),
			 -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "70000"));
	put_hdr(buf, XP_PROTO_VERSION, XP_MSG_READY, XP_MSG_BODY_MAX + 1);
	expect_reject(buf, sizeof(buf), "exceeds maximum");
}
END_TEST

START_TEST(test_accept_body_at_max)
{
	static uint8_t buf[BUF_MAX];
	static uint8_t junk[4092];
	struct xp_msg m;
	size_t n = XP_MSG_HDR_LEN;

	for (int i = 0; i < 4; i++)
		n += put_tlv(buf + n, 0x7777, sizeof(junk), junk);
	ck_assert_uint_eq(n, BUF_MAX);
	put_hdr(buf, XP_PROTO_VERSION, XP_MSG_READY, XP_MSG_BODY_MAX);
	expect_accept(buf, n, &m);
	ck_assert_uint_eq(m.type, XP_MSG_READY);
}
END_TEST

START_TEST(test_reject_bad_magic)
{
	uint8_t buf[BUF_MAX];
	struct xp_msg m;
	size_t n;

	fill_msg(&m, XP_MSG_STOP);
	n = xp_msg_encode(&m, buf, sizeof(buf));
	for (int byte = 0; byte < 4; byte++) {
		buf[byte] ^= 0x20;
		expect_reject(buf, n, "magic");
		buf[byte] ^= 0x20;
	}
	be32(buf, XP_DATA_MAGIC); /* a data hello is not a control message */
	expect_reject(buf, n, "magic");
}
END_TEST

START_TEST(test_reject_wrong_version)
{
	uint8_t buf[BUF_MAX];
	struct xp_msg m;
	size_t n;

	fill_msg(&m, XP_MSG_SETUP);
	n = xp_msg_encode(&m, buf, sizeof(buf));
	be16(buf + 4, 1);
	expect_reject(buf, n, "protocol version 1, this build speaks 2");
	be16(buf + 4, 3);
	expect_reject(buf, n, "protocol version 3");
	be16(buf + 4, 0);
	expect_reject(buf, n, "protocol version 0");
	be16(buf + 4, 0xffff);
	expect_reject(buf, n, "protocol version 65535");
}
END_TEST

START_TEST(test_error_of_other_version_decodes)
{
	static const char text[] = "protocol version 2, peer speaks 1";
	uint8_t buf[BUF_MAX];
	struct xp_msg m;
	size_t n = XP_MSG_HDR_LEN;

	/* A hypothetical version-2 ERROR with a field we do not know. */
	n += put_tlv(buf + n, 9, 3, "new");
	n += put_tlv(buf + n, 2, sizeof(text) - 1, text);
	n += put_u64_tlv(buf + n, 1, 17);
	put_hdr(buf, 2, XP_MSG_ERROR, (uint32_t)n - 12);
	expect_accept(buf, n, &m);
	ck_assert_uint_eq(m.type, XP_MSG_ERROR);
	ck_assert_uint_eq(m.version, 2);
	ck_assert_uint_eq(m.u.error.code, 17);
	ck_assert_str_eq(m.u.error.text, text);
	be16(buf + 4, 0xffff);
	expect_accept(buf, n, &m);
	ck_assert_str_eq(m.u.error.text, text);
}
END_TEST

START_TEST(test_reject_unknown_type)
{
	uint8_t buf[XP_MSG_HDR_LEN];

	put_hdr(buf, XP_PROTO_VERSION, 12, 0);
	expect_reject(buf, sizeof(buf), "unknown type 12");
	put_hdr(buf, XP_PROTO_VERSION, 0, 0);
	expect_reject(buf, sizeof(buf), "unknown type 0");
	put_hdr(buf, XP_PROTO_VERSION, 0xffff, 0);
	expect_reject(buf, sizeof(buf), "unknown type 65535");
}
END_TEST

START_TEST(test_reject_integer_bad_length)
{
	static const uint16_t lens[] = { 0, 1, 4, 7, 9, 16 };
	uint8_t buf[64], zero[16] = { 0 };
	size_t n;

	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		n = XP_MSG_HDR_LEN + put_tlv(buf + 12, 2, lens[i], zero);
		put_hdr(buf, XP_PROTO_VERSION, XP_MSG_SETUP, (uint32_t)n - 12);
		expect_reject(buf, n, "field 2");
	}
	n = XP_MSG_HDR_LEN + put_tlv(buf + 12, 1, 4, zero);
	put_hdr(buf, XP_PROTO_VERSION, XP_MSG_STOP, (uint32_t)n - 12);
	expect_reject(buf, n, "length 4");
}
END_TEST

START_TEST(test_reject_string_with_nul)
{
	uint8_t buf[64];
	size_t n;

	n = XP_MSG_HDR_LEN + put_tlv(buf + 12, 2, 5, "ab\0cd");
	put_hdr(buf, XP_PROTO_VERSION, XP_MSG_ERROR, (uint32_t)n - 12);
	expect_reject(buf, n, "NUL");
	n = XP_MSG_HDR_LEN + put_tlv(buf + 12, 3, 4, "0-3\0");
	put_hdr(buf, XP_PROTO_VERSION, XP_MSG_SETUP_OK, (uint32_t)n - 12);
	expect_reject(buf, n, "NUL");
}
END_TEST

START_TEST(test_reject_string_over_max)
{
	uint8_t buf[BUF_MAX];
	char s[XP_MSG_STR_MAX + 2];
	struct xp_msg m;
	size_t n;

	fill_str(s, XP_MSG_STR_MAX + 1, 0);
	n = XP_MSG_HDR_LEN + put_tlv(buf + 12, 12, XP_MSG_STR_MAX + 1, s);
	put_hdr(buf, XP_PROTO_VERSION, XP_MSG_SETUP, (uint32_t)n - 12);
	expect_reject(buf, n, "length 257 exceeds maximum 256");
	n = XP_MSG_HDR_LEN + put_tlv(buf + 12, 12, XP_MSG_STR_MAX, s);
	put_hdr(buf, XP_PROTO_VERSION, XP_MSG_SETUP, (uint32_t)n - 12);
	expect_accept(buf, n, &m);
	ck_assert_uint_eq(strlen(m.u.setup.cpus), XP_MSG_STR_MAX);
}
END_TEST

START_TEST(test_reject_body_length_mismatch)
{
	uint8_t buf[BUF_MAX];
	struct xp_msg m;
	size_t n;

	fill_msg(&m, XP_MSG_RESULT);
	n = xp_msg_encode(&m, buf, sizeof(buf));
	buf[n] = 0;
	expect_reject(buf, n + 1, "body length");
	expect_reject(buf, n - 1, "body length");
	be32(buf + 8, rd32(buf + 8) + 1);
	expect_reject(buf, n, "body length");
	be32(buf + 8, rd32(buf + 8) - 2);
	expect_reject(buf, n, "body length");
}
END_TEST

START_TEST(test_reject_duplicate_tag)
{
	uint8_t buf[64];
	size_t n = XP_MSG_HDR_LEN;

	n += put_u64_tlv(buf + n, 1, 1);
	n += put_u64_tlv(buf + n, 1, 2);
	put_hdr(buf, XP_PROTO_VERSION, XP_MSG_STOP, (uint32_t)n - 12);
	expect_reject(buf, n, "appears twice");
}
END_TEST

START_TEST(test_unknown_tags_skipped)
{
	uint8_t buf[BUF_MAX];
	uint8_t big[600] = { 0 };
	struct xp_msg in, out;
	size_t n = XP_MSG_HDR_LEN;

	fill_msg(&in, XP_MSG_SETUP_OK);
	n += put_tlv(buf + n, 0, 0, NULL); /* before the known fields */
	n += put_tlv(buf + n, 99, 5, "hello");
	n += put_u64_tlv(buf + n, 1, in.u.setup_ok.cookie);
	n += put_tlv(buf + n, 0xffff, sizeof(big), big); /* long, with NULs */
	n += put_u64_tlv(buf + n, 2, in.u.setup_ok.threads);
	n += put_tlv(buf + n, 6, 3, "abc"); /* 6 is not a SETUP_OK tag */
	n += put_tlv(buf + n, 3, (uint16_t)strlen(in.u.setup_ok.cpus),
		     in.u.setup_ok.cpus);
	n += put_u64_tlv(buf + n, 1000, 5);
	n += put_u64_tlv(buf + n, 70, in.u.setup_ok.heartbeat_ms);
	n += put_u64_tlv(buf + n, 4, in.u.setup_ok.data_port);
	n += put_u64_tlv(buf + n, 5, in.u.setup_ok.padded_hello);
	put_hdr(buf, XP_PROTO_VERSION, XP_MSG_SETUP_OK, (uint32_t)n - 12);
	expect_accept(buf, n, &out);
	in.version = XP_PROTO_VERSION;
	ck_assert_mem_eq(&in, &out, sizeof(in));
}
END_TEST

/* ---- fuzzing ---- */

struct rng {
	uint64_t s;
};

static uint64_t rng_next(struct rng *r) /* splitmix64 */
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rng_below(struct rng *r, uint32_t n)
{
	return (uint32_t)(rng_next(r) % n);
}

/* If buf decodes, it must re-encode to something that decodes the same.
 * Returns 1 if it decoded.  Uses ck_abort_msg only on failure: passing
 * ck_assert calls are too slow for hundreds of thousands of inputs. */
static int check_reencode(const uint8_t *buf, size_t len)
{
	static uint8_t out[BUF_MAX];
	struct xp_msg a, b;
	struct xp_why err;
	size_t n;

	if (xp_msg_decode(buf, len, &a, &err) != 0)
		return 0;
	n = xp_msg_encode(&a, out, sizeof(out));
	if (n == 0)
		ck_abort_msg("decoded type %u does not re-encode", a.type);
	if (xp_msg_decode(out, n, &b, &err) != 0)
		ck_abort_msg("re-encoded type %u rejected: %s", a.type, err.msg);
	a.version = b.version;
	if (memcmp(&a, &b, sizeof(a)) != 0)
		ck_abort_msg("type %u changed in a round trip", a.type);
	return 1;
}

/* Random TLVs with tags and lengths likely to hit known fields. */
static size_t random_tlvs(struct rng *r, uint8_t *p, size_t cap)
{
	size_t n = 0;

	while (n + 4 <= cap && rng_below(r, 8) != 0) {
		uint16_t tag = (uint16_t)rng_below(r, 16);
		uint16_t len = rng_below(r, 2) ? 8 : (uint16_t)rng_below(r, 12);

		if (len > cap - n - 4)
			len = (uint16_t)(cap - n - 4);
		be16(p + n, tag);
		be16(p + n + 2, len);
		for (uint16_t i = 0; i < len; i++)
			p[n + 4 + i] = (uint8_t)('a' + rng_below(r, 26));
		n += 4u + len;
	}
	return n;
}

/* One random input: raw bytes, or a plausible header and body. */
static size_t random_input(struct rng *r, uint8_t *buf)
{
	size_t len = rng_below(r, 301);

	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)rng_next(r);
	if (rng_below(r, 3) == 0 || len < XP_MSG_HDR_LEN)
		return len;
	if (rng_below(r, 2))
		len = XP_MSG_HDR_LEN + random_tlvs(r, buf + 12, len - 12);
	put_hdr(buf, rng_below(r, 8) ? XP_PROTO_VERSION : (uint16_t)rng_next(r),
		(uint16_t)rng_below(r, 9), (uint32_t)len - 12);
	if (rng_below(r, 16) == 0)
		be32(buf + 8, (uint32_t)rng_next(r));
	return len;
}

START_TEST(test_fuzz_random_buffers)
{
	static uint8_t buf[512];
	struct rng r = { 0x5eed1234abcdull };
	int decoded = 0;

	for (int i = 0; i < 200000; i++) {
		size_t len = random_input(&r, buf);
		uint64_t cookie;
		uint32_t flow;

		decoded += check_reencode(buf, len);
		xp_data_hello_decode(buf, len, &cookie, &flow);
		xp_data_pad_hello_decode(buf, len, &cookie, &flow, NULL);
	}
	ck_assert_int_gt(decoded, 1000); /* the loop reached the decoders */
}
END_TEST

/* Flips 1-4 bits, sometimes also fixes the header length after a cut. */
static size_t mutate(struct rng *r, uint8_t *buf, size_t len)
{
	int flips = 1 + (int)rng_below(r, 4);

	for (int f = 0; f < flips; f++) {
		size_t pos = rng_below(r, (uint32_t)len);

		buf[pos] ^= (uint8_t)(1u << rng_below(r, 8));
	}
	if (rng_below(r, 4) == 0) {
		len = XP_MSG_HDR_LEN + rng_below(r, (uint32_t)len - 11);
		be32(buf + 8, (uint32_t)len - 12);
	}
	return len;
}

START_TEST(test_fuzz_mutations)
{
	static uint8_t valid[BUF_MAX], buf[BUF_MAX];
	struct rng r = { 42 };
	struct xp_msg m;
	int decoded = 0;

	for (size_t t = 0; t < NTYPES; t++) {
		size_t n;

		fill_msg(&m, all_types[t]);
		n = xp_msg_encode(&m, valid, sizeof(valid));
		for (int i = 0; i < 30000; i++) {
			size_t len;

			memcpy(buf, valid, n);
			len = mutate(&r, buf, n);
			decoded += check_reencode(buf, len);
		}
	}
	ck_assert_int_gt(decoded, 1000);
}
END_TEST

/* ---- data hello ---- */

START_TEST(test_data_hello_roundtrip)
{
	static const uint8_t want[XP_DATA_HELLO_LEN] = {
		0x58, 0x50, 0x44, 0x54, 0x01, 0x23, 0x45, 0x67,
		0x89, 0xab, 0xcd, 0xef, 0xde, 0xad, 0xbe, 0xef,
	};
	uint8_t buf[XP_DATA_HELLO_LEN + 4] = { 0 };
	uint64_t cookie = 0;
	uint32_t flow = 0;

	xp_data_hello_encode(buf, 0x0123456789abcdefull, 0xdeadbeefu);
	ck_assert_mem_eq(buf, want, sizeof(want));
	ck_assert_int_eq(xp_data_hello_decode(buf, 16, &cookie, &flow), 0);
	ck_assert_uint_eq(cookie, 0x0123456789abcdefull);
	ck_assert_uint_eq(flow, 0xdeadbeefu);
	/* Bytes after the hello (a CRR request) do not matter. */
	ck_assert_int_eq(xp_data_hello_decode(buf, 20, &cookie, &flow), 0);
	xp_data_hello_encode(buf, UINT64_MAX, 0);
	ck_assert_int_eq(xp_data_hello_decode(buf, 16, &cookie, &flow), 0);
	ck_assert_uint_eq(cookie, UINT64_MAX);
	ck_assert_uint_eq(flow, 0);
}
END_TEST

/* The padded hello: its 20-byte head, byte by byte; a pad above the bound
 * or a cut head is refused, and a plain hello is not a padded one. */
START_TEST(test_data_pad_hello)
{
	static const uint8_t want[XP_DATA_PAD_HEAD_LEN] = {
		0x58, 0x50, 0x44, 0x50, 0x01, 0x23, 0x45, 0x67,
		0x89, 0xab, 0xcd, 0xef, 0x00, 0x00, 0x00, 0x05,
		0x00, 0x00, 0x1f, 0xec,
	};
	uint8_t buf[XP_DATA_PAD_HEAD_LEN];
	uint64_t cookie = 0;
	uint32_t flow = 0, pad = 0;

	xp_data_pad_hello_encode(buf, 0x0123456789abcdefull, 5, 8172);
	ck_assert_mem_eq(buf, want, sizeof(want));
	ck_assert_int_eq(xp_data_pad_hello_decode(buf, sizeof(buf), &cookie, &flow, &pad), 0);
	ck_assert_uint_eq(cookie, 0x0123456789abcdefull);
	ck_assert_uint_eq(flow, 5);
	ck_assert_uint_eq(pad, 8172);
	for (size_t len = 0; len < XP_DATA_PAD_HEAD_LEN; len++)
		ck_assert_int_eq(xp_data_pad_hello_decode(buf, len, NULL, NULL, NULL), -1);
	xp_data_pad_hello_encode(buf, 1, 0, XP_DATA_PAD_MAX);
	ck_assert_int_eq(xp_data_pad_hello_decode(buf, sizeof(buf), NULL, NULL, &pad), 0);
	ck_assert_uint_eq(pad, XP_DATA_PAD_MAX);
	xp_data_pad_hello_encode(buf, 1, 0, XP_DATA_PAD_MAX + 1);
	ck_assert_int_eq(xp_data_pad_hello_decode(buf, sizeof(buf), NULL, NULL, NULL), -1);
	xp_data_hello_encode(buf, 1, 0);
	ck_assert_int_eq(xp_data_pad_hello_decode(buf, sizeof(buf), NULL, NULL, NULL), -1);
	ck_assert_int_eq(xp_data_hello_decode(want, sizeof(want), NULL, NULL), -1);
}
END_TEST

/* The self-probe record header: round trip, big-endian fields, the
 * record lengths of its two kinds, and every other first four bytes
 * refused (the stream out of step). */
START_TEST(test_self_probe_header)
{
	struct xp_self_hdr h = { XP_SELF_PROBE, 0x01020304u, 0x1122334455667788ull }, g;
	uint8_t b[XP_SELF_HDR];
	int i;

	xp_self_encode(b, &h);
	ck_assert_mem_eq(b, "XSRP\x01\x02\x03\x04\x11\x22\x33\x44\x55\x66\x77\x88", 16);
	ck_assert_int_eq(xp_self_decode(b, &g), 0);
	ck_assert_int_eq(g.kind, XP_SELF_PROBE);
	ck_assert_uint_eq(g.seq, h.seq);
	ck_assert_uint_eq(g.stamp, h.stamp);
	ck_assert_uint_eq(xp_self_len(XP_SELF_PROBE), XP_SELF_HDR);
	ck_assert_uint_eq(xp_self_len(XP_SELF_FILL), XP_SELF_REC);
	h.kind = XP_SELF_FILL;
	xp_self_encode(b, &h);
	ck_assert_int_eq(xp_self_decode(b, &g), 0);
	ck_assert_int_eq(g.kind, XP_SELF_FILL);
	for (i = 0; i < 4; i++) {
		uint8_t c[XP_SELF_HDR];

		memcpy(c, b, sizeof(c));
		c[i] ^= 0x20;
		ck_assert_int_eq(xp_self_decode(c, &g), -1);
	}
	memset(b, 0, sizeof(b));
	ck_assert_int_eq(xp_self_decode(b, &g), -1);
}
END_TEST

/* MUX frames: a DATA frame is taken only whole; CLOSE is its head
 * alone; a bad head, a channel above the count and a message header that
 * is not one are refused. */
START_TEST(test_mux_frame)
{
	struct xp_msg m = { .type = XP_MSG_HEARTBEAT };
	struct xp_why why = { "" };
	struct xp_mux_frame f;
	uint8_t b[64];
	size_t n = xp_msg_encode(&m, b + XP_MUX_HEAD_LEN, sizeof(b) - XP_MUX_HEAD_LEN), i;

	ck_assert_uint_eq(n, XP_MSG_HDR_LEN);
	xp_mux_head_encode(b, 3, XP_MUX_DATA);
	ck_assert_mem_eq(b, "\x00\x03\x00\x00", 4);
	for (i = 0; i < XP_MUX_HEAD_LEN + n; i++)
		ck_assert_int_eq(xp_mux_frame_take(b, i, 5, &f, &why), 0);
	ck_assert_int_eq(xp_mux_frame_take(b, XP_MUX_HEAD_LEN + n + 7, 5, &f, &why),
			 (long)(XP_MUX_HEAD_LEN + n));
	ck_assert_uint_eq(f.chan, 3);
	ck_assert_uint_eq(f.kind, XP_MUX_DATA);
	ck_assert_uint_eq(f.msg_len, n);
	ck_assert_int_eq(xp_mux_frame_take(b, XP_MUX_HEAD_LEN + n, 2, &f, &why), -1);
	ck_assert_ptr_nonnull(strstr(why.msg, "channel 3"));
	b[3] = 1;
	ck_assert_int_eq(xp_mux_frame_take(b, XP_MUX_HEAD_LEN + n, 5, &f, &why), -1);
	b[3] = 0;
	b[XP_MUX_HEAD_LEN] ^= 1; /* the message's magic */
	ck_assert_int_eq(xp_mux_frame_take(b, XP_MUX_HEAD_LEN + n, 5, &f, &why), -1);
	xp_mux_head_encode(b, 5, XP_MUX_CLOSE);
	ck_assert_int_eq(xp_mux_frame_take(b, XP_MUX_HEAD_LEN, 5, &f, &why), XP_MUX_HEAD_LEN);
	ck_assert_uint_eq(f.kind, XP_MUX_CLOSE);
	b[2] = 2;
	ck_assert_int_eq(xp_mux_frame_take(b, XP_MUX_HEAD_LEN, 5, &f, &why), -1);
	m.type = XP_MSG_MUX;
	m.u.mux.channels = 5;
	n = xp_msg_encode(&m, b, sizeof(b));
	memset(&m, 0, sizeof(m));
	ck_assert_int_eq(xp_msg_decode(b, n, &m, &why), 0);
	ck_assert_uint_eq(m.type, XP_MSG_MUX);
	ck_assert_uint_eq(m.u.mux.channels, 5);
}
END_TEST

START_TEST(test_data_hello_reject)
{
	uint8_t buf[XP_DATA_HELLO_LEN];
	uint64_t cookie;
	uint32_t flow;

	xp_data_hello_encode(buf, 7, 3);
	for (size_t len = 0; len < XP_DATA_HELLO_LEN; len++)
		ck_assert_int_eq(xp_data_hello_decode(buf, len, &cookie, &flow),
				 -1);
	for (int byte = 0; byte < 4; byte++) {
		buf[byte] ^= 1;
		ck_assert_int_eq(xp_data_hello_decode(buf, 16, &cookie, &flow),
				 -1);
		buf[byte] ^= 1;
	}
	be32(buf, XP_MSG_MAGIC);
	ck_assert_int_eq(xp_data_hello_decode(buf, 16, &cookie, &flow), -1);
}
END_TEST

/* ---- runner ---- */

static TCase *tcase(const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_set_timeout(tc, 60);
	return tc;
}

static void add_codec_cases(Suite *s)
{
	TCase *tc = tcase("roundtrip");

	tcase_add_test(tc, test_roundtrip_all_types);
	tcase_add_test(tc, test_roundtrip_fields_spot_check);
	tcase_add_test(tc, test_sockpath_fields);
	tcase_add_test(tc, test_wire_bytes_exact);
	tcase_add_test(tc, test_empty_bodies_and_missing_fields);
	tcase_add_test(tc, test_type_names);
	tcase_add_test(tc, test_encode_cap_too_small);
	tcase_add_test(tc, test_roundtrip_flow);
	tcase_add_test(tc, test_flow_from_older_server);
	tcase_add_test(tc, test_encode_unknown_type);
	tcase_add_test(tc, test_unknown_tags_skipped);
	suite_add_tcase(s, tc);
}

static void add_reject_cases(Suite *s)
{
	TCase *tc = tcase("reject");

	tcase_add_test(tc, test_reject_every_truncation);
	tcase_add_test(tc, test_reject_field_truncated_message);
	tcase_add_test(tc, test_reject_body_too_long);
	tcase_add_test(tc, test_accept_body_at_max);
	tcase_add_test(tc, test_reject_bad_magic);
	tcase_add_test(tc, test_reject_wrong_version);
	tcase_add_test(tc, test_error_of_other_version_decodes);
	tcase_add_test(tc, test_reject_unknown_type);
	tcase_add_test(tc, test_reject_integer_bad_length);
	tcase_add_test(tc, test_reject_string_with_nul);
	tcase_add_test(tc, test_reject_string_over_max);
	tcase_add_test(tc, test_reject_body_length_mismatch);
	tcase_add_test(tc, test_reject_duplicate_tag);
	suite_add_tcase(s, tc);
}

static void add_other_cases(Suite *s)
{
	TCase *fuzz = tcase("fuzz");
	TCase *misc = tcase("hello");

	tcase_add_test(fuzz, test_fuzz_random_buffers);
	tcase_add_test(fuzz, test_fuzz_mutations);
	suite_add_tcase(s, fuzz);
	tcase_add_test(misc, test_data_hello_roundtrip);
	tcase_add_test(misc, test_data_pad_hello);
	tcase_add_test(misc, test_encode_min_padding);
	tcase_add_test(misc, test_data_hello_reject);
	tcase_add_test(misc, test_self_probe_header);
	tcase_add_test(misc, test_mux_frame);
	suite_add_tcase(s, misc);
}

int main(void)
{
	Suite *s = suite_create("wire");
	SRunner *sr;
	int failed;

	add_codec_cases(s);
	add_reject_cases(s);
	add_other_cases(s);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
