/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's test names and omni's test options, and the xperf test each
 * combination runs.
 *
 * netperf 2.7 runs TCP_STREAM ... UDP_RR through its "omni" engine (the
 * banner says MIGRATED), where a test is a protocol (-T tcp|udp) and a
 * direction: send (2), receive (4), both (6, request/response), or a
 * connection test (-c).  -t omni takes the direction from -d, or implies
 * it from -m/-M/-r.  TCP_SENDFILE, TCP_CC, LOC_CPU and REM_CPU are older
 * tests of their own.  Here each becomes one of xperf's tests:
 *   send -> TCP_STREAM / UDP_STREAM, receive -> TCP_MAERTS (/ UDP_MAERTS
 *   when this xperf has it), both -> TCP_RR / UDP_RR, a connection test
 *   -> TCP_CRR (TCP_CC too: xperf's data connections always carry a
 *   hello, so a connection without data cannot be made), TCP_SENDFILE ->
 *   TCP_STREAM sending with sendfile(2).  Pure: no I/O. */
#include "client/netperf/netperf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "proto/msg.h"

static const struct {
	const char *name;
	int kind;
	int test;   /* the xperf test, 0: decided later or none */
} names[] = {
	{ "TCP_STREAM", XP_NP_K_MIGRATED, XP_TCP_STREAM },
	{ "TCP_MAERTS", XP_NP_K_MIGRATED, XP_TCP_MAERTS },
	{ "TCP_RR", XP_NP_K_MIGRATED, XP_TCP_RR },
	{ "TCP_CRR", XP_NP_K_MIGRATED, XP_TCP_CRR },
	{ "UDP_STREAM", XP_NP_K_MIGRATED, XP_UDP_STREAM },
	{ "UDP_RR", XP_NP_K_MIGRATED, XP_UDP_RR },
	{ "OMNI", XP_NP_K_OMNI, 0 },
	{ "TCP_SENDFILE", XP_NP_K_SENDFILE, XP_TCP_STREAM },
	{ "TCP_CC", XP_NP_K_CC, XP_TCP_CRR },
	{ "LOC_CPU", XP_NP_K_LOC_CPU, 0 },
	{ "REM_CPU", XP_NP_K_REM_CPU, 0 },
};

int xp_np_set_test_name(struct xp_np_cfg *c, const char *arg)
{
	size_t i;

	snprintf(c->test_name, sizeof(c->test_name), "%s", arg);
	for (i = 0; c->test_name[i]; i++)
		c->test_name[i] = (char)toupper((unsigned char)c->test_name[i]);
	if (!strcmp(c->test_name, "UUID")) {
		c->action = XP_NP_UUID;
		return 0;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(c->test_name, names[i].name))
			continue;
		c->kind = names[i].kind;
		c->test = names[i].test ? names[i].test : XP_TCP_STREAM;
		if (c->kind == XP_NP_K_LOC_CPU || c->kind == XP_NP_K_REM_CPU)
			c->action = XP_NP_CPU_RATE;
		else if (c->action == XP_NP_UNKNOWN_TEST || c->action == XP_NP_UUID ||
			 c->action == XP_NP_CPU_RATE)
			c->action = XP_NP_RUN;
		return 0;
	}
	c->action = XP_NP_UNKNOWN_TEST; /* reported before anything runs */
	return 0;
}

/* One -d word: a name or a number (netperf: strtol base 0). */
static int dir_word(const char *w, size_t n)
{
	static const struct { const char *name; int dir; } words[] = {
		{ "send", XP_NP_DIR_SEND }, { "xmit", XP_NP_DIR_SEND },
		{ "stream", XP_NP_DIR_SEND }, { "transmit", XP_NP_DIR_SEND },
		{ "recv", XP_NP_DIR_RECV }, { "receive", XP_NP_DIR_RECV },
		{ "maerts", XP_NP_DIR_RECV },
		{ "rr", XP_NP_DIR_SEND | XP_NP_DIR_RECV },
	};
	char buf[32], *end;
	size_t i;
	long v;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, w, n);
	buf[n] = 0;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcasecmp(buf, words[i].name))
			return words[i].dir;
	v = strtol(buf, &end, 0);
	if (*end || v < 0 || (v & ~(long)(XP_NP_DIR_SEND | XP_NP_DIR_RECV)))
		return -1;
	return (int)v;
}

