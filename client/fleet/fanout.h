/* SPDX-License-Identifier: BSD-2-Clause */
/* One client, several servers: `-c host1,host2,...` or `--hosts FILE`
 * runs the same test against every server at once from this process, the
 * -P flows spread over them (host i gets P/k, the first P%k one more),
 * each host's flows opened first and then all started together; one
 * report with a row per server, the exact merged totals (client/fleet/merge.h)
 * and the spread of their start times.  A host that fails is reported as
 * failed, not averaged away, and the exit status is 1. */
#ifndef XP_CLIENT_FANOUT_H
#define XP_CLIENT_FANOUT_H

#include <stdint.h>

#include "client/report/cli.h"

#define XP_FANOUT_MAX 256

struct xp_fanout {
	char spec[XP_FANOUT_MAX][128]; /* "host" or "host:port", "[v6]:port" */
	int n;
};

/* Hosts from -c's comma list or --hosts FILE (one per line, # comments).
 * 0, or -1 with err (no host, too many, a file that cannot be read, more
 * hosts than flows). */
int xp_fanout_prepare(const struct xp_opts *o, struct xp_fanout *f, struct xp_err *err);

/* Run and print; returns the exit status. */
int xp_fanout_run(const struct xp_cli *c, const struct xp_fanout *f, int sigfd);

#endif
