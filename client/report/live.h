/* SPDX-License-Identifier: BSD-2-Clause */
/* Report pieces beyond the final summary: --json-stream events and the
 * --histogram CSV (interval lines and --slo verdicts: interval.h and
 * slo_eval.h, included here for the runners). */
#ifndef XP_REPORT_LIVE_H
#define XP_REPORT_LIVE_H

#include <stdio.h>

#include "client/client.h"
#include "common/json.h"
#include "client/report/interval.h"
#include "client/report/slo.h"
#include "client/report/slo_eval.h"

/* lower_ns,upper_ns,count for every non-empty bucket. */
int xp_report_histogram(const char *path, const struct xp_hist *h, struct xp_err *err);

/* --json-stream: {"event": NAME, "data": ...} on one line, flushed. */
void xp_stream_start(FILE *f, const struct xp_opts *o, const struct xp_client_result *r);
void xp_stream_interval(FILE *f, const struct xp_interval *iv, int test);
void xp_stream_end(FILE *f, const struct xp_opts *o, const struct xp_client_result *r,
		   const struct xp_slo *slo);
void xp_stream_error(FILE *f, const char *msg);

#endif
