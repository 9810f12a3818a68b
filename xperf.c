/* SPDX-License-Identifier: BSD-2-Clause */
/* xperf: one binary for every mode.  main() owns the process-wide
 * concerns (the descriptor limit, the front end chosen by name or first
 * argument, --help and --version) and hands over to one mode: netperf's
 * command line, iperf3's, the lab, the server or the client. */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "client/iperf3/fe.h"
#include "client/fleet/agent.h"
#include "client/fleet/merge.h"
#include "client/netperf/netperf.h"
#include "client/cmd/start.h"
#include "client/cmd/completion.h"
#include "common/exitcodes.h"
#include "common/opts.h"
#include "lab/lab.h"
#include "proto/msg.h"
#include "server/start.h"

/* Usage errors are reported in the format asked for, even when the
 * command line did not parse: 1 --json, 2 --json-stream, 0 text (after
 * "--" every word is an operand). */
static int wants_json(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--json-stream"))
			return 2;
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-J"))
			return 1;
	}
	return 0;
}

/* Each flow is a descriptor: allow as many as the hard limit permits. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int main(int argc, char **argv)
{
	struct xp_opts o;
	struct xp_err err;
	const char *base = strrchr(argv[0], '/');

	raise_fd_limit();
	/* netperf's command line: under the name netperf, or on request */
	if (!strcmp(base ? base + 1 : argv[0], "netperf") ||
	    (argc > 1 && !strcmp(argv[1], "--netperf-args")))
		return xp_netperf_main(argc, argv);
	/* iperf3's command line: under the name iperf3, or on request */
	if (!strcmp(base ? base + 1 : argv[0], "iperf3"))
		return xp_i3fe_main(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "--iperf3-args"))
		return xp_i3fe_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "merge"))
		return xp_merge_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "lab"))
		return xp_lab_main(argc - 1, argv + 1);
	if (xp_opts_parse(&o, argc, argv, &err))
		return xp_usage_error(wants_json(argc, argv), err.msg);
	if (o.help) {
		xp_opts_usage(stdout, "xperf");
		return XP_EXIT_OK;
	}
	if (o.bash_completion) {
		xp_opts_completion(stdout);
		return XP_EXIT_OK;
	}
	if (o.version) {
		printf("xperf %s (control protocol %d)\n", PACKAGE_VERSION, XP_PROTO_VERSION);
		return XP_EXIT_OK;
	}
	if (o.server && o.agent) {
		struct xp_agent_ctx ac = { o.auth_file };

		return xp_server_main(&o, xp_agent_serve, &ac);
	}
	return o.server ? xp_server_main(&o, NULL, NULL) : xp_client_main(&o);
}
