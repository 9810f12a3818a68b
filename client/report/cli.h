/* SPDX-License-Identifier: BSD-2-Clause */
/* The client command's reporting options (--slo, --percentiles,
 * --confidence, the output format) as one value every runner takes: one
 * test (client/cmd/run.h), fleet runs and sweeps. */
#ifndef XP_REPORT_CLI_H
#define XP_REPORT_CLI_H

#include "client/report/slo.h"
#include "common/err.h"
#include "common/opts.h"

struct xp_cli {
	const struct xp_opts *o;
	struct xp_slo slo;
	int level;      /* confidence level: 95 or 99 */
	double width;   /* flag confidence intervals wider than this % (0: never) */
};

/* Validate the reporting options against the test: a bad --slo,
 * --percentiles or --confidence is a usage error.  0 or -1. */
int xp_cli_prepare(const struct xp_opts *o, struct xp_cli *c, struct xp_err *err);

/* One failure line on stderr, and the JSON error document or event. */
int xp_cli_fail(const struct xp_opts *o, const char *msg);

#endif
