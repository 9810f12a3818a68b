/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf compatibility: command lines taken from scripts translate into
 * the right xperf run, and the printers produce netperf's exact shapes
 * from a synthetic result. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "client/netperf/netperf.h"
#include "common/tests.h"
#include "common/clock.h"
#include "common/hist.h"
#include "proto/msg.h"

static struct xp_np_cfg cfg;
static struct xp_err err;

/* parse("-H", "h", NULL): 0 or -1, into cfg/err. */
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

static const char *sel_name(int block, int i)
{
	return xp_np_selector_name(cfg.sel[block][i]);
}

START_TEST(stream_script)
{
	ck_assert_int_eq(parse("-H", "h", "-t", "TCP_STREAM", "-l", "10", "--", "-m", "64K",
			       "-M", "64K", "-s", "256K,256K", "-S", "256K,256K", NULL), 0);
	ck_assert_int_eq(cfg.action, XP_NP_RUN);
	ck_assert_str_eq(cfg.opts.client, "h");
	ck_assert_uint_eq(cfg.opts.port, 12865);
	ck_assert_int_eq(cfg.opts.test, XP_TCP_STREAM);
	ck_assert_uint_eq(cfg.opts.length, 10 * XP_NS_PER_SEC);
	ck_assert_uint_eq(cfg.send_size, 65536);
	ck_assert_uint_eq(cfg.remote_recv_size, 65536);
	ck_assert_uint_eq(cfg.opts.sndbuf, 262144);
	ck_assert_uint_eq(cfg.opts.rcvbuf, 262144);
	ck_assert_uint_eq(cfg.opts.remote_sndbuf, 262144);
	ck_assert_uint_eq(cfg.opts.remote_rcvbuf, 262144);
	ck_assert_int_eq(cfg.opts.nagle, 1); /* netperf leaves Nagle on */
	ck_assert_int_eq(cfg.opts.nodelay, 0);
	ck_assert_int_eq(cfg.mode, XP_NP_CLASSIC);
	ck_assert_int_eq(cfg.fmt, 'm');
	ck_assert_int_eq(cfg.headers, 1);
	ck_assert_int_eq(cfg.verbosity, 1);
	xp_np_fill_defaults(&cfg, 16384, 16384);
	ck_assert_uint_eq(cfg.opts.msg_size, 65536);
	ck_assert_str_eq(cfg.command_line, "netperf -H h -t TCP_STREAM -l 10 -- -m 64K -M "
			 "64K -s 256K,256K -S 256K,256K");
}
END_TEST

START_TEST(rr_script)
{
	ck_assert_int_eq(parse("-H", "h", "-t", "TCP_RR", "--", "-r", "64,1024", "-o",
			       "P50_LATENCY,P90_LATENCY,P99_LATENCY,THROUGHPUT", NULL), 0);
	ck_assert_int_eq(cfg.opts.test, XP_TCP_RR);
	ck_assert_uint_eq(cfg.opts.msg_size, 64);
	ck_assert_uint_eq(cfg.opts.rsp_size, 1024);
	ck_assert_uint_eq(cfg.opts.burst, 1);
	ck_assert_int_eq(cfg.opts.nagle, 0);
	ck_assert_int_eq(cfg.mode, XP_NP_CSV);
	ck_assert_int_eq(cfg.fmt, 'x');
	ck_assert_int_eq(cfg.nsel[0], 4);
	ck_assert_str_eq(sel_name(0, 0), "P50_LATENCY");
	ck_assert_str_eq(sel_name(0, 3), "THROUGHPUT");
	/* -r with one value sets both; -b n keeps n more in flight */
	ck_assert_int_eq(parse("-t", "tcp_rr", "--", "-r", "32", "-b", "3", "-D", NULL), 0);
	ck_assert_uint_eq(cfg.opts.msg_size, 32);
	ck_assert_uint_eq(cfg.opts.rsp_size, 32);
	ck_assert_uint_eq(cfg.opts.burst, 4);
	ck_assert_int_eq(cfg.opts.nodelay, 1);
	/* the default RR sizes are 1,1 */
	ck_assert_int_eq(parse("-t", "UDP_RR", "-P", "0", NULL), 0);
	ck_assert_int_eq(cfg.opts.test, XP_UDP_RR);
	ck_assert_int_eq(cfg.headers, 0);
	ck_assert_uint_eq(cfg.opts.msg_size, 1);
	ck_assert_uint_eq(cfg.opts.rsp_size, 1);
	ck_assert_str_eq(cfg.opts.client, "localhost");
}
END_TEST

