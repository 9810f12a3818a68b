/* SPDX-License-Identifier: BSD-2-Clause */
/* The test table (common/tests.def): names, wire numbers and the facts
 * derived from each row. */
#include <check.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "common/engine/engines.h"
#include "common/tests.h"

START_TEST(test_names_roundtrip)
{
	static const char *const names[] = {
		NULL,	      "TCP_STREAM", "TCP_MAERTS", "TCP_RR",
		"TCP_CRR",    "UDP_STREAM", "UDP_RR",	  "UDP_MAERTS",
	};

	for (int i = 1; i <= 7; i++) {
		ck_assert_str_eq(xp_test_name(i), names[i]);
		ck_assert_int_eq(xp_test_parse(names[i]), i);
		ck_assert_int_eq(xp_test_parse(xp_test_name(i)), i);
	}
	ck_assert_int_eq(xp_test_parse("TCP_STREAM"), XP_TCP_STREAM);
	ck_assert_int_eq(xp_test_parse("UDP_RR"), XP_UDP_RR);
}
END_TEST

START_TEST(test_names_case_insensitive)
{
	ck_assert_int_eq(xp_test_parse("tcp_rr"), XP_TCP_RR);
	ck_assert_int_eq(xp_test_parse("Tcp_Crr"), XP_TCP_CRR);
	ck_assert_int_eq(xp_test_parse("udp_stream"), XP_UDP_STREAM);
	ck_assert_int_eq(xp_test_parse("tCP_mAERTS"), XP_TCP_MAERTS);
}
END_TEST

START_TEST(test_names_unknown)
{
	ck_assert_int_eq(xp_test_parse(""), 0);
	ck_assert_int_eq(xp_test_parse("TCP"), 0);
	ck_assert_int_eq(xp_test_parse("TCP_R"), 0);
	ck_assert_int_eq(xp_test_parse("TCP_RRR"), 0);
	ck_assert_int_eq(xp_test_parse(" TCP_RR"), 0);
	ck_assert_int_eq(xp_test_parse("SCTP_STREAM"), 0);
	ck_assert_int_eq(xp_test_parse(NULL), 0);
	ck_assert_ptr_null(xp_test_name(0));
	ck_assert_ptr_null(xp_test_name(999));
	ck_assert_ptr_null(xp_test_name(-1));
	ck_assert_ptr_null(xp_test_find(999));
	ck_assert_str_eq(xp_test(999)->name, "UNKNOWN");
	ck_assert_int_eq(xp_test(999)->rr, 0);
}
END_TEST

START_TEST(test_facts)
{
	const struct xp_test *t = xp_test(XP_TCP_MAERTS);

	ck_assert(t->bulk && !t->rr && !t->udp && t->server_sends && t->persistent);
	ck_assert(t->tcp_info);
	ck_assert_int_eq(t->sock_type, SOCK_STREAM);
	ck_assert_uint_eq(t->default_size, 131072);
	t = xp_test(XP_TCP_CRR);
	ck_assert(t->rr && !t->persistent && !t->tcp_info && !t->udp);
	t = xp_test(XP_UDP_STREAM);
	ck_assert(t->udp && t->bulk && !t->server_sends);
	ck_assert_uint_eq(t->min_size, XP_UDP_SEQ_LEN);
	ck_assert_uint_eq(t->max_size, XP_UDP_MAX_PAYLOAD);
	ck_assert_uint_eq(t->default_size, 1472);
	t = xp_test(XP_UDP_RR);
	ck_assert(t->udp && t->rr && t->persistent && !t->tcp_info);
	ck_assert_uint_eq(t->min_size, 1);
	ck_assert_uint_eq(t->default_size, 1);
}
END_TEST

START_TEST(test_names_list)
{
	char buf[256];

	xp_test_names(buf, sizeof(buf), ", ");
	ck_assert_str_eq(buf, "TCP_STREAM, TCP_MAERTS, TCP_RR, TCP_CRR, UDP_STREAM, UDP_RR, "
			 "UDP_MAERTS");
}
END_TEST

/* UDP_MAERTS: one row, UDP_STREAM's the other way (wire number 7). */
START_TEST(test_udp_maerts_row)
{
	const struct xp_test *t = xp_test(XP_UDP_MAERTS), *u = xp_test(XP_UDP_STREAM);

	ck_assert_int_eq(XP_UDP_MAERTS, 7);
	ck_assert_int_eq(xp_test_parse("udp_maerts"), XP_UDP_MAERTS);
	ck_assert(t->udp && t->bulk && !t->rr && t->server_sends && t->persistent);
	ck_assert(!t->tcp_info);
	ck_assert_int_eq(t->sock_type, SOCK_DGRAM);
	ck_assert_uint_eq(t->default_size, u->default_size);
	ck_assert_uint_eq(t->min_size, u->min_size);
	ck_assert_uint_eq(t->max_size, u->max_size);
	ck_assert(XP_UDP_STAMP_LEN > XP_UDP_SEQ_LEN);
}
END_TEST

