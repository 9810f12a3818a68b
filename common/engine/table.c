/* SPDX-License-Identifier: BSD-2-Clause */
/* The engine column of the test table (common/tests.def): which callbacks
 * each end's workers run for a test. */
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
