/* SPDX-License-Identifier: BSD-2-Clause */
/* What netperf does instead of a test: usage (global -h on stderr, test
 * -h on stdout, both exit 1), -V, -o ?, -t uuid, a test name it does not
 * know, and LOC_CPU / REM_CPU, which print the CPU "calibration rate".
 * netperf on Linux measures CPU from /proc/stat and reports that rate as
 * 100 with no newline; -v 2 adds the CPU count.  Both need the server:
 * LOC_CPU checks that it accepts a connection, REM_CPU runs a 50 ms
 * TCP_RR to learn the server's CPU count. */
#include "client/netperf/netperf.h"

#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "client/client_path.h"
#include "common/clock.h"
#include "common/sock.h"
#include "proto/msg.h"

#define NETPERF_VERSION "2.7.1"
#define CPU_PROBE_NS (50 * XP_NS_PER_MS)

void xp_np_make_uuid(char *buf, size_t len)
{
	unsigned char b[16] = { 0 };

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		memset(b, 0, sizeof(b));
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
	snprintf(buf, len, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4], b[5], b[6],
		 b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static int unknown_test(const struct xp_np_cfg *c)
{
	printf("The test you requested (%s) is unknown to this netperf.\n"
	       "Please verify that you have the correct test name, \n"
	       "and that test family has been compiled into this netperf.\n",
	       c->test_name);
	return XP_NP_EXIT_USAGE;
}

/* The server's CPU count from a short TCP_RR; 0 on failure. */
static int remote_cpus(struct xp_np_cfg *c, int sigfd, struct xp_err *err)
{
	struct xp_opts o = c->opts;
	struct xp_client_result r;
	int n = 0;

	o.test = XP_TCP_RR;
	o.msg_size = o.rsp_size = 1;
	o.length = CPU_PROBE_NS;
	o.interval = 0;
	if (xp_client_run(&o, c->host, c->port, sigfd, &r, err) == 0)
		n = (int)r.remote.ncpus;
	xp_client_result_free(&r);
	return n;
}

/* LOC_CPU: a control connection from -L and -p's lport, as netperf's. */
static int connect_once(struct xp_np_cfg *c, const struct xp_addr *a, struct xp_err *err)
{
	struct xp_sockopts so;
	uint16_t lport;
	int fd;

	memset(&so, 0, sizeof(so));
	if (xp_client_local(&c->opts, a->ss.ss_family, &so.local, &lport, err))
		return -1;
	fd = xp_connect_tcp_port(a, &so, lport, 5000, err);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int cpu_rate(struct xp_np_cfg *c, const char *prog, int sigfd)
{
	struct xp_err err = { "" };
	struct xp_addr a;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	int remote = c->kind == XP_NP_K_REM_CPU;

	if (!xp_resolve(c->host, c->port, c->family, &a, &err)) {
		if (!c->opts.bind) /* -p's lport without -L */
			xp_np_bind(c, a.ss.ss_family);
		if (remote)
			n = remote_cpus(c, sigfd, &err);
		else
			connect_once(c, &a, &err);
	}
	if (err.msg[0]) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return XP_NP_EXIT_FAIL;
	}
	printf("100");
	if (c->verbosity > 1)
		printf("\nThere are %ld %s cpus\n", n, remote ? "remote" : "local");
	fflush(stdout);
	return XP_NP_EXIT_OK;
}

int xp_np_act(struct xp_np_cfg *c, const char *prog, int sigfd)
{
	char uuid[40];

	switch (c->action) {
	case XP_NP_HELP:
		xp_np_usage(stderr, prog);
		return XP_NP_EXIT_USAGE;
	case XP_NP_TEST_HELP:
		xp_np_test_usage(stdout, prog);
		return XP_NP_EXIT_USAGE;
	case XP_NP_VERSION:
		printf("Netperf version %s\n", NETPERF_VERSION);
		return XP_NP_EXIT_OK;
	case XP_NP_LIST_CSV:
	case XP_NP_LIST_COLUMNS:
		xp_np_list_selectors(stdout, c->action == XP_NP_LIST_CSV);
		return XP_NP_EXIT_USAGE; /* as netperf -o ? */
	case XP_NP_UNKNOWN_TEST:
		return unknown_test(c);
	case XP_NP_UUID:
		xp_np_make_uuid(uuid, sizeof(uuid));
		fputs(uuid, stdout);
		return XP_NP_EXIT_OK;
	case XP_NP_CPU_RATE:
		return cpu_rate(c, prog, sigfd);
	case XP_NP_RUN:
		break;
	}
	return -1;
}
