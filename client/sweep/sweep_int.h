/* SPDX-License-Identifier: BSD-2-Clause */
/* Between client/sweep/sweep.c (running) and client/sweep/out.c (reporting). */
#ifndef XP_SWEEP_INT_H
#define XP_SWEEP_INT_H

#include "client/client.h"
#include "client/sweep/sweep.h"

struct xp_sweep_point {
	unsigned idx[XP_SWEEP_DIMS]; /* the value of each sweep */
	int done;
	double median, min, max;     /* the main figure over the -I runs */
	double p99_us;               /* RR: of the run kept */
	char *json;                  /* the run kept (the median one), as JSON */
};

struct xp_sweep_ctx {
	const struct xp_cli *c;
	const struct xp_sweep *sw;
	const char *host;
	uint16_t port;
	int sigfd;
	struct xp_sweep_point *pts;
};

static inline double abs_diff(double a, double b)
{
	return a > b ? a - b : b - a;
}

/* The main figure: received bits/s (bulk tests) or transactions/s (RR). */
double xp_sweep_figure(const struct xp_client_result *r);
/* Keep what the reports need of the run kept for a point. */
int xp_sweep_keep(const struct xp_sweep_ctx *x, const struct xp_opts *t,
		  const struct xp_client_result *r, struct xp_sweep_point *pt,
		  struct xp_err *err);
void xp_sweep_print_head(const struct xp_sweep_ctx *x);
void xp_sweep_print_row(const struct xp_sweep_ctx *x, const struct xp_sweep_point *pt);
/* --json, --csv and --plot after the last point.  0 or -1. */
int xp_sweep_outputs(const struct xp_sweep_ctx *x, struct xp_err *err);
void xp_sweep_free(struct xp_sweep_ctx *x);
/* --csv FILE: one row per point, every figure of its JSON (client/sweep/csv.c). */
int xp_sweep_csv(const struct xp_sweep_ctx *x, const char *path, struct xp_err *err);

#endif
