/* SPDX-License-Identifier: BSD-2-Clause */
#include "lab/report.h"
#include "client/report/report.h"

#include <string.h>

#include "common/hist.h"
#include "common/json.h"
#include "common/tests.h"
#include "lab/report_wan.h"
#include "proto/msg.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0"
#endif

static const char *const status_names[] = { "ok", "unsupported", "failed", "skipped" };

static double per_sec(uint64_t n, uint64_t ns)
{
	return ns ? (double)n * 1e9 / (double)ns : 0.0;
}

/* What the receiving end got, on its own clock (as xperf's report). */
static double received_gbps(const struct xp_client_result *r)
{
	return xp_report_received_bps(r) / 1e9;
}

/* A UDP bulk test's datagrams, as its receiver counted them. */
static void udp_fill(struct xp_lab_row *row, const struct xp_client_result *r)
{
	int s2c = xp_test(r->test)->server_sends;
	const struct xp_side_result *snd = s2c ? &r->remote : &r->local;
	const struct xp_side_result *rcv = s2c ? &r->local : &r->remote;

	row->udp = 1;
	row->dg_sent = snd->c.datagrams_sent;
	row->dg_received = rcv->c.datagrams_received;
	row->dg_lost = row->dg_sent > row->dg_received ? row->dg_sent - row->dg_received : 0;
	row->dg_out_of_order = rcv->c.out_of_order;
	row->dg_duplicates = rcv->c.duplicates;
}

void xp_lab_row_fill(struct xp_lab_row *row, const struct xp_client_result *r,
		     int multi)
{
	const struct xp_side_result *rcv = xp_test(r->test)->server_sends ? &r->local : &r->remote;

	row->errors += r->local.c.errors + r->remote.c.errors;
	row->retrans = r->local.tcp.retrans + r->remote.tcp.retrans;
	row->rcvbuf = rcv->c.rcvbuf_bytes;
	if (xp_test(r->test)->udp && xp_test(r->test)->bulk && !multi)
		udp_fill(row, r);
	if (row->stream) {
		if (multi)
			row->gbps_multi = received_gbps(r);
		else
			row->gbps1 = received_gbps(r);
		return;
	}
	row->transactions = r->local.c.transactions;
	row->tps = per_sec(r->local.c.transactions, r->local.active_ns);
	row->p50_us = xp_hist_percentile(r->hist, 50) / 1e3;
	row->p99_us = xp_hist_percentile(r->hist, 99) / 1e3;
	row->mean_us = xp_hist_mean(r->hist) / 1e3;
}

int xp_lab_failed_rows(const struct xp_lab_report *rep)
{
	int i, n = 0;

	for (i = 0; i < rep->n; i++)
		n += rep->row[i].status != XP_ROW_OK;
	return n;
}

int xp_lab_failed_hooks(const struct xp_lab_cfg *c, const struct xp_lab_report *rep)
{
	int i, n = 0;

	for (i = 0; rep->has_hook && i < c->ntopo; i++)
		n += !rep->hook[i].ran || rep->hook[i].status != 0;
	return n;
}

static void cell(FILE *f, int have, double v, int width, int prec)
{
	if (have)
		fprintf(f, " %*.*f", width, prec, v);
	else
		fprintf(f, " %*s", width, "-");
}

static void knobs_line(FILE *f, const struct xp_lab_cfg *c)
{
	const struct xp_lab_knobs *k = &c->knobs;
	int i, any = 0;

	fprintf(f, "  knobs:");
	if (k->mtu)
		any = fprintf(f, " mtu %u", k->mtu);
	if (k->rps)
		any = fprintf(f, " rps %s", k->rps);
	if (k->xps)
		any = fprintf(f, " xps %s", k->xps);
	for (i = 0; i < XP_OFF_COUNT; i++)
		if (k->offload[i] >= 0)
			any = fprintf(f, " %s %s", xp_lab_offload_name((enum xp_lab_offload)i),
				      k->offload[i] ? "on" : "off");
	if (k->rate_bps)
		any = fprintf(f, " egress-rate %.3f Mbit/s (%s)", (double)k->rate_bps / 1e6,
			      k->qdisc == XP_QDISC_HTB ? "htb" : "tbf");
	for (i = 0; i < k->nsysctl; i++)
		any = fprintf(f, " %s", k->sysctl[i]);
	fprintf(f, "%s\n", any ? "" : " none (kernel defaults)");
}

