/* SPDX-License-Identifier: BSD-2-Clause */
/* Control-channel codec.  Each message type is described by a table of
 * field descriptors (tag, kind, offset in struct xp_msg, buffer size);
 * one generic encoder and one generic decoder walk those tables, so adding
 * a field is one table row and the wire rules live in one place.
 * The tag numbers are part of the protocol: see proto/PROTOCOL.md. */
#include "proto/msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "proto/be.h"

#define FIELD_HDR_LEN 4
#define U64_LEN 8

enum field_kind {
	FIELD_U64,
	FIELD_STR,
	FIELD_BIN, /* exactly `size` bytes, any values */
};

struct field_desc {
	uint16_t tag;
	uint8_t kind;     /* enum field_kind */
	uint16_t off;     /* offsetof(struct xp_msg, u.<msg>.<field>) */
	uint16_t size;    /* FIELD_STR: buffer size including the NUL */
	const char *name; /* for error messages */
};

struct msg_desc {
	const char *name;
	const struct field_desc *fields;
	size_t nfields;
};

#define U64(t, f) \
	{ (t), FIELD_U64, offsetof(struct xp_msg, u.f), 8, #f }
#define STR(t, f)                                                  \
	{ (t), FIELD_STR, offsetof(struct xp_msg, u.f),            \
	  sizeof(((struct xp_msg *)0)->u.f), #f }
#define BIN(t, f)                                                  \
	{ (t), FIELD_BIN, offsetof(struct xp_msg, u.f),            \
	  sizeof(((struct xp_msg *)0)->u.f), #f }

/* Tags are stable wire identifiers: never renumber or reuse one. */
static const struct field_desc setup_fields[] = {
	U64(1, setup.test),
	U64(2, setup.duration_ms),
	U64(3, setup.req_size),
	U64(4, setup.rsp_size),
	U64(5, setup.flows),
	U64(6, setup.threads),
	U64(7, setup.nodelay),
	U64(8, setup.sndbuf),
	U64(9, setup.rcvbuf),
	U64(10, setup.rr_timeout_ms),
	U64(11, setup.flags),
	STR(12, setup.cpus),
	U64(13, setup.busy_poll_us),
	U64(14, setup.rate_bps),
	U64(15, setup.burst),
	U64(16, setup.pace_burst),
	U64(17, setup.rcvlowat),
	U64(18, setup.read_size),
	/* socket and path: tags 30.. */
	STR(30, setup.congestion),
	U64(31, setup.tos),
	U64(32, setup.sock_flags),
	U64(50, setup.bidir),
	U64(51, setup.quota),
	U64(52, setup.omit_ms),
	U64(70, setup.heartbeat_ms),
	U64(71, setup.interval_ms),
	U64(72, setup.interval_origin_ms),
	U64(90, setup.stamps),
};

static const struct field_desc setup_ok_fields[] = {
	U64(1, setup_ok.cookie),
	U64(2, setup_ok.threads),
	STR(3, setup_ok.cpus),
	U64(4, setup_ok.data_port),
	U64(5, setup_ok.padded_hello),
	U64(70, setup_ok.heartbeat_ms),
	U64(90, setup_ok.clock),
};

/* The clock exchange before READY (one-way delays, PROTOCOL.md 8). */
static const struct field_desc clock_fields[] = {
	U64(1, clock.t1),
	U64(2, clock.t2),
	U64(3, clock.t3),
};

static const struct field_desc offset_fields[] = {
	U64(1, offset.offset_ns),
	U64(2, offset.bias_ns),
};

static const struct field_desc hist_fields[] = {
	U64(1, hist.kind),
	STR(2, hist.text),
	U64(3, hist.clamped),
};

static const struct field_desc auth_nonce_fields[] = {
	BIN(1, auth.nonce),
};

static const struct field_desc auth_mac_fields[] = {
	BIN(1, auth.mac),
};

/* A controller's request to an agent (`xperf -s --agent`), and the agent's
 * answer: its --json result in pieces, then how it ended. */
static const struct field_desc agent_run_fields[] = {
	STR(1, agent_run.target),
	U64(2, agent_run.port),
	U64(3, agent_run.flows),
	U64(4, agent_run.start_wall_ns),
	STR(5, agent_run.args),
};

static const struct field_desc agent_data_fields[] = {
	STR(1, agent_data.text),
};

static const struct field_desc agent_end_fields[] = {
	U64(1, agent_end.status),
	STR(2, agent_end.error),
};

static const struct field_desc mux_fields[] = {
	U64(1, mux.channels),
};

static const struct field_desc interval_fields[] = {
	U64(1, interval.index),
	U64(2, interval.start_us),
	U64(3, interval.end_us),
	U64(4, interval.bytes_sent),
	U64(5, interval.bytes_received),
	U64(6, interval.transactions),
	U64(7, interval.datagrams_sent),
	U64(8, interval.datagrams_received),
	U64(9, interval.lost),
	U64(10, interval.fwd_count),
	U64(11, interval.fwd_p50_ns),
	U64(12, interval.fwd_p99_ns),
};

static const struct field_desc stop_fields[] = {
	U64(1, stop.datagrams_sent),
};

/* The RESULT message is a struct xp_side_result: one field per row of
 * proto/result.def, then its two strings. */
#define XP_RESULT(g, f, tag, merge) U64(tag, result.XP_PATH_##g f),
#define XP_PATH_C c.
#define XP_PATH_TCP tcp.
#define XP_PATH_SIDE
static const struct field_desc result_fields[] = {
#include "proto/result.def"
	STR(13, result.cpus),
	STR(27, result.warning),
	STR(63, result.congestion),
};
#undef XP_RESULT
#undef XP_PATH_C
#undef XP_PATH_TCP
#undef XP_PATH_SIDE

/* FLOW (once TCPINFO, tags 1-7): TCP_INFO, then the flow's counters. */
static const struct field_desc flow_fields[] = {
	U64(1, flow.flow),
	U64(2, flow.retrans),
	U64(3, flow.rtt_us),
	U64(4, flow.rttvar_us),
	U64(5, flow.cwnd),
	U64(6, flow.mss),
	U64(7, flow.delivery_rate_bps),
	U64(8, flow.advmss),
	U64(50, flow.flags),
	U64(51, flow.bytes),
	U64(52, flow.omitted_bytes),
	U64(53, flow.datagrams),
	U64(54, flow.out_of_order),
	U64(55, flow.duplicates),
	U64(56, flow.transactions),
	U64(57, flow.jitter_ns),
	U64(58, flow.omitted_transactions),
};

/* Frozen across all versions: code is tag 1, text is tag 2. */
static const struct field_desc error_fields[] = {
	U64(1, error.code),
	STR(2, error.text),
};

#define TABLE(n, f) { (n), (f), sizeof(f) / sizeof((f)[0]) }

static const struct msg_desc msg_descs[] = {
	[XP_MSG_SETUP] = TABLE("SETUP", setup_fields),
	[XP_MSG_SETUP_OK] = TABLE("SETUP_OK", setup_ok_fields),
	[XP_MSG_READY] = { "READY", NULL, 0 },
	[XP_MSG_GO] = { "GO", NULL, 0 },
	[XP_MSG_STOP] = TABLE("STOP", stop_fields),
	[XP_MSG_RESULT] = TABLE("RESULT", result_fields),
	[XP_MSG_ERROR] = TABLE("ERROR", error_fields),
	[XP_MSG_FLOW] = TABLE("FLOW", flow_fields),
	[XP_MSG_MEASURE] = { "MEASURE", NULL, 0 },
	[XP_MSG_DONE] = { "DONE", NULL, 0 },
	[XP_MSG_INTERVAL] = TABLE("INTERVAL", interval_fields),
	[XP_MSG_CLOCK] = TABLE("CLOCK", clock_fields),
	[XP_MSG_CLOCK_OK] = TABLE("CLOCK_OK", clock_fields),
	[XP_MSG_HIST] = TABLE("HIST", hist_fields),
	[XP_MSG_OFFSET] = TABLE("OFFSET", offset_fields),
	[XP_MSG_HEARTBEAT] = { "HEARTBEAT", NULL, 0 },
	[XP_MSG_AUTH_HELLO] = TABLE("AUTH_HELLO", auth_nonce_fields),
	[XP_MSG_AUTH_CHALLENGE] = TABLE("AUTH_CHALLENGE", auth_nonce_fields),
	[XP_MSG_AUTH_RESPONSE] = TABLE("AUTH_RESPONSE", auth_mac_fields),
	[XP_MSG_AUTH_OK] = TABLE("AUTH_OK", auth_mac_fields),
	[XP_MSG_AGENT_RUN] = TABLE("AGENT_RUN", agent_run_fields),
	[XP_MSG_AGENT_DATA] = TABLE("AGENT_DATA", agent_data_fields),
	[XP_MSG_AGENT_END] = TABLE("AGENT_END", agent_end_fields),
	[XP_MSG_MUX] = TABLE("MUX", mux_fields),
	[XP_MSG_MUX_OK] = TABLE("MUX_OK", mux_fields),
};

/* The duplicate-tag check keeps one bit per table row. */
_Static_assert(sizeof(result_fields) / sizeof(result_fields[0]) <= 64,
	       "seen mask in decode_body is 64 bits");

static const struct msg_desc *desc_of(uint16_t type)
{
	if (type >= sizeof(msg_descs) / sizeof(msg_descs[0]))
		return NULL;
	if (!msg_descs[type].name)
		return NULL;
	return &msg_descs[type];
}

/* Fill why (if not NULL); always -1. */
__attribute__((format(printf, 2, 3)))
static int why_set(struct xp_why *why, const char *fmt, ...)
{
	va_list ap;

	if (why) {
		va_start(ap, fmt);
		vsnprintf(why->msg, sizeof(why->msg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* ---- encoder ---- */

/* Bytes the value of f takes in m; 0 for an empty string (omitted). */
static size_t field_value_len(const struct field_desc *f,
			      const struct xp_msg *m)
{
	const char *s = (const char *)m + f->off;

	if (f->kind == FIELD_U64)
		return U64_LEN;
	if (f->kind == FIELD_BIN)
		return f->size;
	/* A string that fills its buffer without a NUL is clamped.  Its
	 * buffer is its bound: XP_MSG_STR_MAX, or XP_MSG_TEXT_MAX for the
	 * agents' long texts. */
	return strnlen(s, f->size - 1u);
}

static size_t encoded_body_len(const struct msg_desc *d,
			       const struct xp_msg *m)
{
	size_t n = 0;
	size_t vlen;

	for (size_t i = 0; i < d->nfields; i++) {
		vlen = field_value_len(&d->fields[i], m);
		if (vlen > 0)
			n += FIELD_HDR_LEN + vlen;
	}
	return n;
}

/* Writes one field at p (space already checked); returns bytes written. */
static size_t encode_field(const struct field_desc *f,
			   const struct xp_msg *m, uint8_t *p)
{
	const uint8_t *src = (const uint8_t *)m + f->off;
	size_t vlen = field_value_len(f, m);

	if (vlen == 0)
		return 0;
	xp_put16(p, f->tag);
	xp_put16(p + 2, (uint16_t)vlen);
	if (f->kind == FIELD_U64)
		xp_put64(p + FIELD_HDR_LEN, *(const uint64_t *)src);
	else
		memcpy(p + FIELD_HDR_LEN, src, vlen);
	return FIELD_HDR_LEN + vlen;
}

size_t xp_msg_encode(const struct xp_msg *m, uint8_t *buf, size_t cap)
{
	const struct msg_desc *d = desc_of(m->type);
	size_t body, pos = XP_MSG_HDR_LEN;

	if (!d)
		return 0;
	body = encoded_body_len(d, m);
	if (cap < XP_MSG_HDR_LEN || cap - XP_MSG_HDR_LEN < body)
		return 0;
	xp_put32(buf, XP_MSG_MAGIC);
	xp_put16(buf + 4, XP_PROTO_VERSION);
	xp_put16(buf + 6, m->type);
	xp_put32(buf + 8, (uint32_t)body);
	for (size_t i = 0; i < d->nfields; i++)
		pos += encode_field(&d->fields[i], m, buf + pos);
	return pos;
}

size_t xp_msg_encode_min(const struct xp_msg *m, uint8_t *buf, size_t cap,
			 size_t min_len)
{
	size_t n = xp_msg_encode(m, buf, cap), pad;

	if (!n || n >= min_len)
		return n;
	pad = min_len - n < FIELD_HDR_LEN ? FIELD_HDR_LEN : min_len - n;
	if (pad > cap - n || n + pad - XP_MSG_HDR_LEN > XP_MSG_BODY_MAX)
		return 0;
	xp_put16(buf + n, XP_MSG_TAG_PAD);
	xp_put16(buf + n + 2, (uint16_t)(pad - FIELD_HDR_LEN));
	memset(buf + n + FIELD_HDR_LEN, 0, pad - FIELD_HDR_LEN);
	n += pad;
	xp_put32(buf + 8, (uint32_t)(n - XP_MSG_HDR_LEN));
	return n;
}

/* ---- decoder ---- */

int xp_msg_hdr_decode(const uint8_t *hdr, uint16_t *version, uint16_t *type,
		      uint32_t *body_len, struct xp_why *why)
{
	uint32_t magic = xp_get32(hdr);

	*version = xp_get16(hdr + 4);
	*type = xp_get16(hdr + 6);
	*body_len = xp_get32(hdr + 8);
	if (magic != XP_MSG_MAGIC)
		return why_set(why,
				  "control message: bad magic 0x%08x, "
				  "expected 0x%08x (\"XPCT\")",
				  (unsigned)magic, XP_MSG_MAGIC);
	if (*body_len > XP_MSG_BODY_MAX)
		return why_set(why,
				  "control message: body length %u exceeds "
				  "maximum %d",
				  (unsigned)*body_len, XP_MSG_BODY_MAX);
	return 0;
}

static const struct field_desc *find_field(const struct msg_desc *d,
					   uint16_t tag)
{
	for (size_t i = 0; i < d->nfields; i++)
		if (d->fields[i].tag == tag)
			return &d->fields[i];
	return NULL;
}

static int decode_str(const struct msg_desc *d, const struct field_desc *f,
		      const uint8_t *v, uint16_t vlen, struct xp_msg *m,
		      struct xp_why *why)
{
	char *dst = (char *)m + f->off;
	const uint8_t *nul;

	if (vlen >= f->size)
		return why_set(why,
				  "control message: %s field %u (%s) length "
				  "%u exceeds maximum %d",
				  d->name, f->tag, f->name, vlen, f->size - 1);
	nul = memchr(v, 0, vlen);
	if (nul)
		return why_set(why,
				  "control message: %s field %u (%s) contains "
				  "a NUL byte at offset %td",
				  d->name, f->tag, f->name, nul - v);
	memcpy(dst, v, vlen);
	dst[vlen] = '\0';
	return 0;
}

static int decode_field(const struct msg_desc *d, const struct field_desc *f,
			const uint8_t *v, uint16_t vlen, struct xp_msg *m,
			struct xp_why *why)
{
	if (f->kind == FIELD_STR)
		return decode_str(d, f, v, vlen, m, why);
	if (f->kind == FIELD_BIN) {
		if (vlen != f->size)
			return why_set(why,
					  "control message: %s field %u (%s) has "
					  "length %u, it takes %u",
					  d->name, f->tag, f->name, vlen, f->size);
		memcpy((uint8_t *)m + f->off, v, vlen);
		return 0;
	}
	if (vlen != U64_LEN)
		return why_set(why,
				  "control message: %s field %u (%s) has "
				  "length %u, integers take %d",
				  d->name, f->tag, f->name, vlen, U64_LEN);
	*(uint64_t *)((uint8_t *)m + f->off) = xp_get64(v);
	return 0;
}

/* Checks that a field header and its value fit in the remaining bytes. */
static int check_fits(const struct msg_desc *d, const uint8_t *p,
		      size_t left, struct xp_why *why)
{
	if (left < FIELD_HDR_LEN)
		return why_set(why,
				  "control message: %s field header truncated "
				  "(needs %d bytes, %zu left)",
				  d->name, FIELD_HDR_LEN, left);
	if (xp_get16(p + 2) > left - FIELD_HDR_LEN)
		return why_set(why,
				  "control message: %s field %u truncated "
				  "(needs %u bytes, %zu left)",
				  d->name, xp_get16(p), xp_get16(p + 2),
				  left - FIELD_HDR_LEN);
	return 0;
}

/* A known tag seen twice is rejected rather than "last wins": a peer
 * that repeats a field is buggy, and silently picking one hides it. */
static int decode_body(const struct msg_desc *d, const uint8_t *body,
		       size_t len, struct xp_msg *m, struct xp_why *why)
{
	uint64_t seen = 0;
	size_t pos = 0;

	while (pos < len) {
		const uint8_t *p = body + pos;
		const struct field_desc *f;
		uint64_t bit;

		if (check_fits(d, p, len - pos, why) < 0)
			return -1;
		pos += FIELD_HDR_LEN + xp_get16(p + 2);
		f = find_field(d, xp_get16(p));
		if (!f)
			continue; /* unknown tag: a newer peer's field */
		bit = 1ull << (f - d->fields);
		if (seen & bit)
			return why_set(why,
					  "control message: %s field %u (%s) "
					  "appears twice",
					  d->name, f->tag, f->name);
		seen |= bit;
		if (decode_field(d, f, p + FIELD_HDR_LEN, xp_get16(p + 2), m,
				 why) < 0)
			return -1;
	}
	return 0;
}

int xp_msg_decode(const uint8_t *buf, size_t len, struct xp_msg *m,
		  struct xp_why *why)
{
	const struct msg_desc *d;
	uint16_t version, type;
	uint32_t body_len;

	memset(m, 0, sizeof(*m));
	if (len < XP_MSG_HDR_LEN)
		return why_set(why,
				  "control message: %zu bytes, the header "
				  "needs %d",
				  len, XP_MSG_HDR_LEN);
	if (xp_msg_hdr_decode(buf, &version, &type, &body_len, why) < 0)
		return -1;
	if (body_len != len - XP_MSG_HDR_LEN)
		return why_set(why,
				  "control message: body length %u in header "
				  "but %zu bytes follow",
				  (unsigned)body_len, len - XP_MSG_HDR_LEN);
	/* ERROR is frozen, so it is read whatever the peer's version. */
	if (version != XP_PROTO_VERSION && type != XP_MSG_ERROR)
		return why_set(why,
				  "control message: protocol version %u, "
				  "this build speaks %d",
				  version, XP_PROTO_VERSION);
	d = desc_of(type);
	if (!d)
		return why_set(why, "control message: unknown type %u",
				  type);
	m->type = type;
	m->version = version;
	return decode_body(d, buf + XP_MSG_HDR_LEN, body_len, m, why);
}

/* Never NULL, so it can go straight into a format string. */
const char *xp_msg_type_name(uint16_t type)
{
	const struct msg_desc *d = desc_of(type);

	return d ? d->name : "UNKNOWN";
}

/* ---- data-connection hello ---- */

void xp_data_hello_encode(uint8_t *buf, uint64_t cookie, uint32_t flow)
{
	xp_put32(buf, XP_DATA_MAGIC);
	xp_put64(buf + 4, cookie);
	xp_put32(buf + 12, flow);
}

void xp_data_pad_hello_encode(uint8_t *buf, uint64_t cookie, uint32_t flow, uint32_t pad)
{
	xp_put32(buf, XP_DATA_PAD_MAGIC);
	xp_put64(buf + 4, cookie);
	xp_put32(buf + 12, flow);
	xp_put32(buf + 16, pad);
}

int xp_data_pad_hello_decode(const uint8_t *buf, size_t len, uint64_t *cookie,
			     uint32_t *flow, uint32_t *pad)
{
	if (len < XP_DATA_PAD_HEAD_LEN || xp_get32(buf) != XP_DATA_PAD_MAGIC ||
	    xp_get32(buf + 16) > XP_DATA_PAD_MAX)
		return -1;
	if (cookie)
		*cookie = xp_get64(buf + 4);
	if (flow)
		*flow = xp_get32(buf + 12);
	if (pad)
		*pad = xp_get32(buf + 16);
	return 0;
}

int xp_data_hello_decode(const uint8_t *buf, size_t len, uint64_t *cookie,
			 uint32_t *flow)
{
	if (len < XP_DATA_HELLO_LEN || xp_get32(buf) != XP_DATA_MAGIC)
		return -1;
	if (cookie)
		*cookie = xp_get64(buf + 4);
	if (flow)
		*flow = xp_get32(buf + 12);
	return 0;
}
