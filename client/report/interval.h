/* SPDX-License-Identifier: BSD-2-Clause */
/* One interval report, as a human line and as a JSON object. */
#ifndef XP_REPORT_INTERVAL_H
#define XP_REPORT_INTERVAL_H

#include <stdio.h>

#include "client/client.h"
#include "common/json.h"
#include "common/opts.h"

/* One interval line: rates in -f's unit, after --timestamps' prefix (o
 * may be NULL: Gbit/s, no prefix). */
void xp_report_interval_human(FILE *f, const struct xp_opts *o, const struct xp_interval *iv,
			      int test);
/* One interval as a JSON object {"streams": [...], "sum": {...}}. */
void xp_json_interval(struct xp_json *j, const char *key, const struct xp_interval *iv,
		      int test);

#endif
