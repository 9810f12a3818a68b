/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading results and adding them up (client/fleet/merge.h), by the rows
 * of client/fleet/merge.def. */
#include "client/fleet/merge.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "client/fleet/merge_rows.h"
#include "common/hist_codec.h"
#include "common/json_read.h"
#include "common/tests.h"

const struct xp_merge_row xp_merge_rows[XP_MERGE_N] = {
#define XP_MERGE(field, obj, key, type, rule, need) \
	{ obj, key, XP_MT_##type, XP_MR_##rule, XP_MN_##need, \
	  offsetof(struct xp_merge_in, field) },
#include "client/fleet/merge.def"
#undef XP_MERGE
};

static int read_row(const struct xp_jval *end, int i, struct xp_merge_in *in,
		    struct xp_err *err)
{
	const struct xp_merge_row *r = &xp_merge_rows[i];
	const struct xp_jval *v = xp_jval_member(xp_jval_member(end, r->obj), r->key);
	void *p = (char *)in + r->off;

	if (r->type == XP_MT_U64 ? !xp_jval_u64(v, p) : !xp_jval_dbl(v, p)) {
		in->have[i] = 1;
		return 0;
	}
	if (r->need == XP_MN_ALL || (r->need == XP_MN_RR && in->rr))
		return xp_err_set(err, "%s: no %s at end.%s.%s (not an xperf --json result?)",
				  in->name, r->type == XP_MT_U64 ? "count" : "number", r->obj,
				  r->key);
	return 0;
}

static int read_hist(const struct xp_jval *end, struct xp_merge_in *in,
		     struct xp_err *err)
{
	const char *text;
	size_t len;
	struct xp_err why;

	if (xp_jval_str(xp_jval_path(end, "rr.histogram"), &text, &len))
		return xp_err_set(err, "%s: %s result without end.rr.histogram (written by an "
				  "older xperf?): its latency cannot be merged exactly",
				  in->name, in->test);
	in->hist = xp_hist_new();
	if (!in->hist)
		return xp_err_set(err, "%s: out of memory", in->name);
	if (xp_hist_decode(in->hist, text, len, &why))
		return xp_err_set(err, "%s: end.rr.histogram: %s", in->name, why.msg);
	return 0;
}

static int read_end(const struct xp_jval *end, struct xp_merge_in *in, struct xp_err *err)
{
	const char *dir = xp_jval_str_or(xp_jval_path(end, "udp.direction"), "");
	int i;

	for (i = 0; i < XP_MERGE_N; i++)
		if (read_row(end, i, in, err))
			return -1;
	/* an older merge wrote end.retransmits */
	if (!in->have[XP_MERGEI_retransmits] &&
	    !xp_jval_u64(xp_jval_member(end, "retransmits"), &in->retransmits))
		in->have[XP_MERGEI_retransmits] = 1;
	snprintf(in->direction, sizeof(in->direction), "%s", dir);
	in->interrupted = xp_jval_bool_or(xp_jval_member(end, "interrupted"), 0);
	return in->rr ? read_hist(end, in, err) : 0;
}

/* The test: start.test_start.test, or an older merge's top-level test. */
static int read_test(const struct xp_jval *root, const struct xp_jval *base,
		     struct xp_merge_in *in, struct xp_err *err)
{
	const char *test = xp_jval_str_or(xp_jval_path(root, "start.test_start.test"), NULL);
	int id = xp_test_parse(test ? test : xp_jval_str_or(xp_jval_member(base, "test"), NULL));

	if (!id)
		return xp_err_set(err, "%s: no known test at start.test_start.test (not an xperf "
				  "--json result?)", in->name);
	snprintf(in->test, sizeof(in->test), "%s", xp_test_name(id));
	in->rr = xp_test(id)->rr;
	in->udp = xp_test(id)->udp;
	return 0;
}

