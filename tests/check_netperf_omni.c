/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's fixed output formats, byte for byte: the interim lines of -D
 * in their three forms, the omni selectors (names, order, -o ? list, the
 * -o all header line, the -O column layout), and the parsing behind them
 * (-D, omni's -d/-T/-c, -Y).  The reference texts in tests/netperf_ref/
 * and the strings below were taken from netperf 2.7.1 runs. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/netperf/netperf.h"
#include "common/clock.h"
#include "proto/msg.h"

static struct xp_np_cfg cfg;
static struct xp_err err;

static int parse(const char *first, ...)
{
	char *argv[40];
	int argc = 0;
	va_list ap;
	const char *a;

	argv[argc++] = "netperf";
	va_start(ap, first);
	for (a = first; a && argc < 39; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	err.msg[0] = 0;
	return xp_np_parse(&cfg, argc, argv, &err);
}

/* tests/netperf_ref/NAME, whole. */
static char *ref(const char *name)
{
	const char *dir = getenv("srcdir");
	char path[1024], *buf;
	long n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/netperf_ref/%s", dir ? dir : ".", name);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static char *print_vals(const struct xp_np_vals *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	xp_np_print_vals(f, &cfg, v);
	fclose(f);
	return buf;
}

/* ---- -D ---- */

START_TEST(demo_lines)
{
	char b[512];

	/* flent's form (-k), from a TCP_STREAM run under -D -0.20 */
	xp_np_demo_format(b, sizeof(b), XP_NP_KEYVAL, 0, 4455.14, "10^6bits", 0.2,
			  1796088137, 287);
	ck_assert_str_eq(b, "NETPERF_INTERIM_RESULT[0]=4455.14\nNETPERF_UNITS[0]=10^6bits/s\n"
			 "NETPERF_INTERVAL[0]=0.200\nNETPERF_ENDING[0]=1796088137.287\n");
	xp_np_demo_format(b, sizeof(b), XP_NP_KEYVAL, 14, 4687.634, "10^6bits", 0.1994,
			  1796088140, 87);
	ck_assert_str_eq(b, "NETPERF_INTERIM_RESULT[14]=4687.63\nNETPERF_UNITS[14]=10^6bits/s\n"
			 "NETPERF_INTERVAL[14]=0.199\nNETPERF_ENDING[14]=1796088140.087\n");
	/* classic tables and -O */
	xp_np_demo_format(b, sizeof(b), XP_NP_CLASSIC, 0, 8520.72, "10^6bits", 1.002,
			  1796088173, 490);
	ck_assert_str_eq(b, "Interim result: 8520.72 10^6bits/s over 1.002 seconds ending at "
			 "1796088173.490\n");
	xp_np_demo_format(b, sizeof(b), XP_NP_CLASSIC, 3, 0.09, "10^6bits", 0.522,
			  1796088572, 733);
	ck_assert_str_eq(b, "Interim result:    0.09 10^6bits/s over 0.522 seconds ending at "
			 "1796088572.733\n");
	/* -o */
	xp_np_demo_format(b, sizeof(b), XP_NP_CSV, 0, 49927.3, "Trans", 0.5, 1796088166, 956);
	ck_assert_str_eq(b, "49927.30,Trans/s,0.500,1796088166.956\n");
	xp_np_demo_format(b, sizeof(b), XP_NP_CSV, 0, 1134.72, "MBytes", 3.001, 1796088243, 5);
	ck_assert_str_eq(b, "1134.72,MBytes/s,3.001,1796088243.005\n");
}
END_TEST

START_TEST(demo_option)
{
	ck_assert_int_eq(parse("-D", "-0.20", "-t", "UDP_RR", "--", "-e", "1", NULL), 0);
	ck_assert_int_eq(cfg.demo, 2);
	ck_assert_uint_eq(cfg.demo_ns, 200 * XP_NS_PER_MS);
	ck_assert_uint_eq(cfg.opts.interval, 200 * XP_NS_PER_MS);
	ck_assert_int_eq(parse("-D", "1.25", NULL), 0);
	ck_assert_int_eq(cfg.demo, 1);
	ck_assert_uint_eq(cfg.demo_ns, 1250 * XP_NS_PER_MS);
	ck_assert_int_eq(parse("-D", "", NULL), 0); /* netperf's default: 1 s */
	ck_assert_uint_eq(cfg.demo_ns, XP_NS_PER_SEC);
	ck_assert_int_eq(parse("-D", ",1M", NULL), 0);
	ck_assert_uint_eq(cfg.demo_ns, XP_NS_PER_SEC);
	ck_assert_uint_eq(cfg.demo_units, 1048576);
	ck_assert_int_eq(parse(NULL), 0);
	ck_assert_int_eq(cfg.demo, 0);
	ck_assert_uint_eq(cfg.opts.interval, 0);
	ck_assert_int_eq(parse("-D", "0", NULL), -1);
	ck_assert_int_eq(parse("-D", "fast", NULL), -1);
	ck_assert_int_eq(parse("-D", "-7200", NULL), -1);
}
END_TEST

/* What netperf counts per interval: bytes sent, bytes received
 * (TCP_MAERTS), transactions (-f x), request + response bytes. */
START_TEST(demo_values)
{
	struct xp_interval iv;

	memset(&iv, 0, sizeof(iv));
	iv.start = 1.0;
	iv.end = 1.2;
	iv.bytes_sent = 25000000;
	iv.bytes_received = 50000000;
	iv.transactions = 2000;
	ck_assert_int_eq(parse("-t", "TCP_STREAM", NULL), 0);
	ck_assert_double_eq_tol(xp_np_demo_value(&cfg, &iv), 1000.0, 1e-6);
	ck_assert_int_eq(parse("-t", "TCP_MAERTS", "-f", "M", NULL), 0);
	ck_assert_double_eq_tol(xp_np_demo_value(&cfg, &iv), 50000000 / 1048576.0 / 0.2, 1e-6);
	ck_assert_int_eq(parse("-t", "UDP_RR", NULL), 0);
	ck_assert_double_eq_tol(xp_np_demo_value(&cfg, &iv), 10000.0, 1e-6);
	ck_assert_int_eq(parse("-t", "TCP_RR", "-f", "m", NULL), 0);
	ck_assert_double_eq_tol(xp_np_demo_value(&cfg, &iv), 3000.0, 1e-6);
	iv.end = iv.start;
	ck_assert_double_eq(xp_np_demo_value(&cfg, &iv), 0);
}
END_TEST

/* Intervals that are too short, late or empty join the next one, as
 * netperf never prints a line of nothing; the run's end prints the rest. */
START_TEST(demo_joins)
{
	struct xp_np_demo d;
	struct xp_interval iv;
	struct xp_client_result r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	memset(&d, 0, sizeof(d));
	memset(&iv, 0, sizeof(iv));
	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(parse("-P", "0", "-D", "-0.2", "--", "-k", "THROUGHPUT", NULL), 0);
	iv.start = 0, iv.end = 0.2; /* nothing sent */
	xp_np_demo_emit(f, &cfg, &d, &iv);
	iv.start = 0.2, iv.end = 0.4, iv.bytes_sent = 1000000, iv.late = 1;
	xp_np_demo_emit(f, &cfg, &d, &iv);
	fflush(f);
	ck_assert_uint_eq(len, 0);
	iv.start = 0.4, iv.end = 0.6, iv.bytes_sent = 2000000, iv.late = 0;
	xp_np_demo_emit(f, &cfg, &d, &iv); /* 0 .. 0.6 s, 3 MB: 40 Mbit/s */
	iv.start = 0.6, iv.end = 0.61, iv.bytes_sent = 100000; /* 10 ms: too soon */
	xp_np_demo_emit(f, &cfg, &d, &iv);
	r.local.active_ns = 700 * XP_NS_PER_MS;
	r.local.c.bytes_sent = 3000000 + 125000;
	xp_np_demo_flush(f, &cfg, &d, &r); /* 0.6 .. 0.7 s, 125 kB: 10 Mbit/s */
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "NETPERF_INTERIM_RESULT[0]=40.00\n"));
	ck_assert_ptr_nonnull(strstr(buf, "NETPERF_INTERVAL[0]=0.600\n"));
	ck_assert_ptr_nonnull(strstr(buf, "NETPERF_INTERIM_RESULT[1]=10.00\n"));
	ck_assert_ptr_nonnull(strstr(buf, "NETPERF_INTERVAL[1]=0.100\n"));
	ck_assert_ptr_null(strstr(buf, "[2]"));
	free(buf);
}
END_TEST

