/* SPDX-License-Identifier: BSD-2-Clause */
/* The option table, made from common/opts.def, and what a parsed struct
 * xp_opts says beyond its fields (message sizes, Nagle, who sends, TOS,
 * numbers by long name): read by the parser (opts.c), the checks
 * (opts_check.c, opts_shape.c) and every mode. */
#include "common/opts.h"

#include <stddef.h>
#include <string.h>

#include "common/netparse.h"
#include "common/opts_int.h"
#include "common/tests.h"

const struct xp_opt_desc xp_opt_descs[] = {
#define XP_SECTION(title) \
	{ 0, NULL, XP_K_SECTION, NULL, NULL, 0, title, 0, XP_SIDE_ANY, -1 },
#define XP_SECTION_FOR(title, side) \
	{ 0, NULL, XP_K_SECTION, NULL, NULL, 0, title, 0, XP_SIDE_##side, -1 },
#define XP_OPT(field, sc, lname, kind, meta, def, max, help) \
	{ sc, lname, XP_K_##kind, meta, def, max, help, \
	  offsetof(struct xp_opts, field), XP_SIDE_ANY, XP_OPTI_##field },
#include "common/opts.def"
#undef XP_OPT
#undef XP_SECTION
#undef XP_SECTION_FOR
};

const size_t xp_opt_ndescs = sizeof(xp_opt_descs) / sizeof(xp_opt_descs[0]);

uint64_t xp_opts_req_size(const struct xp_opts *o)
{
	return o->msg_size ? o->msg_size : xp_test(o->test)->default_size;
}

uint64_t xp_opts_rsp_size(const struct xp_opts *o)
{
	if (!xp_test(o->test)->rr)
		return 0;
	return o->rsp_size ? o->rsp_size : xp_opts_req_size(o);
}

int xp_opts_nodelay(const struct xp_opts *o)
{
	const struct xp_test *t = xp_test(o->test);

	return o->nodelay || (t->bulk && !t->udp && !o->nagle);
}

/* Whether this side (remote: the server) sends a TCP bulk test's data. */
int xp_opts_tcp_sender(const struct xp_opts *o, int remote)
{
	const struct xp_test *t = xp_test(o->test);

	return t->bulk && !t->udp && (o->bidir || t->server_sends == !!remote);
}

int xp_opts_get_numeric(const struct xp_opts *o, const char *lname, double *v)
{
	size_t i;

	for (i = 0; i < xp_opt_ndescs; i++) {
		const struct xp_opt_desc *d = &xp_opt_descs[i];
		uint64_t u;

		if (!d->lname || strcmp(d->lname, lname))
			continue;
		if (d->kind != XP_K_SIZE && d->kind != XP_K_UINT && d->kind != XP_K_RATE &&
		    d->kind != XP_K_SECS && d->kind != XP_K_SECS0)
			return -1;
		memcpy(&u, (const char *)o + d->off, sizeof(u));
		*v = d->kind == XP_K_SECS || d->kind == XP_K_SECS0 ? (double)u / 1e9 : (double)u;
		return 0;
	}
	return -1;
}

const char *xp_opts_unit(const char *lname)
{
	size_t i;

	for (i = 0; i < xp_opt_ndescs; i++) {
		const struct xp_opt_desc *d = &xp_opt_descs[i];

		if (!d->lname || strcmp(d->lname, lname))
			continue;
		if (d->kind == XP_K_SIZE)
			return "B";
		if (d->kind == XP_K_RATE)
			return "bit/s";
		return d->kind == XP_K_SECS || d->kind == XP_K_SECS0 ? "s" : "";
	}
	return "";
}

int xp_opts_tos(const struct xp_opts *o)
{
	int v = -1;

	if (o->tos && xp_parse_tos(o->tos, "--tos", &v, NULL))
		return -1;
	if (o->dscp && !xp_parse_dscp(o->dscp, "--dscp", &v, NULL))
		v <<= 2;
	return v;
}

const char *xp_opts_timestamp_format(const struct xp_opts *o)
{
	if (!o->timestamps)
		return NULL;
	return o->timestamps[0] ? o->timestamps : "%c ";
}
