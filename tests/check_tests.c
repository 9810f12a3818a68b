/* SPDX-License-Identifier: BSD-2-Clause */
/* The test table (common/tests.def): names, wire numbers and the facts
 * derived from each row. */
#include <check.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "common/tests.h"

START_TEST(test_names_roundtrip)
{
	static const char *const names[] = {
		NULL,	      "TCP_STREAM", "TCP_MAERTS", "TCP_RR",
		"TCP_CRR",    "UDP_STREAM", "UDP_RR",
	};

	for (int i = 1; i <= 6; i++) {
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
	ck_assert_str_eq(buf, "TCP_STREAM, TCP_MAERTS, TCP_RR, TCP_CRR, UDP_STREAM, UDP_RR");
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
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