/* ---- selectors ---- */

START_TEST(selector_names)
{
	char *want = ref("omni_o_list.txt"), *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	xp_np_list_selectors(f, 1);
	fclose(f);
	ck_assert_str_eq(buf, want);
	free(buf);
	ck_assert_int_eq(xp_np_selector_count(), 173);
	ck_assert_str_eq(xp_np_selector_name(0), "SOCKET_TYPE");
	ck_assert_str_eq(xp_np_selector_name(172), "COMMAND_LINE");
	ck_assert_ptr_null(xp_np_selector_name(173));
	ck_assert_int_eq(xp_np_selector_find("local_socket_tos"), 166);
	free(want);
}
END_TEST

START_TEST(csv_all_header)
{
	char *want = ref("omni_o_all_header.txt"), *got;
	struct xp_np_vals v;
	size_t n;

	memset(&v, 0, sizeof(v));
	ck_assert_int_eq(parse("-t", "omni", "--", "-o", "all", NULL), 0);
	ck_assert_int_eq(cfg.nsel[0] + cfg.nsel[1] + cfg.nsel[2] + cfg.nsel[3], 173);
	got = print_vals(&v);
	n = strcspn(got, "\n") + 1; /* the header line */
	ck_assert_uint_eq(n, strlen(want));
	ck_assert_msg(!strncmp(got, want, n), "-o all header:\n%.*s", (int)n, got);
	free(got);
	free(want);
}
END_TEST

