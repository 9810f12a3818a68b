/* SPDX-License-Identifier: BSD-2-Clause */
/* Per-flow end-of-test results (client/report/flows.c): each flow as the
 * client and the server saw it, from both ends' flow results (the
 * server's come in its FLOW messages). */
#ifndef XP_REPORT_FLOWS_H
#define XP_REPORT_FLOWS_H

#include <stdio.h>

#include "client/client.h"
#include "common/json.h"

/* Flows up to this many get a table in the human report. */
#define XP_REPORT_FLOWS_MAX 16

/* The human table, one line per flow, for 2 to XP_REPORT_FLOWS_MAX flows. */
void xp_report_human_flows(FILE *f, const struct xp_client_result *r);
/* end.streams: one object per flow with its "client" and "server" view
 * (null where that end kept no result); their sums equal the totals. */
void xp_report_json_streams(struct xp_json *j, const struct xp_client_result *r);

#endif
