/* SPDX-License-Identifier: BSD-2-Clause */
/* iperf3's wire protocol: the pure codec (proto/iperf3.c) and its JSON
 * messages (common/iperf3/json.c), against bytes captured from iperf3
 * 3.12 and the rules its source follows. */
#include "common/iperf3/json.h"
#include "proto/iperf3.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

START_TEST(test_cookie)
{
	uint8_t rnd[XP_I3_COOKIE_CHARS];
	char c[XP_I3_COOKIE_LEN];
	size_t i;

	for (i = 0; i < sizeof(rnd); i++)
		rnd[i] = (uint8_t)(i * 37 + 255 * (i & 1));
	xp_i3_cookie_make(c, rnd);
	ck_assert_uint_eq(strlen(c), XP_I3_COOKIE_CHARS);
	ck_assert_int_eq(xp_i3_cookie_check((const uint8_t *)c, XP_I3_COOKIE_LEN), 1);
	for (i = 0; i < XP_I3_COOKIE_LEN; i++) /* every prefix may still be one */
		ck_assert_int_eq(xp_i3_cookie_check((const uint8_t *)c, i), 0);
	/* captured from 3.12 */
	ck_assert_int_eq(xp_i3_cookie_check((const uint8_t *)
			 "ptisbtnysphrzyihoecq5n7ckvy7ojfcvrjt", 37), 1);
	ck_assert_int_eq(xp_i3_cookie_check((const uint8_t *)"XPCT", 4), -1);
	ck_assert_int_eq(xp_i3_cookie_check((const uint8_t *)"abc8", 4), -1); /* 8 not base32 */
	c[XP_I3_COOKIE_CHARS] = 'a'; /* no NUL after 36 */
	ck_assert_int_eq(xp_i3_cookie_check((const uint8_t *)c, XP_I3_COOKIE_LEN), -1);
}
END_TEST

START_TEST(test_states_and_framing)
{
	char buf[24];
	uint8_t b[9];
	uint32_t len;
	int32_t e1, e2;
	struct xp_why why;

	ck_assert_str_eq(xp_i3_state_name(9, buf, sizeof(buf)), "PARAM_EXCHANGE");
	ck_assert_str_eq(xp_i3_state_name(-1, buf, sizeof(buf)), "ACCESS_DENIED");
	ck_assert_str_eq(xp_i3_state_name(7, buf, sizeof(buf)), "state 7");
	ck_assert(xp_i3_server_first_byte(0x09) && xp_i3_server_first_byte(0xff) &&
		  xp_i3_server_first_byte(0xfe));
	ck_assert(!xp_i3_server_first_byte('X') && !xp_i3_server_first_byte(1));
	xp_i3_len_encode(b, 123); /* the 3.12 capture: 00 00 00 7b */
	ck_assert(b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] == 0x7b);
	ck_assert_int_eq(xp_i3_len_decode(b, XP_I3_PARAMS_MAX, &len, &why), 0);
	ck_assert_uint_eq(len, 123);
	xp_i3_len_encode(b, XP_I3_PARAMS_MAX + 1);
	ck_assert_int_eq(xp_i3_len_decode(b, XP_I3_PARAMS_MAX, &len, &why), -1);
	ck_assert_ptr_nonnull(strstr(why.msg, "8193"));
	xp_i3_len_encode(b, 0);
	ck_assert_int_eq(xp_i3_len_decode(b, XP_I3_PARAMS_MAX, &len, NULL), -1);
	xp_i3_error_encode(b, 134, 22);
	ck_assert(b[0] == 0xfe && b[4] == 134 && b[8] == 22);
	xp_i3_error_decode(b + 1, &e1, &e2);
	ck_assert(e1 == 134 && e2 == 22);
	ck_assert_str_eq(xp_i3_errno_text(121), "server busy");
	ck_assert_str_eq(xp_i3_errno_text(9999), "unknown");
}
END_TEST