/* The values of the netperf run that printed tests/netperf_ref/omni_O_all.txt
 * (blocks 3 and 4 in full; blocks 1 and 2 only set widths). */
static void captured_run(struct xp_np_vals *v)
{
	memset(v, 0, sizeof(*v));
	v->socket_type = "Stream", v->protocol = "TCP", v->direction = "Send";
	v->units = "10^6bits", v->sd_units = "usec/KB";
	v->local_cpu_method = v->remote_cpu_method = "U";
	v->elapsed = 2, v->thruput = 8110.75;
	v->lss_req = v->lsr_req = v->rss_req = v->rsr_req = v->req = v->rsp = -1;
	v->lss = 4194304, v->lsr = 131072, v->rss = 1873152, v->rsr = 33554432;
	v->local_send_size = 16384, v->remote_send_size = -1, v->remote_recv_size = 131072;
	v->local_cpu = v->remote_cpu = v->thruput_confid = -1;
	v->local_sd = v->remote_sd = v->local_cpu_confid = v->remote_cpu_confid = -1;
	v->conf_interval = v->rt_latency = -1, v->conf_iterations = 1, v->trans_rate = 1;
	v->local_retrans = 46, v->mss = 1448;
	v->local_send_tput = v->remote_recv_tput = 8110.75;
	v->local_bind = v->remote_bind = v->local_peak_id = -1, v->local_peak = -1;
	v->source_port = v->dest_port = "0", v->source_addr = "0.0.0.0";
	v->dest_addr = "10.197.0.2", v->dest_family = 2;
	v->local_send_calls = 123819, v->local_bytes_per_send = 16384;
	v->local_bytes_sent = 2028650496, v->local_bytes_xferd = 2028650496;
	v->remote_recv_calls = 28747, v->remote_bytes_per_recv = 70569.12;
	v->remote_bytes_recvd = 2028650496, v->remote_bytes_xferd = 2028650496;
	v->local_send_width = 2, v->remote_send_width = v->remote_recv_width = 2;
	v->uuid = "c0aea2ce-ed25-11f1-a158-71942c85d269";
	v->min_lat = 1, v->max_lat = 40810, v->p50_lat = 3, v->p90_lat = 26, v->p99_lat = 58;
	v->mean_lat = 16.02, v->stddev_lat = 175.04;
	v->local_prio = v->remote_prio = v->local_tos = v->remote_tos = -1;
	v->local_cong = v->remote_cong = "bbr", v->local_fill = v->remote_fill = "";
	v->command_line = "netperf -H 10.197.0.2 -l 2 -t omni -- -O all";
}

