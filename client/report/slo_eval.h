/* SPDX-License-Identifier: BSD-2-Clause */
/* Evaluating --slo bounds against a test's result. */
#ifndef XP_SLO_EVAL_H
#define XP_SLO_EVAL_H

#include "client/client.h"
#include "client/report/slo.h"
#include "common/json.h"

/* Is the metric measured by this test type at all? */
int xp_slo_available(const struct xp_slo_bound *b, int test);

/* A latency bound's figure of h (ns; each value delay + bias_ns, as the
 * one-way histograms keep them, common/owd.h) in us, the bias taken off;
 * -1 when h is NULL or empty. */
int xp_slo_hist_us(const struct xp_slo_bound *b, const struct xp_hist *h, uint64_t bias_ns,
		   double *v);

/* The measured value in the bound's canonical unit; -1 if absent. */
int xp_slo_value(const struct xp_slo_bound *b, const struct xp_client_result *r,
		 double *v);

/* Parse and check every bound against the test type (and one_way,
 * --one-way, for fwd_ and ret_; load, -t RRUL's --load, for self_up_ and
 * self_down_): a bound on a metric the test does not measure is a usage
 * error, never a pass. */
int xp_slo_prepare(const char *spec, int test, int one_way, const char *load,
		   struct xp_slo *slo, struct xp_err *err);

/* The canonical unit of a metric's values, for reports: "us", "bits/s" ... */
const char *xp_slo_unit(int metric);

/* Number of bounds that failed (0: all hold). */
int xp_slo_failures(const struct xp_slo *slo, const struct xp_client_result *r);

/* "slo": {"passed": .., "bounds": [...]}. */
void xp_json_slo(struct xp_json *j, const struct xp_slo *slo,
		 const struct xp_client_result *r);
void xp_report_slo_human(FILE *f, const struct xp_slo *slo,
			 const struct xp_client_result *r);

#endif