void xp_lab_table(FILE *f, const struct xp_lab_cfg *c, const struct xp_lab_report *rep)
{
	char multi[24];
	int i;

	snprintf(multi, sizeof(multi), "%llu-flow Gbit/s", (unsigned long long)c->a.multi);
	fprintf(f, "xperf lab " XP_LAB_PREFIX "%u: %.2f s per test%s\n", rep->id,
		(double)c->opts[0].length / 1e9, rep->interrupted ? " (interrupted)" : "");
	knobs_line(f, c);
	xp_lab_wan_head(f, c, rep);
	fprintf(f, "%-10s %-11s %13s %15s %12s %9s %9s  %s\n", "topology", "test",
		"1-flow Gbit/s", c->a.multi ? multi : "multi Gbit/s", "trans/s", "p50 us",
		"p99 us", "status");
	for (i = 0; i < rep->n; i++) {
		const struct xp_lab_row *r = &rep->row[i];
		int ok = r->status == XP_ROW_OK;

		fprintf(f, "%-10s %-11s", r->topology, xp_test_name(r->test));
		cell(f, ok && r->stream, r->gbps1, 13, 3);
		cell(f, ok && r->stream && r->multi, r->gbps_multi, 15, 3);
		cell(f, ok && r->rr, r->tps, 12, 1);
		cell(f, ok && r->rr, r->p50_us, 9, 2);
		cell(f, ok && r->rr, r->p99_us, 9, 2);
		fprintf(f, "  %s%s%s\n", status_names[r->status], r->msg[0] ? ": " : "", r->msg);
	}
	xp_lab_wan_rows(f, rep);
	for (i = 0; rep->has_hook && i < c->ntopo; i++)
		xp_lab_hook_line(f, c->topo[i]->name, &rep->hook[i]);
	if (rep->teardown_error[0])
		fprintf(f, "teardown: %s\n", rep->teardown_error);
}

static void json_num(struct xp_json *j, const char *key, int have, double v)
{
	if (have)
		xp_json_dbl(j, key, v);
	else
		xp_json_null(j, key);
}

static void json_str_or_null(struct xp_json *j, const char *key, const char *s)
{
	if (s && *s)
		xp_json_str_val(j, key, s);
	else
		xp_json_null(j, key);
}

static void json_udp(struct xp_json *j, int have, const struct xp_lab_row *r)
{
	if (!have) {
		xp_json_null(j, "udp");
		return;
	}
	xp_json_obj_open(j, "udp");
	xp_json_u64(j, "sent", r->dg_sent);
	xp_json_u64(j, "received", r->dg_received);
	xp_json_u64(j, "lost", r->dg_lost);
	xp_json_u64(j, "out_of_order", r->dg_out_of_order);
	xp_json_u64(j, "duplicates", r->dg_duplicates);
	xp_json_obj_close(j);
}

static void json_row(struct xp_json *j, const struct xp_lab_row *r)
{
	int ok = r->status == XP_ROW_OK;

	xp_json_obj_open(j, NULL);
	xp_json_str_val(j, "topology", r->topology);
	xp_json_str_val(j, "test", xp_test_name(r->test));
	xp_json_str_val(j, "status", status_names[r->status]);
	json_str_or_null(j, "message", r->msg);
	json_str_or_null(j, "unsupported", r->feature);
	json_num(j, "throughput_gbps", ok && r->stream, r->gbps1);
	json_num(j, "multi_flow_gbps", ok && r->stream && r->multi, r->gbps_multi);
	xp_json_u64(j, "multi_flows", r->stream ? r->multi : 0);
	if (ok && r->rr)
		xp_json_u64(j, "transactions", r->transactions);
	else
		xp_json_null(j, "transactions");
	json_num(j, "trans_per_sec", ok && r->rr, r->tps);
	json_num(j, "p50_us", ok && r->rr, r->p50_us);
	json_num(j, "p99_us", ok && r->rr, r->p99_us);
	json_num(j, "mean_us", ok && r->rr, r->mean_us);
	xp_json_u64(j, "runs", r->runs);
	json_num(j, "spread_min", ok && r->runs > 1, r->lo);
	json_num(j, "spread_max", ok && r->runs > 1, r->hi);
	xp_json_u64(j, "errors", r->errors);
	xp_json_u64(j, "tcp_retrans", r->retrans);
	xp_json_u64(j, "receiver_rcvbuf", r->rcvbuf);
	json_udp(j, ok && r->udp, r);
	xp_lab_wan_json_row(j, r);
	xp_json_obj_close(j);
}

