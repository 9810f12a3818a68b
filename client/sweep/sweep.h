/* SPDX-License-Identifier: BSD-2-Clause */
/* --sweep NAME=V1,V2,...: the test run once (or -I times) per value, or
 * per point of the grid several sweeps form; one table, --csv with every
 * figure of each point's JSON result, --plot with the main figure against
 * the swept value. */
#ifndef XP_SWEEP_H
#define XP_SWEEP_H

#include <stdint.h>

#include "client/report/cli.h"
#include "common/err.h"
#include "common/opts.h"

#define XP_SWEEP_DIMS XP_STRS_MAX
#define XP_SWEEP_VALUES 64

struct xp_sweep_dim {
	char name[40];                     /* the option's long name */
	const char *text[XP_SWEEP_VALUES]; /* as given, e.g. "64K" */
	double value[XP_SWEEP_VALUES];     /* as the option stores it */
	char buf[1024];                    /* holds the texts */
	unsigned n;
};

struct xp_sweep {
	struct xp_sweep_dim dim[XP_SWEEP_DIMS];
	unsigned ndims, npoints;
};

/* Parse every --sweep and check each value against the option (a bad one
 * is a usage error, found before anything runs).  0 or -1. */
int xp_sweep_prepare(const struct xp_opts *o, struct xp_sweep *sw, struct xp_err *err);

/* Run the grid against host:port; prints; returns the exit status. */
int xp_sweep_run(const struct xp_cli *c, const struct xp_sweep *sw, const char *host,
		 uint16_t port, int sigfd);

#endif