START_TEST(udp_stream_script)
{
	ck_assert_int_eq(parse("-t", "UDP_STREAM", "--", "-m", "1472", NULL), 0);
	ck_assert_int_eq(cfg.opts.test, XP_UDP_STREAM);
	xp_np_fill_defaults(&cfg, 212992, 212992);
	ck_assert_uint_eq(cfg.opts.msg_size, 1472);
	/* without -m: the send buffer, capped at the largest datagram */
	ck_assert_int_eq(parse("-t", "UDP_STREAM", NULL), 0);
	xp_np_fill_defaults(&cfg, 212992, 212992);
	ck_assert_uint_eq(cfg.opts.msg_size, 65507);
	ck_assert_int_eq(parse("-t", "TCP_STREAM", NULL), 0);
	xp_np_fill_defaults(&cfg, 16384, 0);
	ck_assert_uint_eq(cfg.opts.msg_size, 16384);
	/* TCP_MAERTS: the remote send size (-m ,N) */
	ck_assert_int_eq(parse("-t", "TCP_MAERTS", "--", "-m", ",8K", NULL), 0);
	xp_np_fill_defaults(&cfg, 16384, 16384);
	ck_assert_uint_eq(cfg.opts.msg_size, 8192);
}
END_TEST

/* -M: the receiving end's bytes per read (xperf --read-size); by default
 * its receive buffer, as netperf reads; never for UDP or RR */
START_TEST(recv_size)
{
	ck_assert_int_eq(parse("-t", "TCP_STREAM", "--", "-m", "64K", "-M", "4K", NULL), 0);
	xp_np_fill_read_size(&cfg, 1000, 2000);
	ck_assert_uint_eq(cfg.opts.read_size, 4096);
	ck_assert_int_eq(parse("-t", "TCP_STREAM", NULL), 0);
	xp_np_fill_read_size(&cfg, 1000, 2000);
	ck_assert_uint_eq(cfg.opts.read_size, 0);
	ck_assert_int_eq(parse("-t", "TCP_MAERTS", "--", "-M", "8K,3K", NULL), 0);
	xp_np_fill_read_size(&cfg, 1000, 2000);
	ck_assert_uint_eq(cfg.opts.read_size, 3072);
	ck_assert_int_eq(parse("-t", "TCP_MAERTS", NULL), 0);
	xp_np_fill_read_size(&cfg, 1000, 2000);
	ck_assert_uint_eq(cfg.opts.read_size, 0);
	ck_assert_int_eq(parse("-t", "UDP_STREAM", "--", "-M", "4K", NULL), 0);
	xp_np_fill_read_size(&cfg, 1000, 2000);
	ck_assert_uint_eq(cfg.opts.read_size, 0);
	ck_assert_int_eq(parse("-t", "TCP_RR", "--", "-M", "4K", NULL), 0);
	xp_np_fill_read_size(&cfg, 1000, 2000);
	ck_assert_uint_eq(cfg.opts.read_size, 0);
}
END_TEST

