/* SPDX-License-Identifier: BSD-2-Clause */
/* iperf3 3.x on the wire: the pure parts of its protocol, so that the
 * xperf server can answer stock iperf3 clients and an xperf client can
 * test against a stock `iperf3 -s` (proto/PROTOCOL.md, "iperf3
 * compatibility").  Written from the protocol's description, not from
 * iperf3's code.  No I/O, no allocation; every reader of peer bytes here
 * is unit-tested (tests/check_iperf3.c) and fuzzed (tests/fuzz/iperf3_wire.c).
 *
 * The control connection carries, in order: the client's 37-byte cookie;
 * then one-byte states (enum xp_i3_state) either way; the parameters
 * (client -> server) and the results (both ways) as a 4-byte big-endian
 * length and that many bytes of JSON (common/iperf3/json.h reads and
 * writes those); after SERVER_ERROR two big-endian 32-bit words (iperf3's
 * error number and an errno).  TCP data streams open with the same
 * cookie; UDP streams with a 4-byte datagram answered by another, and
 * each UDP data datagram starts with a 12- or 16-byte header. */
#ifndef XP_PROTO_IPERF3_H
#define XP_PROTO_IPERF3_H

#include <stddef.h>
#include <stdint.h>

#include "proto/msg.h" /* struct xp_why */

#define XP_I3_COOKIE_CHARS 36 /* [a-z2-7] */
#define XP_I3_COOKIE_LEN 37   /* ... and a NUL */
#define XP_I3_PARAMS_MAX 8192 /* iperf3 servers refuse longer parameters */
#define XP_I3_RESULTS_MAX (4u << 20) /* a server's results (iperf3 sets no
				     * limit; --get-server-output can be long) */
#define XP_I3_CLIENT_RESULTS_MAX (256u << 10) /* a client's: 256 streams of
					     * a few hundred bytes */
#define XP_I3_MAX_STREAMS 128 /* -P: iperf3's own limit per direction */
#define XP_I3_UDP_MIN 16      /* the smallest datagram iperf3 accepts */
#define XP_I3_UDP_MAX 65507
#define XP_I3_UDP_HDR32 12    /* sec, usec, 32-bit packet count */
#define XP_I3_UDP_HDR64 16    /* sec, usec, 64-bit packet count */

/* The state byte (a signed char on the wire). */
enum xp_i3_state {
	XP_I3_TEST_START = 1,        /* server: every stream is connected */
	XP_I3_TEST_RUNNING = 2,      /* server: send and receive now */
	XP_I3_TEST_END = 4,          /* client: the test is over */
	XP_I3_PARAM_EXCHANGE = 9,    /* server: send your parameters */
	XP_I3_CREATE_STREAMS = 10,   /* server: open the data streams */
	XP_I3_SERVER_TERMINATE = 11, /* server: killed, test aborted */
	XP_I3_CLIENT_TERMINATE = 12, /* client: killed, test aborted */
	XP_I3_EXCHANGE_RESULTS = 13, /* server: send your results, get mine */
	XP_I3_DISPLAY_RESULTS = 14,  /* server: done, print */
	XP_I3_IPERF_DONE = 16,       /* client: closing */
	XP_I3_ACCESS_DENIED = -1,    /* server: busy (or a data stream's bad cookie) */
	XP_I3_SERVER_ERROR = -2,     /* server: two words follow */
};

/* iperf3's error numbers (its i_errno, stable across 3.x) that an xperf
 * server sends after SERVER_ERROR; the client prints its own text for
 * each.  Every one used here exists in 3.12 unless noted. */
enum xp_i3_errno {
	XP_I3E_DURATION = 5,        /* "test duration too long" */
	XP_I3E_NUMSTREAMS = 6,      /* "number of parallel streams too large" */
	XP_I3E_BLOCKSIZE = 7,       /* TCP -l */
	XP_I3E_BUFSIZE = 8,         /* -w */
	XP_I3E_MSS = 10,
	XP_I3E_OMIT = 12,
	XP_I3E_UNIMP = 13,          /* "an option ... is not implemented yet" */
	XP_I3E_BURST = 15,
	XP_I3E_ENDCONDITIONS = 16,
	XP_I3E_NOSCTP = 18,
	XP_I3E_UDPBLOCKSIZE = 20,
	XP_I3E_BADTOS = 21,
	XP_I3E_REVERSEBIDIR = 25,
	XP_I3E_MAXDURATION = 37,    /* 3.20+: exceeds the server's maximum */
	XP_I3E_INITTEST = 101,      /* "test initialization failed" + errno */
	XP_I3E_ACCESSDENIED = 121,
	XP_I3E_SETFLOW = 127,
	XP_I3E_AFFINITY = 132,
	XP_I3E_SETCONGESTION = 134,
	XP_I3E_AUTHTEST = 142,
};

/* What an iperf3 error number means, in a few words ("unknown" for a
 * number not in enum xp_i3_errno). */
const char *xp_i3_errno_text(int code);

