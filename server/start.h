/* SPDX-License-Identifier: BSD-2-Clause */
/* Server mode of the xperf command (`xperf -s`). */
#ifndef XP_SERVER_START_H
#define XP_SERVER_START_H

#include "common/opts.h"
#include "server/server.h"

/* The server's configuration as the command line asks (log: stderr). */
void xp_server_cfg_from_opts(const struct xp_opts *o, struct xp_server_cfg *c);

/* --auth-file: load the key into *key and point c->auth at it (NULL
 * without the option).  0, or -1 naming the file and what is wrong. */
int xp_server_load_auth(const struct xp_opts *o, struct xp_server_cfg *c,
			struct xp_auth_key *key, struct xp_err *err);

/* The soft limit on open descriptors raised to the hard limit. */
void xp_raise_fd_limit(void);

/* Open the log, listen, daemonize if asked, serve until a signal.
 * Returns the process exit status. */
int xp_server_main(const struct xp_opts *o, xp_agent_fn agent, void *agent_ctx);

#endif