START_TEST(output_options)
{
	ck_assert_int_eq(parse("--", "-k", "THROUGHPUT,THROUGHPUT_UNITS,MEAN_LATENCY", NULL), 0);
	ck_assert_int_eq(cfg.mode, XP_NP_KEYVAL);
	ck_assert_int_eq(cfg.nsel[0], 3);
	ck_assert_str_eq(sel_name(0, 2), "MEAN_LATENCY");
	ck_assert_int_eq(parse("-v", "0", NULL), 0);
	ck_assert_int_eq(cfg.verbosity, 0);
	ck_assert_int_eq(cfg.mode, XP_NP_CLASSIC);
	/* -o with no list, followed by another option: the test's default */
	ck_assert_int_eq(parse("-t", "TCP_RR", "--", "-o", "-D", NULL), 0);
	ck_assert_int_eq(cfg.mode, XP_NP_CSV);
	ck_assert_int_eq(cfg.nodelay, 1);
	ck_assert_int_eq(cfg.nsel[0], 9);
	ck_assert_str_eq(sel_name(0, 0), "LSS_SIZE_END");
	ck_assert_str_eq(sel_name(0, 8), "THROUGHPUT_UNITS");
	ck_assert_int_eq(parse("--", "-o", "?", NULL), 0);
	ck_assert_int_eq(cfg.action, XP_NP_LIST_CSV);
	ck_assert_int_eq(parse("--", "-O", "?", NULL), 0);
	ck_assert_int_eq(cfg.action, XP_NP_LIST_COLUMNS);
	/* ';' starts a new output line; case and unknown names as netperf */
	ck_assert_int_eq(parse("--", "-O", "throughput;elapsed_time bogus,rt_latency", NULL), 0);
	ck_assert_int_eq(cfg.mode, XP_NP_COLUMNS);
	ck_assert_int_eq(cfg.nsel[0], 1);
	ck_assert_int_eq(cfg.nsel[1], 2);
	ck_assert_str_eq(sel_name(1, 1), "RT_LATENCY");
	/* a lone unknown word is a file name, resolved later */
	ck_assert_int_eq(parse("--", "-o", "myfile", NULL), 0);
	ck_assert_str_eq(cfg.sel_spec, "myfile");
	ck_assert_int_eq(cfg.nsel[0], 0);
	ck_assert(!xp_np_spec_is_list("myfile"));
	ck_assert(xp_np_spec_is_list("throughput"));
	ck_assert(xp_np_spec_is_list("ALL"));
}
END_TEST

START_TEST(global_options)
{
	ck_assert_int_eq(parse("-T", "0,1", NULL), 0);
	ck_assert_str_eq(cfg.opts.cpus, "0");
	ck_assert_str_eq(cfg.opts.remote_cpus, "1");
	ck_assert_int_eq(parse("-T", "2", NULL), 0); /* one value: both */
	ck_assert_str_eq(cfg.opts.cpus, "2");
	ck_assert_str_eq(cfg.opts.remote_cpus, "2");
	ck_assert_int_eq(parse("-T", ",3", NULL), 0);
	ck_assert_str_eq(cfg.opts.cpus, "none"); /* not bound: not pinned */
	ck_assert_str_eq(cfg.opts.remote_cpus, "3");
	ck_assert_int_eq(parse(NULL), 0);
	ck_assert_str_eq(cfg.opts.cpus, "none");
	ck_assert_str_eq(cfg.opts.remote_cpus, "none");
	ck_assert_int_eq(parse("-f", "g", NULL), 0);
	ck_assert_int_eq(cfg.fmt, 'g');
	ck_assert_int_eq(parse("-p", "12866,5000", "-H", "::1,6", NULL), 0);
	ck_assert_uint_eq(cfg.opts.port, 12866);
	ck_assert_str_eq(cfg.opts.client, "::1");
	ck_assert_int_eq(cfg.opts.ipv6, 1);
	ck_assert_int_eq(parse("-4", "-c", "100", "-C", "-B", "run1", NULL), 0);
	ck_assert_int_eq(cfg.opts.ipv4, 1);
	ck_assert_int_eq(cfg.local_cpu, 1);
	ck_assert_int_eq(cfg.remote_cpu, 1);
	ck_assert_str_eq(cfg.brand, "run1");
	ck_assert_int_eq(parse("-cC", "-l", "0.5", NULL), 0);
	ck_assert_int_eq(cfg.local_cpu + cfg.remote_cpu, 2);
	ck_assert_uint_eq(cfg.opts.length, XP_NS_PER_SEC / 2);
	/* -j: statistics are always kept; the others map to xperf options */
	ck_assert_int_eq(parse("-L", "127.0.0.1", "-D", "1", "-j", "--", "-K",
			       "bbr", "-G", "1400", "-P", "5000,12865", NULL), 0);
	ck_assert_str_eq(cfg.local_host, "127.0.0.1");
	ck_assert_str_eq(cfg.opts.bind, "127.0.0.1");
	ck_assert_str_eq(cfg.data_port[1], "12865");
	ck_assert_uint_eq(cfg.opts.cport, 5000);
	ck_assert_uint_eq(cfg.opts.set_mss, 1400);
	ck_assert_str_eq(cfg.cong_buf[0], "bbr");
}
END_TEST

