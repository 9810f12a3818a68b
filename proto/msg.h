/* SPDX-License-Identifier: BSD-2-Clause */
/* Control-channel messages: typed structs and their pure wire codec.
 *
 * Every message is a 12-byte header followed by a body of TLV fields:
 *   header: magic u32 "XPCT" | version u16 | type u16 | body length u32
 *   field:  tag u16 | length u16 | value (length bytes)
 * All integers big-endian.  Integer fields are encoded as u64 (length 8);
 * strings as raw bytes (no NUL).  A decoder skips tags it does not know,
 * so fields can be added without a version bump; the version changes only
 * when a message's meaning changes.  The header layout, XP_MSG_ERROR and
 * its "text" field are frozen forever so that peers of different versions
 * can always tell each other why they cannot talk.
 * See proto/PROTOCOL.md for the conversation. */
#ifndef XP_PROTO_MSG_H
#define XP_PROTO_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "proto/result.h"

#define XP_MSG_MAGIC 0x58504354u /* "XPCT" */
#define XP_PROTO_VERSION 2 /* 2: UDP flows prove their address, auth, heartbeats */
#define XP_MSG_HDR_LEN 12
#define XP_MSG_BODY_MAX 16384 /* checked before anything is read */
#define XP_MSG_STR_MAX XP_RESULT_STR_MAX /* strings longer are rejected */

enum xp_msg_type {
	XP_MSG_SETUP = 1,    /* client -> server: test parameters */
	XP_MSG_SETUP_OK = 2, /* server -> client: cookie, server layout */
	XP_MSG_READY = 3,    /* client -> server: all data flows opened */
	XP_MSG_GO = 4,       /* server -> client: every flow registered */
	XP_MSG_STOP = 5,     /* client -> server: duration elapsed */
	XP_MSG_RESULT = 6,   /* server -> client: server's counters */
	XP_MSG_ERROR = 7,    /* either way: fatal, text says why */
	XP_MSG_FLOW = 8,     /* server -> client, before RESULT: one flow's result */
	XP_MSG_MEASURE = 9,  /* client -> server: --omit is over, count from now */
	XP_MSG_DONE = 10,    /* server -> client: its senders sent all of -n/-k */
	XP_MSG_INTERVAL = 11, /* server -> client, before the FLOWs: one of its intervals */
	XP_MSG_CLOCK = 15,   /* client -> server, before READY: its send time */
	XP_MSG_CLOCK_OK = 16, /* server -> client: that, its receive and send times */
	XP_MSG_HIST = 17,    /* server -> client, before RESULT: a histogram piece */
	XP_MSG_OFFSET = 18,  /* client -> server, after CLOCK: the offset it settled on */
	/* 12..14 and 19 are left for other additions */
	XP_MSG_HEARTBEAT = 20,      /* either way, during the test: still alive */
	XP_MSG_AUTH_HELLO = 21,     /* client -> server, first: client nonce */
	XP_MSG_AUTH_CHALLENGE = 22, /* server -> client: server nonce */
	XP_MSG_AUTH_RESPONSE = 23,  /* client -> server: the client's MAC */
	XP_MSG_AUTH_OK = 24,        /* server -> client: the server's MAC */
	XP_MSG_AGENT_RUN = 30,      /* controller -> agent: run a test toward a target */
	XP_MSG_AGENT_DATA = 31,     /* agent -> controller: a piece of its --json result */
	XP_MSG_AGENT_END = 32,      /* agent -> controller: how the test ended */
	XP_MSG_MUX = 33,            /* client -> server, first: several tests on this
				     * connection (proto/mux.h) */
	XP_MSG_MUX_OK = 34,         /* server -> client: granted; frames follow */
};

/* ERROR codes (tag 1): for programs; the text is for people. */
enum xp_errc {
	XP_ERRC_UNSPEC = 0,
	XP_ERRC_FAILED = 1,         /* the test failed while it ran */
	XP_ERRC_REFUSED = 2,        /* a parameter outside the server's limits */
	XP_ERRC_BUSY = 3,           /* no room: tests, per-address or budget */
	XP_ERRC_AUTH_REQUIRED = 4,  /* the server wants AUTH_HELLO first */
	XP_ERRC_AUTH_FAILED = 5,    /* wrong key */
	XP_ERRC_AUTH_UNSUPPORTED = 6, /* AUTH_HELLO to a server without a key */
};

