/* SPDX-License-Identifier: BSD-2-Clause */
/* Option table: defaults, parsing, validation and --help agree. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/report/mode_reason.h"
#include "common/clock.h"
#include "common/netparse.h"
#include "common/opts.h"
#include "common/tests.h"
#include "proto/msg.h"

static int vparse(struct xp_opts *o, struct xp_err *e, va_list ap)
{
	char *argv[32];
	int argc = 0;
	char *a;

	argv[argc++] = "xperf";
	while ((a = va_arg(ap, char *)) && argc < 31)
		argv[argc++] = a;
	argv[argc] = NULL;
	e->msg[0] = 0;
	return xp_opts_parse(o, argc, argv, e);
}

static int parse(struct xp_opts *o, struct xp_err *e, ...)
{
	va_list ap;
	int rc;

	va_start(ap, e);
	rc = vparse(o, e, ap);
	va_end(ap);
	return rc;
}

START_TEST(defaults)
{
	struct xp_opts o;
	struct xp_err e;

	ck_assert_int_eq(parse(&o, &e, NULL), 0);
	ck_assert_int_eq(o.test, XP_TCP_STREAM);
	ck_assert_uint_eq(o.length, 10 * XP_NS_PER_SEC);
	ck_assert_uint_eq(o.port, 5310);
	ck_assert_uint_eq(o.flows, 1);
	ck_assert_uint_eq(o.threads, 1);
	ck_assert_uint_eq(o.max_msg, 16u << 20);
	ck_assert_uint_eq(xp_opts_req_size(&o), 131072);
	ck_assert_uint_eq(xp_opts_rsp_size(&o), 0);
	ck_assert_ptr_null(o.client);
	ck_assert_int_eq(o.server, 0);
}
END_TEST

START_TEST(rr_sizes)
{
	struct xp_opts o;
	struct xp_err e;

	ck_assert_int_eq(parse(&o, &e, "-t", "tcp_rr", "-m", "64", NULL), 0);
	ck_assert_uint_eq(xp_opts_req_size(&o), 64);
	ck_assert_uint_eq(xp_opts_rsp_size(&o), 64);
	ck_assert_int_eq(parse(&o, &e, "-t", "TCP_RR", "-m", "64", "-M", "2K", NULL), 0);
	ck_assert_uint_eq(xp_opts_rsp_size(&o), 2048);
	ck_assert_int_eq(parse(&o, &e, "-t", "UDP_RR", NULL), 0);
	ck_assert_uint_eq(xp_opts_req_size(&o), 1);
	ck_assert_int_eq(parse(&o, &e, "-t", "UDP_STREAM", NULL), 0);
	ck_assert_uint_eq(xp_opts_req_size(&o), 1472);
	ck_assert_int_eq(parse(&o, &e, "-t", "TCP_STREAM", "-m", "1M", NULL), 0);
	ck_assert_uint_eq(xp_opts_req_size(&o), 1u << 20);
	/* 0 means "the test's default" */
	ck_assert_int_eq(parse(&o, &e, "-t", "TCP_RR", "-m", "0", NULL), 0);
	ck_assert_uint_eq(xp_opts_req_size(&o), 1);
}
END_TEST

START_TEST(long_and_short_agree)
{
	struct xp_opts a, b;
	struct xp_err e;

	ck_assert_int_eq(parse(&a, &e, "-c", "h", "-t", "TCP_CRR", "-l", "2.5", "-p", "7",
			       "-P", "9", "-T", "3", "-N", "-w", "64K", "-J", "-4", NULL), 0);
	ck_assert_int_eq(parse(&b, &e, "--client", "h", "--test", "TCP_CRR", "--length", "2.5",
			       "--port", "7", "--flows", "9", "--threads", "3", "--nodelay",
			       "--window", "64K", "--json", "--ipv4", NULL), 0);
	ck_assert_str_eq(a.client, b.client);
	ck_assert_int_eq(a.test, b.test);
	ck_assert_uint_eq(a.length, 2500 * XP_NS_PER_MS);
	ck_assert_uint_eq(a.length, b.length);
	ck_assert_uint_eq(a.port, b.port);
	ck_assert_uint_eq(a.flows, b.flows);
	ck_assert_uint_eq(a.threads, b.threads);
	ck_assert_int_eq(a.nodelay, b.nodelay);
	ck_assert_uint_eq(a.window, 65536);
	ck_assert_uint_eq(a.window, b.window);
	ck_assert_int_eq(a.json, 1);
	ck_assert_int_eq(b.ipv4, 1);
}
END_TEST

