/* SPDX-License-Identifier: BSD-2-Clause */
/* Fleet runs: `xperf --from A,B,... -c TARGET` (the controller) asks
 * agents (`xperf -s --agent --auth-file KEY` on A, B, ...) to run the
 * same test toward TARGET at the same moment, and merges what they
 * measured.  Agents act only for a controller that authenticated with the
 * pre-shared key, and send traffic only to a TARGET that is itself an
 * xperf server and accepts the test: an agent's test is an ordinary client
 * test, so nothing flows before the target's SETUP_OK. */
#ifndef XP_CLIENT_AGENT_H
#define XP_CLIENT_AGENT_H

#include "client/report/cli.h"
#include "client/fleet/fanout.h"
#include "proto/msg.h"

/* What the agent's runs share: its key file (used toward the target too).
 * Runs parse their options at once: the parser keeps no state outside
 * its call (common/argscan.h). */
struct xp_agent_ctx {
	const char *auth_file;
};

/* The agent's side, run by the server in a session thread (struct
 * xp_server_cfg.agent): the test asked for, toward req->target, then its
 * --json result in AGENT_DATA pieces and AGENT_END on fd.  ctx: a struct
 * xp_agent_ctx. */
void xp_agent_serve(int fd, const struct xp_msg_agent_run *req, const char *peer,
		    void *ctx);

/* The agents from --from (host or host:port each). */
int xp_controller_prepare(const struct xp_opts *o, struct xp_fanout *f,
			  struct xp_err *err);

/* The controller: run and print; returns the exit status. */
int xp_controller_run(const struct xp_cli *c, const struct xp_fanout *f);

/* The options to forward: the command line without what the controller
 * itself decides (--from, -c, -p, -P, --json, --auth-file), each option as
 * one word by its long name ("--length=2", however it was typed), as a
 * JSON array of strings into buf.  -1 when it does not fit. */
int xp_controller_args(int argc, char **argv, char *buf, size_t len);

#endif
