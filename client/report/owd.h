/* SPDX-License-Identifier: BSD-2-Clause */
/* --one-way in the reports: the clock offset and its uncertainty, the
 * delays each way, and for RR the check that they add up to the round
 * trip (client/owd.h holds the figures). */
#ifndef XP_REPORT_OWD_H
#define XP_REPORT_OWD_H

#include <stdio.h>

#include "client/client.h"
#include "common/json.h"
#include "common/opts.h"

/* Nothing when the test ran without --one-way. */
void xp_report_owd_human(FILE *f, const struct xp_opts *o, const struct xp_client_result *r);
void xp_report_owd_json(struct xp_json *j, const struct xp_opts *o,
			const struct xp_client_result *r);

#endif
