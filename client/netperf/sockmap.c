/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's socket options onto xperf's: -Y (IP TOS) -> --tos,
 * -K (congestion control) -> -C/--congestion, TCP_SENDFILE -> --sendfile.
 * netperf sets each end's own value (-Y loc,rem; -K loc,rem); xperf's
 * options set one value on both ends, so when the two differ the value
 * of the end that sends the data is used on both (the client's for
 * request/response tests).  As netperf, a TOS of 0 is not set (a socket
 * has it anyway), and a congestion control this host does not offer is
 * silently not set (netperf's setsockopt fails and it goes on). */
#include "client/netperf/netperf.h"

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

static void map_tos(struct xp_np_cfg *c)
{
	int s = sender_side(c), v = c->tos[s] > 0 ? c->tos[s] : c->tos[!s];

	c->tos_applied[0] = c->tos_applied[1] = -1;
	if (v <= 0)
		return;
	snprintf(c->sockarg[0], sizeof(c->sockarg[0]), "0x%02x", (unsigned)v & 0xff);
	c->opts.tos = c->sockarg[0];
	c->tos_applied[0] = c->tos_applied[1] = v;
}

static void map_cong(struct xp_np_cfg *c)
{
	int s = sender_side(c);
	const char *cc = c->cong_buf[s][0] ? c->cong_buf[s] : c->cong_buf[!s];

	c->cong_applied[0] = 0;
	if (!*cc || xp_test(c->test)->udp || strlen(cc) >= XP_CC_NAME_MAX || !cc_available(cc))
		return;
	snprintf(c->cong_applied, sizeof(c->cong_applied), "%s", cc);
	c->opts.congestion = c->cong_applied;
}

int xp_np_map_sockopts(struct xp_np_cfg *c, struct xp_err *err)
{
	(void)err;
	map_tos(c);
	map_cong(c);
	c->opts.sendfile = c->sendfile;
	return 0;
}
