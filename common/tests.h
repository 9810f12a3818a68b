/* SPDX-License-Identifier: BSD-2-Clause */
/* Facts about each test, read from the table in common/tests.def.  Code
 * that needs to know whether a test is UDP, request/response or which way
 * its data flows asks here; nobody compares test numbers. */
#ifndef XP_TESTS_H
#define XP_TESTS_H

#include <stdint.h>

enum xp_test_id {
	XP_TEST_NONE = 0,
#define XP_TEST(id, wire, sock, kind, dir, conn, size, cli, srv) XP_##id = wire,
#include "common/tests.def"
#undef XP_TEST
};

/* -t RRUL, latency under load: a client-side composite of the tests above
 * (client/mixed/), never on the wire, so not a row of the table. */
#define XP_RRUL 1000

#define XP_UDP_MAX_PAYLOAD 65507 /* the largest UDP datagram over IPv4 */
#define XP_UDP_SEQ_LEN 8         /* UDP bulk datagrams carry a sequence number */
#define XP_UDP_STAMP_LEN 16      /* ... and from 16 bytes on a send time (jitter) */

struct xp_test {
	int id;              /* enum xp_test_id: its number on the wire */
	const char *name;    /* "TCP_RR" */
	int sock_type;       /* SOCK_STREAM or SOCK_DGRAM */
	uint8_t udp;         /* datagrams (loss, reordering, duplicates) */
	uint8_t rr;          /* request/response: round trips timed */
	uint8_t bulk;        /* one side sends as fast as it may */
	uint8_t server_sends; /* the server sends the bulk data (TCP_MAERTS) */
	uint8_t persistent;  /* flows open before GO and last the whole test */
	uint8_t tcp_info;    /* a persistent TCP flow: TCP_INFO is read per flow */
	uint32_t default_size; /* bytes per send or per request */
	uint32_t min_size;   /* smallest message (UDP bulk: its sequence number) */
	uint32_t max_size;   /* largest message (UDP: one datagram), 0: none */
};

/* The row for a wire number; NULL when no test has it. */
const struct xp_test *xp_test_find(int id);
/* The same for a number known to be valid (parsed or checked): never NULL;
 * an unknown number gets an empty row whose name is "UNKNOWN". */
const struct xp_test *xp_test(int id);
/* "TCP_RR" (any case) -> XP_TCP_RR; 0 when unknown or NULL. */
int xp_test_parse(const char *name);
/* XP_TCP_RR -> "TCP_RR"; NULL when unknown. */
const char *xp_test_name(int id);
/* The reverse twin of a bulk test: the bulk test with the same socket and
 * connection columns whose data flows the other way (TCP_STREAM <->
 * TCP_MAERTS, UDP_STREAM <-> UDP_MAERTS), read from the table; 0 for an
 * RR test, an unknown number, or a bulk test without one.  -R runs it,
 * --bidir runs both at once. */
int xp_test_reverse(int id);
/* Every test's name, in table order, separated by `sep`, into buf. */
const char *xp_test_names(char *buf, unsigned len, const char *sep);

#endif
