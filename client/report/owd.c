/* SPDX-License-Identifier: BSD-2-Clause */
/* One-way delays in the human report and the JSON (client/report/owd.h). */
#include "client/report/owd.h"

#include <stdio.h>

#include "client/owd.h"
#include "client/report/hist.h"
#include "client/report/kts.h"
#include "client/report/slo.h"
#include "common/tests.h"

#define PCTS_MAX 64

static int pcts(const struct xp_opts *o, double *p)
{
	int n = o->percentiles ? xp_parse_percentiles(o->percentiles, p, PCTS_MAX, NULL) : 0;

	return n > 0 ? n : 0;
}

/* The histograms keep delay + bias (common/owd.h): the figures are the
 * delays, in us, and may be below 0 by up to the offset's uncertainty. */
static double us(double ns, uint64_t bias)
{
	return (ns - (double)bias) / 1e3;
}

static void human_hist(FILE *f, const char *what, const struct xp_opts *o,
		       const struct xp_hist *h, uint64_t bias)
{
	double ps[PCTS_MAX];
	int i, n = pcts(o, ps);

	fprintf(f, "  %s (us): min %.2f mean %.2f stddev %.2f", what,
		us((double)xp_hist_min(h), bias), us(xp_hist_mean(h), bias),
		xp_hist_stddev(h) / 1e3);
	for (i = 0; i < n; i++)
		fprintf(f, " p%g %.2f", ps[i], us(xp_hist_percentile(h, ps[i]), bias));
	fprintf(f, " max %.2f\n", us((double)xp_hist_max(h), bias));
}

/* RR: forward + server hold + return against the round trip, in means. */
static void human_sum(FILE *f, const struct xp_client_result *r)
{
	const struct xp_owd *s = r->owd->sum;
	double fwd = us(xp_hist_mean(s->fwd), r->owd->est.unc_ns) * 1e3;
	double ret = us(xp_hist_mean(s->ret), r->owd->est.unc_ns) * 1e3;
	double hold = xp_hist_mean(s->srv), rtt = xp_hist_mean(r->hist);
	double sum = fwd + hold + ret;

	fprintf(f, "  one-way  mean forward %.2f + server %.2f + return %.2f = %.2f us; "
		"round trip %.2f us (%+.2f us, %+.2f%%)\n", fwd / 1e3, hold / 1e3, ret / 1e3,
		sum / 1e3, rtt / 1e3, (sum - rtt) / 1e3, rtt > 0 ? 100 * (sum - rtt) / rtt : 0);
}

/* UDP bulk: the receiver's RFC 3550 jitter over the same stamps, mean
 * over its flows, in us (its counters: proto/result.def). */
static const struct xp_counters *receiver(const struct xp_client_result *r)
{
	return xp_test(r->test)->server_sends ? &r->local.c : &r->remote.c;
}

static double jitter_us(const struct xp_counters *c)
{
	return c->jitter_flows ? (double)c->jitter_ns_sum / (double)c->jitter_flows / 1e3 : 0;
}

void xp_report_owd_human(FILE *f, const struct xp_opts *o, const struct xp_client_result *r)
{
	const struct xp_owd_result *w = r->owd;

	xp_report_kts_human(f, o, r);
	if (!w || !w->est.samples) /* kernel timestamps alone */
		return;
	fprintf(f, "  one-way  clock offset (server - client) %+.2f us +/- %.2f us (the best of "
		"%u CLOCK exchanges, round trip %.2f us)\n", (double)w->est.offset_ns / 1e3,
		(double)w->est.unc_ns / 1e3, w->est.samples, (double)w->est.rtt_ns / 1e3);
	if (xp_hist_count(w->sum->fwd))
		human_hist(f, "one-way forward (client to server)", o, w->sum->fwd, w->est.unc_ns);
	if (xp_hist_count(w->sum->srv))
		human_hist(f, "server hold (request in to response out)", o, w->sum->srv, 0);
	if (xp_hist_count(w->sum->ret))
		human_hist(f, "one-way return (server to client)", o, w->sum->ret, w->est.unc_ns);
	if (xp_test(r->test)->rr && xp_hist_count(w->sum->fwd))
		human_sum(f, r);
	if (!xp_test(r->test)->rr)
		fprintf(f, "  one-way  jitter (RFC 3550, receiver) %.3f us flow mean, max %.3f us\n",
			jitter_us(receiver(r)), (double)receiver(r)->jitter_ns_max / 1e3);
	if (w->sum->neg)
		fprintf(f, "  one-way  %llu delays below minus the offset's uncertainty, "
			"counted there (a clock stepped or drifted)\n",
			(unsigned long long)w->sum->neg);
}