START_TEST(test_udp_connect)
{
	uint8_t r[4];
	static const uint8_t legacy_le[4] = { 0x15, 0xcd, 0x5b, 0x07 };
	static const uint8_t legacy_be[4] = { 0x07, 0x5b, 0xcd, 0x15 };

	ck_assert_int_eq(xp_i3_udp_connect_reply((const uint8_t *)"9876", 4, r), 0);
	ck_assert_mem_eq(r, "6789", 4); /* as captured from 3.12 */
	ck_assert_int_eq(xp_i3_udp_connect_reply((const uint8_t *)"6789", 4, r), 0);
	ck_assert_mem_eq(r, "9876", 4);
	ck_assert_int_eq(xp_i3_udp_connect_reply(legacy_le, 4, r), 0);
	ck_assert(r[0] == 0xb1 && r[3] == 0x3a);
	ck_assert_int_eq(xp_i3_udp_connect_reply(legacy_be, 4, r), 0);
	ck_assert(r[0] == 0x3a && r[3] == 0xb1);
	ck_assert_int_eq(xp_i3_udp_connect_reply((const uint8_t *)"98765", 5, r), -1);
	ck_assert_int_eq(xp_i3_udp_connect_reply((const uint8_t *)"XPDT", 4, r), -1);
	ck_assert(xp_i3_udp_reply_ok((const uint8_t *)"6789", 4));
	ck_assert(xp_i3_udp_reply_ok((const uint8_t[]){ 0xb1, 0x68, 0xde, 0x3a }, 4));
	ck_assert(!xp_i3_udp_reply_ok((const uint8_t *)"9876", 4));
	ck_assert(!xp_i3_udp_reply_ok((const uint8_t *)"6789", 3));
}
END_TEST

START_TEST(test_udp_header)
{
	/* captured from 3.12: sec 869, usec 894100, count 1 */
	static const uint8_t cap[12] = { 0, 0, 3, 0x65, 0, 0x0d, 0xa4, 0x94, 0, 0, 0, 1 };
	struct xp_i3_udp_hdr h = { 0 }, g;
	uint8_t p[16];

	ck_assert_int_eq(xp_i3_udp_hdr_decode(cap, sizeof(cap), 0, &h), 0);
	ck_assert(h.sec == 869 && h.usec == 894100 && h.count == 1);
	ck_assert_int_eq(xp_i3_udp_hdr_decode(cap, 11, 0, &h), -1);
	ck_assert_int_eq(xp_i3_udp_hdr_decode(cap, 12, 1, &h), -1); /* 64-bit needs 16 */
	xp_i3_udp_hdr_encode(p, &h, 0);
	ck_assert_mem_eq(p, cap, 12);
	h.count = 0x100000002ull;
	xp_i3_udp_hdr_encode(p, &h, 1);
	ck_assert_int_eq(xp_i3_udp_hdr_decode(p, 16, 1, &g), 0);
	ck_assert(g.count == 0x100000002ull && g.sec == 869);
	xp_i3_udp_hdr_encode(p, &h, 0); /* 32 bits keep the low part */
	ck_assert_int_eq(xp_i3_udp_hdr_decode(p, 12, 0, &g), 0);
	ck_assert_uint_eq(g.count, 2);
}
END_TEST

