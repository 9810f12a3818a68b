/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/opts.h"

#include <stddef.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>

#include "common/argscan.h"
#include "common/netparse.h"
#include "common/opts_int.h"
#include "common/units.h"
#include "common/tests.h"

#define NDESCS xp_opt_ndescs
#define descs xp_opt_descs

static int add_multi(void *p, const char *arg, const char *what, struct xp_err *err)
{
	struct xp_strs *s = p;

	if (!arg || !*arg)
		return xp_err_set(err, "%s: empty argument", what);
	if (s->n == XP_STRS_MAX)
		return xp_err_set(err, "%s: at most %d times", what, XP_STRS_MAX);
	s->v[s->n++] = arg;
	return 0;
}

/* STR, and OSTR (optional: given without a value, it is ""). */
static int set_str(void *p, int optional, const char *arg, const char *what,
		   struct xp_err *err)
{
	if (optional && !arg) {
		*(const char **)p = "";
		return 0;
	}
	if (!arg || !*arg)
		return xp_err_set(err, "%s: empty argument", what);
	*(const char **)p = arg;
	return 0;
}

/* Store one value into the field the descriptor names. */
static int set_value(struct xp_opts *o, const struct xp_opt_desc *d,
		     const char *arg, struct xp_err *err)
{
	char what[48];
	void *p = (char *)o + d->off;
	uint64_t v;
	int t;

	snprintf(what, sizeof(what), "--%s", d->lname);
	switch (d->kind) {
	case XP_K_FLAG:
		*(int *)p = 1;
		return 0;
	case XP_K_OSTR:
	case XP_K_STR:
		return set_str(p, d->kind == XP_K_OSTR, arg, what, err);
	case XP_K_SIZE:
		if (xp_parse_size(arg, d->max, what, &v, err))
			return -1;
		*(uint64_t *)p = v;
		return 0;
	case XP_K_UINT:
		if (xp_parse_uint(arg, 0, d->max, what, &v, err))
			return -1;
		*(uint64_t *)p = v;
		return 0;
	case XP_K_SECS0: /* 0 (also 0.0) allowed */
		if (arg[0] == '0' && (arg[1] == '\0' ||
				      (arg[1] == '.' && arg[2 + strspn(arg + 2, "0")] == '\0'))) {
			*(uint64_t *)p = 0;
			return 0;
		}
		/* fall through */
	case XP_K_SECS:
		if (xp_parse_secs(arg, (double)d->max, what, &v, err))
			return -1;
		*(uint64_t *)p = v;
		return 0;
	case XP_K_RATE:
		if (xp_parse_rate(arg, d->max, what, &v, err))
			return -1;
		*(uint64_t *)p = v;
		return 0;
	case XP_K_TEST:
		t = xp_test_parse(arg);
		if (!t && !strcasecmp(arg, "RRUL"))
			t = XP_RRUL; /* a composite, not a row (client/mixed/) */
		if (!t) {
			char names[128];

			return xp_err_set(err, "%s: unknown test '%s' (%s, RRUL)", what, arg,
					  xp_test_names(names, sizeof(names), ", "));
		}
		*(int *)p = t;
		return 0;
	case XP_K_MULTI:
		return add_multi(p, arg, what, err);
	case XP_K_SECTION:
		break;
	}
	return xp_err_set(err, "%s: internal: bad option kind", what);
}

void xp_opts_defaults(struct xp_opts *o)
{
	struct xp_err err;
	size_t i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < NDESCS; i++)
		if (descs[i].def && set_value(o, &descs[i], descs[i].def, &err))
			abort(); /* a bad default is a build bug, caught by tests */
}

/* The scanner's table: row i is descs[i] (a section is never matched). */
static void build_defs(struct xp_argdef *defs)
{
	size_t i;

	for (i = 0; i < NDESCS; i++) {
		const struct xp_opt_desc *d = &descs[i];

		defs[i].sc = d->kind == XP_K_SECTION ? 0 : d->sc;
		defs[i].lname = d->kind == XP_K_SECTION ? NULL : d->lname;
		defs[i].has = d->kind == XP_K_FLAG   ? XP_ARG_NONE
			      : d->kind == XP_K_OSTR ? XP_ARG_OPT
						     : XP_ARG_REQ;
	}
}

size_t xp_opts_argdefs(struct xp_argdef *defs, size_t cap)
{
	struct xp_argdef all[NDESCS];
	size_t i, n = 0;

	build_defs(all);
	for (i = 0; i < NDESCS && n < cap; i++)
		if (all[i].lname)
			defs[n++] = all[i];
	return n;
}

int xp_opts_parse(struct xp_opts *o, int argc, char **argv,
		  struct xp_err *err)
{
	return xp_opts_parse_flags(o, argc, argv, 0, err);
}

