/* SPDX-License-Identifier: BSD-2-Clause */
/* The test table's facts (common/tests.def), derived once per row. */
#include "common/tests.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#define STREAM SOCK_STREAM
#define DGRAM SOCK_DGRAM
#define BULK 0
#define RR 1
#define C2S 0
#define S2C 1
#define PERSIST 1
#define PER_TXN 0

#define XP_TEST(id, wire, sock, kind, dir, conn, size, cli, srv)                   \
	{ XP_##id, #id, sock, sock == DGRAM, kind == RR, kind == BULK, dir == S2C,  \
	  conn == PERSIST, sock == STREAM && conn == PERSIST, size,                \
	  sock == DGRAM && kind == BULK ? XP_UDP_SEQ_LEN : 1,                     \
	  sock == DGRAM ? XP_UDP_MAX_PAYLOAD : 0 },
static const struct xp_test tests[] = {
#include "common/tests.def"
};
#undef XP_TEST

#define NTESTS (sizeof(tests) / sizeof(tests[0]))

static const struct xp_test unknown = { .name = "UNKNOWN" };

const struct xp_test *xp_test_find(int id)
{
	size_t i;

	for (i = 0; i < NTESTS; i++)
		if (tests[i].id == id)
			return &tests[i];
	return NULL;
}

const struct xp_test *xp_test(int id)
{
	const struct xp_test *t = xp_test_find(id);

	return t ? t : &unknown;
}

int xp_test_parse(const char *name)
{
	size_t i;

	for (i = 0; name && i < NTESTS; i++)
		if (!strcasecmp(name, tests[i].name))
			return tests[i].id;
	return 0;
}

const char *xp_test_name(int id)
{
	const struct xp_test *t = xp_test_find(id);

	return t ? t->name : NULL;
}

int xp_test_reverse(int id)
{
	const struct xp_test *t = xp_test_find(id);
	size_t i;

	for (i = 0; t && t->bulk && i < NTESTS; i++)
		if (tests[i].bulk && tests[i].sock_type == t->sock_type &&
		    tests[i].persistent == t->persistent &&
		    tests[i].server_sends != t->server_sends)
			return tests[i].id;
	return 0;
}

const char *xp_test_names(char *buf, unsigned len, const char *sep)
{
	size_t i, off = 0;

	buf[0] = 0;
	for (i = 0; i < NTESTS && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? sep : "",
					tests[i].name);
	return buf;
}
