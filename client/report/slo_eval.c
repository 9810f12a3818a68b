/* SPDX-License-Identifier: BSD-2-Clause */
#include "client/report/slo_eval.h"

#include <stdio.h>
#include <string.h>

#include "client/owd.h"
#include "client/report/report.h"
#include "client/report/dir.h"
#include "common/hist.h"
#include "common/tests.h"

static int is_latency(int m)
{
	return m == XP_SLO_LATENCY_PCT || m == XP_SLO_LATENCY_MEAN ||
	       m == XP_SLO_LATENCY_MIN || m == XP_SLO_LATENCY_MAX ||
	       m == XP_SLO_LATENCY_STDDEV;
}

/* fwd_ and ret_: an RR test measures both ways at the client, a UDP bulk
 * test the way its datagrams go, at their receiver. */
static int way_available(int way, const struct xp_test *t)
{
	if (t->rr)
		return t->persistent;
	return t->udp && t->bulk && (way == XP_SLO_FWD) == !t->server_sends;
}

int xp_slo_available(const struct xp_slo_bound *b, int test)
{
	const struct xp_test *t = xp_test(test);
	int mixed = b->phase || b->metric == XP_SLO_RPM || b->metric == XP_SLO_THROUGHPUT_UP ||
		    b->metric == XP_SLO_THROUGHPUT_DOWN;

	if (test == XP_RRUL || mixed) /* RRUL's own (client/mixed/) */
		return test == XP_RRUL && mixed;
	if (b->way)
		return is_latency(b->metric) && way_available(b->way, t);
	if (is_latency(b->metric) || b->metric == XP_SLO_RATE)
		return t->rr;
	if (b->metric == XP_SLO_LOSS)
		return t->udp;
	if (b->metric == XP_SLO_RETRANSMITS)
		return t->tcp_info;
	return b->metric == XP_SLO_THROUGHPUT;
}

/* UDP_RR: requests timed out; UDP bulk: by direction (client/report/dir.h). */
static double loss_pct(const struct xp_client_result *r)
{
	uint64_t sent = r->local.c.datagrams_sent;

	if (!xp_test(r->test)->rr)
		return xp_dir_loss_pct(r);
	return sent ? 100.0 * (double)r->local.c.lost / (double)sent : 0;
}

static double latency_ns(const struct xp_slo_bound *b, const struct xp_hist *h)
{
	switch (b->metric) {
	case XP_SLO_LATENCY_PCT:
		return xp_hist_percentile(h, b->pct);
	case XP_SLO_LATENCY_MEAN:
		return xp_hist_mean(h);
	case XP_SLO_LATENCY_MIN:
		return (double)xp_hist_min(h);
	case XP_SLO_LATENCY_MAX:
		return (double)xp_hist_max(h);
	default:
		return xp_hist_stddev(h);
	}
}

int xp_slo_hist_us(const struct xp_slo_bound *b, const struct xp_hist *h, uint64_t bias_ns,
		   double *v)
{
	if (!h || !xp_hist_count(h))
		return -1;
	*v = latency_ns(b, h);
	if (b->metric != XP_SLO_LATENCY_STDDEV)
		*v -= (double)bias_ns;
	*v /= 1e3;
	return 0;
}

/* --one-way: the histograms keep delay + the offset's uncertainty
 * (common/owd.h); the bound reads the delay. */
static int one_way_us(const struct xp_slo_bound *b, const struct xp_client_result *r,
		      double *v)
{
	if (!r->owd || !r->owd->sum)
		return -1;
	return xp_slo_hist_us(b, b->way == XP_SLO_FWD ? r->owd->sum->fwd : r->owd->sum->ret,
			      r->owd->est.unc_ns, v);
}

int xp_slo_value(const struct xp_slo_bound *b, const struct xp_client_result *r,
		 double *v)
{
	if (!xp_slo_available(b, r->test))
		return -1;
	if (b->way)
		return one_way_us(b, r, v);
	if (is_latency(b->metric)) {
		return xp_slo_hist_us(b, r->hist, 0, v);
	} else if (b->metric == XP_SLO_RATE) {
		*v = r->local.active_ns ? (double)r->local.c.transactions * 1e9 / (double)r->local.active_ns : 0;
	} else if (b->metric == XP_SLO_THROUGHPUT) {
		*v = xp_report_received_bps(r);
	} else if (b->metric == XP_SLO_LOSS) {
		*v = loss_pct(r);
	} else {
		*v = (double)(r->local.tcp.retrans + r->remote.tcp.retrans);
	}
	return 0;
}

