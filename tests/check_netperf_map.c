/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's options that xperf cannot honour are usage errors that say
 * so, never accepted and dropped; those it can become xperf options
 * (struct xp_opts fields); flent's command lines parse into the run they
 * ask for. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "client/netperf/netperf.h"
#include "common/clock.h"
#include "common/tests.h"
#include "proto/msg.h"

static struct xp_np_cfg cfg;
static struct xp_err err;

/* parse("-H", "h", NULL): 0 or -1, into cfg/err. */
static int parse(const char *first, ...)
{
	char *argv[48];
	int argc = 0;
	va_list ap;
	const char *a;

	argv[argc++] = "netperf";
	va_start(ap, first);
	for (a = first; a && argc < 47; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	err.msg[0] = 0;
	return xp_np_parse(&cfg, argc, argv, &err);
}

/* parse(...) fails with a message holding want. */
#define REFUSED(want, ...) do { \
		ck_assert_int_eq(parse(__VA_ARGS__, NULL), -1); \
		ck_assert_msg(strstr(err.msg, want), "'%s' lacks '%s'", err.msg, want); \
	} while (0)

START_TEST(global_refused)
{
	static const struct { const char *opt, *arg, *what; } t[] = {
		{ "-a", "8,8", "-a: local buffer alignment is not supported by xperf" },
		{ "-A", "8,8", "-A: remote buffer alignment is not supported" },
		{ "-b", "4", "-b: the burst size of paced sends is not supported" },
		{ "-d", NULL, "-d: netperf's debug output is not supported" },
		{ "-k", "1,1", "-k: dirtying the local buffers is not supported" },
		{ "-K", "1,1", "-K: dirtying the remote buffers" },
		{ "-o", "4,4", "-o: local buffer offsets" },
		{ "-O", "4,4", "-O: remote buffer offsets" },
		{ "-S", NULL, "-S: SO_KEEPALIVE is not supported by xperf" },
		{ "-w", "10", "-w: the wait between paced bursts" },
		{ "-W", "2,2", "-W: buffer ring widths" },
		{ "-y", "3,3", "-y: socket priority (SO_PRIORITY) is not supported by xperf" },
		{ "-Z", "secret", "--auth-file" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		REFUSED(t[i].what, t[i].opt, t[i].arg);
	REFUSED("-Z: netperf's passphrase is not supported", "-Z", "x");
	/* the one global option accepted without an effect: -j */
	ck_assert_int_eq(parse("-j", NULL), 0);
}
END_TEST

START_TEST(test_refused)
{
	static const struct { const char *opt, *arg, *what; } t[] = {
		{ "-a", NULL, "-a: TCP_DEFER_ACCEPT is not supported by xperf" },
		{ "-B", NULL, "-B: IP_PKTINFO" },
		{ "-C", NULL, "-C: TCP_CORK" },
		{ "-f", NULL, "-f: IP_MTU_DISCOVER" },
		{ "-g", NULL, "-g: SO_DEBUG" },
		{ "-I", NULL, "-I: write() instead of send()" },
		{ "-j", "4", "-j: parallel connections" },
		{ "-l", "8", "-l: multicast TTL" },
		{ "-p", "5000,6000", "-p: a TCP_CRR client port range" },
		{ "-q", "1000", "-q: a pacing rate" },
		{ "-U", NULL, "-U: retrying failed connects" },
		{ "-V", NULL, "-V: copy avoidance" },
		{ "-w", "10", "-w: the wait between paced bursts" },
		{ "-W", "4", "-W: a send ring width" },
		{ "-R", "0", "-R 0: SO_DONTROUTE" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		REFUSED(t[i].what, "-t", "TCP_CRR", "--", t[i].opt, t[i].arg);
		ck_assert_ptr_nonnull(strstr(err.msg, "not supported by xperf"));
	}
	/* accepted: routing allowed (what xperf does), connected UDP (always),
	 * -i (netperf ignores it too), -M (reported) */
	ck_assert_int_eq(parse("-t", "UDP_STREAM", "--", "-R", "1", "-n", "-N", "-i", "5",
			       "-M", "32K", NULL), 0);
	ck_assert_uint_eq(cfg.remote_recv_size, 32768);
}
END_TEST

START_TEST(receive_timeout)
{
	ck_assert_int_eq(parse("-t", "UDP_RR", NULL), 0);
	ck_assert_uint_eq(cfg.opts.rr_timeout, 200 * XP_NS_PER_MS); /* xperf's default */
	ck_assert_int_eq(parse("-t", "UDP_RR", "--", "-e", "2", NULL), 0);
	ck_assert_uint_eq(cfg.opts.rr_timeout, 2 * XP_NS_PER_SEC);
	ck_assert_int_eq(parse("-t", "UDP_RR", "--", "-e", "0.5", NULL), 0);
	ck_assert_uint_eq(cfg.opts.rr_timeout, XP_NS_PER_SEC / 2);
	REFUSED("-e 0: xperf's UDP_RR always times out", "-t", "UDP_RR", "--", "-e", "0");
	REFUSED("-e -1", "-t", "UDP_RR", "--", "-e", "-1");
	REFUSED("exceeds the maximum 60", "-t", "UDP_RR", "--", "-e", "61");
	REFUSED("-e 1: the receive timeout applies to UDP_RR (xperf --rr-timeout), not TCP_RR",
		"-t", "TCP_RR", "--", "-e", "1");
	/* flent's probe: a usage error, and not getopt's "invalid option" */
	REFUSED("-e 1: the receive timeout applies to UDP_RR", "-l", "1", "-D", "-0.2", "--",
		"-e", "1");
	ck_assert_ptr_null(strstr(err.msg, "invalid option"));
}
END_TEST

START_TEST(tcp_options)
{
	ck_assert_int_eq(parse("-t", "TCP_RR", "--", "-G", "1200", NULL), 0);
	ck_assert_uint_eq(cfg.opts.set_mss, 1200);
	ck_assert_int_eq(parse(NULL), 0);
	ck_assert_uint_eq(cfg.opts.set_mss, 0);
	REFUSED("-G 1200: TCP_MAXSEG applies to TCP tests, not UDP_STREAM", "-t", "UDP_STREAM",
		"--", "-G", "1200");
	REFUSED("-D: TCP_NODELAY applies to TCP tests, not UDP_RR", "-t", "UDP_RR", "--", "-D");
	ck_assert_int_eq(parse("-t", "TCP_RR", "--", "-D", NULL), 0);
	ck_assert_int_eq(cfg.opts.nodelay, 1);
	REFUSED("-G 40: xperf sets TCP_MAXSEG (--set-mss) to 88 to 32767", "--", "-G", "40");
	ck_assert_int_eq(parse("-t", "TCP_CRR", "--", "-F", NULL), 0);
	ck_assert_int_eq(cfg.opts.fastopen, 1);
	ck_assert_int_eq(parse("-t", "TCP_CC", "--", "-F", NULL), 0);
	ck_assert_int_eq(cfg.opts.fastopen, 1);
	ck_assert_int_eq(parse("-t", "TCP_CRR", NULL), 0);
	ck_assert_int_eq(cfg.opts.fastopen, 0);
	REFUSED("-F: xperf's TCP Fast Open applies to TCP_CRR and TCP_CC", "--", "-F");
	REFUSED("not UDP_RR", "-t", "UDP_RR", "--", "-F");
}
END_TEST

START_TEST(hosts)
{
	/* the test's -H: the control host, or it becomes the control host */
	ck_assert_int_eq(parse("-H", "10.0.0.2", "--", "-H", "10.0.0.2,4", NULL), 0);
	ck_assert_str_eq(cfg.opts.client, "10.0.0.2");
	ck_assert_int_eq(cfg.opts.ipv4, 1);
	ck_assert_int_eq(parse("-H", "::1", "--", "-H", "0:0::1", NULL), 0);
	ck_assert_int_eq(parse("-H", "Server.Example", "--", "-H", "server.example", NULL), 0);
	ck_assert_int_eq(parse("--", "-H", "h2", NULL), 0);
	ck_assert_str_eq(cfg.opts.client, "h2");
	ck_assert_str_eq(cfg.host, "h2");
	REFUSED("test option -H 10.0.0.3: xperf sends data to the control host (-H 10.0.0.2)",
		"-H", "10.0.0.2", "--", "-H", "10.0.0.3");
	REFUSED("IPv4, but the server's address family is IPv6", "-6", "--", "-H", "h,4");
	/* the global -L (control) and the test's (data): xperf -B, one address */
	ck_assert_int_eq(parse("-L", "127.0.0.1", NULL), 0);
	ck_assert_str_eq(cfg.opts.bind, "127.0.0.1");
	ck_assert_int_eq(parse("--", "-L", "127.0.0.1,4", NULL), 0);
	ck_assert_str_eq(cfg.opts.bind, "127.0.0.1");
	ck_assert_str_eq(cfg.local_host, "127.0.0.1");
	ck_assert_int_eq(cfg.opts.ipv4, 1);
	ck_assert_int_eq(parse("-L", "127.0.0.1,4", "--", "-L", "127.0.0.1,4", NULL), 0);
	REFUSED("-L 127.0.0.1 and test option -L 127.0.0.2: xperf's control and data "
		"connections leave from one local address", "-L", "127.0.0.1", "--", "-L",
		"127.0.0.2");
	ck_assert_int_eq(parse(NULL), 0);
	ck_assert_ptr_null(cfg.opts.bind);
}
END_TEST

START_TEST(ports)
{
	/* -p's lport: the control connection's source port (-B ADDR:PORT) */
	ck_assert_int_eq(parse("-p", "12866,5000", "-L", "127.0.0.1", NULL), 0);
	ck_assert_uint_eq(cfg.opts.port, 12866);
	ck_assert_str_eq(cfg.opts.bind, "127.0.0.1:5000");
	ck_assert_int_eq(parse("-p", ",5000", "-L", "::1", NULL), 0);
	ck_assert_str_eq(cfg.opts.bind, "[::1]:5000");
	ck_assert_int_eq(parse("-6", "-p", ",5000", NULL), 0);
	ck_assert_str_eq(cfg.opts.bind, "[::]:5000");
	/* no address and no family yet: set once the server's is known */
	ck_assert_int_eq(parse("-p", ",5000", NULL), 0);
	ck_assert_ptr_null(cfg.opts.bind);
	xp_np_bind(&cfg, AF_INET);
	ck_assert_str_eq(cfg.opts.bind, "0.0.0.0:5000");
	/* -P lport,rport: lport is xperf's --cport, rport the control port */
	ck_assert_int_eq(parse("--", "-P", "5000,12865", NULL), 0);
	ck_assert_uint_eq(cfg.opts.cport, 5000);
	ck_assert_str_eq(cfg.data_port[0], "5000"); /* the banner's */
	ck_assert_int_eq(parse("-p", "6000", "--", "-P", "5000,", NULL), 0);
	ck_assert_uint_eq(cfg.opts.cport, 5000);
	ck_assert_int_eq(parse("-p", "6000", "--", "-P", ",6000", NULL), 0);
	ck_assert_uint_eq(cfg.opts.cport, 0);
	ck_assert_int_eq(parse("-t", "UDP_RR", "-p", "12865,5000", "--", "-P", "5000", NULL),
			 -1); /* one value: both ends, and 5000 is not the control port */
	ck_assert_int_eq(parse("-t", "UDP_RR", "-p", "12865,5000", "--", "-P", "5000,",
			       NULL), 0);
	ck_assert_uint_eq(cfg.opts.cport, 5000);
	REFUSED("-P ,5001: xperf sends data to the control port (-p 12865)", "--", "-P",
		"5000,5001");
	REFUSED("with -S the xperf server takes a TCP test's data on a port it picks", "--",
		"-S", "64K", "-P", ",12865");
	REFUSED("TIME_WAIT", "-t", "TCP_CRR", "--", "-P", "5000,");
	REFUSED("-P 5000: the control connection leaves from port 5000 too", "-p", ",5000",
		"--", "-P", "5000,");
}
END_TEST

START_TEST(fill)
{
	ck_assert_int_eq(parse("-F", "/dev/urandom", NULL), 0);
	ck_assert_str_eq(cfg.opts.fill, "/dev/urandom");
	ck_assert_int_eq(parse("-F", "/dev/urandom", "-t", "UDP_RR", NULL), 0);
	ck_assert_str_eq(cfg.opts.fill, "/dev/urandom");
	ck_assert_int_eq(parse("-F", "/dev/urandom", "-t", "TCP_CC", NULL), 0);
	ck_assert_str_eq(cfg.opts.fill, "/dev/urandom");
	/* the client only receives: the file is only checked, as netperf */
	ck_assert_int_eq(parse("-F", "/dev/urandom", "-t", "TCP_MAERTS", NULL), 0);
	ck_assert_ptr_null(cfg.opts.fill);
	ck_assert_str_eq(cfg.fill, "/dev/urandom");
	ck_assert_int_eq(parse("-F", "f", "-t", "omni", "--", "-d", "recv", NULL), 0);
	ck_assert_ptr_null(cfg.opts.fill);
	ck_assert_int_eq(parse(NULL), 0);
	ck_assert_ptr_null(cfg.opts.fill);
	REFUSED("-F ,/etc/passwd: a remote fill file is not supported by xperf", "-F",
		",/etc/passwd");
}
END_TEST

#define FLENT_KEYS "THROUGHPUT,LOCAL_CONG_CONTROL,REMOTE_CONG_CONTROL,TRANSPORT_MSS," \
	"LOCAL_TRANSPORT_RETRANS,REMOTE_TRANSPORT_RETRANS,LOCAL_SOCKET_TOS," \
	"REMOTE_SOCKET_TOS,DIRECTION,ELAPSED_TIME,PROTOCOL,LOCAL_SEND_SIZE," \
	"LOCAL_RECV_SIZE,REMOTE_SEND_SIZE,REMOTE_RECV_SIZE,LOCAL_BYTES_SENT," \
	"LOCAL_BYTES_RECVD,REMOTE_BYTES_SENT,REMOTE_BYTES_RECVD"

/* flent 2.1's NetperfDemoRunner command lines, every option it may add. */
START_TEST(flent_lines)
{
	ck_assert_int_eq(parse("-P", "0", "-v", "0", "-D", "-0.20", "-4", "-Y", "CS1,CS1",
			       "-H", "127.0.0.1", "-p", "12865", "-t", "TCP_STREAM", "-l", "60",
			       "-F", "/dev/urandom", "-f", "m", "-L", "127.0.0.1,4", "--",
			       "-m", "16K", "-M", "16K", "-L", "127.0.0.1,4", "-H", "127.0.0.1",
			       "-k", FLENT_KEYS, "-K", "bbr", NULL), 0);
	ck_assert_int_eq(cfg.opts.test, XP_TCP_STREAM);
	ck_assert_str_eq(cfg.opts.client, "127.0.0.1");
	ck_assert_uint_eq(cfg.opts.port, 12865);
	ck_assert_int_eq(cfg.opts.ipv4, 1);
	ck_assert_str_eq(cfg.opts.bind, "127.0.0.1");
	ck_assert_str_eq(cfg.opts.fill, "/dev/urandom");
	ck_assert_str_eq(cfg.opts.tos, "0x20");
	ck_assert_uint_eq(cfg.opts.length, 60 * XP_NS_PER_SEC);
	ck_assert_uint_eq(cfg.opts.interval, 200 * XP_NS_PER_MS);
	ck_assert_int_eq(cfg.mode, XP_NP_KEYVAL);
	ck_assert_int_eq(parse("-P", "0", "-v", "0", "-D", "-0.20", "-4", "-H", "127.0.0.1",
			       "-p", "12865", "-t", "TCP_MAERTS", "-l", "60", "-F",
			       "/dev/urandom", "-f", "m", "--", "-m", "16K", "-M", "16K", "-L",
			       "127.0.0.1,4", "-H", "127.0.0.1", "-k", FLENT_KEYS, NULL), 0);
	ck_assert_int_eq(cfg.opts.test, XP_TCP_MAERTS);
	ck_assert_ptr_null(cfg.opts.fill); /* the client only receives */
	ck_assert_str_eq(cfg.opts.bind, "127.0.0.1");
	ck_assert_int_eq(parse("-P", "0", "-v", "0", "-D", "-0.20", "-4", "-H", "127.0.0.1",
			       "-p", "12865", "-t", "UDP_RR", "-l", "60", "-F", "/dev/urandom",
			       "--", "-e", "1", "-L", "127.0.0.1,4", "-H", "127.0.0.1", "-k",
			       "THROUGHPUT,MEAN_LATENCY", NULL), 0);
	ck_assert_int_eq(cfg.opts.test, XP_UDP_RR);
	ck_assert_uint_eq(cfg.opts.rr_timeout, XP_NS_PER_SEC);
	ck_assert_str_eq(cfg.opts.fill, "/dev/urandom");
	ck_assert_str_eq(cfg.opts.bind, "127.0.0.1");
	ck_assert_str_eq(cfg.opts.client, "127.0.0.1");
	/* flent's probe of -e (test TCP_STREAM): refused, not "invalid option" */
	ck_assert_int_eq(parse("-l", "1", "-D", "-0.2", "--", "-e", "1", NULL), -1);
	ck_assert_ptr_null(strstr(err.msg, "invalid option -- 'e'"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("netperf_map");
	TCase *r = tcase_create("refused"), *m = tcase_create("mapped");
	SRunner *sr;
	int failed;

	tcase_add_test(r, global_refused);
	tcase_add_test(r, test_refused);
	tcase_add_test(m, receive_timeout);
	tcase_add_test(m, tcp_options);
	tcase_add_test(m, hosts);
	tcase_add_test(m, ports);
	tcase_add_test(m, fill);
	tcase_add_test(m, flent_lines);
	suite_add_tcase(s, r);
	suite_add_tcase(s, m);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