START_TEST(test_rx_accounting)
{
	struct xp_i3_rx r;
	static const uint64_t seq[] = { 1, 2, 5, 3, 6, 6, 7 };
	size_t i;

	memset(&r, 0, sizeof(r));
	for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
		xp_i3_rx_add(&r, seq[i], 10, 0, 20000000000ull);
	/* 5 after 2: 3 and 4 lost; 3 late: out of order, one loss back; the
	 * repeated 6 counts as out of order too and takes back the other */
	ck_assert_uint_eq(r.max_seen, 7);
	ck_assert_uint_eq(r.ooo, 2);
	ck_assert_uint_eq(r.lost, 0);
	ck_assert_uint_eq(r.received, 7);
	ck_assert(r.jitter == 0); /* constant transit */
	memset(&r, 0, sizeof(r));
	/* transit 10 s, then 10.016 s: |D| = 16 ms, J = 16/16 = 1 ms */
	xp_i3_rx_add(&r, 1, 10, 0, 20000000000ull);
	xp_i3_rx_add(&r, 2, 10, 0, 20016000000ull);
	ck_assert_double_eq_tol(r.jitter, 0.001, 1e-12);
	/* an arrival before the send time (other host's clock): |transit| */
	memset(&r, 0, sizeof(r));
	xp_i3_rx_add(&r, 1, 100, 0, 90000000000ull);
	xp_i3_rx_add(&r, 2, 100, 0, 90000000000ull);
	ck_assert(r.jitter == 0 && r.lost == 0);
}
END_TEST

START_TEST(test_stream_ids)
{
	ck_assert_int_eq(xp_i3_stream_id(0), 1);
	ck_assert_int_eq(xp_i3_stream_id(1), 3); /* iperf3 skips 2 */
	ck_assert_int_eq(xp_i3_stream_id(3), 5);
	ck_assert_int_eq(xp_i3_stream_pos(1), 0);
	ck_assert_int_eq(xp_i3_stream_pos(2), -1);
	ck_assert_int_eq(xp_i3_stream_pos(3), 1);
	ck_assert_int_eq(xp_i3_stream_pos(-1), -1);
	ck_assert(xp_i3_c2s(0, 2, 0, 1) && xp_i3_c2s(1, 2, 0, 1) && !xp_i3_c2s(2, 2, 0, 1));
	ck_assert(!xp_i3_c2s(0, 1, 1, 0) && xp_i3_c2s(0, 1, 0, 0));
}
END_TEST

static const char params_312[] = "{\"tcp\":true,\"omit\":0,\"time\":2,\"num\":0,"
	"\"blockcount\":0,\"parallel\":1,\"len\":131072,\"pacing_timer\":1000,"
	"\"client_version\":\"3.12\"}";

START_TEST(test_params_312)
{
	struct xp_i3_params p;
	struct xp_err err;

	ck_assert_int_eq(xp_i3_params_parse(params_312, strlen(params_312), &p, &err), 0);
	ck_assert_int_eq(p.proto, XP_I3_PROTO_TCP);
	ck_assert(p.omit == 0 && p.time == 2 && p.num == 0 && p.parallel == 1);
	ck_assert(p.len == 131072 && p.pacing_timer == 1000);
	ck_assert(p.bandwidth == -1 && p.window == -1 && p.mss == -1); /* absent */
	ck_assert(!p.reverse && !p.bidir && !p.udp64 && !p.authtoken);
	ck_assert_str_eq(p.client_version, "3.12");
}
END_TEST

START_TEST(test_params_types)
{
	static const char t[] = "{\"udp\":true,\"time\":\"10\",\"parallel\":2.9,"
		"\"reverse\":false,\"bidirectional\":true,\"get_server_output\":1,"
		"\"udp_counters_64bit\":0,\"bandwidth\":1000000000,\"len\":1e3,"
		"\"authtoken\":\"x\",\"congestion\":\"cubic\",\"TOS\":18446744073709551615}";
	struct xp_i3_params p;
	struct xp_err err;

	ck_assert_int_eq(xp_i3_params_parse(t, strlen(t), &p, &err), 0);
	ck_assert_int_eq(p.proto, XP_I3_PROTO_UDP);
	ck_assert_int_eq(p.time, -1);      /* a string: ignored, as iperf3 does */
	ck_assert_int_eq(p.parallel, 2);   /* truncated like cJSON's valueint */
	ck_assert(!p.reverse && p.bidir && p.get_server_output && !p.udp64);
	ck_assert(p.bandwidth == 1000000000 && p.len == 1000 && p.authtoken);
	ck_assert_int_eq(p.tos, -1);       /* 3.12's unsigned -1 */
	ck_assert_str_eq(p.congestion, "cubic");
	ck_assert_int_eq(xp_i3_params_parse("[1]", 3, &p, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "not an object"));
	ck_assert_int_eq(xp_i3_params_parse("{\"tcp\":tru", 10, &p, &err), -1);
	ck_assert_int_eq(xp_i3_params_parse("{\"congestion\":\"0123456789012345678901234567890123\"}",
					    52, &p, &err), -1);
}
END_TEST