/* "p99.9" -> "p99_9" */
static void key_of(double p, char *buf, size_t len)
{
	char *c;

	snprintf(buf, len, "p%g", p);
	for (c = buf; *c; c++)
		if (*c == '.')
			*c = '_';
}

static void json_hist(struct xp_json *j, const char *key, const struct xp_opts *o,
		      const struct xp_hist *h, uint64_t bias)
{
	static const double always[] = { 50, 90, 99, 99.9 };
	double ps[PCTS_MAX];
	char k[32];
	int i, n = pcts(o, ps);

	xp_json_obj_open(j, key);
	xp_json_u64(j, "count", xp_hist_count(h));
	xp_json_dbl(j, "min", us((double)xp_hist_min(h), bias));
	xp_json_dbl(j, "mean", us(xp_hist_mean(h), bias));
	xp_json_dbl(j, "stddev", xp_hist_stddev(h) / 1e3);
	for (i = 0; i < 4; i++) {
		key_of(always[i], k, sizeof(k));
		xp_json_dbl(j, k, us(xp_hist_percentile(h, always[i]), bias));
	}
	for (i = 0; i < n; i++) {
		if (ps[i] == 50 || ps[i] == 90 || ps[i] == 99 || ps[i] == 99.9)
			continue;
		key_of(ps[i], k, sizeof(k));
		xp_json_dbl(j, k, us(xp_hist_percentile(h, ps[i]), bias));
	}
	xp_json_dbl(j, "max", us((double)xp_hist_max(h), bias));
	xp_json_obj_close(j);
}

void xp_report_owd_json(struct xp_json *j, const struct xp_opts *o,
			const struct xp_client_result *r)
{
	const struct xp_owd_result *w = r->owd;

	xp_report_kts_json(j, o, r);
	if (!w || !w->est.samples)
		return;
	xp_json_obj_open(j, "one_way");
	xp_json_dbl(j, "clock_offset_us", (double)w->est.offset_ns / 1e3);
	xp_json_dbl(j, "clock_offset_uncertainty_us", (double)w->est.unc_ns / 1e3);
	xp_json_dbl(j, "clock_rtt_us", (double)w->est.rtt_ns / 1e3);
	xp_json_u64(j, "clock_exchanges", w->est.samples);
	/* the two histograms hold each delay + this (common/owd.h) */
	xp_json_dbl(j, "histogram_bias_us", (double)w->est.unc_ns / 1e3);
	if (xp_hist_count(w->sum->fwd)) {
		json_hist(j, "forward_us", o, w->sum->fwd, w->est.unc_ns);
		xp_json_hist(j, "forward_histogram", w->sum->fwd);
	}
	if (xp_hist_count(w->sum->srv))
		json_hist(j, "server_hold_us", o, w->sum->srv, 0);
	if (xp_hist_count(w->sum->ret)) {
		json_hist(j, "return_us", o, w->sum->ret, w->est.unc_ns);
		xp_json_hist(j, "return_histogram", w->sum->ret);
	}
	if (xp_test(r->test)->rr)
		xp_json_dbl(j, "round_trip_mean_us", xp_hist_mean(r->hist) / 1e3);
	else
		xp_json_dbl(j, "jitter_us", jitter_us(receiver(r)));
	xp_json_u64(j, "clamped", w->sum->neg);
	xp_json_obj_close(j);
}
