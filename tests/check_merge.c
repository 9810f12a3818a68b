/* SPDX-License-Identifier: BSD-2-Clause */
/* xperf merge: exact sums and histograms, and the refusals. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/fleet/merge.h"
#include "common/hist_codec.h"
#include "common/json_read.h"

/* A minimal xperf --json result around an encoded histogram. */
static char *result_json(const char *test, uint64_t bytes, double bps, uint64_t trans,
			 const struct xp_hist *h, const char *hist_override)
{
	size_t n = h ? xp_hist_encode(h, NULL, 0) + 1 : 1;
	char *enc = calloc(1, n), *doc = malloc(n + 1024);

	if (h)
		xp_hist_encode(h, enc, n);
	snprintf(doc, n + 1024,
		 "{\"start\":{\"test_start\":{\"test\":\"%s\"}},\"end\":{"
		 "\"sum_sent\":{\"bytes\":%llu,\"seconds\":1.0,\"bits_per_second\":%g,"
		 "\"retransmits\":2},"
		 "\"sum_received\":{\"bytes\":%llu,\"seconds\":1.5,\"bits_per_second\":%g},"
		 "\"rr\":{\"transactions\":%llu,\"transactions_per_second\":%llu%s%s%s}}}",
		 test, (unsigned long long)bytes, bps, (unsigned long long)bytes, bps,
		 (unsigned long long)trans, (unsigned long long)trans,
		 h || hist_override ? ",\"histogram\":\"" : "",
		 hist_override ? hist_override : enc, h || hist_override ? "\"" : "");
	free(enc);
	return doc;
}

static int read_doc(const char *doc, struct xp_merge_in *in, struct xp_err *err)
{
	return xp_merge_read(doc, strlen(doc), "test.json", in, err);
}

START_TEST(test_merge_exact)
{
	struct xp_hist *a = xp_hist_new(), *b = xp_hist_new(), *all = xp_hist_new();
	struct xp_merge_in ia, ib, total;
	struct xp_err err;
	char *da, *db;
	uint64_t v;
	double ps[] = { 0, 50, 90, 99, 99.9, 100 };

	memset(&total, 0, sizeof(total));
	for (v = 1; v < 200000; v += 7) {
		xp_hist_add(v % 3 ? a : b, v * 13 % 5000000);
		xp_hist_add(all, v * 13 % 5000000);
	}
	da = result_json("TCP_RR", 1000, 8000, xp_hist_count(a), a, NULL);
	db = result_json("TCP_RR", 3000, 24000, xp_hist_count(b), b, NULL);
	ck_assert_int_eq(read_doc(da, &ia, &err), 0);
	ck_assert_int_eq(read_doc(db, &ib, &err), 0);
	ck_assert_int_eq(xp_merge_add(&total, &ia, &err), 0);
	ck_assert_int_eq(xp_merge_add(&total, &ib, &err), 0);
	ck_assert_uint_eq(total.sent_bytes, 4000);
	ck_assert_uint_eq(total.retransmits, 4);
	ck_assert_uint_eq(total.transactions, xp_hist_count(all));
	ck_assert(total.sent_bps == 32000 && total.recv_s == 1.5);
	ck_assert_uint_eq(xp_hist_count(total.hist), xp_hist_count(all));
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
		ck_assert(xp_hist_percentile(total.hist, ps[i]) == xp_hist_percentile(all, ps[i]));
	ck_assert(xp_hist_mean(total.hist) == xp_hist_mean(all));
	ck_assert_uint_eq(xp_hist_max(total.hist), xp_hist_max(all));
	xp_merge_free(&ia);
	xp_merge_free(&ib);
	xp_merge_free(&total);
	xp_hist_free(a);
	xp_hist_free(b);
	xp_hist_free(all);
	free(da);
	free(db);
}
END_TEST

START_TEST(test_merge_refusals)
{
	struct xp_hist *h = xp_hist_new();
	struct xp_merge_in in, other, total;
	struct xp_err err;
	char *rr, *crr, *nohist, *v2, *stream;

	memset(&total, 0, sizeof(total));
	xp_hist_add(h, 12345);
	rr = result_json("TCP_RR", 10, 80, 1, h, NULL);
	crr = result_json("TCP_CRR", 10, 80, 1, h, NULL);
	nohist = result_json("TCP_RR", 10, 80, 1, NULL, NULL);
	v2 = result_json("TCP_RR", 10, 80, 1, NULL, "xph2:7:ns:AA");
	stream = strdup("{\"start\":{\"test_start\":{\"test\":\"TCP_STREAM\"}},\"end\":{}}");
	ck_assert_int_eq(read_doc(rr, &in, &err), 0);
	ck_assert_int_eq(xp_merge_add(&total, &in, &err), 0);
	ck_assert_int_eq(read_doc(crr, &other, &err), 0);
	ck_assert_int_eq(xp_merge_add(&total, &other, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "different tests"));
	xp_merge_free(&other);
	ck_assert_int_eq(read_doc(nohist, &other, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "without end.rr.histogram"));
	xp_merge_free(&other);
	ck_assert_int_eq(read_doc(v2, &other, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "end.rr.histogram"));
	xp_merge_free(&other);
	ck_assert_int_eq(read_doc(stream, &other, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "end.sum_sent.bytes"));
	xp_merge_free(&other);
	ck_assert_int_eq(read_doc("not json", &other, &err), -1);
	xp_merge_free(&other);
	xp_merge_free(&in);
	xp_merge_free(&total);
	xp_hist_free(h);
	free(rr);
	free(crr);
	free(nohist);
	free(v2);
	free(stream);
}
END_TEST