#define XP_HEARTBEAT_MS 1000    /* what this build announces and sends */
#define XP_HEARTBEAT_DEAD_MS 5000 /* silence after which a peer is gone */
/* Connecting a test's flows may take 10 s and this much more per flow, on
 * both ends (a kernel short of free ephemeral ports toward the server
 * takes milliseconds per connect) */
#define XP_SETUP_NS_PER_FLOW 5000000ull

struct xp_msg_setup {
	uint64_t test;        /* the test's number (common/tests.def) */
	uint64_t duration_ms;
	uint64_t req_size;    /* stream: bytes per send; RR: request */
	uint64_t rsp_size;    /* RR: response; stream: unused */
	uint64_t flows;
	uint64_t threads;     /* server worker threads */
	uint64_t nodelay;     /* 0/1 */
	uint64_t sndbuf;      /* server SO_SNDBUF, 0 = kernel default */
	uint64_t rcvbuf;      /* server SO_RCVBUF, 0 = kernel default */
	uint64_t rr_timeout_ms; /* UDP_RR: request declared lost after */
	uint64_t flags;       /* XP_SETUP_F_* */
	char cpus[XP_MSG_STR_MAX + 1]; /* server CPU list, "" = default */
	uint64_t busy_poll_us; /* SO_BUSY_POLL on server data sockets */
	uint64_t rate_bps;    /* server senders (MAERTS): pacing target */
	uint64_t burst;       /* RR: outstanding requests per flow */
	uint64_t pace_burst;  /* UDP pacing: datagrams back to back */
	uint64_t rcvlowat;    /* server TCP stream receivers: 0 auto, 1 off, else bytes */
	uint64_t read_size;   /* server TCP stream receivers: bytes per read, 0 = default */
	/* socket and path (tags 30..) */
	char congestion[XP_CC_NAME_MAX]; /* TCP_CONGESTION on server data sockets, "" = default */
	uint64_t tos;         /* XP_SETUP_TOS_SET | the TOS byte; 0 = leave the kernel's */
	uint64_t sock_flags;  /* XP_SETUP_S_* */
	/* the test's shape (tags from 50) */
	uint64_t bidir;       /* 1: flows from flows/2 on go the reverse way */
	uint64_t quota;       /* -n/-k: units each direction sends in all, 0: none */
	uint64_t omit_ms;     /* --omit: MEASURE will come; UDP counts by the mark */
	uint64_t heartbeat_ms; /* the client sends HEARTBEAT this often in the test, 0 never */
	uint64_t interval_ms;  /* -i: the server reports its own intervals (INTERVAL), 0 none */
	uint64_t interval_origin_ms; /* ... from this long after GO reaches the client
				      * (its warm-up or --omit) */
	uint64_t stamps;      /* XP_STAMP_* (proto/PROTOCOL.md section 11) */
};

#define XP_SETUP_F_SPIN 1u     /* workers poll instead of sleeping */
#define XP_SETUP_F_NO_GSO 2u   /* no UDP GRO on the server's receivers */
#define XP_SETUP_F_ZEROCOPY 4u /* server senders use MSG_ZEROCOPY */
#define XP_SETUP_F_SELF_PROBES 8u /* TCP bulk: the stream carries self probes
				   * (proto/selfprobe.h); the server echoes them */
#define XP_SETUP_F_ALL 15u

#define XP_SETUP_TOS_SET 0x100u      /* tos: the low 8 bits are to be set */
#define XP_SETUP_S_FASTOPEN 1u       /* TCP_CRR: the client sends in the SYN */
#define XP_SETUP_S_SENDFILE 2u       /* server senders use sendfile(2) */
#define XP_SETUP_S_MPTCP 4u          /* the client's data connections are MPTCP */
#define XP_SETUP_S_ALL 7u

struct xp_msg_setup_ok {
	uint64_t cookie;  /* identifies the test's data connections */
	uint64_t threads; /* server worker threads actually started */
	char cpus[XP_MSG_STR_MAX + 1]; /* CPU of each server worker */
	uint64_t data_port; /* TCP data connections go here; 0: the server's port */
	uint64_t heartbeat_ms; /* the server sends HEARTBEAT this often in the test, 0 never */
	uint64_t padded_hello; /* 1: the server reads padded data hellos ("XPDP") */
	uint64_t clock;       /* 1: the server answers CLOCK before READY */
};

#define XP_MSG_TEXT_MAX 8192 /* the agents' and HIST's long texts (not other strings) */

