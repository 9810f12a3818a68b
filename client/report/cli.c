/* SPDX-License-Identifier: BSD-2-Clause */
/* The client command's reporting options, checked before anything runs,
 * and its one failure line (stderr, and the JSON error document or event):
 * shared by one test, fleet runs and sweeps. */
#include "client/report/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/report/live.h"
#include "client/report/slo_eval.h"
#include "client/report/report.h"
#include "common/exitcodes.h"

static int parse_confidence(const char *s, int *level, double *width, struct xp_err *err)
{
	char *end;
	long l = strtol(s, &end, 10);

	*width = 0;
	if (l != 95 && l != 99)
		return xp_err_set(err, "--confidence: level must be 95 or 99, not '%s'", s);
	if (*end == ',') {
		*width = strtod(end + 1, &end);
		if (!(*width > 0) || *width > 100 || *end)
			return xp_err_set(err, "--confidence: width must be a percentage in "
					  "(0, 100], in '%s'", s);
	} else if (*end) {
		return xp_err_set(err, "--confidence: expected LEVEL[,WIDTH], not '%s'", s);
	}
	*level = (int)l;
	return 0;
}

int xp_cli_prepare(const struct xp_opts *o, struct xp_cli *c, struct xp_err *err)
{
	double ps[64];

	memset(c, 0, sizeof(*c));
	c->o = o;
	if (o->percentiles && xp_parse_percentiles(o->percentiles, ps, 64, err) < 0)
		return -1;
	if (o->slo && xp_slo_prepare(o->slo, o->test, o->one_way, o->load, &c->slo, err))
		return -1;
	if (o->json && o->json_stream)
		return xp_err_set(err, "--json and --json-stream exclude each other");
	return parse_confidence(o->confidence ? o->confidence : "95", &c->level,
				&c->width, err);
}

int xp_cli_fail(const struct xp_opts *o, const char *msg)
{
	if (o->json_stream)
		xp_stream_error(stdout, msg);
	else if (o->json)
		xp_report_json_error(stdout, o, msg);
	fprintf(stderr, "xperf: %s\n", msg);
	return XP_EXIT_FAIL;
}
