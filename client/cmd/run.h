/* SPDX-License-Identifier: BSD-2-Clause */
/* The client command: runs the test (--iterations times), prints the
 * chosen output (human, --json, --json-stream), interval reports, --slo
 * verdicts and the --histogram file, and decides the exit status. */
#ifndef XP_CLI_H
#define XP_CLI_H

#include <stdint.h>

#include "common/err.h"
#include "common/opts.h"
#include "client/report/slo.h"

struct xp_cli {
	const struct xp_opts *o;
	struct xp_slo slo;
	int level;      /* confidence level: 95 or 99 */
	double width;   /* flag confidence intervals wider than this % (0: never) */
};

/* Validate the reporting options against the test: a bad --slo,
 * --percentiles or --confidence is a usage error.  0 or -1. */
int xp_cli_prepare(const struct xp_opts *o, struct xp_cli *c, struct xp_err *err);

/* Run against host:port and print; returns the process exit status. */
int xp_cli_run(const struct xp_cli *c, const char *host, uint16_t port, int sigfd);

/* One failure line on stderr, and the JSON error document or event. */
int xp_cli_fail(const struct xp_opts *o, const char *msg);

#endif