/* -t RRUL: a self_up_ or self_down_ bound reads flows --load runs. */
static int self_way_loaded(int self, const char *load)
{
	if (self != XP_SLO_SELF_UP && self != XP_SLO_SELF_DOWN)
		return 1;
	return !load || !strcmp(load, "both") ||
	       !strcmp(load, self == XP_SLO_SELF_UP ? "up" : "down");
}

int xp_slo_prepare(const char *spec, int test, int one_way, const char *load,
		   struct xp_slo *slo, struct xp_err *err)
{
	int i;

	if (xp_slo_parse(spec, slo, err))
		return -1;
	for (i = 0; i < slo->n; i++) {
		if (slo->b[i].way && !one_way)
			return xp_err_set(err, "--slo: '%s': one-way delays are measured with "
					  "--one-way", slo->b[i].text);
		if (slo->b[i].way && test != XP_RRUL && !xp_slo_available(&slo->b[i], test))
			return xp_err_set(err, "--slo: '%s': %s measures no %s delays (TCP_RR "
					  "and UDP_RR both ways, UDP_STREAM forward, UDP_MAERTS "
					  "return)", slo->b[i].text,
					  test == XP_RRUL ? "RRUL" : xp_test_name(test),
					  slo->b[i].way == XP_SLO_FWD ? "forward" : "return");
		if (!xp_slo_available(&slo->b[i], test))
			return xp_err_set(err, "--slo: '%s': %s does not measure %s%s",
					  slo->b[i].text, test == XP_RRUL ? "RRUL" : xp_test_name(test),
					  slo->b[i].name, test == XP_RRUL ? " (RRUL: idle_, loaded_ or "
					  "inflation_ latency, rpm, throughput_up, throughput_down)" : "");
		if (!self_way_loaded(slo->b[i].self, load))
			return xp_err_set(err, "--slo: '%s': --load %s has no flows %s, so no "
					  "self probes that way", slo->b[i].text, load,
					  slo->b[i].self == XP_SLO_SELF_UP ? "up" : "down");
	}
	return 0;
}

int xp_slo_failures(const struct xp_slo *slo, const struct xp_client_result *r)
{
	int i, n = 0;
	double v;

	for (i = 0; i < slo->n; i++)
		if (xp_slo_value(&slo->b[i], r, &v) || !xp_slo_check(&slo->b[i], v))
			n++;
	return n;
}

static const char *op_str(int op)
{
	return op == XP_SLO_LE ? "<=" : op == XP_SLO_LT ? "<" : op == XP_SLO_GE ? ">=" : ">";
}

const char *xp_slo_unit(int metric)
{
	switch (metric) {
	case XP_SLO_RATE:
		return "trans/s";
	case XP_SLO_THROUGHPUT:
	case XP_SLO_THROUGHPUT_UP:
	case XP_SLO_THROUGHPUT_DOWN:
		return "bits/s";
	case XP_SLO_RPM:
		return "round trips/min";
	case XP_SLO_LOSS:
		return "%";
	case XP_SLO_RETRANSMITS:
		return "segments";
	default:
		return "us";
	}
}

void xp_json_slo(struct xp_json *j, const struct xp_slo *slo,
		 const struct xp_client_result *r)
{
	int i;

	xp_json_obj_open(j, "slo");
	xp_json_bool(j, "passed", xp_slo_failures(slo, r) == 0);
	xp_json_arr_open(j, "bounds");
	for (i = 0; i < slo->n; i++) {
		const struct xp_slo_bound *b = &slo->b[i];
		double v = 0;
		int have = xp_slo_value(b, r, &v) == 0;

		xp_json_obj_open(j, NULL);
		xp_json_str_val(j, "bound", b->text);
		xp_json_str_val(j, "metric", b->name);
		xp_json_str_val(j, "op", op_str(b->op));
		xp_json_dbl(j, "limit", b->limit);
		if (have)
			xp_json_dbl(j, "measured", v);
		else
			xp_json_null(j, "measured");
		xp_json_str_val(j, "unit", xp_slo_unit(b->metric));
		xp_json_bool(j, "passed", have && xp_slo_check(b, v));
		xp_json_obj_close(j);
	}
	xp_json_arr_close(j);
	xp_json_obj_close(j);
}

void xp_report_slo_human(FILE *f, const struct xp_slo *slo,
			 const struct xp_client_result *r)
{
	int i;

	for (i = 0; i < slo->n; i++) {
		const struct xp_slo_bound *b = &slo->b[i];
		double v = 0;
		int have = xp_slo_value(b, r, &v) == 0;

		fprintf(f, "  slo      %s %-24s measured %s%.6g %s\n",
			have && xp_slo_check(b, v) ? "PASS" : "FAIL", b->text,
			have ? "" : "nothing: ", v, xp_slo_unit(b->metric));
	}
}
