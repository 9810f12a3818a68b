/* SPDX-License-Identifier: BSD-2-Clause */
/* Report pieces beyond the final summary: interval lines and objects,
 * --json-stream events, --slo verdicts and the --histogram CSV. */
#ifndef XP_REPORT_LIVE_H
#define XP_REPORT_LIVE_H

#include <stdio.h>

#include "client/client.h"
#include "common/json.h"
#include "client/report/slo.h"

/* One interval line: rates in -f's unit, after --timestamps' prefix (o
 * may be NULL: Gbit/s, no prefix). */
void xp_report_interval_human(FILE *f, const struct xp_opts *o, const struct xp_interval *iv,
			      int test);
/* One interval as a JSON object {"streams": [...], "sum": {...}}. */
void xp_json_interval(struct xp_json *j, const char *key, const struct xp_interval *iv,
		      int test);

/* "slo": {"passed": .., "bounds": [...]}. */
void xp_json_slo(struct xp_json *j, const struct xp_slo *slo,
		 const struct xp_client_result *r);
void xp_report_slo_human(FILE *f, const struct xp_slo *slo,
			 const struct xp_client_result *r);

/* lower_ns,upper_ns,count for every non-empty bucket. */
int xp_report_histogram(const char *path, const struct xp_hist *h, struct xp_err *err);

/* --json-stream: {"event": NAME, "data": ...} on one line, flushed. */
void xp_stream_start(FILE *f, const struct xp_opts *o, const struct xp_client_result *r);
void xp_stream_interval(FILE *f, const struct xp_interval *iv, int test);
void xp_stream_end(FILE *f, const struct xp_opts *o, const struct xp_client_result *r,
		   const struct xp_slo *slo);
void xp_stream_error(FILE *f, const char *msg);

#endif