START_TEST(confidence_options)
{
	ck_assert_int_eq(parse("-i", "10,3", NULL), 0);
	ck_assert_int_eq(cfg.iter_max, 10);
	ck_assert_int_eq(cfg.iter_min, 3);
	ck_assert_int_eq(cfg.conf_level, 99);
	ck_assert(cfg.conf_width > 0.0499 && cfg.conf_width < 0.0501);
	ck_assert_int_eq(parse("-i", "50", NULL), 0); /* clamped as netperf */
	ck_assert_int_eq(cfg.iter_max, 30);
	ck_assert_int_eq(cfg.iter_min, 30);
	ck_assert_int_eq(parse("-I", "95,10", NULL), 0);
	ck_assert_int_eq(cfg.conf_level, 95);
	ck_assert(cfg.conf_width > 0.0999 && cfg.conf_width < 0.1001);
	ck_assert_int_eq(cfg.iter_min, 3);
	ck_assert_int_eq(cfg.iter_max, 10);
	ck_assert_int_eq(parse("-I", "90,5", NULL), -1);
}
END_TEST

START_TEST(usage_errors)
{
	ck_assert_int_eq(parse("-Q", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "invalid global option -- 'Q'"));
	ck_assert_int_eq(parse("--", "-Z", NULL), -1);
	ck_assert_int_eq(parse("-l", "-100", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "not supported"));
	ck_assert_int_eq(parse("-t", "FOO_BAR", NULL), 0); /* netperf's message, exit 1 */
	ck_assert_int_eq(cfg.action, XP_NP_UNKNOWN_TEST);
	ck_assert_str_eq(cfg.test_name, "FOO_BAR");
	ck_assert_int_eq(parse("-t", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "needs an argument"));
	ck_assert_int_eq(parse("-H", "h", "stray", NULL), -1);
	ck_assert_int_eq(parse("--", "-m", "1x", NULL), -1);
	ck_assert_int_eq(parse("-f", "y", NULL), -1);
	ck_assert_int_eq(parse("-N", NULL), -1);
	ck_assert_int_eq(parse("-t", "UDP_STREAM", "--", "-m", "4", NULL), -1);
	ck_assert_int_eq(parse("-t", "UDP_RR", "--", "-r", "70000", NULL), -1);
	ck_assert_int_eq(parse("-t", "TCP_CRR", "--", "-b", "2", NULL), -1);
	/* 4..7-byte UDP_RR messages: 2^(8k-1) in flight, no 32-bit shift */
	ck_assert_int_eq(parse("-t", "UDP_RR", "--", "-r", "4,4", "-b", "1023",
			       NULL), 0);
	ck_assert_int_eq(parse("-t", "UDP_RR", "--", "-r", "7", NULL), 0);
	ck_assert_int_eq(parse("-t", "UDP_RR", "--", "-r", "1", "-b", "127",
			       NULL), 0);
	ck_assert_int_eq(parse("-t", "UDP_RR", "--", "-r", "1", "-b", "128",
			       NULL), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "at most 128 requests"));
	ck_assert_int_eq(parse("-T", "x", NULL), -1);
	ck_assert_int_eq(parse("-h", NULL), 0);
	ck_assert_int_eq(cfg.action, XP_NP_HELP);
}
END_TEST

