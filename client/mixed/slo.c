/* SPDX-License-Identifier: BSD-2-Clause */
/* --slo with -t RRUL: idle_, loaded_ and inflation_ latency bounds (the
 * TCP probes', with udp_ the UDP ones', with self_ the self probes', with
 * self_up_ or self_down_ those on the load's flows that way), rpm, throughput_up and
 * throughput_down (client/report/slo.h parses them). */
#include <stdio.h>

#include "client/mixed/mixed_int.h"
#include "client/owd.h"
#include "client/report/slo_eval.h"
#include "common/json.h"

/* A phase's figure: part idx's round trips, or with fwd_ or ret_ its
 * one-way delays (their bias off). */
static int phase_us(const struct xp_slo_bound *b, const struct xp_mixed *m, int idx, double *v)
{
	const struct xp_client_result *r = &m->p[idx].r;

	if (!b->way)
		return xp_slo_hist_us(b, r->hist, 0, v);
	if (!r->owd || !r->owd->sum || !r->owd->est.samples)
		return -1;
	return xp_slo_hist_us(b, b->way == XP_SLO_FWD ? r->owd->sum->fwd : r->owd->sum->ret,
			      r->owd->est.unc_ns, v);
}

/* The self probes a bound reads: all, or those on the up or the down flows. */
static const struct xp_hist *self_hist(const struct xp_mixed *m, int self)
{
	return xp_mixed_self_hist(m, self == XP_SLO_SELF_UP ? XP_MX_UP
				     : self == XP_SLO_SELF_DOWN ? XP_MX_DOWN : -1);
}

/* The measured value in the bound's unit; -1: the run has none. */
static int value(const struct xp_slo_bound *b, const struct xp_mixed *m, double *v)
{
	int hi = b->udp ? XP_MX_IDLE_UDP : XP_MX_IDLE_TCP;
	int hl = b->udp ? XP_MX_LOADED_UDP : XP_MX_LOADED_TCP;
	double idle = 0;

	if (b->metric == XP_SLO_RPM)
		return *v = m->rpm, m->rpm > 0 ? 0 : -1;
	if (b->metric == XP_SLO_THROUGHPUT_UP || b->metric == XP_SLO_THROUGHPUT_DOWN)
		return *v = b->metric == XP_SLO_THROUGHPUT_UP ? m->up_bps : m->down_bps, 0;
	if (b->phase == XP_SLO_IDLE)
		return phase_us(b, m, hi, v);
	if (b->self ? xp_slo_hist_us(b, self_hist(m, b->self), 0, v) : phase_us(b, m, hl, v))
		return -1;
	if (b->phase != XP_SLO_INFLATION)
		return 0;
	if (phase_us(b, m, hi, &idle))
		return -1;
	*v -= idle;
	return 0;
}

int xp_mixed_slo_failures(const struct xp_mixed *m)
{
	const struct xp_slo *slo = &m->c->slo;
	int i, n = 0;
	double v;

	for (i = 0; i < slo->n; i++)
		if (value(&slo->b[i], m, &v) || !xp_slo_check(&slo->b[i], v))
			n++;
	return n;
}

void xp_mixed_slo_human(FILE *f, const struct xp_mixed *m)
{
	const struct xp_slo *slo = &m->c->slo;
	int i;

	for (i = 0; i < slo->n; i++) {
		const struct xp_slo_bound *b = &slo->b[i];
		double v = 0;
		int have = value(b, m, &v) == 0;

		fprintf(f, "  slo                  %s %-24s measured %s%.6g %s\n",
			have && xp_slo_check(b, v) ? "PASS" : "FAIL", b->text,
			have ? "" : "nothing: ", v, xp_slo_unit(b->metric));
	}
}

static const char *op_str(int op)
{
	return op == XP_SLO_LE ? "<=" : op == XP_SLO_LT ? "<" : op == XP_SLO_GE ? ">=" : ">";
}

void xp_mixed_slo_json(struct xp_json *j, const struct xp_mixed *m)
{
	const struct xp_slo *slo = &m->c->slo;
	int i;

	xp_json_obj_open(j, "slo");
	xp_json_bool(j, "passed", xp_mixed_slo_failures(m) == 0);
	xp_json_arr_open(j, "bounds");
	for (i = 0; i < slo->n; i++) {
		const struct xp_slo_bound *b = &slo->b[i];
		double v = 0;
		int have = value(b, m, &v) == 0;

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