/* Line i (0-based) of text, into out. */
static void line_of(const char *text, int i, char *out, size_t len)
{
	const char *p = text, *nl;
	size_t n;

	while (i-- > 0 && (nl = strchr(p, '\n')))
		p = nl + 1;
	nl = strchr(p, '\n');
	n = nl ? (size_t)(nl - p) : strlen(p);
	n = n < len - 1 ? n : len - 1;
	memcpy(out, p, n);
	out[n] = 0;
}

START_TEST(columns_all)
{
	static char w[4096], g[4096];
	char *want = ref("omni_O_all.txt"), *got;
	struct xp_np_vals v;
	int i;

	captured_run(&v);
	ck_assert_int_eq(parse("-t", "omni", "--", "-O", "all", NULL), 0);
	got = print_vals(&v);
	for (i = 0; i < 24; i++) {
		int values = i % 6 == 4, blank = i % 6 == 5;

		line_of(want, i, w, sizeof(w));
		line_of(got, i, g, sizeof(g));
		if (!values || i >= 12)
			ck_assert_msg(!strcmp(w, g), "line %d:\n%s\n%s", i, w, g);
		if (blank)
			ck_assert_str_eq(g, "");
	}
	ck_assert_uint_eq(strlen(got), strlen(want));
	free(got);
	free(want);
}
END_TEST

START_TEST(columns_small)
{
	struct xp_np_vals v;
	char *got;

	captured_run(&v);
	v.thruput = 8308.60;
	ck_assert_int_eq(parse("-t", "omni", "--", "-O",
			       "THROUGHPUT,THROUGHPUT_UNITS;PROTOCOL,DIRECTION", NULL), 0);
	got = print_vals(&v);
	ck_assert_str_eq(got, "Throughput Throughput  \n"
			 "           Units       \n"
			 "                       \n"
			 "                       \n"
			 "8308.60    10^6bits/s  \n"
			 "\n"
			 "Protocol Direction \n"
			 "                   \n"
			 "                   \n"
			 "                   \n"
			 "TCP      Send      \n");
	free(got);
	/* -t omni without -k/-o/-O: -O's columns, netperf's default list */
	v.lss = 4194304, v.rsr = 33554432, v.local_send_size = 16384, v.thruput = 5797.93;
	ck_assert_int_eq(parse("-t", "omni", NULL), 0);
	ck_assert_int_eq(cfg.mode, XP_NP_COLUMNS);
	got = print_vals(&v);
	ck_assert_str_eq(got, "Local       Remote      Local  Elapsed Throughput Throughput  \n"
			 "Send Socket Recv Socket Send   Time               Units       \n"
			 "Size        Size        Size   (sec)                          \n"
			 "Final       Final                                             \n"
			 "4194304     33554432    16384  2.00    5797.93    10^6bits/s  \n");
	free(got);
}
END_TEST

/* The keys flent asks for, in its order, with the values netperf prints
 * for them (TOS as 0x%.2x, integers plain). */