/* "PARAM_EXCHANGE", "ACCESS_DENIED", ...; "state 7" style for others
 * (buf is used then). */
const char *xp_i3_state_name(int state, char *buf, size_t len);

/* A cookie from 36 random bytes: 36 characters [a-z2-7] and a NUL. */
void xp_i3_cookie_make(char out[XP_I3_COOKIE_LEN], const uint8_t rnd[XP_I3_COOKIE_CHARS]);
/* What the first n bytes of a connection say about an iperf3 cookie:
 * 1 a whole cookie (36 characters of [a-z2-7] then a NUL), 0 a beginning
 * of one (n < 37, more bytes needed), -1 not a cookie. */
int xp_i3_cookie_check(const uint8_t *b, size_t n);

/* 1 if b is a byte a stock iperf3 server sends first (PARAM_EXCHANGE,
 * ACCESS_DENIED or SERVER_ERROR): an xperf client reading it as the start
 * of a control message has reached an iperf3 server. */
int xp_i3_server_first_byte(uint8_t b);

/* The 4-byte length before a JSON message. */
void xp_i3_len_encode(uint8_t out[4], uint32_t len);
/* 0 with *len, or -1 (why) when it is 0 or above max. */
int xp_i3_len_decode(const uint8_t in[4], uint32_t max, uint32_t *len, struct xp_why *why);

/* SERVER_ERROR and its two words: 9 bytes into out. */
void xp_i3_error_encode(uint8_t out[9], int32_t i3_errno, int32_t sys_errno);
/* The two words after a SERVER_ERROR byte. */
void xp_i3_error_decode(const uint8_t in[8], int32_t *i3_errno, int32_t *sys_errno);

/* UDP streams: the client's 4-byte connect datagram, the server's answer.
 * Current clients send "9876" and want "6789"; 3.12 to 3.16 on
 * big-endian hosts send them reversed, and before 3.12 they were
 * 123456789 and 987654321 in the sender's byte order. */
extern const uint8_t xp_i3_udp_connect_msg[4];   /* "9876" */
/* 0 and the reply for a connect datagram of any of those forms; -1 for
 * anything else. */
int xp_i3_udp_connect_reply(const uint8_t *b, size_t n, uint8_t reply[4]);
/* 1 if b is a server's reply to xp_i3_udp_connect_msg ("6789", or the
 * legacy 987654321 in either byte order). */
int xp_i3_udp_reply_ok(const uint8_t *b, size_t n);

/* The header of a UDP data datagram. */
struct xp_i3_udp_hdr {
	uint32_t sec, usec; /* the sender's clock (only differences matter) */
	uint64_t count;     /* 1 for a stream's first datagram */
};
/* Header size: 16 with 64-bit counters, else 12. */
size_t xp_i3_udp_hdr_len(int c64);
/* Writes the header into p (xp_i3_udp_hdr_len bytes); a 32-bit count
 * keeps the low 32 bits. */
void xp_i3_udp_hdr_encode(uint8_t *p, const struct xp_i3_udp_hdr *h, int c64);
/* 0, or -1 when the datagram is shorter than the header. */
int xp_i3_udp_hdr_decode(const uint8_t *p, size_t n, int c64, struct xp_i3_udp_hdr *h);

/* A UDP receiver's accounting, as iperf3 does it per stream: a count
 * above the highest seen + 1 adds the gap to lost; one at or below it is
 * out of order and takes back one loss.  Jitter follows RFC 3550 A.8
 * (J += (|D| - J) / 16) over transit = |arrival - send time|, kept in
 * nanoseconds so that clocks of different epochs (a sender's monotonic
 * clock, a receiver's kernel timestamps) lose no precision. */
struct xp_i3_rx {
	uint64_t max_seen;   /* highest count seen: iperf3's "packets" */
	uint64_t lost;       /* iperf3's "errors" */
	uint64_t ooo;        /* out of order (or repeated) */
	uint64_t received;   /* datagrams taken */
	double jitter;       /* seconds */
	uint64_t prev_transit_ns; /* |arrival - send time| of the last one */
	int started;
};
/* One datagram with the given count, sent at (sec, usec) on the sender's
 * clock and received at arrival_ns on ours. */
void xp_i3_rx_add(struct xp_i3_rx *r, uint64_t count, uint32_t sec, uint32_t usec,
		  uint64_t arrival_ns);

/* Stream ids in creation order: the first is 1, then 3, 4, 5, ...
 * (iperf3 skips 2).  pos counts from 0; xp_i3_stream_pos is the inverse,
 * -1 for an id no stream has. */
int64_t xp_i3_stream_id(uint32_t pos);
int64_t xp_i3_stream_pos(int64_t id);

/* Which way stream pos carries data: 1 client -> server.  With --bidir
 * the first `parallel` streams go client -> server, the next `parallel`
 * the other way; otherwise all go one way (reverse: server -> client). */
int xp_i3_c2s(uint32_t pos, uint32_t parallel, int reverse, int bidir);

#endif
