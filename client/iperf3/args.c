/* SPDX-License-Identifier: BSD-2-Clause */
/* iperf3's command line -> struct xp_i3fe_cfg (client/iperf3/fe.h), read
 * as iperf3 3.12 reads it: getopt_long's rules (grouped flags, attached
 * or separate arguments, --name=value, unique prefixes of long names,
 * words that are not options ignored), then iperf3's checks of roles,
 * sizes and end conditions with its messages.  The option table is in
 * client/iperf3/optab.c; the usage text is printed from it.  Pure: no
 * I/O but the usage text's. */
#include "client/iperf3/fe_int.h"

#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

/* err holds a getopt message (printed as "iperf3: MSG", usage on stderr)
 * or a parameter error ("iperf3: parameter error - MSG", usage on
 * stdout): *usage says which, 2 or 1. */
#define USAGE_STDOUT 1
#define USAGE_STDERR 2

static void defaults(struct xp_i3fe_cfg *c, int argc, char **argv)
{
	memset(c, 0, sizeof(*c));
	c->port = XP_I3FE_PORT;
	c->family = AF_UNSPEC;
	c->format = 'a';
	c->interval = 1;
	c->affinity = c->server_affinity = -1;
	c->time_s = 10;
	c->parallel = 1;
	c->pacing_timer = 1000;
	c->tos = -1;
	c->rcv_timeout_ms = 120000;
	c->argc = argc;
	c->argv = argv;
}

static const struct xp_i3fe_opt *by_letter(char l)
{
	size_t i;

	for (i = 0; i < xp_i3fe_nopts; i++)
		if (xp_i3fe_opts[i].letter == l)
			return &xp_i3fe_opts[i];
	return NULL;
}

/* An exact long name, or the only option it is a prefix of. */
static const struct xp_i3fe_opt *by_name(const char *name, size_t len, int *ambiguous)
{
	const struct xp_i3fe_opt *hit = NULL;
	size_t i;

	*ambiguous = 0;
	for (i = 0; i < xp_i3fe_nopts; i++) {
		const struct xp_i3fe_opt *o = &xp_i3fe_opts[i];

		if (strncmp(o->lname, name, len))
			continue;
		if (strlen(o->lname) == len)
			return o;
		if (hit && hit->set != o->set)
			*ambiguous = 1;
		hit = hit ? hit : o;
	}
	return *ambiguous ? NULL : hit;
}

/* Which options were seen: the role checks come after the whole line. */
struct seen {
	int client_only, server_only, rcv_timeout;
};

static int apply(struct xp_i3fe_cfg *c, const struct xp_i3fe_opt *o, const char *v,
		 struct seen *s, struct xp_err *err)
{
	s->client_only |= o->side == XP_I3S_CLIENT && o->letter != 'c';
	s->client_only |= o->letter == 'A' && v && strchr(v, ','); /* the server's CPU */
	s->server_only |= o->side == XP_I3S_SERVER && o->letter != 's';
	s->rcv_timeout |= !strcmp(o->lname, "rcv-timeout");
	return o->set(c, v, err);
}

static int long_opt(struct xp_i3fe_cfg *c, int argc, char **argv, int *i, struct seen *s,
		    int *usage, struct xp_err *err)
{
	const char *w = argv[*i] + 2, *eq = strchr(w, '=');
	size_t len = eq ? (size_t)(eq - w) : strlen(w);
	int ambiguous;
	const struct xp_i3fe_opt *o = by_name(w, len, &ambiguous);
	const char *v = eq ? eq + 1 : NULL;

	*usage = USAGE_STDERR;
	if (!o)
		return xp_err_set(err, "%s option '%.*s'", ambiguous ? "ambiguous" :
				  "unrecognized", (int)(len + 2 < 200 ? len + 2 : 200), argv[*i]);
	if (o->arg == XP_I3A_NONE && v)
		return xp_err_set(err, "option '--%s' doesn't allow an argument", o->lname);
	if (o->arg == XP_I3A_REQ && !v) {
		if (*i + 1 >= argc)
			return xp_err_set(err, "option '--%s' requires an argument", o->lname);
		v = argv[++*i];
	}
	*usage = USAGE_STDOUT;
	return apply(c, o, v, s, err);
}

/* "-xyz": flags grouped, the first that takes an argument ends the word. */
static int short_opts(struct xp_i3fe_cfg *c, int argc, char **argv, int *i, struct seen *s,
		      int *usage, struct xp_err *err)
{
	const char *p;

	for (p = argv[*i] + 1; *p; p++) {
		const struct xp_i3fe_opt *o = by_letter(*p);
		const char *v = NULL;

		*usage = USAGE_STDERR;
		if (!o)
			return xp_err_set(err, "invalid option -- '%c'", *p);
		if (o->arg != XP_I3A_NONE && p[1]) {
			v = p + 1;
		} else if (o->arg == XP_I3A_REQ) {
			if (*i + 1 >= argc)
				return xp_err_set(err, "option requires an argument -- '%c'", *p);
			v = argv[++*i];
		}
		*usage = USAGE_STDOUT;
		if (apply(c, o, v, s, err))
			return -1;
		if (o->arg != XP_I3A_NONE)
			break;
	}
	return 0;
}

