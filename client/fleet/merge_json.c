/* SPDX-License-Identifier: BSD-2-Clause */
/* The merged JSON document (client/fleet/merge.h): one schema for a
 * fan-out, a controller's run and `xperf merge`, whose end reads as one
 * host's end does. */
#include "client/fleet/merge.h"

#include <stdlib.h>
#include <string.h>

#include "client/fleet/merge_rows.h"
#include "client/report/hist.h"
#include "common/json_read.h"
#include "common/tests.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0"
#endif

#define PCTS_MAX 68

void xp_merge_json_head(struct xp_json *j, const struct xp_merge_in *ins, int n,
			const struct xp_merge_in *total, uint64_t flows)
{
	uint64_t go = 0;
	int i;

	for (i = 0; i < n; i++)
		if (ins[i].go_wall_ns && (!go || ins[i].go_wall_ns < go))
			go = ins[i].go_wall_ns;
	xp_json_obj_open(j, "start");
	xp_json_str_val(j, "version", "xperf " PACKAGE_VERSION);
	if (go)
		xp_json_u64(j, "go_wall_ns", go);
	xp_json_obj_open(j, "test_start");
	xp_json_str_val(j, "test", total->test);
	xp_json_str_val(j, "protocol", total->udp ? "UDP" : "TCP");
	xp_json_u64(j, "num_streams", flows);
	xp_json_obj_close(j);
	xp_json_obj_close(j);
	xp_json_str_val(j, "test", total->test);
	xp_json_u64(j, "flows", flows);
	xp_json_dbl(j, "start_skew_ms", xp_merge_skew_ms(ins, n));
}

void xp_merge_json_host(struct xp_json *j, const struct xp_merge_in *in, const char *host,
			const char *file)
{
	xp_json_obj_open(j, NULL);
	if (host || in->host)
		xp_json_str_val(j, "host", host ? host : in->host);
	if (file)
		xp_json_str_val(j, "file", file);
	xp_json_u64(j, "flows", in->flows);
	xp_json_bool(j, "ok", 1);
	xp_jval_write(j, "end", in->end);
	xp_json_obj_close(j);
}

/* The percentiles the first input reports (its latency_us keys p50,
 * p99_9 ...): the total reports the same. */
static int pcts_of(const struct xp_merge_in *in, double *ps)
{
	const struct xp_jval *v = xp_jval_path(in->end, "rr.latency_us");
	char buf[32], *c;
	int n = 0;

	for (v = xp_jval_first(v); v && n < PCTS_MAX; v = xp_jval_next(v)) {
		const char *k = xp_jval_key(v, NULL);

		if (!k || k[0] != 'p' || k[1] < '0' || k[1] > '9' || strlen(k) >= sizeof(buf))
			continue;
		snprintf(buf, sizeof(buf), "%s", k + 1);
		for (c = buf; *c; c++)
			*c = *c == '_' ? '.' : *c;
		ps[n++] = strtod(buf, NULL);
	}
	return n;
}

static void json_latency(struct xp_json *j, const struct xp_merge_in *first,
			 const struct xp_hist *h)
{
	static const double always[] = { 50, 90, 99, 99.9 };
	double ps[PCTS_MAX];
	char key[32], *c;
	int i, n = first ? pcts_of(first, ps) : 0;

	if (!n)
		for (n = 0; n < 4; n++)
			ps[n] = always[n];
	xp_json_obj_open(j, "latency_us");
	xp_json_dbl(j, "min", (double)xp_hist_min(h) / 1e3);
	xp_json_dbl(j, "mean", xp_hist_mean(h) / 1e3);
	xp_json_dbl(j, "stddev", xp_hist_stddev(h) / 1e3);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "p%g", ps[i]);
		for (c = key; *c; c++)
			*c = *c == '.' ? '_' : *c;
		xp_json_dbl(j, key, xp_hist_percentile(h, ps[i]) / 1e3);
	}
	xp_json_dbl(j, "max", (double)xp_hist_max(h) / 1e3);
	xp_json_obj_close(j);
}

/* What an object holds beyond its rows: rr's latency, udp's loss rate. */
static void close_obj(struct xp_json *j, const char *obj, const struct xp_merge_in *ins,
		      int n, const struct xp_merge_in *t)
{
	if (!strcmp(obj, "rr") && t->hist) {
		xp_json_str_val(j, "latency_kind", "round_trip");
		json_latency(j, n ? &ins[0] : NULL, t->hist);
		xp_json_hist(j, "histogram", t->hist);
	}
	if (!strcmp(obj, "udp") && t->direction[0])
		xp_json_str_val(j, "direction", t->direction);
	if (!strcmp(obj, "udp") && t->have[XP_MERGEI_lost] && t->have[XP_MERGEI_packets_sent])
		xp_json_dbl(j, "lost_percent",
			    t->packets_sent ? 100.0 * (double)t->lost / (double)t->packets_sent : 0);
	xp_json_obj_close(j);
}

static void json_rows(struct xp_json *j, const struct xp_merge_in *ins, int n,
		      const struct xp_merge_in *t)
{
	const char *open = NULL;
	int i;

	for (i = 0; i < XP_MERGE_N; i++) {
		const struct xp_merge_row *r = &xp_merge_rows[i];
		const void *p = (const char *)t + r->off;
		uint64_t u;
		double d;

		if (!t->have[i])
			continue;
		if (!open || strcmp(open, r->obj)) {
			if (open)
				close_obj(j, open, ins, n, t);
			xp_json_obj_open(j, open = r->obj);
		}
		if (r->type == XP_MT_U64)
			xp_json_u64(j, r->key, (memcpy(&u, p, sizeof(u)), u));
		else
			xp_json_dbl(j, r->key, (memcpy(&d, p, sizeof(d)), d));
	}
	if (open)
		close_obj(j, open, ins, n, t);
}

/* Every input's warnings, each after its input's name. */
static void json_warnings(struct xp_json *j, const struct xp_merge_in *ins, int n)
{
	char line[XP_ERR_MAX + 160];
	int i;

	xp_json_arr_open(j, "warnings");
	for (i = 0; i < n; i++) {
		const struct xp_jval *w = xp_jval_member(ins[i].end, "warnings");

		for (w = xp_jval_first(w); w; w = xp_jval_next(w)) {
			snprintf(line, sizeof(line), "%s: %s", ins[i].name,
				 xp_jval_str_or(w, "?"));
			xp_json_str_val(j, NULL, line);
		}
	}
	xp_json_arr_close(j);
}

void xp_merge_json_end(struct xp_json *j, const struct xp_merge_in *ins, int n,
		       const struct xp_merge_in *total)
{
	xp_json_obj_open(j, "end");
	json_rows(j, ins, n, total);
	xp_json_bool(j, "interrupted", total->interrupted);
	json_warnings(j, ins, n);
	xp_json_obj_close(j);
}