START_TEST(sizes)
{
	uint64_t v;

	ck_assert_int_eq(xp_np_parse_size("64K", "-m", &v, &err), 0);
	ck_assert_uint_eq(v, 65536);
	ck_assert_int_eq(xp_np_parse_size("64k", "-m", &v, &err), 0);
	ck_assert_uint_eq(v, 64000);
	ck_assert_int_eq(xp_np_parse_size("2M", "-m", &v, &err), 0);
	ck_assert_uint_eq(v, 2097152);
	ck_assert_int_eq(xp_np_parse_size("2m", "-m", &v, &err), 0);
	ck_assert_uint_eq(v, 2000000);
	ck_assert_int_eq(xp_np_parse_size("1G", "-m", &v, &err), 0);
	ck_assert_uint_eq(v, 1073741824);
	ck_assert_int_eq(xp_np_parse_size("1g", "-m", &v, &err), 0);
	ck_assert_uint_eq(v, 1000000000);
	ck_assert_int_eq(xp_np_parse_size("1472", "-m", &v, &err), 0);
	ck_assert_uint_eq(v, 1472);
	ck_assert_int_eq(xp_np_parse_size("2G", "-m", &v, &err), -1);
	ck_assert_int_eq(xp_np_parse_size("", "-m", &v, &err), -1);
	ck_assert_int_eq(xp_np_parse_size("K", "-m", &v, &err), -1);
	ck_assert_int_eq(xp_np_parse_size("-1", "-m", &v, &err), -1);
	ck_assert_int_eq(xp_np_parse_size("4KB", "-m", &v, &err), -1);
}
END_TEST

/* ---- printers on a synthetic result ---- */

static struct xp_client_result res;
static struct xp_np_env env;
static struct xp_np_summary sum;

/* 2 s of TCP_RR: 10000 transactions of 20 us, client host 25% busy on
 * 4 CPUs; stream figures: 1.25 GB received by the server in the 2 s. */
static void synth(int test)
{
	memset(&res, 0, sizeof(res));
	res.test = test;
	res.req = res.rsp = 1;
	res.local.active_ns = 2 * XP_NS_PER_SEC;
	res.local.c.transactions = 10000;
	res.local.c.bytes_sent = res.local.c.bytes_received = 10000;
	res.remote.c.transactions = 10000;
	res.remote.c.bytes_received = 1250000000;
	res.remote.elapsed_ns = XP_NS_PER_SEC;
	res.local.host_busy_ppm = 250000;
	res.remote.host_busy_ppm = 500000;
	res.hist = xp_hist_new();
	xp_hist_add_n(res.hist, 20000, 1000);
	memset(&env, 0, sizeof(env));
	env.ncpus_local = env.ncpus_remote = 4;
	env.lss = 16384;
	env.lsr = env.rsr = 131072;
	env.rss = 16384;
	env.uuid = "u";
	env.cong = "cubic";
	env.dest_numeric = "127.0.0.1";
	env.dest_family = AF_INET;
}

static void unsynth(void)
{
	xp_hist_free(res.hist);
	res.hist = NULL;
}

/* Run the printers over res with the current cfg; returns the text. */
static char *render(void)
{
	struct xp_np_measure m;
	struct xp_np_run run = { &cfg, &env, &res, &sum };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	cfg.opts.length = res.local.active_ns; /* a run of -l seconds */
	xp_np_fill_defaults(&cfg, env.lss, env.rss);
	memset(&sum, 0, sizeof(sum));
	xp_np_measure(&cfg, &env, &res, &m);
	xp_np_summarize(&cfg, &m, 1, &sum);
	sum.transactions = res.local.c.transactions;
	sum.elapsed_total_s = xp_np_elapsed(&cfg, &res);
	xp_np_print_result(f, &run);
	fclose(f);
	return buf;
}

