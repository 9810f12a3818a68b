/* SPDX-License-Identifier: BSD-2-Clause */
/* `xperf --iperf3-wire -c HOST [-p 5201] -t TCP_STREAM|TCP_MAERTS|UDP_STREAM
 * [-R] [--bidir] [-O SECS] [--udp-counters-64bit] [xperf options]`: a test
 * against a stock iperf3 server, reported in xperf's own formats, with an
 * "iperf3" object added to --json (the cookie and both ends' results
 * messages).  A temporary entry: the iperf3 front end replaces it and
 * prints iperf3's text and JSON from the same result. */
#include "client/iperf3_wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/iperf3_client.h"
#include "client/report.h"
#include "client/start.h"
#include "common/exitcodes.h"
#include "common/signals.h"

#define IPERF3_PORT 5201

/* Take the options xperf's table does not have out of argv. */
static int own_args(int *argc, char **argv, struct xp_i3_client_cfg *c, int *port_given)
{
	int i, n = 1;

	for (i = 1; i < *argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-R") || !strcmp(a, "--reverse"))
			c->reverse = 1;
		else if (!strcmp(a, "--bidir"))
			c->bidir = 1;
		else if (!strcmp(a, "--udp-counters-64bit"))
			c->udp64 = 1;
		else if ((!strcmp(a, "-O") || !strcmp(a, "--omit")) && i + 1 < *argc)
			c->omit_s = (uint32_t)strtoul(argv[++i], NULL, 10);
		else
			argv[n++] = argv[i];
		if (!strcmp(a, "-p") || !strcmp(a, "--port") || !strncmp(a, "--port=", 7))
			*port_given = 1;
	}
	*argc = n;
	return 0;
}

static int check(const struct xp_opts *o, struct xp_i3_client_cfg *c, struct xp_err *err)
{
	if (!o->client)
		return xp_err_set(err, "--iperf3-wire needs -c HOST (a stock iperf3 server)");
	if (o->test == XP_TCP_MAERTS)
		c->reverse = 1;
	else if (o->test == XP_UDP_STREAM)
		c->udp = 1;
	else if (o->test != XP_TCP_STREAM)
		return xp_err_set(err, "--iperf3-wire runs TCP_STREAM, TCP_MAERTS or UDP_STREAM");
	if (c->reverse && c->bidir)
		return xp_err_set(err, "-R and --bidir exclude each other");
	if (!o->flows || o->flows > XP_I3_MAX_STREAMS)
		return xp_err_set(err, "-P %llu: iperf3 takes 1..%d streams",
				  (unsigned long long)o->flows, XP_I3_MAX_STREAMS);
	if (c->udp && o->msg_size && (o->msg_size < XP_I3_UDP_MIN || o->msg_size > XP_I3_UDP_MAX))
		return xp_err_set(err, "-m %llu: iperf3 UDP datagrams are %d..%d bytes",
				  (unsigned long long)o->msg_size, XP_I3_UDP_MIN, XP_I3_UDP_MAX);
	return 0;
}

static int print_json(const struct xp_opts *o, const struct xp_client_result *r,
		      const struct xp_i3_client_cfg *c, const struct xp_i3_client_out *out)
{
	struct xp_json j;
	int rc;

	xp_json_init(&j, 1);
	xp_json_obj_open(&j, NULL);
	xp_report_json_start(&j, o, r, "start");
	xp_report_json_intervals(&j, r);
	xp_report_json_end(&j, o, r, NULL, "end");
	xp_json_obj_open(&j, "iperf3");
	xp_json_str_val(&j, "cookie", out->cookie);
	xp_json_bool(&j, "udp", c->udp);
	xp_json_bool(&j, "reverse", c->reverse);
	xp_json_bool(&j, "bidir", c->bidir);
	xp_i3_results_write(&j, "local", &out->local);
	xp_i3_results_write(&j, "remote", &out->remote);
	xp_json_obj_close(&j);
	xp_json_obj_close(&j);
	rc = j.oom ? -1 : fputs(xp_json_str(&j), stdout) < 0 ? -1 : 0;
	xp_json_free(&j);
	return rc;
}

int xp_i3_wire_main(int argc, char **argv)
{
	struct xp_i3_client_cfg c = { 0 };
	struct xp_i3_client_out *out = calloc(1, sizeof(*out));
	struct xp_client_result r;
	struct xp_opts o;
	struct xp_err err = { "" };
	int port_given = 0, rc;

	memset(&o, 0, sizeof(o));
	own_args(&argc, argv, &c, &port_given);
	if (!out || xp_opts_parse(&o, argc, argv, &err) || check(&o, &c, &err)) {
		free(out);
		return xp_usage_error(o.json, out ? err.msg : "out of memory");
	}
	c.o = &o;
	rc = xp_i3_client_run(&c, o.client, port_given ? (uint16_t)o.port : IPERF3_PORT,
			      xp_signal_fd(), &r, out, &err);
	if (rc && o.json)
		xp_report_json_error(stdout, &o, err.msg);
	if (rc)
		fprintf(stderr, "xperf: %s\n", err.msg);
	else if (o.json)
		rc = print_json(&o, &r, &c, out);
	else
		xp_report_human(stdout, &o, &r);
	xp_client_result_free(&r);
	free(out);
	return rc ? XP_EXIT_FAIL : XP_EXIT_OK;
}
