/* Turning a test's result into the human summary or the JSON document. */
#ifndef XP_REPORT_H
#define XP_REPORT_H

#include <stdio.h>

#include "client/client.h"
#include "common/opts.h"

void xp_report_human(FILE *f, const struct xp_opts *o,
		     const struct xp_client_result *r);
/* One JSON document (start + end) on f. */
int xp_report_json(FILE *f, const struct xp_opts *o,
		   const struct xp_client_result *r);
/* {"error": msg} (plus "start" parameters) on f. */
void xp_report_json_error(FILE *f, const struct xp_opts *o, const char *msg);

#endif