int xp_np_parse_direction(const char *arg, int *dir, struct xp_err *err)
{
	const char *p = arg;
	int d = 0;

	for (;;) {
		size_t n = strcspn(p, "|");
		int one = dir_word(p, n);

		if (one < 0)
			return xp_err_set(err, "-d %s: a direction is send, recv, rr, or "
					  "netperf's bits 2 (send) and 4 (receive)", arg);
		d |= one;
		if (!p[n])
			break;
		p += n + 1;
	}
	*dir = d;
	return 0;
}

int xp_np_parse_protocol(const char *arg, int *udp, struct xp_err *err)
{
	if (!strcasecmp(arg, "tcp") || !strcasecmp(arg, "stream"))
		*udp = 0;
	else if (!strcasecmp(arg, "udp") || !strcasecmp(arg, "dgram"))
		*udp = 1;
	else
		return xp_err_set(err, "-T %s: xperf runs TCP and UDP (not SCTP, DCCP, "
				  "UDPLite or SDP)", arg);
	return 0;
}

/* -t omni: direction and protocol into an xperf test. */
static int omni_test(struct xp_np_cfg *c, struct xp_err *err)
{
	int dir = c->omni_dir >= 0 ? c->omni_dir : c->implied_dir;
	int both = XP_NP_DIR_SEND | XP_NP_DIR_RECV;

	if (c->omni_dir < 0 && !dir)
		dir = XP_NP_DIR_SEND;
	if (c->omni_conn && c->omni_udp)
		return xp_err_set(err, "-c: connection tests are TCP tests");
	if (c->omni_conn) {
		c->test = XP_TCP_CRR;
		c->connect_only = !dir; /* -c -d 0: connect and close */
	} else if (dir == both) {
		c->test = c->omni_udp ? XP_UDP_RR : XP_TCP_RR;
	} else if (dir == XP_NP_DIR_RECV) {
		c->test = c->omni_udp ? xp_test_parse("UDP_MAERTS") : XP_TCP_MAERTS;
		if (!c->test)
			return xp_err_set(err, "-d recv -T udp: this xperf has no UDP test "
					  "whose server sends (UDP_MAERTS)");
	} else if (dir == XP_NP_DIR_SEND) {
		c->test = c->omni_udp ? XP_UDP_STREAM : XP_TCP_STREAM;
	} else {
		return xp_err_set(err, "-d 0 without -c: a test must send, receive or both");
	}
	return 0;
}

int xp_np_resolve_test(struct xp_np_cfg *c, struct xp_err *err)
{
	const struct xp_test *t;
	int trans;

	if (c->kind == XP_NP_K_OMNI && omni_test(c, err))
		return -1;
	if (c->kind == XP_NP_K_OMNI && c->mode == XP_NP_CLASSIC)
		c->mode = XP_NP_COLUMNS; /* -t omni prints -O's columns by default */
	if (c->kind == XP_NP_K_SENDFILE)
		c->sendfile = 1;
	if (c->kind == XP_NP_K_CC)
		c->connect_only = 1;
	t = xp_test(c->test);
	/* netperf's default unit: transactions when the test's name has "RR"
	 * in it, or omni's request/response and connection tests */
	trans = c->kind == XP_NP_K_OMNI ? t->rr : c->kind == XP_NP_K_MIGRATED && t->rr;
	if (!c->fmt)
		c->fmt = trans ? 'x' : 'm';
	else if (c->fmt == 'x' && !trans)
		c->fmt = 'm';
	return 0;
}

const char *xp_np_direction(const struct xp_np_cfg *c)
{
	const struct xp_test *t = xp_test(c->test);

	if (c->connect_only)
		return "Connection";
	if (t->rr)
		return t->persistent ? "Send|Recv" : "Connect|Send|Recv";
	return t->server_sends ? "Receive" : "Send";
}

const char *xp_np_title(const struct xp_np_cfg *c, char *buf, size_t len)
{
	const struct xp_test *t = xp_test(c->test);
	const char *what = !t->rr ? (t->server_sends ? "MAERTS" : "STREAM")
			   : t->persistent ? "REQUEST/RESPONSE" : "Connect/Request/Response";

	switch (c->kind) {
	case XP_NP_K_OMNI:
		snprintf(buf, len, "OMNI %s TEST", xp_np_direction(c));
		break;
	case XP_NP_K_SENDFILE:
		snprintf(buf, len, "TCP SENDFILE TEST");
		break;
	case XP_NP_K_CC:
		snprintf(buf, len, "TCP Connect/Close TEST");
		break;
	default:
		snprintf(buf, len, "MIGRATED %s %s TEST", t->udp ? "UDP" : "TCP", what);
		break;
	}
	return buf;
}
