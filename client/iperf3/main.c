/* SPDX-License-Identifier: BSD-2-Clause */
/* The iperf3 front end's entry (client/iperf3/fe.h): iperf3's command
 * line, its usage and version, -A, then the client or the server, and
 * iperf3's exit status. */
#include "client/iperf3/cli.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

static void version(void)
{
	char info[256], v[96];

	xp_i3r_system_info(info, sizeof(info));
	xp_i3r_version(v, sizeof(v));
	printf("%s\n%s\n", v, info);
	printf("Optional features available: CPU affinity setting, IPv6 flow label, TCP "
	       "congestion algorithm setting, socket pacing, bind to device\n");
}

/* -A n: the whole process on CPU n (its workers too, by --cpus). */
static int affinity(const struct xp_i3fe_cfg *c)
{
	cpu_set_t set;

	if (c->affinity < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(c->affinity, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "iperf3: error - unable to set CPU affinity: %s\n",
			strerror(errno));
		return -1;
	}
	return 0;
}

/* iperf3's warnings about options -J makes pointless. */
static void warnings(const struct xp_i3fe_cfg *c)
{
	if ((c->json || c->json_stream) && c->format != 'a')
		fprintf(stderr, "iperf3: warning - Report format (-f) flag ignored with JSON "
			"output (-J)\n");
	if ((c->json || c->json_stream) && c->verbose)
		fprintf(stderr, "iperf3: warning - Verbose output (-v) may interfere with JSON "
			"output (-J)\n");
}

int xp_i3fe_main(int argc, char **argv)
{
	struct xp_i3fe_cfg c;
	struct xp_i3fe_run run;
	struct xp_err err;
	int usage;

	if (xp_i3fe_parse(&c, argc, argv, &usage, &err)) {
		if (usage == 2) {
			fprintf(stderr, "iperf3: %s\n", err.msg);
			xp_i3fe_usage(stderr);
		} else {
			fprintf(stderr, "iperf3: parameter error - %s\n\n", err.msg);
			xp_i3fe_usage(stdout);
		}
		return XP_I3FE_EXIT_FAIL;
	}
	if (c.action == XP_I3FE_HELP) {
		xp_i3fe_usage(stdout);
		return XP_I3FE_EXIT_OK;
	}
	if (c.action == XP_I3FE_VERSION_ACT) {
		version();
		return XP_I3FE_EXIT_OK;
	}
	if (xp_i3fe_to_run(&c, &run, &err)) {
		fprintf(stderr, "iperf3: parameter error - %s\n", err.msg);
		return XP_I3FE_EXIT_FAIL;
	}
	warnings(&c);
	if (affinity(&c))
		return XP_I3FE_EXIT_FAIL;
	return c.server ? xp_i3fe_server(&c, &run) : xp_i3fe_client(&c, &run);
}