/* iperf3's checks once every option is in. */
static int check(struct xp_i3fe_cfg *c, const struct seen *s, struct xp_err *err)
{
	if (c->action)
		return 0;
	if (c->has_host && s->server_only)
		return xp_err_set(err, "some option you are trying to set is server only");
	if (c->server && s->client_only)
		return xp_err_set(err, "some option you are trying to set is client only");
	if (c->udp && c->len && (c->len < 16 || c->len > 65507))
		return xp_err_set(err, "block size invalid (minimum = 16 bytes, maximum = 65507 "
				  "bytes)");
	if (!c->rate_given)
		c->rate = c->udp ? XP_I3FE_UDP_RATE : 0;
	if ((c->time_given && (c->bytes || c->blocks)) || (c->bytes && c->blocks))
		return xp_err_set(err, "only one test end condition (-t, -n, -k) may be specified");
	if ((c->bytes || c->blocks) && !c->time_given)
		c->time_s = 0;
	if (!c->server && !c->has_host)
		return xp_err_set(err, "must either be a client (-c) or server (-s)");
	if (c->has_host && s->rcv_timeout && !c->reverse && !c->bidir)
		return xp_err_set(err, "client receive timeout is valid only in receiving mode");
	return 0;
}

int xp_i3fe_parse(struct xp_i3fe_cfg *c, int argc, char **argv, int *usage,
		  struct xp_err *err)
{
	struct seen s = { 0, 0, 0 };
	int i, rc = 0;

	defaults(c, argc, argv);
	*usage = 0;
	err->msg[0] = 0;
	for (i = 1; i < argc && !rc && !c->action; i++) {
		const char *w = argv[i];

		if (!strcmp(w, "--"))
			break;
		if (w[0] != '-' || !w[1])
			continue; /* getopt leaves them; iperf3 ignores them */
		if (w[1] == '-')
			rc = long_opt(c, argc, argv, &i, &s, usage, err);
		else
			rc = short_opts(c, argc, argv, &i, &s, usage, err);
	}
	if (rc)
		return -1;
	*usage = USAGE_STDOUT;
	if (check(c, &s, err))
		return -1;
	*usage = 0;
	return 0;
}

/* ---- usage ---- */

static void usage_line(FILE *f, const struct xp_i3fe_opt *o)
{
	char lhs[64];
	int n;

	if (o->letter)
		n = snprintf(lhs, sizeof(lhs), "  -%c, --%s %s", o->letter, o->lname,
			     o->meta ? o->meta : "");
	else
		n = snprintf(lhs, sizeof(lhs), "  --%s %s", o->lname, o->meta ? o->meta : "");
	fprintf(f, "%-28s%s%s\n", lhs, n >= 28 ? "\n                            " : "", o->help);
}

void xp_i3fe_usage(FILE *f)
{
	static const char *const title[] = { "Server or Client:", "Client specific:",
					     "Server specific:" };
	static const unsigned char order[] = { XP_I3S_ANY, XP_I3S_SERVER, XP_I3S_CLIENT };
	size_t i, k;

	fprintf(f, "Usage: iperf3 [-s|-c host] [options]\n"
		   "       iperf3 [-h|--help] [-v|--version]\n"
		   "(xperf's iperf3 front end: iperf3 %s's options and output; see xperf(1),\n"
		   "IPERF3 COMPATIBILITY)\n\n", XP_I3FE_VERSION);
	for (k = 0; k < sizeof(order); k++) {
		fprintf(f, "%s\n", title[order[k]]);
		for (i = 0; i < xp_i3fe_nopts; i++)
			if (xp_i3fe_opts[i].side == order[k] && xp_i3fe_opts[i].help)
				usage_line(f, &xp_i3fe_opts[i]);
	}
	fprintf(f, "\n[KMG] indicates options that support a K/M/G suffix for kilo-, mega-, or "
		   "giga-\n");
}

void xp_i3fe_option_words(FILE *f)
{
	size_t i;

	for (i = 0; i < xp_i3fe_nopts; i++) {
		if (xp_i3fe_opts[i].letter)
			fprintf(f, "-%c ", xp_i3fe_opts[i].letter);
		fprintf(f, "--%s%s", xp_i3fe_opts[i].lname, i + 1 < xp_i3fe_nopts ? " " : "");
	}
}