START_TEST(flent_keys)
{
	struct xp_np_vals v;
	char *got;

	captured_run(&v);
	v.local_tos = v.remote_tos = 0xb8;
	v.local_recv_size = 0;
	ck_assert_int_eq(parse("-P", "0", "-v", "0", "-D", "-0.20", "-4", "-Y", "0xb8,0xb8",
			       "-t", "TCP_STREAM", "-l", "3", "-F", "/dev/urandom", "-f", "m",
			       "--", "-H", "h", "-k",
			       "THROUGHPUT,LOCAL_CONG_CONTROL,REMOTE_CONG_CONTROL,TRANSPORT_MSS,"
			       "LOCAL_TRANSPORT_RETRANS,REMOTE_TRANSPORT_RETRANS,LOCAL_SOCKET_TOS,"
			       "REMOTE_SOCKET_TOS,DIRECTION,ELAPSED_TIME,PROTOCOL,LOCAL_SEND_SIZE,"
			       "LOCAL_RECV_SIZE,REMOTE_SEND_SIZE,REMOTE_RECV_SIZE,LOCAL_BYTES_SENT,"
			       "LOCAL_BYTES_RECVD,REMOTE_BYTES_SENT,REMOTE_BYTES_RECVD", NULL), 0);
	got = print_vals(&v);
	ck_assert_str_eq(got, "THROUGHPUT=8110.75\nLOCAL_CONG_CONTROL=bbr\nREMOTE_CONG_CONTROL=bbr\n"
			 "TRANSPORT_MSS=1448\nLOCAL_TRANSPORT_RETRANS=46\n"
			 "REMOTE_TRANSPORT_RETRANS=0\nLOCAL_SOCKET_TOS=0xb8\n"
			 "REMOTE_SOCKET_TOS=0xb8\nDIRECTION=Send\nELAPSED_TIME=2.00\n"
			 "PROTOCOL=TCP\nLOCAL_SEND_SIZE=16384\nLOCAL_RECV_SIZE=0\n"
			 "REMOTE_SEND_SIZE=-1\nREMOTE_RECV_SIZE=131072\n"
			 "LOCAL_BYTES_SENT=2028650496\nLOCAL_BYTES_RECVD=0\n"
			 "REMOTE_BYTES_SENT=0\nREMOTE_BYTES_RECVD=2028650496\n");
	free(got);
	ck_assert_int_eq(cfg.tos[0], 0xb8);
	ck_assert_int_eq(cfg.tos[1], 0xb8);
	ck_assert_str_eq(cfg.fill, "/dev/urandom");
	ck_assert_str_eq(cfg.opts.fill, "/dev/urandom"); /* TCP_STREAM: the client sends */
	ck_assert_str_eq(cfg.host, "h"); /* the test's -H, without a global one */
	/* unset TOS: netperf's -1 */
	v.local_tos = -1;
	ck_assert_int_eq(parse("--", "-k", "LOCAL_SOCKET_TOS", NULL), 0);
	got = print_vals(&v);
	ck_assert_str_eq(got, "LOCAL_SOCKET_TOS=0xffffffff\n");
	free(got);
}
END_TEST

/* ---- test names, omni, -Y ---- */

