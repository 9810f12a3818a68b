/* SPDX-License-Identifier: BSD-2-Clause */
/* The iperf3 front end's output: a result -> iperf3's text, byte for byte
 * against lines iperf3 3.12 printed for the same numbers
 * (client/iperf3_text*.c), its JSON (client/iperf3_json*.c), and the
 * reports built from both ends' results (client/iperf3/cli_model.c,
 * client/iperf3/srv_model.c). */
#include "client/iperf3/cli.h"
#include "client/iperf3/srv.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text a printer writes. */
struct cap {
	char *buf;
	size_t len;
	struct xp_i3out o;
};

static void cap_open(struct cap *c)
{
	memset(c, 0, sizeof(*c));
	c->o.f = open_memstream(&c->buf, &c->len);
	ck_assert_ptr_nonnull(c->o.f);
}

static char *cap_close(struct cap *c)
{
	fclose(c->o.f);
	return c->buf;
}

/* One TCP stream, client side, as in iperf3 3.12's capture. */
static void tcp_report(struct xp_i3_report *r)
{
	struct xp_i3r_interval *iv;

	ck_assert_int_eq(xp_i3r_init(r, 1), 0);
	r->parallel = 1;
	r->interval = 1;
	r->st[0].socket = 5;
	r->st[0].sender = 1;
	snprintf(r->st[0].local_host, sizeof(r->st[0].local_host), "127.0.0.1");
	r->st[0].local_port = 43880;
	snprintf(r->st[0].remote_host, sizeof(r->st[0].remote_host), "127.0.0.1");
	r->st[0].remote_port = 5491;
	r->stage = 2;
	iv = xp_i3r_add_interval(r, 0, 1.0);
	ck_assert_ptr_nonnull(iv);
	iv->st[0].bytes = 1675037900; /* 1.56 GBytes, 13.4 Gbits/sec */
	iv->st[0].retransmits = 2;
	iv->st[0].snd_cwnd = 785408;  /* 767 KBytes */
}

static void tcp_end(struct xp_i3_report *r)
{
	struct xp_i3r_stream *s = &r->st[0];

	s->bytes_sent = s->bytes_received = 3103784960ull; /* 2.89 GBytes */
	s->sender_time = s->receiver_time = 2.0;
	s->retransmits = 2;
	r->sender_has_retransmits = 1;
	r->ended = 1;
}

START_TEST(test_units)
{
	char b[32];

	xp_i3_unit(b, sizeof(b), 1675037900.0, 'A');
	ck_assert_str_eq(b, "1.56 GByte");
	xp_i3_unit(b, sizeof(b), 785408.0, 'A');
	ck_assert_str_eq(b, " 767 KByte");
	xp_i3_unit(b, sizeof(b), 1675037900.0, 'a');
	ck_assert_str_eq(b, "13.4 Gbit");
	xp_i3_unit(b, sizeof(b), 12500000.0, 'a');
	ck_assert_str_eq(b, " 100 Mbit");
	xp_i3_unit(b, sizeof(b), 1675037900.0, 'm');
	ck_assert_str_eq(b, "13400 Mbit");
	xp_i3_unit(b, sizeof(b), 1675037900.0, 'M');
	ck_assert_str_eq(b, "1597 MByte");
	xp_i3_unit(b, sizeof(b), 0, 'a');
	ck_assert_str_eq(b, "0.00 bit");
}
END_TEST