static void json_knobs(struct xp_json *j, const struct xp_lab_knobs *k)
{
	int i;

	xp_json_obj_open(j, "knobs");
	xp_json_u64(j, "mtu", k->mtu);
	json_str_or_null(j, "rps", k->rps);
	json_str_or_null(j, "xps", k->xps);
	xp_json_obj_open(j, "offload");
	for (i = 0; i < XP_OFF_COUNT; i++)
		if (k->offload[i] >= 0)
			xp_json_bool(j, xp_lab_offload_name((enum xp_lab_offload)i), k->offload[i]);
	xp_json_obj_close(j);
	xp_json_u64(j, "rate_bps", k->rate_bps);
	xp_json_str_val(j, "qdisc", k->qdisc == XP_QDISC_HTB ? "htb" : "tbf");
	xp_json_arr_open(j, "sysctl");
	for (i = 0; i < k->nsysctl; i++)
		xp_json_str_val(j, NULL, k->sysctl[i]);
	xp_json_arr_close(j);
	xp_json_obj_close(j);
}

static void json_start(struct xp_json *j, const struct xp_lab_cfg *c,
		       const struct xp_lab_report *rep)
{
	char id[48];
	int i;

	snprintf(id, sizeof(id), XP_LAB_PREFIX "%u", rep->id);
	xp_json_obj_open(j, "start");
	xp_json_str_val(j, "version", "xperf " PACKAGE_VERSION);
	xp_json_str_val(j, "lab", id);
	xp_json_dbl(j, "duration", (double)c->opts[0].length / 1e9);
	xp_json_arr_open(j, "topologies");
	for (i = 0; i < c->ntopo; i++)
		xp_json_str_val(j, NULL, c->topo[i]->name);
	xp_json_arr_close(j);
	xp_json_arr_open(j, "tests");
	for (i = 0; i < c->ntests; i++)
		xp_json_str_val(j, NULL, xp_test_name(c->opts[i].test));
	xp_json_arr_close(j);
	xp_json_u64(j, "multi_flows", c->a.multi);
	json_knobs(j, &c->knobs);
	xp_lab_wan_json_start(j, c, rep);
	xp_json_obj_close(j);
}

static void json_hooks(struct xp_json *j, const struct xp_lab_cfg *c,
		       const struct xp_lab_report *rep)
{
	int i;

	if (!rep->has_hook) {
		xp_json_null(j, "exec");
		return;
	}
	xp_json_arr_open(j, "exec");
	for (i = 0; i < c->ntopo; i++)
		xp_lab_hook_json(j, c->topo[i]->name, &rep->hook[i]);
	xp_json_arr_close(j);
}

int xp_lab_json(FILE *f, const struct xp_lab_cfg *c, const struct xp_lab_report *rep)
{
	struct xp_json j;
	int i, rc = 0;

	xp_json_init(&j, 1);
	xp_json_obj_open(&j, NULL);
	json_start(&j, c, rep);
	xp_json_obj_open(&j, "end");
	xp_json_arr_open(&j, "rows");
	for (i = 0; i < rep->n; i++)
		json_row(&j, &rep->row[i]);
	xp_json_arr_close(&j);
	xp_json_u64(&j, "rows_failed", (uint64_t)xp_lab_failed_rows(rep));
	xp_json_bool(&j, "interrupted", rep->interrupted);
	json_str_or_null(&j, "teardown_error", rep->teardown_error);
	xp_lab_wan_json_end(&j, rep);
	json_hooks(&j, c, rep);
	xp_json_obj_close(&j);
	xp_json_obj_close(&j);
	if (j.oom)
		rc = -1;
	else
		fputs(xp_json_str(&j), f);
	xp_json_free(&j);
	return rc;
}
