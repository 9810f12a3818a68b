/* SPDX-License-Identifier: BSD-2-Clause */
/* What a run says of its flow i, in arithmetic only: which way it sends
 * (--bidir runs the reverse twin on the second half of the flows) and its
 * share of -n/-k.  Which callbacks it runs is the test table's answer
 * (table.c), given to the worker when it is made. */
#include "common/engine/worker.h"

#include "common/tests.h"

int xp_run_flow_s2c(const struct xp_run *r, uint32_t idx)
{
	return xp_test(r->test)->server_sends ^ (r->bidir && idx >= r->flows / 2);
}

uint64_t xp_run_flow_quota(const struct xp_run *r, uint32_t idx)
{
	uint32_t n = r->bidir ? r->flows / 2 : r->flows;
	uint32_t i = r->bidir && idx >= n ? idx - n : idx;

	if (!n)
		return 0;
	return r->quota / n + (i < r->quota % n ? 1 : 0);
}