START_TEST(test_text_tcp)
{
	struct xp_i3_report r;
	struct cap c;
	char *t;

	tcp_report(&r);
	cap_open(&c);
	xp_i3t_connected(&c.o, &r);
	xp_i3t_interval(&c.o, &r, 0);
	tcp_end(&r);
	xp_i3t_summary(&c.o, &r);
	t = cap_close(&c);
	ck_assert_str_eq(t,
		"[  5] local 127.0.0.1 port 43880 connected to 127.0.0.1 port 5491\n"
		"[ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n"
		"[  5]   0.00-1.00   sec  1.56 GBytes  13.4 Gbits/sec    2    767 KBytes       \n"
		"- - - - - - - - - - - - - - - - - - - - - - - - -\n"
		"[ ID] Interval           Transfer     Bitrate         Retr\n"
		"[  5]   0.00-2.00   sec  2.89 GBytes  12.4 Gbits/sec    2             sender\n"
		"[  5]   0.00-2.00   sec  2.89 GBytes  12.4 Gbits/sec                  receiver\n");
	free(t);
	/* the server's end prints only its own (receiver) line */
	r.server = 1;
	r.st[0].sender = 0;
	r.sender_has_retransmits = 0;
	cap_open(&c);
	xp_i3t_summary(&c.o, &r);
	t = cap_close(&c);
	ck_assert_str_eq(t,
		"- - - - - - - - - - - - - - - - - - - - - - - - -\n"
		"[ ID] Interval           Transfer     Bitrate\n"
		"[  5]   0.00-2.00   sec  2.89 GBytes  12.4 Gbits/sec                  receiver\n");
	free(t);
	xp_i3r_free(&r);
}
END_TEST

START_TEST(test_text_udp)
{
	struct xp_i3_report r;
	struct xp_i3r_stream *s;
	struct cap c;
	char *t;

	ck_assert_int_eq(xp_i3r_init(&r, 1), 0);
	r.udp = 1;
	r.parallel = 1;
	s = &r.st[0];
	s->socket = 5;
	s->sender = 1;
	s->bytes_sent = 763 * 32768;
	s->bytes_received = 761 * 32768;
	s->sender_time = s->receiver_time = 2.0;
	s->sender_packets = s->receiver_packets = 763;
	s->lost = 2;
	s->jitter_ms = 0.011;
	r.ended = 1;
	cap_open(&c);
	c.o.title = "t"; /* -T: every line */
	xp_i3t_summary(&c.o, &r);
	t = cap_close(&c);
	ck_assert_str_eq(t,
		"t:  - - - - - - - - - - - - - - - - - - - - - - - - -\n"
		"t:  [ ID] Interval           Transfer     Bitrate         Jitter    Lost/Total Datagrams\n"
		"t:  [  5]   0.00-2.00   sec  23.8 MBytes   100 Mbits/sec  0.000 ms  0/763 (0%)  sender\n"
		"t:  [  5]   0.00-2.00   sec  23.8 MBytes  99.7 Mbits/sec  0.011 ms  2/763 (0.26%)  receiver\n");
	free(t);
	xp_i3r_free(&r);
}
END_TEST

/* Parse what a JSON printer wrote. */
static struct xp_jdoc *doc(struct xp_json *j)
{
	struct xp_err err;
	const char *s = xp_json_str(j);
	struct xp_jdoc *d = xp_jdoc_parse(s, strlen(s), NULL, &err);

	ck_assert_msg(d != NULL, "%s", err.msg);
	return d;
}

static double num(const struct xp_jdoc *d, const char *path)
{
	double v = -1;
	struct xp_err err;

	ck_assert_msg(xp_jval_path_dbl(xp_jdoc_root(d), path, &v, &err) == 0, "%s", err.msg);
	return v;
}

START_TEST(test_json_tcp)
{
	struct xp_i3_report r;
	struct xp_json j;
	struct xp_jdoc *d;

	tcp_report(&r);
	tcp_end(&r);
	r.cpu[0] = 25.5;
	xp_json_init(&j, 1);
	xp_i3j_document(&j, &r);
	d = doc(&j);
	/* the jq paths scripts read */
	ck_assert(num(d, "end.sum_received.bits_per_second") == 3103784960.0 * 8 / 2);
	ck_assert(num(d, "end.sum_sent.bits_per_second") > 0);
	ck_assert(num(d, "end.sum_sent.retransmits") == 2);
	ck_assert(num(d, "end.streams.0.sender.bits_per_second") > 0);
	ck_assert(num(d, "start.connected.0.remote_port") == 5491);
	ck_assert(num(d, "intervals.0.sum.bits_per_second") == 1675037900.0 * 8);
	ck_assert(num(d, "end.cpu_utilization_percent.host_total") == 25.5);
	ck_assert(num(d, "intervals.0.streams.0.snd_cwnd") == 785408);
	ck_assert(num(d, "start.test_start.num_streams") == 1);
	xp_jdoc_free(d);
	xp_json_free(&j);
	/* --json-stream: a line an event */
	xp_json_init(&j, 0);
	xp_i3j_event_interval(&j, &r, 0);
	ck_assert(strncmp(xp_json_str(&j), "{\"event\":\"interval\",\"data\":{\"streams\":[", 39) == 0);
	xp_json_free(&j);
	xp_i3r_free(&r);
}
END_TEST