struct bad { const char *args[6]; const char *msg; };

START_TEST(invalid)
{
	static const struct bad cases[] = {
		{ { "--bogus" }, "unknown option" },
		{ { "-x" }, "unknown option '-x'" },
		{ { "-c" }, "needs an argument" },
		{ { "-m", "x12" }, "invalid size" },
		{ { "-m", "2G" }, "exceeds" },
		{ { "-t", "SCTP_RR" }, "unknown test" },
		{ { "-l", "0" }, "--length" },
		{ { "-l", "-3" }, "--length" },
		{ { "-P", "0" }, "at least one flow" },
		{ { "-T", "0" }, "at least one thread" },
		{ { "-T", "1000" }, "--threads" },
		{ { "-p", "70000" }, "--port" },
		{ { "-s", "-c", "h" }, "exclude" },
		{ { "-4", "-6" }, "exclude" },
		{ { "-M", "5" }, "RR tests only" },
		{ { "-t", "UDP_STREAM", "-m", "7" }, "at least 8" },
		{ { "-t", "UDP_RR", "-M", "65508" }, "65507" },
		{ { "--cpus", "1,1" }, "--cpus" },
		{ { "--remote-cpus", "a" }, "--remote-cpus" },
		{ { "-1" }, "server option" },
		{ { "-c", "h", "junk" }, "unexpected argument" },
		{ { "-t", "TCP_RR", "-b", "1G" }, "stream tests" },
		{ { "-t", "TCP_STREAM", "--rate", "100" }, "TCP_RR and UDP_RR" },
		{ { "-t", "TCP_CRR", "--burst", "4" }, "TCP_CRR use -P" },
		{ { "-t", "TCP_RR", "--no-gso" }, "UDP_STREAM" },
		{ { "-t", "UDP_STREAM", "-Z" }, "TCP_STREAM and TCP_MAERTS" },
		{ { "-t", "TCP_RR", "--rcvlowat", "64K" }, "--rcvlowat applies" },
		{ { "-t", "UDP_RR", "--burst", "200" }, "at most 128" },
		{ { "-t", "TCP_RR", "--rate", "10", "-P", "20" }, "per flow" },
		{ { "--nagle", "--nodelay" }, "exclude" },
		{ { "-b", "fast" }, "invalid rate" },
		{ { "-i", "0" }, "--interval" },
		/* options given where they do nothing (the audit) */
		{ { "-s", "-t", "TCP_RR" }, "-t/--test is a client option" },
		{ { "-s", "-P", "4" }, "client option" },
		{ { "-s", "-C", "reno" }, "client option" },
		{ { "-s", "--timestamps" }, "client option" },
		{ { "-c", "h", "--max-tests", "3" }, "--max-tests is a server option" },
		{ { "-c", "h", "--idle-timeout", "3" }, "--idle-timeout is a server option" },
		{ { "--max-flows", "8" }, "server option" },
		{ { "-c", "h", "-D" }, "server option" },
		{ { "-p", "5000" }, "-p applies with -c or -s" },
		{ { "-t", "TCP_STREAM", "--warmup", "1" }, "--warmup applies to RR" },
		{ { "-t", "TCP_RR", "--rr-timeout", "1" }, "UDP_RR" },
		{ { "-t", "TCP_MAERTS", "--fill", "f" }, "client sends nothing in TCP_MAERTS" },
		{ { "-t", "UDP_STREAM", "-R", "--fill", "f" }, "nothing in UDP_MAERTS" },
		{ { "--fill", "" }, "--fill: empty argument" },
		{ { "-s", "--fill", "f" }, "--fill is a client option" },
		{ { "-t", "UDP_STREAM", "--pace-burst", "4" }, "with -b" },
		{ { "-t", "TCP_RR", "--nagle" }, "--nagle applies" },
		{ { "-t", "UDP_RR", "-N" }, "TCP tests" },
		{ { "-t", "TCP_STREAM", "--percentiles", "50" }, "RR tests" },
		{ { "-t", "TCP_STREAM", "--histogram", "f" }, "RR tests" },
		{ { "--confidence", "99" }, "--iterations" },
		{ { "-M", "0" }, "RR tests only" },
		{ { "-t", "TCP_RR", "--rcvlowat", "0" }, "--rcvlowat applies" },
		{ { "-t", "UDP_STREAM", "--read-size", "1K" }, "--read-size applies" },
		{ { "-t", "TCP_RR", "--read-size", "0" }, "--read-size applies" },
		{ { "--burst", "1" }, "--burst applies" },
		/* socket and path */
		{ { "-t", "UDP_RR", "-C", "reno" }, "TCP tests" },
		{ { "-C", "abcdefghijklmnop" }, "at most 15" },
		{ { "-t", "UDP_STREAM", "--set-mss", "1000" }, "TCP tests" },
		{ { "--set-mss", "40" }, "88-32767" },
		{ { "--set-mss", "40000" }, "--set-mss" },
		{ { "--tos", "256" }, "not a TOS byte" },
		{ { "--tos", "AF44" }, "not a TOS byte" },
		{ { "--dscp", "64" }, "not a DSCP" },
		{ { "--tos", "8", "--dscp", "2" }, "exclude" },
		{ { "--flowlabel", "5" }, "IPv6 only" },
		{ { "-6", "--flowlabel", "0" }, "1-1048575" },
		{ { "-6", "--flowlabel", "1048576" }, "--flowlabel" },
		{ { "-B", "[::1" }, "expected [ADDR]" },
		{ { "-B", "h:0" }, "1-65535" },
		{ { "-s", "-B", "10.0.0.1:5000" }, "the port is -p" },
		{ { "-t", "TCP_CRR", "--cport", "5000" }, "TIME_WAIT" },
		{ { "--cport", "65535", "-P", "2" }, "above 65535" },
		{ { "--cport", "0" }, "1-65535" },
		{ { "-B", "127.0.0.1:6001", "--cport", "6000", "-P", "2" }, "--cport data ports" },
		{ { "--bind-dev", "abcdefghijklmnop" }, "at most 15" },
		{ { "-t", "TCP_RR", "--fastopen" }, "TCP_CRR" },
		{ { "-t", "UDP_STREAM", "--mptcp" }, "TCP tests" },
		{ { "--mptcp", "-Z" }, "SO_ZEROCOPY" },
		{ { "--mptcp", "--busy-poll", "5" }, "SO_BUSY_POLL" },
		{ { "-t", "TCP_RR", "--sendfile" }, "TCP_STREAM and TCP_MAERTS" },
		{ { "--sendfile", "-Z" }, "exclude" },
		{ { "--connect-timeout", "0" }, "--connect-timeout" },
		/* report format */
		{ { "--timestamps" }, "give -i" },
		{ { "-i", "1", "--timestamps", "-J" }, "give -i" },
		{ { "-f", "x" }, "one of k, m, g, t" },
		{ { "-f", "mm" }, "one of k, m, g, t" },
		{ { "-t", "TCP_RR", "-f", "m" }, "stream tests" },
		{ { "-f", "m", "--json" }, "stream tests" },
		{ { "-c", "a,b", "-f", "m" }, "several servers" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bad *c = &cases[i];
		struct xp_opts o;
		struct xp_err e;
		int rc = parse(&o, &e, c->args[0], c->args[1], c->args[2], c->args[3],
			       c->args[4], c->args[5], NULL);

		ck_assert_msg(rc == -1, "case %zu (%s) accepted", i, c->args[0]);
		ck_assert_msg(strstr(e.msg, c->msg), "case %zu: '%s' lacks '%s'", i, e.msg, c->msg);
	}
}
END_TEST

START_TEST(dscp_and_tos)
{
	struct xp_err e;
	int v;

	ck_assert_int_eq(xp_dscp_by_name("EF"), 46);
	ck_assert_int_eq(xp_dscp_by_name("ef"), 46);
	ck_assert_int_eq(xp_dscp_by_name("AF41"), 34);
	ck_assert_int_eq(xp_dscp_by_name("af11"), 10);
	ck_assert_int_eq(xp_dscp_by_name("AF23"), 22);
	ck_assert_int_eq(xp_dscp_by_name("CS1"), 8);
	ck_assert_int_eq(xp_dscp_by_name("CS7"), 56);
	ck_assert_int_eq(xp_dscp_by_name("CS0"), 0);
	ck_assert_int_eq(xp_dscp_by_name("LE"), 1);
	ck_assert_int_eq(xp_dscp_by_name("VOICE-ADMIT"), 44);
	ck_assert_int_eq(xp_dscp_by_name("AF44"), -1);
	ck_assert_int_eq(xp_dscp_by_name("AF51"), -1);
	ck_assert_int_eq(xp_dscp_by_name("CS8"), -1);
	ck_assert_int_eq(xp_dscp_by_name("CS"), -1);
	ck_assert_int_eq(xp_parse_tos("EF", "--tos", &v, &e), 0);
	ck_assert_int_eq(v, 0xb8);
	ck_assert_int_eq(xp_parse_tos("0xb8", "--tos", &v, &e), 0);
	ck_assert_int_eq(v, 184);
	ck_assert_int_eq(xp_parse_tos("0XB8", "--tos", &v, &e), 0);
	ck_assert_int_eq(xp_parse_tos("184", "--tos", &v, &e), 0);
	ck_assert_int_eq(v, 184);
	ck_assert_int_eq(xp_parse_tos("0", "--tos", &v, &e), 0);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(xp_parse_tos("255", "--tos", &v, &e), 0);
	ck_assert_int_eq(xp_parse_tos("256", "--tos", &v, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "--tos: '256'"));
	ck_assert_int_eq(xp_parse_tos("-1", "--tos", &v, &e), -1);
	ck_assert_int_eq(xp_parse_tos("0x", "--tos", &v, &e), -1);
	ck_assert_int_eq(xp_parse_tos("12ab", "--tos", &v, &e), -1);
	ck_assert_int_eq(xp_parse_tos("", "--tos", &v, &e), -1);
	ck_assert_int_eq(xp_parse_dscp("46", "--dscp", &v, &e), 0);
	ck_assert_int_eq(v, 46);
	ck_assert_int_eq(xp_parse_dscp("0x2e", "--dscp", &v, &e), 0);
	ck_assert_int_eq(v, 46);
	ck_assert_int_eq(xp_parse_dscp("AF41", "--dscp", &v, &e), 0);
	ck_assert_int_eq(v, 34);
	ck_assert_int_eq(xp_parse_dscp("64", "--dscp", &v, &e), -1);
}
END_TEST

static void hostport_ok(const char *s, const char *host, unsigned port)
{
	char h[XP_HOST_MAX];
	uint16_t p = 1;
	struct xp_err e;

	ck_assert_msg(xp_parse_hostport(s, "-B", h, sizeof(h), &p, &e) == 0, "%s: %s", s, e.msg);
	ck_assert_str_eq(h, host);
	ck_assert_uint_eq(p, port);
}

START_TEST(bind_hostport)
{
	static const char *bad[] = { "[::1", "[::1]x", "[::1]:", "[]:5", "h:0", "h:70000",
				     ":5000", "h:", "h:0x10", "h:-1", "[::1]:5000:1" };
	char h[XP_HOST_MAX];
	uint16_t p;
	struct xp_err e;
	size_t i;

	hostport_ok("10.0.0.1", "10.0.0.1", 0);
	hostport_ok("10.0.0.1:5000", "10.0.0.1", 5000);
	hostport_ok("[::1]:5000", "::1", 5000);
	hostport_ok("[::1]", "::1", 0);
	hostport_ok("::1", "::1", 0);
	hostport_ok("fd00::2", "fd00::2", 0);
	hostport_ok("[fe80::1%veth0]:65535", "fe80::1%veth0", 65535);
	hostport_ok("localhost:1", "localhost", 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(xp_parse_hostport(bad[i], "-B", h, sizeof(h), &p, &e) == -1,
			      "%s accepted", bad[i]);
}
END_TEST

START_TEST(rate_formats)
{
	char b[64];
	const char *c;

	for (c = "kmgtKMGT"; *c; c++)
		ck_assert(xp_rate_format_ok(*c));
	ck_assert(!xp_rate_format_ok('x'));
	ck_assert(!xp_rate_format_ok('b'));
	ck_assert(!xp_rate_format_ok('A'));
	ck_assert(!xp_rate_format_ok(0));
	ck_assert_str_eq(xp_format_rate(b, sizeof(b), 0, 1e9, 'g'), "1.000 Gbit/s");
	ck_assert_str_eq(xp_format_rate(b, sizeof(b), 0, 1e9, 'm'), "1000.000 Mbit/s");
	ck_assert_str_eq(xp_format_rate(b, sizeof(b), 0, 2.5e6, 'k'), "2500.000 kbit/s");
	ck_assert_str_eq(xp_format_rate(b, sizeof(b), 0, 4e12, 't'), "4.000 Tbit/s");
	ck_assert_str_eq(xp_format_rate(b, sizeof(b), 0, 8.0 * 1048576, 'M'), "1.000 MByte/s");
	ck_assert_str_eq(xp_format_rate(b, sizeof(b), 0, 8.0 * 1024, 'K'), "1.000 KByte/s");
	ck_assert_str_eq(xp_format_rate(b, sizeof(b), 0, 8.0 * 1073741824, 'G'), "1.000 GByte/s");
	ck_assert_str_eq(xp_format_rate(b, sizeof(b), 7, 1e9, 'g'), "  1.000 Gbit/s");
}
END_TEST

START_TEST(sockpath_values)
{
	struct xp_opts o;
	struct xp_err e;

	ck_assert_int_eq(parse(&o, &e, NULL), 0);
	ck_assert_int_eq(xp_opts_tos(&o), -1);
	ck_assert_ptr_null(xp_opts_timestamp_format(&o));
	ck_assert_uint_eq(o.connect_timeout, 5 * XP_NS_PER_SEC);
	ck_assert_int_eq(parse(&o, &e, "--dscp", "AF41", NULL), 0);
	ck_assert_int_eq(xp_opts_tos(&o), 34 << 2);
	ck_assert_int_eq(parse(&o, &e, "--tos", "0xb8", NULL), 0);
	ck_assert_int_eq(xp_opts_tos(&o), 0xb8);
	ck_assert_int_eq(parse(&o, &e, "-i", "1", "--timestamps", NULL), 0);
	ck_assert_str_eq(xp_opts_timestamp_format(&o), "%c ");
	ck_assert_int_eq(parse(&o, &e, "-i", "1", "--timestamps=%T ", NULL), 0);
	ck_assert_str_eq(xp_opts_timestamp_format(&o), "%T ");
	ck_assert_int_eq(parse(&o, &e, "-f", "M", "-t", "UDP_STREAM", NULL), 0);
	ck_assert_int_eq(parse(&o, &e, "-c", "::1", "-B", "[::1]:5000", "--cport", "6000",
			       "-P", "4", "--flowlabel", "12345", NULL), 0);
	ck_assert_uint_eq(o.cport, 6000);
	ck_assert_int_eq(parse(&o, &e, "-s", "-B", "::1", "--logfile", "x", "-v", NULL), 0);
	ck_assert_int_eq(parse(&o, &e, "-t", "TCP_CRR", "--fastopen", "--mptcp", "-C", "reno",
			       "--set-mss", "1000", NULL), 0);
	ck_assert_uint_eq(o.set_mss, 1000);
	ck_assert_int_eq(parse(&o, &e, "-t", "TCP_MAERTS", "--sendfile", "--bind-dev", "lo",
			       "--connect-timeout", "0.5", NULL), 0);
	ck_assert_uint_eq(o.connect_timeout, 500 * XP_NS_PER_MS);
}
END_TEST

START_TEST(matrix_is_lenient)
{
	char *argv[] = { "xperf lab", "-t", "UDP_RR", "-N", "--percentiles", "50", NULL };
	char *bad[] = { "xperf lab", "-t", "UDP_RR", "--max-flows", "8", NULL };
	struct xp_opts o;
	struct xp_err e;

	/* one set of options for several tests: -N does nothing in UDP_RR */
	ck_assert_int_eq(xp_opts_parse(&o, 6, argv, &e), -1);
	ck_assert_int_eq(xp_opts_parse_flags(&o, 6, argv, XP_OPTS_MATRIX, &e), 0);
	ck_assert_int_eq(o.nodelay, 1);
	/* the sides still hold */
	ck_assert_int_eq(xp_opts_parse_flags(&o, 5, bad, XP_OPTS_MATRIX, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "server option"));
}
END_TEST

/* The test-shape options: every mismatch is a usage error naming the
 * option and what applies instead. */
START_TEST(shape_invalid)
{
	static const struct bad cases[] = {
		{ { "-t", "TCP_RR", "-R" }, "-R applies to stream tests" },
		{ { "-t", "UDP_RR", "--reverse" }, "not UDP_RR" },
		{ { "-t", "TCP_CRR", "-R" }, "TCP_STREAM, TCP_MAERTS, UDP_STREAM, UDP_MAERTS" },
		{ { "-R", "--bidir" }, "-R and --bidir exclude" },
		{ { "-t", "TCP_RR", "--bidir" }, "--bidir applies to TCP_STREAM, UDP_STREAM" },
		{ { "-t", "TCP_MAERTS", "--bidir" }, "not TCP_MAERTS" },
		{ { "-t", "UDP_MAERTS", "--bidir" }, "not UDP_MAERTS" },
		{ { "-t", "TCP_RR", "-O", "1" }, "--warmup SECS" },
		{ { "-t", "UDP_RR", "--omit", "1" }, "--omit applies to stream tests" },
		{ { "-t", "TCP_STREAM", "--warmup", "1" }, "--omit SECS" },
		{ { "-t", "UDP_STREAM", "--warmup", "0" }, "--warmup applies to RR tests" },
		{ { "-O", "1", "-n", "1M" }, "--omit and -n/-k exclude" },
		{ { "-t", "UDP_STREAM", "-O", "1", "-k", "10" }, "exclude" },
		{ { "-t", "TCP_RR", "-n", "1M" }, "-k TRANSACTIONS" },
		{ { "-t", "TCP_CRR", "--bytes", "10" }, "-n applies to stream tests" },
		{ { "-t", "TCP_STREAM", "-k", "10" }, "-n BYTES" },
		{ { "-t", "TCP_MAERTS", "--count", "10" }, "not TCP_MAERTS" },
		{ { "-n", "1M", "-k", "5" }, "-n and -k exclude" },
		{ { "-t", "UDP_STREAM", "-m", "1000", "-n", "1500" }, "multiple of 1000" },
		{ { "-t", "UDP_MAERTS", "-n", "1000" }, "multiple of 1472" },
		{ { "-t", "TCP_RR", "-k", "10", "--warmup", "0.1" }, "--warmup and -k exclude" },
		{ { "-n", "0" }, "at least 1" },
		{ { "-t", "UDP_RR", "-k", "0" }, "at least 1" },
		{ { "-O", "-1" }, "--omit" },
		{ { "-n", "lots" }, "invalid size" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bad *c = &cases[i];
		struct xp_opts o;
		struct xp_err e;
		int rc = parse(&o, &e, c->args[0], c->args[1], c->args[2], c->args[3],
			       c->args[4], c->args[5], NULL);

		ck_assert_msg(rc == -1, "case %zu (%s %s) accepted", i, c->args[0],
			      c->args[1] ? c->args[1] : "");
		ck_assert_msg(strstr(e.msg, c->msg), "case %zu: '%s' lacks '%s'", i, e.msg, c->msg);
	}
}
END_TEST

/* What the valid combinations become. */
START_TEST(shape_valid)
{
	struct xp_opts o;
	struct xp_err e;

	/* -R runs the reverse twin, found from the table */
	ck_assert_int_eq(parse(&o, &e, "-t", "TCP_STREAM", "-R", NULL), 0);
	ck_assert_int_eq(o.test, XP_TCP_MAERTS);
	ck_assert_int_eq(parse(&o, &e, "-t", "UDP_STREAM", "--reverse", NULL), 0);
	ck_assert_int_eq(o.test, XP_UDP_MAERTS);
	ck_assert_int_eq(parse(&o, &e, "-t", "TCP_MAERTS", "-R", NULL), 0);
	ck_assert_int_eq(o.test, XP_TCP_STREAM);
	/* --bidir: -P flows each way */
	ck_assert_int_eq(parse(&o, &e, "-t", "UDP_STREAM", "--bidir", "-P", "3", NULL), 0);
	ck_assert_uint_eq(xp_opts_flows_total(&o), 6);
	ck_assert_int_eq(xp_opts_tcp_sender(&o, 0), 0); /* UDP: no TCP pacing */
	ck_assert_int_eq(parse(&o, &e, "--bidir", NULL), 0);
	ck_assert_int_eq(xp_opts_tcp_sender(&o, 0), 1);
	ck_assert_int_eq(xp_opts_tcp_sender(&o, 1), 1);
	ck_assert_uint_eq(xp_opts_flows_total(&o), 2);
	/* --omit on stream tests; the RR warm-up is untouched by it */
	ck_assert_int_eq(parse(&o, &e, "-t", "UDP_MAERTS", "-O", "1.5", NULL), 0);
	ck_assert_uint_eq(o.omit, 1500 * XP_NS_PER_MS);
	ck_assert_uint_eq(xp_opts_warmup_ns(&o), 0);
	ck_assert_int_eq(parse(&o, &e, "-t", "TCP_RR", NULL), 0);
	ck_assert_uint_eq(xp_opts_warmup_ns(&o), 400 * XP_NS_PER_MS);
	ck_assert_int_eq(xp_opts_given(&o, warmup), 0);
	ck_assert_uint_eq(xp_opts_quota(&o), 0);
	ck_assert_uint_eq(xp_opts_duration_ns(&o), 10 * XP_NS_PER_SEC);
	/* -n: bytes; UDP: datagrams; -l given: a bound, else 3600 s */
	ck_assert_int_eq(parse(&o, &e, "-n", "1M", NULL), 0);
	ck_assert_uint_eq(xp_opts_quota(&o), 1u << 20);
	ck_assert_uint_eq(xp_opts_duration_ns(&o), 3600 * XP_NS_PER_SEC);
	ck_assert_int_eq(parse(&o, &e, "-n", "1M", "-l", "2", NULL), 0);
	ck_assert_int_eq(xp_opts_given(&o, length), 1);
	ck_assert_uint_eq(xp_opts_duration_ns(&o), 2 * XP_NS_PER_SEC);
	ck_assert_int_eq(parse(&o, &e, "-t", "UDP_STREAM", "-m", "1000", "-n", "5000", NULL), 0);
	ck_assert_uint_eq(xp_opts_quota(&o), 5);
	/* -k: datagrams or transactions; it turns the default warm-up off */
	ck_assert_int_eq(parse(&o, &e, "-t", "UDP_MAERTS", "-k", "77", NULL), 0);
	ck_assert_uint_eq(xp_opts_quota(&o), 77);
	ck_assert_int_eq(parse(&o, &e, "-t", "TCP_CRR", "-k", "9", NULL), 0);
	ck_assert_uint_eq(xp_opts_quota(&o), 9);
	ck_assert_uint_eq(xp_opts_warmup_ns(&o), 0);
	ck_assert_int_eq(parse(&o, &e, "-t", "TCP_RR", "--warmup", "0.1", NULL), 0);
	ck_assert_int_eq(xp_opts_given(&o, warmup), 1);
	/* --fill where the client sends: also TCP_MAERTS's --bidir twin,
	 * RR requests; not with --from (agents do not open named files) */
	ck_assert_int_eq(parse(&o, &e, "--bidir", "--fill", "f", NULL), 0);
	ck_assert_str_eq(o.fill, "f");
	ck_assert_int_eq(parse(&o, &e, "-t", "UDP_RR", "--fill", "f", NULL), 0);
	ck_assert_int_eq(parse(&o, &e, "-t", "TCP_CRR", "--fill", "f", NULL), 0);
	ck_assert_int_eq(parse(&o, &e, "-t", "TCP_MAERTS", "-R", "--fill", "f", NULL), 0);
	ck_assert_int_eq(parse(&o, &e, "-c", "h", "--from", "a", "--auth-file", "k", "--fill",
			       "f", NULL), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "--fill does not combine with --from"));
}
END_TEST

/* The mode line's reason follows the rules of common/engine/direct.c. */
static const char *reason(int direct, ...)
{
	static struct xp_opts o;
	struct xp_err e;
	va_list ap;
	int rc;

	va_start(ap, direct);
	rc = vparse(&o, &e, ap);
	va_end(ap);
	ck_assert_msg(rc == 0, "%s", e.msg);
	return xp_mode_reason(&o, o.test, direct);
}

START_TEST(mode_reasons)
{
	ck_assert_ptr_nonnull(strstr(reason(1, "-t", "TCP_RR", NULL), "one flow on a worker"));
	ck_assert_ptr_nonnull(strstr(reason(1, "-w", "16K", NULL), "64 KiB or less"));
	ck_assert_ptr_nonnull(strstr(reason(0, NULL), "kernel's buffers"));
	ck_assert_ptr_nonnull(strstr(reason(0, "-w", "256K", NULL), "over 64 KiB"));
	ck_assert_ptr_nonnull(strstr(reason(0, "--sndbuf", "32K", NULL), "not entered"));
	ck_assert_ptr_nonnull(strstr(reason(0, "-t", "TCP_RR", "-P", "2", NULL), "several flows"));
	ck_assert_ptr_nonnull(strstr(reason(0, "-t", "TCP_RR", "-P", "2", "-T", "2", NULL),
				     "not entered"));
	ck_assert_ptr_nonnull(strstr(reason(0, "--bidir", NULL), "several flows"));
	ck_assert_ptr_nonnull(strstr(reason(0, "-t", "TCP_CRR", NULL), "connection per"));
	ck_assert_ptr_nonnull(strstr(reason(0, "-t", "TCP_RR", "--burst", "2", NULL), "--burst"));
	ck_assert_ptr_nonnull(strstr(reason(0, "-t", "TCP_RR", "--rate", "100", NULL), "--rate"));
	ck_assert_ptr_nonnull(strstr(reason(0, "-t", "UDP_STREAM", NULL), "UDP bulk"));
	ck_assert_ptr_nonnull(strstr(reason(0, "-w", "16K", "-b", "1G", NULL), "-b paces"));
	ck_assert_ptr_nonnull(strstr(reason(0, "-w", "16K", "-Z", NULL), "--zerocopy"));
	ck_assert_ptr_nonnull(strstr(reason(0, "-t", "TCP_RR", "--spin", NULL), "--spin"));
}
END_TEST

START_TEST(help_lists_every_option)
{
	char *list = NULL, *help = NULL, *line, *save = NULL;
	size_t ll = 0, hl = 0;
	FILE *f = open_memstream(&list, &ll), *g = open_memstream(&help, &hl);
	int n = 0;

	xp_opts_list(f);
	xp_opts_usage(g, "xperf");
	fclose(f);
	fclose(g);
	for (line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *lng = strstr(line, "--");

		ck_assert_ptr_nonnull(lng);
		ck_assert_msg(strstr(help, lng), "--help lacks %s", lng);
		n++;
	}
	ck_assert_int_gt(n, 30);
	free(list);
	free(help);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("opts");
	TCase *tc = tcase_create("opts");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, defaults);
	tcase_add_test(tc, rr_sizes);
	tcase_add_test(tc, long_and_short_agree);
	tcase_add_test(tc, invalid);
	tcase_add_test(tc, dscp_and_tos);
	tcase_add_test(tc, bind_hostport);
	tcase_add_test(tc, rate_formats);
	tcase_add_test(tc, sockpath_values);
	tcase_add_test(tc, matrix_is_lenient);
	tcase_add_test(tc, shape_invalid);
	tcase_add_test(tc, shape_valid);
	tcase_add_test(tc, mode_reasons);
	tcase_add_test(tc, help_lists_every_option);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
