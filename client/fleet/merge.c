/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading results and adding them up (client/fleet/merge.h). */
#include "client/fleet/merge.h"

#include <stdio.h>
#include <string.h>

#include "common/hist_codec.h"
#include "common/json_read.h"
#include "common/tests.h"

static int need_dbl(const struct xp_jval *root, const char *path, double *v,
		    const char *name, struct xp_err *err)
{
	if (xp_jval_dbl(xp_jval_path(root, path), v))
		return xp_err_set(err, "%s: no number at %s (not an xperf --json result?)",
				  name, path);
	return 0;
}

static int need_u64(const struct xp_jval *root, const char *path, uint64_t *v,
		    const char *name, struct xp_err *err)
{
	if (xp_jval_u64(xp_jval_path(root, path), v))
		return xp_err_set(err, "%s: no count at %s (not an xperf --json result?)",
				  name, path);
	return 0;
}

static int read_sums(const struct xp_jval *root, struct xp_merge_in *in,
		     struct xp_err *err)
{
	const char *n = in->name;

	if (need_u64(root, "end.sum_sent.bytes", &in->sent_bytes, n, err) ||
	    need_u64(root, "end.sum_received.bytes", &in->recv_bytes, n, err) ||
	    need_dbl(root, "end.sum_sent.seconds", &in->sent_s, n, err) ||
	    need_dbl(root, "end.sum_received.seconds", &in->recv_s, n, err) ||
	    need_dbl(root, "end.sum_sent.bits_per_second", &in->sent_bps, n, err) ||
	    need_dbl(root, "end.sum_received.bits_per_second", &in->recv_bps, n, err))
		return -1;
	in->retransmits = xp_jval_u64_or(xp_jval_path(root, "end.sum_sent.retransmits"), 0);
	return 0;
}

static int read_hist(const struct xp_jval *root, struct xp_merge_in *in,
		     struct xp_err *err)
{
	const char *text;
	size_t len;
	struct xp_err why;

	if (xp_jval_str(xp_jval_path(root, "end.rr.histogram"), &text, &len))
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

static int read_rr(const struct xp_jval *root, struct xp_merge_in *in,
		   struct xp_err *err)
{
	if (need_u64(root, "end.rr.transactions", &in->transactions, in->name, err) ||
	    need_dbl(root, "end.rr.transactions_per_second", &in->tps, in->name, err))
		return -1;
	return read_hist(root, in, err);
}

int xp_merge_read(const char *text, size_t len, const char *name,
		  struct xp_merge_in *in, struct xp_err *err)
{
	struct xp_jdoc *doc;
	const struct xp_jval *root;
	const char *test;
	int rc = -1, id;

	memset(in, 0, sizeof(*in));
	snprintf(in->name, sizeof(in->name), "%s", name);
	doc = xp_jdoc_parse(text, len, NULL, err);
	if (!doc)
		return -1;
	root = xp_jdoc_root(doc);
	test = xp_jval_str_or(xp_jval_path(root, "start.test_start.test"), NULL);
	id = xp_test_parse(test);
	if (!id) {
		xp_err_set(err, "%s: no known test at start.test_start.test (not an xperf "
			   "--json result?)", name);
		goto out;
	}
	snprintf(in->test, sizeof(in->test), "%s", xp_test_name(id));
	in->rr = xp_test(id)->rr;
	in->udp = xp_test(id)->udp;
	if (read_sums(root, in, err) || (in->rr && read_rr(root, in, err)))
		goto out;
	in->packets_sent = xp_jval_u64_or(xp_jval_path(root, "end.udp.packets_sent"), 0);
	in->packets_received = xp_jval_u64_or(xp_jval_path(root, "end.udp.packets_received"), 0);
	in->lost = xp_jval_u64_or(xp_jval_path(root, "end.udp.lost"), 0);
	in->go_wall_ns = xp_jval_u64_or(xp_jval_path(root, "start.go_wall_ns"), 0);
	rc = 0;
out:
	xp_jdoc_free(doc);
	return rc;
}

void xp_merge_free(struct xp_merge_in *in)
{
	xp_hist_free(in->hist);
	in->hist = NULL;
}

static double max_d(double a, double b)
{
	return a > b ? a : b;
}

int xp_merge_add(struct xp_merge_in *total, const struct xp_merge_in *in,
		 struct xp_err *err)
{
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
	total->sent_bytes += in->sent_bytes;
	total->recv_bytes += in->recv_bytes;
	total->retransmits += in->retransmits;
	total->sent_s = max_d(total->sent_s, in->sent_s);
	total->recv_s = max_d(total->recv_s, in->recv_s);
	total->sent_bps += in->sent_bps;
	total->recv_bps += in->recv_bps;
	total->transactions += in->transactions;
	total->tps += in->tps;
	total->packets_sent += in->packets_sent;
	total->packets_received += in->packets_received;
	total->lost += in->lost;
	return 0;
}