/* SETUP stamps: what the data carries for one-way delays (proto/PROTOCOL.md section 11). */
#define XP_STAMP_ONE_WAY 1u   /* TCP_RR/UDP_RR responses carry the server's
			       * receive and send times; UDP bulk receivers
			       * keep one-way delays */
#define XP_STAMP_KERNEL 2u    /* TCP_RR: kernel timestamps at both ends; the
			       * response carries the server's parts of the
			       * previous transaction (XP_STAMP_KRSP_LEN) */
#define XP_STAMP_ALL 3u
/* TCP_RR and UDP_RR one-way: the response's first bytes (after a UDP_RR
 * id of 8 bytes) hold the server's receive and send times, big-endian
 * CLOCK_REALTIME ns. */
#define XP_STAMP_RSP_LEN 16u
/* ... with XP_STAMP_KERNEL then, for the previous transaction, the
 * server's kernel receipt -> app read and app send -> kernel transmit, ns
 * (all ones: not known) */
#define XP_STAMP_KRSP_LEN 32u
/* UDP_RR with XP_STAMP_KERNEL: the id, t2, t3, then the id of the
 * server's previous response and its parts (common/engine/kts.h) */
#define XP_STAMP_UKRSP 48u
#define XP_CLOCK_MAX 64       /* CLOCK exchanges a server answers per test */

/* CLOCK carries t1 (the client's send time), CLOCK_OK t1 back with t2 and
 * t3, the server's receive and send times: CLOCK_REALTIME ns. */
struct xp_msg_clock {
	uint64_t t1, t2, t3;
};

/* OFFSET: the clock offset the client settled on (server - client,
 * int64 in two's complement) and its uncertainty: each end keeps
 * delay + bias_ns, which the offset's error cannot make negative, and the
 * client takes bias_ns off what it reports. */
struct xp_msg_offset {
	uint64_t offset_ns;
	uint64_t bias_ns;
};

/* HIST: a piece of one histogram's text (common/hist_codec.h); the pieces
 * of one kind, in order, make the whole text. */
#define XP_HIST_OWD_FWD 1 /* UDP bulk receiver: one-way delays, ns */
struct xp_msg_hist {
	uint64_t kind;
	uint64_t clamped; /* delays below -bias_ns, kept as 0 (the first piece) */
	char text[XP_MSG_TEXT_MAX + 1];
};

/* AUTH_HELLO and AUTH_CHALLENGE carry a nonce, AUTH_RESPONSE and AUTH_OK a
 * MAC (common/auth.h); 32 bytes each, exactly. */
#define XP_MSG_AUTH_LEN 32
struct xp_msg_auth {
	uint8_t nonce[XP_MSG_AUTH_LEN];
	uint8_t mac[XP_MSG_AUTH_LEN];
};


struct xp_msg_agent_run {
	char target[XP_MSG_STR_MAX + 1]; /* the xperf server to test against */
	uint64_t port;
	uint64_t flows;           /* this agent's share of -P */
	uint64_t start_wall_ns;   /* start then (CLOCK_REALTIME), 0: at once */
	char args[XP_MSG_TEXT_MAX + 1]; /* the test's options: a JSON array of strings */
};

struct xp_msg_agent_data {
	char text[XP_MSG_TEXT_MAX + 1];
};

struct xp_msg_agent_end {
	uint64_t status;          /* the exit status the test would have had */
	char error[XP_MSG_STR_MAX + 1];
};

/* MUX and MUX_OK: the channels (tests) the connection carries, 1..n. */
struct xp_msg_mux {
	uint64_t channels;
};

struct xp_msg_stop {
	uint64_t datagrams_sent; /* UDP: what the client sent, for loss */
};

/* One of the server's -i intervals: its counts between two of its
 * snapshots, times from the interval origin as the server places it on
 * the client's clock (GO's arrival there, by half the round trip, plus
 * interval_origin_ms). */
struct xp_msg_interval {
	uint64_t index, start_us, end_us;
	uint64_t bytes_sent, bytes_received, transactions;
	uint64_t datagrams_sent, datagrams_received, lost;
	/* stamps XP_STAMP_ONE_WAY, UDP bulk toward the server: its receivers'
	 * one-way delays in the interval, delay + OFFSET's bias_ns (as HIST) */
	uint64_t fwd_count, fwd_p50_ns, fwd_p99_ns;
};

struct xp_msg_error {
	uint64_t code;
	char text[XP_MSG_STR_MAX + 1];
};

