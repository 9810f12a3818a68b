/* SPDX-License-Identifier: BSD-2-Clause */
/* The engine column of the test table (common/tests.def): which callbacks
 * each end's workers run for a test, and for each flow of a run (--bidir
 * runs the reverse twin's on the second half of the flows). */
#include "common/engine/engines.h"

#include <stddef.h>

struct row {
	int id;
	const struct xp_side_ops *client, *server;
};

#define XP_TEST(id, wire, sock, kind, dir, conn, size, cli, srv) { wire, &cli, &srv },
static const struct row rows[] = {
#include "common/tests.def"
};
#undef XP_TEST

const struct xp_side_ops *xp_engine_side(int test, int role)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].id == test)
			return role == XP_ROLE_SERVER ? rows[i].server : rows[i].client;
	return NULL;
}

const struct xp_side_ops *xp_run_test_side(const struct xp_run *r, int test)
{
	const struct xp_side_ops *s = xp_engine_side(test, r->role);

	if (r->side)
		return r->side; /* the run brings its own engine (iperf3's) */
	if (r->self_probes && s == &xp_stream_tx)
		return &xp_stream_self_tx;
	if (r->self_probes && s == &xp_stream_rx)
		return &xp_stream_self_rx;
	return s;
}

const struct xp_side_ops *xp_run_flow_side(const struct xp_run *r, uint32_t idx)
{
	int test = r->test;

	if (r->bidir && idx >= r->flows / 2)
		test = xp_test_reverse(test);
	return xp_run_test_side(r, test);
}

uint32_t xp_run_quota_flows(const struct xp_run *r, int role)
{
	uint32_t i, n = 0;

	for (i = 0; r->quota && i < r->flows; i++) {
		int test = r->bidir && i >= r->flows / 2 ? xp_test_reverse(r->test) : r->test;
		const struct xp_side_ops *s = xp_engine_side(test, role);

		n += s && s->sends;
	}
	return n;
}
