/* SPDX-License-Identifier: BSD-2-Clause */
/* The WAN path in the lab's report: which impairment was used and with
 * what values, the delay line's ceiling, and each row's share of the
 * line's counters, in the table's text and in the JSON document. */
#ifndef XP_LAB_REPORT_WAN_H
#define XP_LAB_REPORT_WAN_H

#include <stdio.h>

#include "common/json.h"
#include "lab/report.h"

/* A measurement through the line: its counters (after - before) added to
 * the row's, and its share of the ceiling. */
void xp_lab_row_line(struct xp_lab_row *row, const struct xp_lab_ceiling *c,
		     const struct xp_wan_stats *after, const struct xp_wan_stats *before,
		     uint64_t ns);

/* Above the table: the impairment and the ceiling (nothing when none). */
void xp_lab_wan_head(FILE *f, const struct xp_lab_cfg *c, const struct xp_lab_report *rep);
/* Below it: each row's line counters, and a warning near the ceiling. */
void xp_lab_wan_rows(FILE *f, const struct xp_lab_report *rep);

/* "impairment" in start (null when none). */
void xp_lab_wan_json_start(struct xp_json *j, const struct xp_lab_cfg *c,
			   const struct xp_lab_report *rep);
/* "line" in end: CPU, ceiling, error (null without the line). */
void xp_lab_wan_json_end(struct xp_json *j, const struct xp_lab_report *rep);
/* "line" in a row (null unless measured through the line). */
void xp_lab_wan_json_row(struct xp_json *j, const struct xp_lab_row *r);

/* The values of each direction, a line each, and the counters of each,
 * a line each ("    client to server: ..."). */
void xp_lab_wan_dir_text(FILE *f, const struct xp_wan *w);
void xp_lab_wan_stats_text(FILE *f, const struct xp_wan_stats *s);
/* "c2s" and "s2c" objects of every counter, into the open object. */
void xp_lab_wan_stats_json(struct xp_json *j, const struct xp_wan_stats *s);

#endif
