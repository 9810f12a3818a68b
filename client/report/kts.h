/* SPDX-License-Identifier: BSD-2-Clause */
/* --kernel-timestamps in the reports: a TCP_RR round trip in its parts
 * (common/engine/owd.h XP_KTS_*) and their sum against the round trip. */
#ifndef XP_REPORT_KTS_H
#define XP_REPORT_KTS_H

#include <stdio.h>

#include "client/client.h"
#include "common/json.h"
#include "common/opts.h"

/* Nothing when the test ran without kernel timestamps. */
void xp_report_kts_human(FILE *f, const struct xp_opts *o, const struct xp_client_result *r);
void xp_report_kts_json(struct xp_json *j, const struct xp_opts *o,
			const struct xp_client_result *r);

#endif
