/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's -o (CSV), -k (NAME=value) and -O (columns) printers over the
 * selectors of client/netperf/omni_sel.c, and the banner line. */
#include "client/netperf/netperf.h"

#include <arpa/inet.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "common/hist.h"
#include "proto/msg.h"

/* ---- the printers ---- */

static void print_csv(FILE *f, const struct xp_np_cfg *c, const struct xp_np_vals *v)
{
	char buf[1200];
	int b, i, k, first = 1;

	if (!c->nsel[0])
		return; /* netperf prints nothing without a first selector */
	for (b = 0; c->headers && b < XP_NP_BLOCKS; b++)
		for (i = 0; i < c->nsel[b]; i++, first = 0) {
			int id = c->sel[b][i];

			fputs(first ? "" : ",", f);
			for (k = 0; k < 4 && *xp_np_selector_header(id, k); k++)
				fprintf(f, "%s%s", k ? " " : "", xp_np_selector_header(id, k));
		}
	if (c->headers)
		fputc('\n', f);
	for (first = 1, b = 0; b < XP_NP_BLOCKS; b++)
		for (i = 0; i < c->nsel[b]; i++, first = 0) {
			const char *val = xp_np_format_value(c->sel[b][i], v, buf, sizeof(buf));

			fprintf(f, "%s%s", first ? "" : ",", val ? val : "");
		}
	fputc('\n', f);
}

static void print_keyval(FILE *f, const struct xp_np_cfg *c, const struct xp_np_vals *v)
{
	char buf[1200];
	int b, i;

	for (b = 0; b < XP_NP_BLOCKS; b++)
		for (i = 0; i < c->nsel[b]; i++) {
			int id = c->sel[b][i];
			const char *val = xp_np_format_value(id, v, buf, sizeof(buf));

			if (val)
				fprintf(f, "%s=%s\n", xp_np_selector_name(id), val);
		}
}

/* One -O line: four header lines then the values, each column as wide
 * as its widest header line or its value plus one, then a space. */
static void print_column_block(FILE *f, const struct xp_np_cfg *c, int b,
			       const struct xp_np_vals *v)
{
	char vals[XP_NP_PER_BLOCK][1200];
	int width[XP_NP_PER_BLOCK], i, k;

	for (i = 0; i < c->nsel[b]; i++) {
		int id = c->sel[b][i];
		const char *val = xp_np_format_value(id, v, vals[i], sizeof(vals[i]));
		int w;

		if (!val)
			vals[i][0] = 0;
		w = (int)strlen(vals[i]) + 1;
		for (k = 0; k < 4; k++)
			if ((int)strlen(xp_np_selector_header(id, k)) > w)
				w = (int)strlen(xp_np_selector_header(id, k));
		width[i] = w + 1;
	}
	for (k = 0; c->headers && k < 4; k++) {
		for (i = 0; i < c->nsel[b]; i++)
			fprintf(f, "%-*s", width[i], xp_np_selector_header(c->sel[b][i], k));
		fputc('\n', f);
	}
	for (i = 0; i < c->nsel[b]; i++)
		fprintf(f, "%-*s", width[i], vals[i]);
	fputc('\n', f);
}

static void print_columns(FILE *f, const struct xp_np_cfg *c, const struct xp_np_vals *v)
{
	int b;

	for (b = 0; b < XP_NP_BLOCKS; b++) {
		if (!c->nsel[b])
			continue;
		if (b > 0)
			fputc('\n', f);
		print_column_block(f, c, b, v);
	}
}

void xp_np_print_vals(FILE *f, const struct xp_np_cfg *c, const struct xp_np_vals *v)
{
	switch (c->mode) {
	case XP_NP_CSV: print_csv(f, c, v); break;
	case XP_NP_KEYVAL: print_keyval(f, c, v); break;
	case XP_NP_COLUMNS: print_columns(f, c, v); break;
	case XP_NP_CLASSIC: break;
	}
}

void xp_np_print_result(FILE *f, const struct xp_np_run *run)
{
	struct xp_np_vals v;

	xp_np_vals_fill(run, &v);
	if (run->cfg->mode == XP_NP_CLASSIC)
		xp_np_print_classic(f, run, &v);
	else
		xp_np_print_vals(f, run->cfg, &v);
	fflush(f);
}

/* ---- the banner ---- */

static const char *family_name(int fam)
{
	return fam == AF_INET6 ? "AF_INET6" : fam == AF_INET ? "AF_INET" : "AF_UNSPEC";
}

/* netperf shows an address in parentheses only when it fits in eight
 * bytes with its terminating NUL ("0.0.0.0", "::1"), otherwise "()";
 * scripts have long seen "to 10.0.0.2 () port 0", so xperf does too. */
static const char *short_addr(const char *a)
{
	return a && strlen(a) < 8 ? a : "";
}

void xp_np_print_banner(FILE *f, const struct xp_np_cfg *c, const struct xp_np_env *env)
{
	int fam = env->dest_family;
	const char *any = fam == AF_INET6 ? "::0" : "0.0.0.0";
	const char *local = c->local_host ? c->local_host : any;
	const char *local_num = c->local_host ? c->local_host : fam == AF_INET6 ? "::" : any;
	unsigned char tmp[sizeof(struct in6_addr)];
	char title[64];

	if (c->local_host && inet_pton(fam == AF_INET6 ? AF_INET6 : AF_INET,
				       c->local_host, tmp) != 1)
		local_num = "";
	fprintf(f, "%s from %s (%s) port %s %s to %s (%s) port %s %s", xp_np_title(c, title, sizeof(title)),
		local, short_addr(local_num), c->data_port[0][0] ? c->data_port[0] : "0",
		family_name(fam), c->host, short_addr(env->dest_numeric),
		c->data_port[1][0] ? c->data_port[1] : "0", family_name(fam));
	if (c->iter_max > 1)
		fprintf(f, " : +/-%.3f%% @ %2d%% conf. %s", c->conf_width / 0.02,
			c->conf_level, c->result_conf_only ? " on result only" : "");
	if (c->nodelay)
		fputs(" : nodelay", f);
	fputs(" : demo", f);
	if (strstr(title, "REQUEST/RESPONSE"))
		fprintf(f, " : first burst %d", c->burst);
	if (c->local_bind >= 0 || c->remote_bind >= 0)
		fputs(" : cpu bind", f);
	fputc('\n', f);
	fflush(f);
}