START_TEST(test_params_write)
{
	struct xp_i3_params p, q;
	struct xp_json j;
	struct xp_err err;
	const char *s;

	xp_i3_params_init(&p);
	p.proto = XP_I3_PROTO_UDP;
	p.omit = 1;
	p.time = 2;
	p.num = p.blockcount = 0;
	p.parallel = 4;
	p.len = 1472;
	p.bandwidth = 100000000;
	p.reverse = p.udp64 = 1;
	snprintf(p.client_version, sizeof(p.client_version), "xperf 1");
	xp_json_init(&j, 0);
	xp_i3_params_write(&j, &p);
	s = xp_json_str(&j);
	ck_assert_ptr_nonnull(strstr(s, "\"udp\":true"));
	ck_assert_ptr_nonnull(strstr(s, "\"reverse\":true"));
	ck_assert_ptr_nonnull(strstr(s, "\"udp_counters_64bit\":1"));
	ck_assert_ptr_null(strstr(s, "window")); /* absent stays absent */
	ck_assert_ptr_null(strstr(s, "bidirectional"));
	ck_assert_int_eq(xp_i3_params_parse(s, strlen(s), &q, &err), 0);
	ck_assert(memcmp(&p, &q, sizeof(p)) == 0);
	xp_json_free(&j);
}
END_TEST

/* The 3.12 server's results in the "tcp" capture. */
static const char results_312[] = "{\"cpu_util_total\":24.41,\"cpu_util_user\":1.5,"
	"\"cpu_util_system\":22.9,\"sender_has_retransmits\":18446744073709551615,"
	"\"congestion_used\":\"bbr\",\"streams\":[{\"id\":1,\"bytes\":2369781760,"
	"\"retransmits\":18446744073709551615,\"jitter\":0,\"errors\":0,\"packets\":0,"
	"\"start_time\":0,\"end_time\":2.010239}]}";

START_TEST(test_results_312)
{
	struct xp_i3_results *r = malloc(sizeof(*r));
	struct xp_err err;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(xp_i3_results_parse(results_312, strlen(results_312), r, &err), 0);
	ck_assert_int_eq(r->sender_has_retransmits, -1);
	ck_assert_str_eq(r->congestion_used, "bbr");
	ck_assert_uint_eq(r->nstreams, 1);
	ck_assert_int_eq(r->streams[0].id, 1);
	ck_assert_uint_eq(r->streams[0].bytes, 2369781760ull);
	ck_assert_int_eq(r->streams[0].retransmits, -1);
	ck_assert(!r->streams[0].has_omitted);
	ck_assert_double_eq_tol(r->streams[0].end_time, 2.010239, 1e-9);
	ck_assert_double_eq_tol(r->cpu_total, 24.41, 1e-9);
	ck_assert_ptr_eq(xp_i3_results_find(r, 1), &r->streams[0]);
	ck_assert_ptr_null(xp_i3_results_find(r, 3));
	free(r);
}
END_TEST

static void bad_results(const char *text, const char *want)
{
	struct xp_i3_results *r = malloc(sizeof(*r));
	struct xp_err err;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(xp_i3_results_parse(text, strlen(text), r, &err), -1);
	ck_assert_msg(strstr(err.msg, want), "%s: got \"%s\"", text, err.msg);
	ck_assert_uint_eq(r->nstreams, 0);
	free(r);
}