START_TEST(test_json_udp_error)
{
	struct xp_i3_report r;
	struct xp_json j;
	struct xp_jdoc *d;

	ck_assert_int_eq(xp_i3r_init(&r, 1), 0);
	r.udp = r.parallel = 1;
	r.st[0].sender = 1;
	r.st[0].bytes_sent = 763 * 32768;
	r.st[0].sender_time = r.st[0].receiver_time = 2;
	r.st[0].sender_packets = r.st[0].receiver_packets = 763;
	r.st[0].lost = 2;
	r.st[0].jitter_ms = 0.011;
	r.ended = 1;
	xp_json_init(&j, 0);
	xp_i3j_document(&j, &r);
	d = doc(&j);
	ck_assert(num(d, "end.sum.jitter_ms") == 0.011);
	ck_assert(num(d, "end.sum.lost_percent") == 200.0 / 763);
	ck_assert(num(d, "end.sum.lost_packets") == 2);
	ck_assert(num(d, "end.streams.0.udp.packets") == 763);
	xp_jdoc_free(d);
	xp_json_free(&j);
	/* a failed test: empty intervals and end, "error" */
	r.ended = 0;
	r.stage = 0;
	snprintf(r.error, sizeof(r.error), "unable to connect to server: Connection refused");
	xp_json_init(&j, 0);
	xp_i3j_document(&j, &r);
	ck_assert(strstr(xp_json_str(&j), "\"intervals\":[],\"end\":{},\"error\":\"unable"));
	xp_json_free(&j);
	xp_i3r_free(&r);
}
END_TEST

static void res(struct xp_i3_results *r, int64_t id, uint64_t bytes, double end, int64_t retr)
{
	struct xp_i3_stream_res *s = &r->streams[r->nstreams++];

	memset(s, 0, sizeof(*s));
	s->id = id;
	s->bytes = bytes;
	s->end_time = end;
	s->retransmits = retr;
}

/* Both ends' results into the client's report: a sender's own numbers
 * are the sender's, the server's the receiver's; -R the other way. */
START_TEST(test_client_model)
{
	struct xp_i3fe_cfg c;
	struct xp_i3_report r;
	struct xp_client_result xr;
	struct xp_i3_client_out *out = calloc(1, sizeof(*out));
	struct xp_interval iv;
	struct xp_flow_iv f[2];
	char *argv[] = { "iperf3", "-c", "h", "-P", "2", "-R", NULL };
	int usage;
	struct xp_err err;

	ck_assert_int_eq(xp_i3fe_parse(&c, 6, argv, &usage, &err), 0);
	ck_assert_int_eq(xp_i3m_setup(&r, &c), 0);
	ck_assert_uint_eq(r.nstreams, 2);
	ck_assert(!r.st[0].sender && r.st[1].socket == 7);
	memset(&xr, 0, sizeof(xr));
	xr.req = 131072;
	out->nstreams = 2;
	snprintf(out->streams[0].local, 64, "[::1]:40000");
	snprintf(out->streams[0].remote, 64, "[::ffff:10.0.0.2]:5201");
	xp_i3m_connected(&r, out, &xr);
	ck_assert_str_eq(r.st[0].local_host, "::1");
	ck_assert_uint_eq(r.st[0].local_port, 40000);
	ck_assert_str_eq(r.st[0].remote_host, "10.0.0.2");
	memset(&iv, 0, sizeof(iv));
	memset(f, 0, sizeof(f));
	iv.end = 0.001; /* a tail with no data: left out, as iperf3 does */
	iv.flows = f;
	iv.nflows = 2;
	ck_assert_int_eq(xp_i3m_interval(&r, &iv, NULL), 0);
	f[0].bytes = 5;
	ck_assert_int_eq(xp_i3m_interval(&r, &iv, NULL), 1);
	res(&out->local, 1, 1000, 2.0, -1);   /* the client received */
	res(&out->local, 3, 2000, 2.0, -1);
	res(&out->remote, 1, 1000, 1.9, 7);   /* the server sent */
	res(&out->remote, 3, 2100, 1.9, 1);
	out->remote.sender_has_retransmits = 1;
	xp_i3m_end(&r, out, &xr);
	ck_assert_uint_eq(r.st[1].bytes_sent, 2100);
	ck_assert_uint_eq(r.st[1].bytes_received, 2000);
	ck_assert(r.st[1].sender_time == 1.9 && r.st[1].receiver_time == 2.0);
	ck_assert_int_eq(r.st[0].retransmits, 7);
	ck_assert_int_eq(r.sender_has_retransmits, 1); /* the server's, as 3.12 keeps it */
	ck_assert(r.ended);
	xp_i3r_free(&r);
	free(out);
}
END_TEST

