/* SPDX-License-Identifier: BSD-2-Clause */
/* Turning a test's result into the human summary or the JSON document. */
#ifndef XP_REPORT_H
#define XP_REPORT_H

#include <stdio.h>

#include "client/client.h"
#include "common/json.h"
#include "common/opts.h"
#include "client/report/slo.h"

void xp_report_human(FILE *f, const struct xp_opts *o,
		     const struct xp_client_result *r);
/* One JSON document (start + end) on f. */
int xp_report_json(FILE *f, const struct xp_opts *o,
		   const struct xp_client_result *r);
/* The same with the --slo verdicts (slo may be NULL). */
int xp_report_json_slo(FILE *f, const struct xp_opts *o,
		       const struct xp_client_result *r, const struct xp_slo *slo);
/* The "start" and "end" objects, under the given key. */
void xp_report_json_start(struct xp_json *j, const struct xp_opts *o,
			  const struct xp_client_result *r, const char *key);
void xp_report_json_end(struct xp_json *j, const struct xp_opts *o,
			const struct xp_client_result *r, const struct xp_slo *slo,
			const char *key);
/* "intervals": [...] when there were interval reports. */
void xp_report_json_intervals(struct xp_json *j, const struct xp_client_result *r);
/* end.sum_received.bits_per_second: what the receiver got, on its clock
 * (in dir.c, beside the per-direction figures it reads). */
double xp_report_received_bps(const struct xp_client_result *r);
/* {"error": msg} (plus "start" parameters) on f. */
void xp_report_json_error(FILE *f, const struct xp_opts *o, const char *msg);

#endif