START_TEST(omni_tests)
{
	static const struct { const char *args[4]; int test; const char *dir; char fmt; } t[] = {
		{ { "--", "-d", "send" }, XP_TCP_STREAM, "Send", 'm' },
		{ { "--", "-d", "maerts" }, XP_TCP_MAERTS, "Receive", 'm' },
		{ { "--", "-d", "rr" }, XP_TCP_RR, "Send|Recv", 'x' },
		{ { "--", "-d", "send|recv" }, XP_TCP_RR, "Send|Recv", 'x' },
		{ { "--", "-d", "6" }, XP_TCP_RR, "Send|Recv", 'x' },
		{ { "--", "-d", "0x2" }, XP_TCP_STREAM, "Send", 'm' },
		{ { "--", "-m", "16K,32K" }, XP_TCP_RR, "Send|Recv", 'x' },
		{ { "--", "-m", ",64K" }, XP_TCP_MAERTS, "Receive", 'm' },
		{ { "--", "-r", "64" }, XP_TCP_RR, "Send|Recv", 'x' },
		{ { "--", "-T", "udp" }, XP_UDP_STREAM, "Send", 'm' },
		{ { "--", "-c", "-d", "rr" }, XP_TCP_CRR, "Connect|Send|Recv", 'x' },
		{ { "--", "-c", "-d", "0" }, XP_TCP_CRR, "Connection", 'x' },
		{ { NULL } , XP_TCP_STREAM, "Send", 'm' },
	};
	char title[64];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ck_assert_int_eq(parse("-t", "omni", t[i].args[0], t[i].args[1], t[i].args[2],
				       t[i].args[3], NULL), 0);
		ck_assert_int_eq(cfg.test, t[i].test);
		ck_assert_str_eq(xp_np_direction(&cfg), t[i].dir);
		ck_assert_int_eq(cfg.fmt, t[i].fmt);
	}
	ck_assert_str_eq(xp_np_title(&cfg, title, sizeof(title)), "OMNI Send TEST");
	ck_assert_int_eq(parse("-t", "omni", "--", "-d", "sideways", NULL), -1);
	ck_assert_int_eq(parse("-t", "omni", "--", "-T", "sctp", NULL), -1);
	ck_assert_int_eq(parse("-t", "omni", "--", "-c", "-T", "udp", NULL), -1);
}
END_TEST

START_TEST(other_tests)
{
	char title[64];

	ck_assert_int_eq(parse("-t", "tcp_cc", NULL), 0);
	ck_assert_int_eq(cfg.test, XP_TCP_CRR);
	ck_assert_str_eq(xp_np_title(&cfg, title, sizeof(title)), "TCP Connect/Close TEST");
	ck_assert_str_eq(xp_np_direction(&cfg), "Connection");
	ck_assert_int_eq(cfg.fmt, 'm'); /* netperf: not an "RR" name */
	ck_assert_int_eq(parse("-t", "TCP_SENDFILE", NULL), 0);
	ck_assert_int_eq(cfg.test, XP_TCP_STREAM);
	ck_assert_str_eq(xp_np_title(&cfg, title, sizeof(title)), "TCP SENDFILE TEST");
	ck_assert_int_eq(parse("-t", "TCP_CRR", NULL), 0);
	ck_assert_str_eq(xp_np_title(&cfg, title, sizeof(title)),
			 "MIGRATED TCP Connect/Request/Response TEST");
	ck_assert_int_eq(parse("-t", "LOC_CPU", NULL), 0);
	ck_assert_int_eq(cfg.action, XP_NP_CPU_RATE);
	ck_assert_int_eq(parse("-t", "rem_cpu", "-v", "2", NULL), 0);
	ck_assert_int_eq(cfg.kind, XP_NP_K_REM_CPU);
	ck_assert_int_eq(parse("-t", "uuid", NULL), 0);
	ck_assert_int_eq(cfg.action, XP_NP_UUID);
	ck_assert_int_eq(parse("-V", NULL), 0);
	ck_assert_int_eq(cfg.action, XP_NP_VERSION);
	ck_assert_int_eq(parse("-t", "omni", "--", "-h", NULL), 0);
	ck_assert_int_eq(cfg.action, XP_NP_TEST_HELP);
	ck_assert_int_eq(parse("-l", "0", NULL), 0);
	ck_assert_int_eq(cfg.until_signal, 1);
	ck_assert_int_eq(parse("-l", "7200", NULL), 0);
	ck_assert_uint_eq(cfg.opts.length, 7200 * XP_NS_PER_SEC);
	ck_assert_int_eq(cfg.until_signal, 0);
}
END_TEST

