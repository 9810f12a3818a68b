/* SPDX-License-Identifier: BSD-2-Clause */
#include "client/report/live.h"

#include <errno.h>
#include <string.h>

#include "client/report/report.h"
#include "client/report/side.h"
#include "client/report/slo_eval.h"
#include "common/tests.h"

int xp_report_histogram(const char *path, const struct xp_hist *h, struct xp_err *err)
{
	FILE *f = fopen(path, "we");
	uint32_t i;

	if (!f)
		return xp_err_sys(err, errno, "--histogram %s", path);
	fprintf(f, "lower_ns,upper_ns,count\n");
	for (i = 0; i < xp_hist_buckets(); i++) {
		uint64_t n = xp_hist_bucket_count(h, i);

		if (n)
			fprintf(f, "%llu,%llu,%llu\n",
				(unsigned long long)xp_hist_bucket_low(i),
				(unsigned long long)xp_hist_bucket_high(i), (unsigned long long)n);
	}
	if (fclose(f))
		return xp_err_sys(err, errno, "--histogram %s", path);
	return 0;
}

static void emit_line(FILE *f, struct xp_json *j)
{
	if (!j->oom)
		fputs(xp_json_str(j), f);
	fflush(f);
	xp_json_free(j);
}

void xp_stream_start(FILE *f, const struct xp_opts *o, const struct xp_client_result *r)
{
	struct xp_json j;

	xp_json_init(&j, 0);
	xp_json_obj_open(&j, NULL);
	xp_json_str_val(&j, "event", "start");
	xp_report_json_start(&j, o, r, "data");
	xp_json_obj_close(&j);
	emit_line(f, &j);
}

void xp_stream_interval(FILE *f, const struct xp_interval *iv, int test)
{
	struct xp_json j;

	xp_json_init(&j, 0);
	xp_json_obj_open(&j, NULL);
	xp_json_str_val(&j, "event", "interval");
	xp_json_interval(&j, "data", iv, test);
	xp_json_obj_close(&j);
	emit_line(f, &j);
}

void xp_stream_end(FILE *f, const struct xp_opts *o, const struct xp_client_result *r,
		   const struct xp_slo *slo)
{
	struct xp_json j;

	xp_json_init(&j, 0);
	xp_json_obj_open(&j, NULL);
	xp_json_str_val(&j, "event", "end");
	xp_report_json_end(&j, o, r, slo, "data");
	xp_json_obj_close(&j);
	emit_line(f, &j);
}

void xp_stream_error(FILE *f, const char *msg)
{
	struct xp_json j;

	xp_json_init(&j, 0);
	xp_json_obj_open(&j, NULL);
	xp_json_str_val(&j, "event", "error");
	xp_json_obj_open(&j, "data");
	xp_json_str_val(&j, "error", msg);
	xp_json_obj_close(&j);
	xp_json_obj_close(&j);
	emit_line(f, &j);
}
