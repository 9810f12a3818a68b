/* SPDX-License-Identifier: BSD-2-Clause */
/* Server mode of the xperf command (`xperf -s`). */
#ifndef XP_SERVER_START_H
#define XP_SERVER_START_H

#include "common/opts.h"
#include "server/server.h"

/* The server's configuration as the command line asks (log: stderr). */
void xp_server_cfg_from_opts(const struct xp_opts *o, struct xp_server_cfg *c);

/* Open the log, listen, daemonize if asked, serve until a signal.
 * Returns the process exit status. */
int xp_server_main(const struct xp_opts *o);

#endif
