/* SPDX-License-Identifier: BSD-2-Clause */
/* Option table: defaults, parsing, validation and --help agree. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/opts.h"
#include "common/tests.h"
#include "proto/msg.h"

static int parse(struct xp_opts *o, struct xp_err *e, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;
	char *a;

	argv[argc++] = "xperf";
	va_start(ap, e);
	while ((a = va_arg(ap, char *)) && argc < 31)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	e->msg[0] = 0;
	return xp_opts_parse(o, argc, argv, e);
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
		{ { "-1" }, "server options" },
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
	tcase_add_test(tc, shape_invalid);
	tcase_add_test(tc, shape_valid);
	tcase_add_test(tc, help_lists_every_option);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