START_TEST(tos_values)
{
	ck_assert_int_eq(xp_np_parse_tos("0xb8"), 0xb8);
	ck_assert_int_eq(xp_np_parse_tos("184"), 0xb8);
	ck_assert_int_eq(xp_np_parse_tos("EF"), 0xb8);
	ck_assert_int_eq(xp_np_parse_tos("af41"), 0x88);
	ck_assert_int_eq(xp_np_parse_tos("AF11"), 0x28);
	ck_assert_int_eq(xp_np_parse_tos("cs1"), 0x20);
	ck_assert_int_eq(xp_np_parse_tos("CS0"), 0);
	ck_assert_int_eq(xp_np_parse_tos("lowdelay"), 0x10);
	ck_assert_int_eq(xp_np_parse_tos("0x0"), 0);
	ck_assert_int_eq(xp_np_parse_tos("300"), -1);
	ck_assert_int_eq(xp_np_parse_tos("af44"), -1);
	ck_assert_int_eq(xp_np_parse_tos(""), -1);
	ck_assert_int_eq(parse("-Y", "EF,af41", NULL), 0);
	ck_assert_int_eq(cfg.tos[0], 0xb8);
	ck_assert_int_eq(cfg.tos[1], 0x88);
	ck_assert_str_eq(cfg.opts.tos, "0xb8"); /* TCP_STREAM: the client sends */
	ck_assert_int_eq(cfg.tos_applied[1], 0xb8);
	ck_assert_int_eq(parse("-Y", "EF,af41", "-t", "TCP_MAERTS", NULL), 0);
	ck_assert_str_eq(cfg.opts.tos, "0x88"); /* the server sends */
	ck_assert_int_eq(parse("-Y", ",0x28", NULL), 0);
	ck_assert_int_eq(cfg.tos[0], -1);
	ck_assert_int_eq(cfg.tos[1], 0x28);
	ck_assert_str_eq(cfg.opts.tos, "0x28");
	ck_assert_int_eq(parse("-Y", "0x0,0x0", NULL), 0); /* 0 is not set */
	ck_assert_ptr_null(cfg.opts.tos);
	ck_assert_int_eq(cfg.tos[0], 0);
	ck_assert_int_eq(parse("--", "-K", "no_such_algorithm", NULL), 0);
	ck_assert_ptr_null(cfg.opts.congestion); /* netperf goes on without it */
	ck_assert_int_eq(parse("-t", "TCP_SENDFILE", NULL), 0);
	ck_assert_int_eq(cfg.opts.sendfile, 1);
	ck_assert_int_eq(parse("-F", "/dev/urandom,/dev/zero", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "does not open files a client names"));
	/* -s 0: the kernel's minimum, which asking for 1 byte gives */
	ck_assert_int_eq(parse("--", "-s", "0", "-S", "0", NULL), 0);
	ck_assert_uint_eq(cfg.opts.sndbuf, 1);
	ck_assert_uint_eq(cfg.opts.remote_rcvbuf, 1);
	ck_assert_int_eq(parse("--", "-s", "64K", NULL), 0);
	ck_assert_uint_eq(cfg.opts.sndbuf, 65536);
	ck_assert_uint_eq(cfg.opts.remote_sndbuf, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("netperf_omni");
	TCase *d = tcase_create("demo"), *o = tcase_create("selectors"),
	      *t = tcase_create("tests");
	SRunner *sr;
	int failed;

	tcase_add_test(d, demo_lines);
	tcase_add_test(d, demo_option);
	tcase_add_test(d, demo_values);
	tcase_add_test(d, demo_joins);
	tcase_add_test(o, selector_names);
	tcase_add_test(o, csv_all_header);
	tcase_add_test(o, columns_all);
	tcase_add_test(o, columns_small);
	tcase_add_test(o, flent_keys);
	tcase_add_test(t, omni_tests);
	tcase_add_test(t, other_tests);
	tcase_add_test(t, tos_values);
	suite_add_tcase(s, d);
	suite_add_tcase(s, o);
	suite_add_tcase(s, t);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
