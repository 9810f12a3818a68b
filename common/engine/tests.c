/* The six tests: one row each.  Adding a test means an engine (or reusing
 * one) and a row here. */
#include <stddef.h>
#include <sys/socket.h>

#include "common/engine/engines.h"
#include "proto/msg.h"

static const struct xp_test_ops tests[] = {
	/* test          socket       persistent server_sends rr  client / server */
	{ XP_TCP_STREAM, SOCK_STREAM, 1, 0, 0, &xp_stream_tx, &xp_stream_rx },
	{ XP_TCP_MAERTS, SOCK_STREAM, 1, 1, 0, &xp_stream_rx, &xp_stream_tx },
	{ XP_TCP_RR, SOCK_STREAM, 1, 0, 1, &xp_rr_client, &xp_rr_server },
	{ XP_TCP_CRR, SOCK_STREAM, 0, 0, 1, &xp_crr_client, &xp_crr_server },
	{ XP_UDP_STREAM, SOCK_DGRAM, 1, 0, 0, &xp_udp_tx, &xp_udp_rx },
	{ XP_UDP_RR, SOCK_DGRAM, 1, 0, 1, &xp_udp_rr_client, &xp_udp_rr_server },
};

const struct xp_test_ops *xp_test_ops(int test)
{
	size_t i;

	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (tests[i].test == test)
			return &tests[i];
	return NULL;
}