int xp_merge_read(const char *text, size_t len, const char *name,
		  struct xp_merge_in *in, struct xp_err *err)
{
	const struct xp_jval *root, *base;

	memset(in, 0, sizeof(*in));
	snprintf(in->name, sizeof(in->name), "%s", name);
	in->doc = xp_jdoc_parse(text, len, NULL, err);
	if (!in->doc)
		return -1;
	root = xp_jdoc_root(in->doc);
	/* a fan-out of an older xperf: its total at merged.end */
	base = !xp_jval_member(root, "end") && xp_jval_member(root, "merged")
		       ? xp_jval_member(root, "merged") : root;
	in->end = xp_jval_member(base, "end");
	if (read_test(root, base, in, err) || read_end(in->end, in, err))
		return -1;
	in->go_wall_ns = xp_jval_u64_or(xp_jval_path(root, "start.go_wall_ns"), 0);
	in->flows = xp_jval_u64_or(xp_jval_path(root, "start.test_start.num_streams"),
				   xp_jval_u64_or(xp_jval_member(root, "flows"), 0));
	in->host = xp_jval_str_or(xp_jval_path(root, "start.test_start.host"), NULL);
	return 0;
}

void xp_merge_free(struct xp_merge_in *in)
{
	xp_hist_free(in->hist);
	in->hist = NULL;
	xp_jdoc_free(in->doc);
	in->doc = NULL;
	in->end = NULL;
}

static void add_row(struct xp_merge_in *total, const struct xp_merge_in *in, int i)
{
	const struct xp_merge_row *r = &xp_merge_rows[i];
	char *t = (char *)total + r->off;
	const char *v = (const char *)in + r->off;
	uint64_t tu, vu;
	double td, vd;

	total->have[i] = (total->n == 0 || total->have[i]) && in->have[i];
	if (r->type == XP_MT_U64) {
		memcpy(&tu, t, sizeof(tu));
		memcpy(&vu, v, sizeof(vu));
		tu = r->rule == XP_MR_SUM ? tu + vu : tu > vu ? tu : vu;
		memcpy(t, &tu, sizeof(tu));
	} else {
		memcpy(&td, t, sizeof(td));
		memcpy(&vd, v, sizeof(vd));
		td = r->rule == XP_MR_SUM ? td + vd : td > vd ? td : vd;
		memcpy(t, &td, sizeof(td));
	}
}

static void add_rest(struct xp_merge_in *total, const struct xp_merge_in *in)
{
	if (!total->n)
		snprintf(total->direction, sizeof(total->direction), "%s", in->direction);
	else if (strcmp(total->direction, in->direction))
		total->direction[0] = 0;
	total->interrupted |= in->interrupted;
	total->flows = (!total->n || total->flows) && in->flows ? total->flows + in->flows : 0;
	total->n++;
}

int xp_merge_add(struct xp_merge_in *total, const struct xp_merge_in *in,
		 struct xp_err *err)
{
	int i;

	if (!total->test[0]) {
		snprintf(total->test, sizeof(total->test), "%s", in->test);
		total->rr = in->rr;
		total->udp = in->udp;
	} else if (strcmp(total->test, in->test)) {
		return xp_err_set(err, "%s is a %s result, the others %s: results of different "
				  "tests are not merged", in->name, in->test, total->test);
	}
	if (in->rr && !total->hist && !(total->hist = xp_hist_new()))
		return xp_err_set(err, "out of memory");
	if (in->rr)
		xp_hist_merge(total->hist, in->hist);
	for (i = 0; i < XP_MERGE_N; i++)
		add_row(total, in, i);
	add_rest(total, in);
	return 0;
}

double xp_merge_skew_ms(const struct xp_merge_in *ins, int n)
{
	uint64_t lo = 0, hi = 0;
	int i;

	for (i = 0; i < n; i++) {
		uint64_t t = ins[i].go_wall_ns;

		if (!t)
			continue;
		lo = !lo || t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	return (double)(hi - lo) / 1e6;
}
