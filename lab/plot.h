/* SPDX-License-Identifier: BSD-2-Clause */
/* xperf lab --plot: the matrix as a chart. */
#ifndef XP_LAB_PLOT_H
#define XP_LAB_PLOT_H

#include "lab/report.h"

/* One bar group per topology, one bar per test: a panel for stream tests
 * (single-flow Gbit/s) and one for RR tests (transactions/s), error bars
 * from the -I spread.  0 or -1 with err. */
int xp_lab_plot(const char *path, const struct xp_lab_cfg *c,
		const struct xp_lab_report *rep, struct xp_err *err);

#endif