/* The reverse twin is read from the columns: same socket and connection,
 * the other direction, bulk tests only, and it is symmetric. */
START_TEST(test_reverse_twins)
{
	int id;

	ck_assert_int_eq(xp_test_reverse(XP_TCP_STREAM), XP_TCP_MAERTS);
	ck_assert_int_eq(xp_test_reverse(XP_TCP_MAERTS), XP_TCP_STREAM);
	ck_assert_int_eq(xp_test_reverse(XP_UDP_STREAM), XP_UDP_MAERTS);
	ck_assert_int_eq(xp_test_reverse(XP_UDP_MAERTS), XP_UDP_STREAM);
	ck_assert_int_eq(xp_test_reverse(XP_TCP_RR), 0);
	ck_assert_int_eq(xp_test_reverse(XP_TCP_CRR), 0);
	ck_assert_int_eq(xp_test_reverse(XP_UDP_RR), 0);
	ck_assert_int_eq(xp_test_reverse(0), 0);
	ck_assert_int_eq(xp_test_reverse(999), 0);
	for (id = 1; id < 64; id++) {
		const struct xp_test *t = xp_test_find(id), *r;
		int twin = xp_test_reverse(id);

		if (!t || !twin)
			continue;
		r = xp_test(twin);
		ck_assert(t->bulk && r->bulk);
		ck_assert_int_eq(r->sock_type, t->sock_type);
		ck_assert_int_ne(r->server_sends, t->server_sends);
		ck_assert_int_eq(xp_test_reverse(twin), id);
	}
}
END_TEST

/* The engine column per flow: --bidir's second half runs the reverse
 * twin's engines, and -n/-k is split exactly over each direction. */
START_TEST(test_flow_sides_and_shares)
{
	struct xp_run r = { .test = XP_UDP_STREAM, .role = XP_ROLE_CLIENT, .flows = 6,
			    .bidir = 1, .quota = 1001 };
	uint64_t sum = 0;
	uint32_t i;

	ck_assert_ptr_eq(xp_run_flow_side(&r, 0), &xp_udp_tx);
	ck_assert_ptr_eq(xp_run_flow_side(&r, 2), &xp_udp_tx);
	ck_assert_ptr_eq(xp_run_flow_side(&r, 3), &xp_udp_rx);
	ck_assert_ptr_eq(xp_run_flow_side(&r, 5), &xp_udp_rx);
	ck_assert_int_eq(xp_run_flow_s2c(&r, 2), 0);
	ck_assert_int_eq(xp_run_flow_s2c(&r, 3), 1);
	ck_assert_uint_eq(xp_run_quota_flows(&r, XP_ROLE_CLIENT), 3);
	ck_assert_uint_eq(xp_run_quota_flows(&r, XP_ROLE_SERVER), 3);
	for (i = 0; i < 3; i++)
		sum += xp_run_flow_quota(&r, i);
	ck_assert_uint_eq(sum, 1001); /* each direction sends all of it */
	ck_assert_uint_eq(xp_run_flow_quota(&r, 0), 334);
	ck_assert_uint_eq(xp_run_flow_quota(&r, 2), 333);
	ck_assert_uint_eq(xp_run_flow_quota(&r, 3), 334);
	r.bidir = 0;
	r.test = XP_TCP_MAERTS;
	r.quota = 5;
	ck_assert_ptr_eq(xp_run_flow_side(&r, 5), &xp_stream_rx);
	ck_assert_int_eq(xp_run_flow_s2c(&r, 0), 1);
	ck_assert_uint_eq(xp_run_quota_flows(&r, XP_ROLE_CLIENT), 0);
	ck_assert_uint_eq(xp_run_quota_flows(&r, XP_ROLE_SERVER), 6);
	for (sum = 0, i = 0; i < 6; i++)
		sum += xp_run_flow_quota(&r, i);
	ck_assert_uint_eq(sum, 5);
	ck_assert_uint_eq(xp_run_flow_quota(&r, 5), 0); /* a share of nothing */
	r.test = XP_TCP_RR;
	ck_assert_uint_eq(xp_run_quota_flows(&r, XP_ROLE_CLIENT), 6);
	ck_assert_uint_eq(xp_run_quota_flows(&r, XP_ROLE_SERVER), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tests");
	TCase *tc = tcase_create("table");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_names_roundtrip);
	tcase_add_test(tc, test_names_case_insensitive);
	tcase_add_test(tc, test_names_unknown);
	tcase_add_test(tc, test_facts);
	tcase_add_test(tc, test_names_list);
	tcase_add_test(tc, test_udp_maerts_row);
	tcase_add_test(tc, test_reverse_twins);
	tcase_add_test(tc, test_flow_sides_and_shares);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