int xp_opts_parse_flags(struct xp_opts *o, int argc, char **argv, unsigned flags,
			struct xp_err *err)
{
	struct xp_argdef defs[NDESCS];
	struct xp_argscan s;
	const char *val;
	int k;

	xp_opts_defaults(o);
	build_defs(defs);
	xp_argscan_init(&s, argc, argv);
	while ((k = xp_argscan_next(&s, defs, NDESCS, &val, err)) != XP_ARGS_END) {
		if (k == XP_ARGS_ERROR)
			return -1;
		if (k == XP_ARGS_OPERAND)
			return xp_err_set(err, "unexpected argument '%s'", val);
		if (set_value(o, &descs[k], val, err))
			return -1;
		if (descs[k].idx >= 0)
			o->given[descs[k].idx] = 1;
	}
	o->argc = argc;
	o->argv = argv;
	return xp_opts_validate(o, flags, err);
}

int xp_opts_each(int argc, char **argv,
		 int (*fn)(void *ctx, const char *lname, const char *val), void *ctx)
{
	struct xp_argdef defs[NDESCS];
	struct xp_argscan s;
	struct xp_err err;
	const char *val;
	int k;

	build_defs(defs);
	xp_argscan_init(&s, argc, argv);
	while ((k = xp_argscan_next(&s, defs, NDESCS, &val, &err)) != XP_ARGS_END) {
		if (k == XP_ARGS_ERROR || (k >= 0 && fn(ctx, descs[k].lname, val)))
			return -1;
	}
	return 0;
}

static void usage_line(FILE *f, const struct xp_opt_desc *d)
{
	char left[64];
	int n;

	if (d->sc)
		n = snprintf(left, sizeof(left), "  -%c, --%s", d->sc, d->lname);
	else
		n = snprintf(left, sizeof(left), "      --%s", d->lname);
	if (d->meta && n > 0 && (size_t)n < sizeof(left))
		snprintf(left + n, sizeof(left) - (size_t)n,
			 d->kind == XP_K_OSTR ? "[=%s]" : " %s", d->meta);
	fprintf(f, "%-28s %s", left, d->help);
	if (d->def && strcmp(d->def, "0"))
		fprintf(f, " [%s]", d->def);
	fputc('\n', f);
}

void xp_opts_usage(FILE *f, const char *prog)
{
	size_t i;

	fprintf(f, "usage: %s -s [server options]\n"
		   "       %s -c HOST -t TEST [test options]\n"
		   "       %s -t TEST [test options]   (server in this process, on loopback)\n"
		   "       %s lab [lab options] [test options]   (namespace topologies: "
		   "%s lab --help)\n"
		   "       %s merge [--json] RESULT.json...   (add results exactly)\n"
		   "       %s --netperf-args [netperf options] [-- test options]   "
		   "(netperf's command line; also when run as netperf)\n"
		   "       %s --iperf3-args [iperf3 options]   (iperf3's command line, "
		   "text and JSON; also when run as iperf3: %s --iperf3-args --help)\n",
		prog, prog, prog, prog, prog, prog, prog, prog, prog);
	for (i = 0; i < NDESCS; i++) {
		if (descs[i].kind == XP_K_SECTION)
			fprintf(f, "\n%s:\n", descs[i].help);
		else
			usage_line(f, &descs[i]);
	}
	fprintf(f, "\nSizes take K, M, G suffixes (x1024).  Exit status: 0 success, "
		   "1 connection or test failure, 2 usage error, 3 an --slo bound missed.\n");
}

void xp_opts_list(FILE *f)
{
	size_t i;

	for (i = 0; i < NDESCS; i++) {
		if (descs[i].kind == XP_K_SECTION)
			continue;
		if (descs[i].sc)
			fprintf(f, "-%c|", descs[i].sc);
		fprintf(f, "--%s\n", descs[i].lname);
	}
}

int xp_opts_set_numeric(struct xp_opts *o, const char *lname, const char *value,
			struct xp_err *err)
{
	size_t i;

	for (i = 0; i < NDESCS; i++) {
		const struct xp_opt_desc *d = &descs[i];

		if (!d->lname || strcmp(d->lname, lname))
			continue;
		if (d->kind != XP_K_SIZE && d->kind != XP_K_UINT && d->kind != XP_K_RATE &&
		    d->kind != XP_K_SECS && d->kind != XP_K_SECS0)
			return xp_err_set(err, "--%s takes no number: it cannot be swept", lname);
		return set_value(o, d, value, err);
	}
	return xp_err_set(err, "unknown option '--%s'", lname);
}

int xp_opts_check(struct xp_opts *o, struct xp_err *err)
{
	return xp_opts_validate(o, 0, err);
}
