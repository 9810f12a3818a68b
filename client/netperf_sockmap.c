/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's socket options onto xperf's: -Y (IP TOS, both ends) ->
 * --tos, -K (congestion control) -> --congestion, TCP_SENDFILE ->
 * --sendfile.
 *
 * INTEGRATION POINT.  Those xperf options come with the socket-options
 * work (branch `sockopts`).  So that this front end builds and runs with
 * or without them, it does not name their struct xp_opts fields: it hands
 * the options, as xperf's own command line, to xp_opts_parse, which fills
 * the defaults of the run together with whatever of them this xperf
 * knows; an option this xperf lacks is left out and said so on stderr
 * (c->sock_note).  The only piece that names a field of that work is
 * xp_np_result_congestion at the end of this file.
 *
 * netperf sets each end's own value (-Y loc,rem; -K loc,rem); xperf's
 * options set one value on both ends, so when the two differ the value
 * of the end that sends the data is used.  As netperf, a TOS of 0 is not
 * set (a socket has it anyway) and an unknown congestion control is
 * silently not set. */
#include "client/netperf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "proto/msg.h"

#define CC_AVAILABLE "/proc/sys/net/ipv4/tcp_available_congestion_control"

int xp_np_parse_tos(const char *s)
{
	static const struct { const char *name; int tos; } names[] = {
		{ "ef", 0xb8 }, { "lowdelay", 0x10 }, { "throughput", 0x08 },
		{ "reliability", 0x04 },
	};
	char *end;
	long v;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(s, names[i].name))
			return names[i].tos;
	/* af<class><drop>: DSCP 8 class + 2 drop; cs<n>: n << 3; TOS = DSCP << 2 */
	if ((s[0] == 'a' || s[0] == 'A') && (s[1] == 'f' || s[1] == 'F') &&
	    s[2] >= '1' && s[2] <= '4' && s[3] >= '1' && s[3] <= '3' && !s[4])
		return (8 * (s[2] - '0') + 2 * (s[3] - '0')) << 2;
	if ((s[0] == 'c' || s[0] == 'C') && (s[1] == 's' || s[1] == 'S') &&
	    s[2] >= '0' && s[2] <= '7' && !s[3])
		return (s[2] - '0') << 5;
	v = strtol(s, &end, 0);
	if (!*s || *end || v < 0 || v > 255)
		return -1;
	return (int)v;
}

/* Whether this xperf knows the option (--tos, --congestion, --sendfile):
 * an unknown one is the only way its parser fails on a value that is
 * valid for it. */
static int xperf_has(const char *opt, const char *val)
{
	struct xp_opts scratch;
	struct xp_err err = { "" };
	char o[32], v[40];
	char *argv[4] = { "xperf", o, v, NULL };

	snprintf(o, sizeof(o), "%s", opt);
	snprintf(v, sizeof(v), "%s", val ? val : "");
	if (!xp_opts_parse(&scratch, val ? 3 : 2, argv, &err))
		return 1;
	return !strstr(err.msg, "unknown option");
}

static int cc_available(const char *name)
{
	char line[512], *tok, *save = NULL;
	FILE *f = fopen(CC_AVAILABLE, "re");
	int found = 0;

	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f))
		for (tok = strtok_r(line, " \n", &save); tok && !found;
		     tok = strtok_r(NULL, " \n", &save))
			found = !strcmp(tok, name);
	fclose(f);
	return found;
}

/* The end whose value counts when -Y or -K give two: the data sender's
 * (the client's for request/response tests). */
static int sender_side(const struct xp_np_cfg *c)
{
	const struct xp_test *t = xp_test(c->test);

	return !t->rr && t->server_sends ? 1 : 0;
}

static void add(char **argv, int *argc, char *slot, const char *opt, const char *val)
{
	snprintf(slot, 20, "%s", opt);
	argv[(*argc)++] = slot;
	if (val) {
		snprintf(slot + 20, 20, "%s", val);
		argv[(*argc)++] = slot + 20;
	}
}

static void map_tos(struct xp_np_cfg *c, char **argv, int *argc)
{
	int s = sender_side(c), v = c->tos[s] > 0 ? c->tos[s] : c->tos[!s];
	char val[16];

	c->tos_applied[0] = c->tos_applied[1] = -1;
	if (v <= 0)
		return;
	snprintf(val, sizeof(val), "0x%02x", (unsigned)v & 0xff);
	if (!xperf_has("--tos", val)) {
		c->sock_note = "-Y: IP TOS not set (this xperf has no --tos)";
		return;
	}
	add(argv, argc, c->sockarg[0], "--tos", val);
	c->tos_applied[0] = c->tos_applied[1] = v;
}

static void map_cong(struct xp_np_cfg *c, char **argv, int *argc)
{
	int s = sender_side(c);
	const char *cc = c->cong_buf[s][0] ? c->cong_buf[s] : c->cong_buf[!s];

	c->cong_applied[0] = 0;
	if (!*cc || xp_test(c->test)->udp || strlen(cc) >= 16 || !cc_available(cc))
		return;
	if (!xperf_has("--congestion", cc)) {
		c->sock_note = "-K: congestion control not set (this xperf has no --congestion)";
		return;
	}
	add(argv, argc, c->sockarg[1], "--congestion", cc);
	snprintf(c->cong_applied, sizeof(c->cong_applied), "%s", cc);
}

int xp_np_map_sockopts(struct xp_np_cfg *c, struct xp_err *err)
{
	char *argv[12];
	int argc = 0;

	argv[argc++] = "xperf";
	add(argv, &argc, c->sockarg[3], "-t", xp_test_name(c->test));
	map_tos(c, argv, &argc);
	map_cong(c, argv, &argc);
	if (c->sendfile && !xperf_has("--sendfile", NULL)) {
		c->sendfile = 0;
		c->sock_note = "TCP_SENDFILE: sent with send(2) (this xperf has no --sendfile)";
	} else if (c->sendfile) {
		add(argv, &argc, c->sockarg[2], "--sendfile", NULL);
	}
	argv[argc] = NULL;
	if (xp_opts_parse(&c->opts, argc, argv, err))
		return -1;
	return 0;
}

/* INTEGRATION POINT: with the socket-options work, a side's result names
 * the congestion control its data sockets used: return s->congestion. */
const char *xp_np_result_congestion(const struct xp_side_result *s)
{
	(void)s;
	return NULL;
}