struct xp_msg {
	uint16_t type;    /* enum xp_msg_type */
	uint16_t version; /* filled by decode from the header */
	union {
		struct xp_msg_setup setup;
		struct xp_msg_setup_ok setup_ok;
		struct xp_msg_stop stop;
		struct xp_msg_interval interval;
		struct xp_side_result result; /* proto/result.h */
		struct xp_msg_error error;
		struct xp_flow_result flow;   /* one flow's counters and TCP_INFO */
		struct xp_msg_auth auth;      /* the four AUTH_* messages */
		struct xp_msg_agent_run agent_run;
		struct xp_msg_agent_data agent_data;
		struct xp_msg_agent_end agent_end;
		struct xp_msg_mux mux;        /* MUX and MUX_OK */
		struct xp_msg_clock clock;    /* CLOCK and CLOCK_OK */
		struct xp_msg_offset offset;
		struct xp_msg_hist hist;
	} u;              /* READY, GO, MEASURE, DONE and HEARTBEAT have empty bodies */
};

/* Why a decode failed.  proto/ needs nothing from the folders above it,
 * so it has its own small error; callers copy the text into theirs. */
struct xp_why {
	char msg[256];
};

/* Encode m (type from m->type, version XP_PROTO_VERSION) into buf.
 * Returns total bytes (header + body) or 0 if cap is too small or the
 * type is unknown. */
size_t xp_msg_encode(const struct xp_msg *m, uint8_t *buf, size_t cap);

/* Padding: a field of this tag, in any message, carries nothing and is
 * skipped by every decoder as an unknown tag. */
#define XP_MSG_TAG_PAD 65535

/* xp_msg_encode, then one padding field if needed so that the message
 * is at least min_len bytes; 0 if that does not fit in cap. */
size_t xp_msg_encode_min(const struct xp_msg *m, uint8_t *buf, size_t cap,
			 size_t min_len);

/* Decode a 12-byte header: checks magic and that body_len <=
 * XP_MSG_BODY_MAX.  Does NOT reject another version: the caller decides
 * (so it can still read an ERROR from a newer peer).  0 or -1. */
int xp_msg_hdr_decode(const uint8_t *hdr, uint16_t *version, uint16_t *type,
		      uint32_t *body_len, struct xp_why *why);

/* Decode a whole message (header + body, exactly len bytes).  Rejects bad
 * magic, a version other than XP_PROTO_VERSION (unless the type is
 * XP_MSG_ERROR), unknown types, truncated or overlong fields, body length
 * mismatch, strings over XP_MSG_STR_MAX or containing NUL, integer fields
 * whose length is not 8, byte fields whose length is not theirs.  Unknown tags are skipped.  Missing fields are 0
 * or "".  Pure: no I/O, no allocation.  0 or -1. */
int xp_msg_decode(const uint8_t *buf, size_t len, struct xp_msg *m,
		  struct xp_why *why);

const char *xp_msg_type_name(uint16_t type);

/* Data-connection hello: the first 16 bytes on every TCP data connection
 * and the body of the UDP hello datagram (proto/hello.h for the rest of
 * the UDP handshake):
 *   magic u32 "XPDT" | cookie u64 | flow index u32 (big-endian). */
#define XP_DATA_MAGIC 0x58504454u /* "XPDT" */
#define XP_DATA_HELLO_LEN 16
void xp_data_hello_encode(uint8_t *buf, uint64_t cookie, uint32_t flow);
int xp_data_hello_decode(const uint8_t *buf, size_t len, uint64_t *cookie,
			 uint32_t *flow);

/* The padded hello of a TCP data connection (proto/PROTOCOL.md section 5),
 * sent only to a server whose SETUP_OK says it reads one:
 *   magic u32 "XPDP" | cookie u64 | flow index u32 | pad u32 | pad zero bytes.
 * The client pads the hello to one segment where the server's windows are
 * whole segments (no window scaling), so that the test's bytes start on a
 * segment boundary.  encode writes the 20-byte head only; decode reads a
 * head (len >= 20), refusing a pad above XP_DATA_PAD_MAX. */
#define XP_DATA_PAD_MAGIC 0x58504450u /* "XPDP" */
#define XP_DATA_PAD_HEAD_LEN 20
#define XP_DATA_PAD_MAX 65536u
void xp_data_pad_hello_encode(uint8_t *buf, uint64_t cookie, uint32_t flow, uint32_t pad);
int xp_data_pad_hello_decode(const uint8_t *buf, size_t len, uint64_t *cookie,
			     uint32_t *flow, uint32_t *pad);

#endif