/* The server's report: its streams' counters at intervals, as deltas. */
START_TEST(test_server_model)
{
	struct xp_i3fe_cfg c;
	struct xp_i3_params p;
	struct xp_i3srv_view v;
	struct xp_i3srv_flow now[2], prev[2];
	struct xp_i3srv_addr addr[2];
	struct xp_i3_results mine;
	struct xp_i3_report r;
	int sender[2] = { 0, 0 };
	char *argv[] = { "iperf3", "-s", NULL };
	int usage;
	struct xp_err err;

	ck_assert_int_eq(xp_i3fe_parse(&c, 2, argv, &usage, &err), 0);
	xp_i3_params_init(&p);
	p.proto = XP_I3_PROTO_UDP;
	p.parallel = 2;
	p.len = 1000;
	p.time = 2;
	memset(&v, 0, sizeof(v));
	v.p = &p;
	v.peer = "10.0.0.1:40000";
	v.cookie = "abc";
	v.nstreams = 2;
	v.sender = sender;
	memset(addr, 0, sizeof(addr));
	v.addr = addr;
	ck_assert_int_eq(xp_i3s_setup(&r, &v, &c), 0);
	ck_assert(r.server && r.udp && r.parallel == 2);
	ck_assert_str_eq(r.peer_host, "10.0.0.1");
	xp_i3s_started(&r, &v);
	memset(now, 0, sizeof(now));
	memset(prev, 0, sizeof(prev));
	now[0].bytes = 10000; /* 10 datagrams */
	now[0].lost = 2;
	now[0].jitter_ms = 0.5;
	v.flows = now;
	v.t = 1.0;
	ck_assert_int_eq(xp_i3s_interval(&r, &v, prev, 0, 1), 1);
	ck_assert_int_eq(r.iv[0].st[0].packets, 12);
	ck_assert_int_eq(r.iv[0].st[0].lost, 2);
	now[0].lost = 1; /* one came late: out of order */
	v.t = 1.001;
	ck_assert_int_eq(xp_i3s_interval(&r, &v, prev, 1.0, 1), 0); /* no data, short */
	now[0].bytes = 11000;
	ck_assert_int_eq(xp_i3s_interval(&r, &v, prev, 1.0, 1), 1);
	ck_assert_int_eq(r.iv[1].st[0].lost, -1);
	memset(&mine, 0, sizeof(mine));
	res(&mine, 1, 11000, 2.0, -1);
	res(&mine, 3, 0, 2.0, -1);
	mine.streams[0].packets = 12;
	mine.streams[0].errors = 1;
	mine.cpu_total = 3;
	xp_i3s_end(&r, &mine, NULL);
	ck_assert_uint_eq(r.st[0].bytes_received, 11000);
	ck_assert_int_eq(r.st[0].receiver_packets, 12);
	ck_assert(r.cpu[0] == 3 && r.ended && !r.sender_has_retransmits);
	xp_i3r_free(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("iperf3out");
	TCase *t = tcase_create("output");

	tcase_add_test(t, test_units);
	tcase_add_test(t, test_text_tcp);
	tcase_add_test(t, test_text_udp);
	tcase_add_test(t, test_json_tcp);
	tcase_add_test(t, test_json_udp_error);
	tcase_add_test(t, test_client_model);
	tcase_add_test(t, test_server_model);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