static void expect(const char *want)
{
	char *got = render();

	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(csv_output)
{
	synth(XP_TCP_RR);
	ck_assert_int_eq(parse("-t", "TCP_RR", "--", "-o",
			       "THROUGHPUT,THROUGHPUT_UNITS,P99_LATENCY,BOGUS,mean_latency,"
			       "RT_LATENCY,REQUEST_SIZE", NULL), 0);
	expect("Throughput,Throughput Units,99th Percentile Latency Microseconds,"
	       "Mean Latency Microseconds,Round Trip Latency usec/tran,Request Size Bytes\n"
	       "5000.00,Trans/s,20,20.00,200.000,1\n");
	/* -P 0: values only */
	ck_assert_int_eq(parse("-P", "0", "-t", "TCP_RR", "--", "-o", "THROUGHPUT", NULL), 0);
	expect("5000.00\n");
	/* CPU and service demand: 25% x 4 CPUs x 2 s / 10000 trans = 200 us */
	ck_assert_int_eq(parse("-c", "-t", "TCP_RR", "--", "-o",
			       "LOCAL_CPU_UTIL,REMOTE_CPU_UTIL,LOCAL_SD,SD_UNITS", NULL), 0);
	expect("Local CPU Util %,Remote CPU Util %,Local Service Demand,"
	       "Service Demand Units\n25.00,-1.00,200.000,usec/Tran\n");
	unsynth();
}
END_TEST

START_TEST(keyval_and_columns)
{
	synth(XP_TCP_RR);
	ck_assert_int_eq(parse("-t", "TCP_RR", "--", "-k",
			       "THROUGHPUT,THROUGHPUT_UNITS,MEAN_LATENCY,nothing", NULL), 0);
	expect("THROUGHPUT=5000.00\nTHROUGHPUT_UNITS=Trans/s\nMEAN_LATENCY=20.00\n");
	ck_assert_int_eq(parse("-t", "TCP_RR", "--", "-O", "THROUGHPUT,THROUGHPUT_UNITS",
			       NULL), 0);
	expect("Throughput Throughput \n"
	       "           Units      \n"
	       "                      \n"
	       "                      \n"
	       "5000.00    Trans/s    \n");
	ck_assert_int_eq(parse("-P", "0", "-t", "TCP_RR", "--", "-O",
			       "THROUGHPUT;REQUEST_SIZE", NULL), 0);
	expect("5000.00    \n\n1       \n");
	unsynth();
}
END_TEST

START_TEST(stream_units)
{
	synth(XP_TCP_STREAM);
	ck_assert_int_eq(parse("--", "-k", "THROUGHPUT,THROUGHPUT_UNITS,SD_UNITS", NULL), 0);
	expect("THROUGHPUT=5000.00\nTHROUGHPUT_UNITS=10^6bits/s\nSD_UNITS=usec/KB\n");
	ck_assert_int_eq(parse("-f", "g", "--", "-k", "THROUGHPUT,THROUGHPUT_UNITS", NULL), 0);
	expect("THROUGHPUT=5.00\nTHROUGHPUT_UNITS=10^9bits/s\n");
	ck_assert_int_eq(parse("-f", "K", "--", "-k", "THROUGHPUT,THROUGHPUT_UNITS", NULL), 0);
	expect("THROUGHPUT=610351.56\nTHROUGHPUT_UNITS=KBytes/s\n");
	ck_assert_int_eq(parse("-f", "M", "--", "-k", "THROUGHPUT_UNITS", NULL), 0);
	expect("THROUGHPUT_UNITS=MBytes/s\n");
	ck_assert_int_eq(parse("-f", "k", "--", "-k", "THROUGHPUT_UNITS,P50_LATENCY", NULL), 0);
	expect("THROUGHPUT_UNITS=10^3bits/s\nP50_LATENCY=20\n");
	unsynth();
}
END_TEST

START_TEST(classic_tables)
{
	synth(XP_TCP_STREAM);
	ck_assert_int_eq(parse("-H", "127.0.0.1", NULL), 0);
	expect("Recv   Send    Send                          \n"
	       "Socket Socket  Message  Elapsed              \n"
	       "Size   Size    Size     Time     Throughput  \n"
	       "bytes  bytes   bytes    secs.    10^6bits/sec  \n"
	       "\n"
	       "131072  16384  16384    2.00     5000.00   \n");
	ck_assert_int_eq(parse("-v", "0", NULL), 0);
	expect("5000.00 \n");
	ck_assert_int_eq(parse("-v", "0", "-P", "0", "-B", "tag", NULL), 0);
	expect("5000.00 tag\n");
	unsynth();
	synth(XP_TCP_RR);
	ck_assert_int_eq(parse("-t", "TCP_RR", "-P", "0", NULL), 0);
	expect("16384  131072 1        1       2.00     5000.00   \n"
	       "16384  131072\n");
	ck_assert_int_eq(parse("-t", "TCP_RR", NULL), 0);
	expect("Local /Remote\n"
	       "Socket Size   Request  Resp.   Elapsed  Trans.\n"
	       "Send   Recv   Size     Size    Time     Rate         \n"
	       "bytes  Bytes  bytes    bytes   secs.    per sec   \n"
	       "\n"
	       "16384  131072 1        1       2.00     5000.00   \n"
	       "16384  131072\n");
	unsynth();
}
END_TEST

static char *banner(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	xp_np_print_banner(f, &cfg, &env);
	fclose(f);
	return buf;
}

START_TEST(banners)
{
	char *b;

	synth(XP_TCP_RR);
	ck_assert_int_eq(parse("-H", "127.0.0.1", "-t", "TCP_RR", NULL), 0);
	b = banner();
	ck_assert_str_eq(b, "MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 "
			 "AF_INET to 127.0.0.1 () port 0 AF_INET : demo : first burst 0\n");
	free(b);
	ck_assert_int_eq(parse("-H", "localhost", "-i", "10,3", "-T", "1", "--", "-D", NULL), 0);
	b = banner();
	ck_assert_str_eq(b, "MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET "
			 "to localhost () port 0 AF_INET : +/-2.500% @ 99% conf.  : nodelay "
			 ": demo : cpu bind\n");
	free(b);
	env.dest_numeric = "::1";
	env.dest_family = AF_INET6;
	ck_assert_int_eq(parse("-6", "-t", "UDP_STREAM", NULL), 0);
	b = banner();
	ck_assert_str_eq(b, "MIGRATED UDP STREAM TEST from ::0 (::) port 0 AF_INET6 to ::1 "
			 "(::1) port 0 AF_INET6 : demo\n");
	free(b);
	unsynth();
}
END_TEST

START_TEST(confidence_loop)
{
	struct xp_np_measure m[4];
	int i;

	memset(m, 0, sizeof(m));
	ck_assert_int_eq(parse("-i", "10,3", "-I", "99,5", NULL), 0);
	for (i = 0; i < 4; i++) {
		m[i].thruput = 100;
		m[i].local_cpu = m[i].remote_cpu = -1;
	}
	ck_assert_int_eq(xp_np_summarize(&cfg, m, 2, &sum), 1); /* below -i min */
	ck_assert_int_eq(xp_np_summarize(&cfg, m, 3, &sum), 0);
	ck_assert_int_eq(sum.confident, 1);
	ck_assert(sum.thruput_confid < 1e-9);
	m[1].thruput = 50;
	m[2].thruput = 150;
	ck_assert_int_eq(xp_np_summarize(&cfg, m, 3, &sum), 1); /* too wide */
	ck_assert_int_eq(sum.confident, 0);
	ck_assert(sum.mean.thruput > 99.99 && sum.mean.thruput < 100.01);
	ck_assert(sum.thruput_confid > 5);
	/* no -i: one run */
	ck_assert_int_eq(parse(NULL), 0);
	ck_assert_int_eq(xp_np_summarize(&cfg, m, 1, &sum), 0);
}
END_TEST

START_TEST(selector_list)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	xp_np_list_selectors(f, 1);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, ",P99_LATENCY,"));
	ck_assert_ptr_nonnull(strstr(buf, ",THROUGHPUT_UNITS,"));
	ck_assert_ptr_eq(strchr(buf, '\n'), buf + len - 1); /* one line */
	free(buf);
	ck_assert_int_ge(xp_np_selector_find("transport_mss"), 0);
	ck_assert_int_eq(xp_np_selector_find("NOPE"), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("netperf");
	TCase *p = tcase_create("args"), *o = tcase_create("output");
	SRunner *sr;
	int failed;

	tcase_add_test(p, stream_script);
	tcase_add_test(p, rr_script);
	tcase_add_test(p, udp_stream_script);
	tcase_add_test(p, recv_size);
	tcase_add_test(p, output_options);
	tcase_add_test(p, global_options);
	tcase_add_test(p, confidence_options);
	tcase_add_test(p, usage_errors);
	tcase_add_test(p, sizes);
	tcase_add_test(o, csv_output);
	tcase_add_test(o, keyval_and_columns);
	tcase_add_test(o, stream_units);
	tcase_add_test(o, classic_tables);
	tcase_add_test(o, banners);
	tcase_add_test(o, confidence_loop);
	tcase_add_test(o, selector_list);
	suite_add_tcase(s, p);
	suite_add_tcase(s, o);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
