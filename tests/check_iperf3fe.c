/* SPDX-License-Identifier: BSD-2-Clause */
/* The iperf3 front end's command line: iperf3 argv -> struct xp_i3fe_cfg
 * (client/iperf3/args.c, client/iperf3/optab.c) with iperf3 3.12's rules
 * and messages, and the xperf options it maps to (client/iperf3/map.c). */
#include "client/iperf3/fe_int.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "common/tests.h"

/* Parse a space-separated command line (after "iperf3"). */
static int parse(struct xp_i3fe_cfg *c, const char *line, int *usage, struct xp_err *err)
{
	static char buf[512];
	static char *argv[64];
	int argc = 0;
	char *tok;

	snprintf(buf, sizeof(buf), "%s", line);
	argv[argc++] = "iperf3";
	for (tok = strtok(buf, " "); tok && argc < 63; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return xp_i3fe_parse(c, argc, argv, usage, err);
}

static void ok(struct xp_i3fe_cfg *c, const char *line)
{
	struct xp_err err = { "" };
	int usage;

	ck_assert_msg(parse(c, line, &usage, &err) == 0, "'%s': %s", line, err.msg);
}

/* A parameter error (usage 1) or a getopt one (usage 2) with this text. */
static void bad(const char *line, int want_usage, const char *want)
{
	struct xp_i3fe_cfg c;
	struct xp_err err = { "" };
	int usage = 0;

	ck_assert_msg(parse(&c, line, &usage, &err) == -1, "'%s' accepted", line);
	ck_assert_msg(usage == want_usage, "'%s': usage %d", line, usage);
	ck_assert_msg(strstr(err.msg, want), "'%s': got '%s', want '%s'", line, err.msg, want);
}

START_TEST(test_defaults)
{
	struct xp_i3fe_cfg c;

	ok(&c, "-c 10.0.0.2");
	ck_assert_str_eq(c.host, "10.0.0.2");
	ck_assert_uint_eq(c.port, 5201);
	ck_assert_uint_eq(c.time_s, 10);
	ck_assert_uint_eq(c.parallel, 1);
	ck_assert(c.interval == 1);
	ck_assert_int_eq(c.format, 'a');
	ck_assert_uint_eq(c.rate, 0);
	ck_assert_int_eq(c.affinity, -1);
	ck_assert_int_eq(c.tos, -1);
	ok(&c, "-c h -u");
	ck_assert_uint_eq(c.rate, 1048576); /* UDP: 1 Mbit/s (iperf3's 1024 * 1024) */
	ok(&c, "-s");
	ck_assert_int_eq(c.server, 1);
}
END_TEST

START_TEST(test_getopt_rules)
{
	struct xp_i3fe_cfg c;

	ok(&c, "-uR -c h -t5 -P4 -l32K");
	ck_assert(c.udp && c.reverse);
	ck_assert_uint_eq(c.time_s, 5);
	ck_assert_uint_eq(c.parallel, 4);
	ck_assert_uint_eq(c.len, 32768);
	ok(&c, "--client=h --port=5202 --rev --paral 3 -- -P 9");
	ck_assert_uint_eq(c.port, 5202);
	ck_assert(c.reverse);
	ck_assert_uint_eq(c.parallel, 3); /* nothing after -- */
	ok(&c, "-c h stray words ignored -t 2");
	ck_assert_uint_eq(c.time_s, 2);
	ok(&c, "-c h --timestamps --logfile f -I p");
	ck_assert_str_eq(c.timestamps, "%c ");
	ck_assert_str_eq(c.logfile, "f");
	ck_assert_str_eq(c.pidfile, "p");
	ok(&c, "-c h --timestamps=%T");
	ck_assert_str_eq(c.timestamps, "%T");
	ok(&c, "-c fe80::1%eth0 -B 10.0.0.1%eth1");
	ck_assert_str_eq(c.host, "fe80::1%eth0"); /* a link-local scope stays */
	ck_assert_str_eq(c.bind_addr, "10.0.0.1");
	ck_assert_str_eq(c.bind_dev, "eth1");
	ok(&c, "-c 10.0.0.2%veth0");
	ck_assert_str_eq(c.host, "10.0.0.2");
	ck_assert_str_eq(c.bind_dev, "veth0");
	bad("--bogus", 2, "unrecognized option '--bogus'");
	bad("-c h -x", 2, "invalid option -- 'x'");
	bad("-c", 2, "option requires an argument -- 'c'");
	bad("-c h --port", 2, "option '--port' requires an argument");
	bad("-c h --udp=1", 2, "doesn't allow an argument");
	bad("-c h --b 1M", 2, "ambiguous option"); /* --bitrate, --bidir, --bind ... */
}
END_TEST

START_TEST(test_values)
{
	struct xp_i3fe_cfg c;

	ok(&c, "-c h -b 10G/100 -n 1.5M -w 1M -S 0x10 --fq-rate 1G");
	ck_assert_uint_eq(c.rate, 10000000000ull); /* rates: x1000 */
	ck_assert_uint_eq(c.burst, 100);
	ck_assert_uint_eq(c.bytes, 1572864); /* sizes: x1024 */
	ck_assert_uint_eq(c.window, 1048576);
	ck_assert_int_eq(c.tos, 16);
	ck_assert_uint_eq(c.fqrate, 1000000000ull);
	ck_assert_uint_eq(c.time_s, 0); /* -n alone: until the bytes are sent */
	ok(&c, "-c h -S 064 --dscp EF");
	ck_assert_int_eq(c.tos, 46 << 2);
	ok(&c, "-c h -S 064");
	ck_assert_int_eq(c.tos, 52); /* octal, as iperf3 takes it */
	ok(&c, "-c h -A 2,3 -f M -i 0.5 -O 3 -C bbr -M 1400 -L 0x12345");
	ck_assert_int_eq(c.affinity, 2);
	ck_assert_int_eq(c.server_affinity, 3);
	ck_assert_int_eq(c.format, 'M');
	ck_assert(c.interval == 0.5);
	ck_assert_uint_eq(c.omit, 3);
	ck_assert_str_eq(c.congestion, "bbr");
	ck_assert_uint_eq(c.mss, 1400);
	ck_assert_uint_eq(c.flowlabel, 0x12345);
	ok(&c, "-c h -i 0 -t 0");
	ck_assert(c.interval == 0);
	ck_assert_uint_eq(c.time_s, 0);
	ok(&c, "-s -A 1 -D -1 --idle-timeout 30");
	ck_assert(c.daemon && c.one_off);
	ck_assert_uint_eq(c.idle_timeout, 30);
}
END_TEST

/* iperf3 3.12's own messages, as it prints them after "parameter error - ". */
START_TEST(test_refused)
{
	bad("-c h -P 129", 1, "number of parallel streams too large (maximum = 128)");
	bad("-c h -t 86401", 1, "test duration too long (maximum = 86400 seconds)");
	bad("-c h -l 2M", 1, "block size too large (maximum = 1048576 bytes)");
	bad("-c h -u -l 70000", 1, "block size invalid (minimum = 16 bytes, maximum = 65507");
	bad("-c h -u -l 8", 1, "block size invalid");
	bad("-c h -w 1G", 1, "socket buffer size too large (maximum = 536870912 bytes)");
	bad("-c h -f x", 1, "bad format specifier (valid formats are in the set [kmgtKMGT])");
	bad("-c h -i 100", 1, "invalid report interval (min = 0.1, max = 60 seconds)");
	bad("-c h -p 0", 1, "port number must be between 1 and 65535 inclusive");
	bad("-c h -t 1 -n 1M", 1, "only one test end condition (-t, -n, -k) may be specified");
	bad("-c h -n 1M -k 10", 1, "only one test end condition");
	bad("-c h -R --bidir", 1, "cannot be both reverse and bidirectional");
	bad("-s -c h", 1, "cannot be both server and client");
	bad("-c h -s", 1, "cannot be both server and client");
	bad("-t 5", 1, "must either be a client (-c) or server (-s)");
	bad("-s -P 2", 1, "some option you are trying to set is client only");
	bad("-s -A 1,2", 1, "client only");
	bad("-c h -1", 1, "some option you are trying to set is server only");
	bad("-c h -D", 1, "server only");
	bad("-c h -S 256", 1, "bad TOS value (must be between 0 and 255 inclusive)");
	bad("-c h -M 9217", 1, "TCP MSS too large (maximum = 9216 bytes)");
	bad("-c h -O 61", 1, "bogus value for --omit");
	bad("-c h -b 1M/1001", 1, "invalid burst count (maximum = 1000)");
	bad("-c h -A x", 1, "unable to set CPU affinity");
	bad("-c h -L 0", 1, "unable to set IPv6 flow label");
	bad("-c h --rcv-timeout 1000", 1, "client receive timeout is valid only in receiving mode");
	bad("-c h --sctp", 1, "no SCTP support available");
	bad("-c h -F file", 1, "not implemented yet");
	bad("-c h --username u", 1, "not implemented yet");
	bad("-s --server-bitrate-limit 1M", 1, "not implemented yet");
	bad("-c h -t x", 1, "invalid value 'x' for -t");
	bad("-c h -n 1Q", 1, "invalid value '1Q' for -n");
}
END_TEST

START_TEST(test_actions)
{
	struct xp_i3fe_cfg c;

	ok(&c, "-v -P 500"); /* -v acts at once, as getopt's loop in iperf3 */
	ck_assert_int_eq(c.action, XP_I3FE_VERSION_ACT);
	ok(&c, "--help");
	ck_assert_int_eq(c.action, XP_I3FE_HELP);
	ok(&c, "-h -v");
	ck_assert_int_eq(c.action, XP_I3FE_HELP);
}
END_TEST

START_TEST(test_map_client)
{
	struct xp_i3fe_cfg c;
	struct xp_i3fe_run r;
	struct xp_err err;

	ok(&c, "-c 10.0.0.2 -p 5202 -t 5 -P 4 -l 256K -w 1M -N -C bbr -S 0x10 -A 2,3 "
	       "-i 0.5 -M 1400 --cport 6000 -B 10.0.0.1 -4 --connect-timeout 250");
	ck_assert_int_eq(xp_i3fe_to_run(&c, &r, &err), 0);
	ck_assert_str_eq(r.o.client, "10.0.0.2");
	ck_assert_uint_eq(r.o.port, 5202);
	ck_assert_int_eq(r.o.test, XP_TCP_STREAM);
	ck_assert_uint_eq(r.o.length, 5 * XP_NS_PER_SEC);
	ck_assert_uint_eq(r.o.flows, 4);
	ck_assert_uint_eq(r.o.msg_size, 262144);
	ck_assert_uint_eq(r.o.window, 1048576);
	ck_assert(r.o.nodelay && !r.o.nagle);
	ck_assert_str_eq(r.o.congestion, "bbr");
	ck_assert_str_eq(r.o.tos, "16");
	ck_assert_str_eq(r.o.cpus, "2");
	ck_assert_uint_eq(r.o.interval, XP_NS_PER_SEC / 2);
	ck_assert_uint_eq(r.o.set_mss, 1400);
	ck_assert_uint_eq(r.o.cport, 6000);
	ck_assert_str_eq(r.o.bind, "10.0.0.1");
	ck_assert(r.o.ipv4 && !r.o.ipv6);
	ck_assert_uint_eq(r.o.connect_timeout, 250 * XP_NS_PER_MS);
	ck_assert_ptr_eq(r.i3.o, &r.o);
	ck_assert_int_eq(r.i3.server_affinity, 3);
	ck_assert(!r.i3.udp && !r.i3.reverse && !r.i3.bidir);
	ok(&c, "-c h -u -b 10M/4 -R -O 2 --udp-counters-64bit -k 100 -B ::1");
	ck_assert_int_eq(xp_i3fe_to_run(&c, &r, &err), 0);
	ck_assert_int_eq(r.o.test, XP_UDP_STREAM);
	ck_assert_uint_eq(r.o.rate, 10000000);
	ck_assert(r.i3.udp && r.i3.reverse && r.i3.udp64);
	ck_assert_uint_eq(r.i3.burst, 4);
	ck_assert_uint_eq(r.i3.omit_s, 2);
	ck_assert_uint_eq(r.i3.blockcount, 100);
	ck_assert_int_eq(r.i3.server_affinity, -1);
	ck_assert(!r.o.nodelay && r.o.nagle); /* Nagle stays on without -N */
	ck_assert_uint_eq(r.o.length, 86400 * XP_NS_PER_SEC); /* -k alone: bounded */
	ck_assert_str_eq(r.o.bind, "[::1]");
}
END_TEST

START_TEST(test_map_server)
{
	struct xp_i3fe_cfg c;
	struct xp_i3fe_run r;
	struct xp_err err;

	ok(&c, "-s -p 5301 -D -1 --logfile f -I p -A 1 -B 10.0.0.2 --idle-timeout 30 -6");
	ck_assert_int_eq(xp_i3fe_to_run(&c, &r, &err), 0);
	ck_assert(r.o.server && r.o.daemon && r.o.one_off);
	ck_assert_uint_eq(r.o.port, 5301);
	ck_assert_str_eq(r.o.logfile, "f");
	ck_assert_str_eq(r.o.pidfile, "p");
	ck_assert_str_eq(r.o.cpus, "1");
	ck_assert_str_eq(r.o.bind, "10.0.0.2");
	ck_assert_uint_eq(r.o.idle_timeout, 30 * XP_NS_PER_SEC);
	ck_assert(r.o.ipv6);
	ck_assert_ptr_null(r.o.client);
}
END_TEST

/* Every option of the table parses with a value of its kind (or none),
 * and every one with help is in the usage text. */
START_TEST(test_table)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	xp_i3fe_usage(f);
	fclose(f);
	ck_assert(strstr(buf, "Usage: iperf3 [-s|-c host] [options]"));
	for (i = 0; i < xp_i3fe_nopts; i++) {
		char want[64];

		if (!xp_i3fe_opts[i].help)
			continue;
		snprintf(want, sizeof(want), "--%s", xp_i3fe_opts[i].lname);
		ck_assert_msg(strstr(buf, want), "%s not in the usage text", want);
	}
	free(buf);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("iperf3fe");
	TCase *t = tcase_create("args");

	tcase_add_test(t, test_defaults);
	tcase_add_test(t, test_getopt_rules);
	tcase_add_test(t, test_values);
	tcase_add_test(t, test_refused);
	tcase_add_test(t, test_actions);
	tcase_add_test(t, test_map_client);
	tcase_add_test(t, test_map_server);
	tcase_add_test(t, test_table);
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