#define SUMS(bytes, retrans) \
	"\"sum_sent\":{\"bytes\":" bytes ",\"seconds\":1,\"bits_per_second\":8" retrans "}," \
	"\"sum_received\":{\"bytes\":" bytes ",\"seconds\":1,\"bits_per_second\":8},"

/* The merged end has the inputs' keys at the same paths; a key only some
 * inputs have is left out; older documents (end.retransmits, merged.end)
 * are read. */
START_TEST(test_merge_schema)
{
	/* each document is head, the histogram, then tail */
	static const char *const head[3] = {
		"{\"start\":{\"test_start\":{\"test\":\"TCP_RR\"}},\"end\":{"
		SUMS("100", ",\"retransmits\":2") "\"rr\":{\"transactions\":1,"
		"\"transactions_per_second\":1,\"server_transactions\":1,"
		"\"latency_us\":{\"p50\":1,\"p99_99\":2},\"histogram\":\"",
		"{\"start\":{\"test_start\":{\"test\":\"TCP_RR\"}},\"end\":{"
		SUMS("300", ",\"retransmits\":2") "\"rr\":{\"transactions\":1,"
		"\"transactions_per_second\":1,\"histogram\":\"",
		"{\"test\":\"TCP_RR\",\"merged\":{\"test\":\"TCP_RR\",\"end\":{"
		SUMS("5", "") "\"retransmits\":3,\"rr\":{\"transactions\":1,"
		"\"transactions_per_second\":1,\"histogram\":\"",
	};
	static const char *const tail[3] = { "\"}}}", "\"}}}", "\"}}}}" };
	struct xp_hist *h = xp_hist_new();
	struct xp_merge_in in[3], total;
	struct xp_err err;
	struct xp_json j;
	struct xp_jdoc *out;
	const struct xp_jval *e;
	char enc[256], doc[1024];
	double v;
	int i;

	memset(&total, 0, sizeof(total));
	xp_hist_add(h, 20000);
	xp_hist_add(h, 90000);
	ck_assert(xp_hist_encode(h, enc, sizeof(enc)) < sizeof(enc));
	for (i = 0; i < 3; i++) {
		snprintf(doc, sizeof(doc), "%s%s%s", head[i], enc, tail[i]);
		ck_assert_msg(read_doc(doc, &in[i], &err) == 0, "%d: %s", i, err.msg);
		ck_assert_int_eq(xp_merge_add(&total, &in[i], &err), 0);
	}
	xp_json_init(&j, 0);
	xp_json_obj_open(&j, NULL);
	xp_merge_json_end(&j, in, 3, &total);
	xp_json_obj_close(&j);
	out = xp_jdoc_parse(xp_json_str(&j), strlen(xp_json_str(&j)), NULL, &err);
	ck_assert_ptr_nonnull(out);
	e = xp_jval_member(xp_jdoc_root(out), "end");
	ck_assert_int_eq(xp_jval_path_dbl(e, "sum_sent.bytes", &v, &err), 0);
	ck_assert(v == 405);
	ck_assert_int_eq(xp_jval_path_dbl(e, "sum_sent.retransmits", &v, &err), 0);
	ck_assert(v == 7); /* the older document's at end.retransmits */
	ck_assert_int_eq(xp_jval_path_dbl(e, "rr.transactions", &v, &err), 0);
	ck_assert(v == 3);
	ck_assert_int_eq(xp_jval_path_dbl(e, "rr.latency_us.p99_99", &v, &err), 0);
	ck_assert(v == xp_hist_percentile(total.hist, 99.99) / 1e3);
	ck_assert_int_eq(xp_jval_path_dbl(e, "rr.latency_us.p50", &v, &err), 0);
	ck_assert(v == xp_hist_percentile(total.hist, 50) / 1e3);
	ck_assert_ptr_null(xp_jval_path(e, "rr.latency_us.p90"));
	ck_assert_ptr_null(xp_jval_path(e, "rr.server_transactions"));
	ck_assert_ptr_null(xp_jval_path(e, "udp"));
	ck_assert_ptr_null(xp_jval_path(e, "retransmits"));
	xp_jdoc_free(out);
	xp_json_free(&j);
	for (i = 0; i < 3; i++)
		xp_merge_free(&in[i]);
	xp_merge_free(&total);
	xp_hist_free(h);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("merge");
	TCase *tc = tcase_create("merge");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_merge_exact);
	tcase_add_test(tc, test_merge_refusals);
	tcase_add_test(tc, test_merge_schema);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
