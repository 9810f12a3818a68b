/* SPDX-License-Identifier: BSD-2-Clause */
/* Client mode of the xperf command (`xperf -c HOST`, or without -c against
 * a server started inside the process on loopback). */
#ifndef XP_CLIENT_START_H
#define XP_CLIENT_START_H

#include "common/opts.h"

/* Runs the test(s) and prints; returns the process exit status. */
int xp_client_main(const struct xp_opts *o);

/* A usage error, in the output format asked for (json: 0 text, 1 --json,
 * 2 --json-stream) and on stderr.  Returns XP_EXIT_USAGE. */
int xp_usage_error(int json, const char *msg);

#endif