START_TEST(test_results_refused)
{
	static const char head[] = "\"cpu_util_total\":1,\"cpu_util_user\":1,"
		"\"cpu_util_system\":0,\"sender_has_retransmits\":1";
	char t[512];

	bad_results("{\"cpu_util_total\":1}", "cpu_util_user");
	snprintf(t, sizeof(t), "{%s}", head);
	bad_results(t, "streams");
	snprintf(t, sizeof(t), "{%s,\"streams\":[{\"id\":1,\"bytes\":5}]}", head);
	bad_results(t, "retransmits");
	snprintf(t, sizeof(t), "{%s,\"streams\":[{\"id\":1,\"bytes\":-5,\"retransmits\":0,"
		 "\"jitter\":0,\"errors\":0,\"packets\":0}]}", head);
	bad_results(t, "bytes -5");
	snprintf(t, sizeof(t), "{%s,\"streams\":[%s,%s]}", head,
		 "{\"id\":3,\"bytes\":1,\"retransmits\":0,\"jitter\":0,\"errors\":0,\"packets\":0}",
		 "{\"id\":3,\"bytes\":2,\"retransmits\":0,\"jitter\":0,\"errors\":0,\"packets\":0}");
	bad_results(t, "twice");
	bad_results("\"x\"", "not an object");
}
END_TEST

START_TEST(test_results_write)
{
	struct xp_i3_results *r = calloc(2, sizeof(*r));
	struct xp_json j;
	struct xp_err err;
	const char *s;

	ck_assert_ptr_nonnull(r);
	r[0].cpu_total = 12.5;
	r[0].sender_has_retransmits = -1;
	r[0].nstreams = 2;
	r[0].streams[0] = (struct xp_i3_stream_res){ 1, 1000, -1, 0.25, 3, 1, 90, 10, 1, 0, 2.5 };
	r[0].streams[1] = (struct xp_i3_stream_res){ 3, 1ull << 40, 7, 0, 0, 0, 0, 0, 1, 0, 2.0 };
	r[0].server_output_text = "line\n";
	xp_json_init(&j, 0);
	xp_i3_results_write(&j, NULL, &r[0]);
	s = xp_json_str(&j);
	ck_assert_ptr_nonnull(strstr(s, "\"sender_has_retransmits\":-1")); /* signed */
	ck_assert_ptr_nonnull(strstr(s, "\"server_output_text\":\"line\\n\""));
	ck_assert_int_eq(xp_i3_results_parse(s, strlen(s), &r[1], &err), 0);
	ck_assert_uint_eq(r[1].nstreams, 2);
	ck_assert_uint_eq(r[1].streams[1].bytes, 1ull << 40);
	ck_assert(r[1].streams[0].retransmits == -1 && r[1].streams[1].retransmits == 7);
	ck_assert(r[1].streams[0].has_omitted && r[1].streams[0].omitted_packets == 10);
	ck_assert_double_eq_tol(r[1].streams[0].jitter, 0.25, 1e-12);
	xp_json_free(&j);
	free(r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("iperf3");
	TCase *w = tcase_create("wire"), *js = tcase_create("json");

	tcase_add_test(w, test_cookie);
	tcase_add_test(w, test_states_and_framing);
	tcase_add_test(w, test_udp_connect);
	tcase_add_test(w, test_udp_header);
	tcase_add_test(w, test_rx_accounting);
	tcase_add_test(w, test_stream_ids);
	tcase_add_test(js, test_params_312);
	tcase_add_test(js, test_params_types);
	tcase_add_test(js, test_params_write);
	tcase_add_test(js, test_results_312);
	tcase_add_test(js, test_results_refused);
	tcase_add_test(js, test_results_write);
	suite_add_tcase(s, w);
	suite_add_tcase(s, js);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
