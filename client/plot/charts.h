/* SPDX-License-Identifier: BSD-2-Clause */
/* --plot: charts of a run, a sweep (client/sweep/sweep.c) or the lab. */
#ifndef XP_REPORT_PLOT_H
#define XP_REPORT_PLOT_H

#include <stddef.h>

#include "client/client.h"
#include "client/plot/svg.h"
#include "common/opts.h"

/* One run's chart to path (client/plot/charts.c says what it shows). */
int xp_report_plot(const char *path, const struct xp_opts *o,
		   const struct xp_client_result *r, struct xp_err *err);
/* The command line, as a caption. */
void xp_plot_caption(const struct xp_opts *o, char *buf, size_t len);
/* Append a rendered chart document as a nested <svg> at offset y. */
void xp_plot_nest(struct xp_svg *doc, const struct xp_svg *chart, int y);

#endif
