/* SPDX-License-Identifier: BSD-2-Clause */
/* --csv with --sweep: one row per point.  The first columns are the swept
 * options and the main figure's median, min and max over the runs; then
 * every number, boolean and string of the point's JSON result (the run
 * whose figure is the median), each named by its path
 * (end.sum_received.bits_per_second, end.tcp_info.local.per_flow.0.rtt_us),
 * in the order they first appear.  Lossless histogram strings are left
 * out (use --json for those). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/sweep/sweep_int.h"
#include "common/json_read.h"

struct cell {
	char *path, *value;
};

struct row {
	struct cell *c;
	size_t n, cap;
};

struct cols {
	char **name;
	size_t n, cap;
};

static int push_cell(struct row *r, const char *path, const char *value)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;
		struct cell *n = realloc(r->c, cap * sizeof(*n));

		if (!n)
			return -1;
		r->c = n;
		r->cap = cap;
	}
	r->c[r->n].path = strdup(path);
	r->c[r->n].value = strdup(value);
	return r->c[r->n++].path && r->c[r->n - 1].value ? 0 : -1;
}

static void leaf_text(const struct xp_jval *v, char *buf, size_t len)
{
	const char *s;
	size_t n;
	double d;

	buf[0] = 0;
	if (xp_jval_type(v) == XP_JSTR && !xp_jval_str(v, &s, &n))
		snprintf(buf, len, "%s", s);
	else if (xp_jval_type(v) == XP_JBOOL)
		snprintf(buf, len, "%d", xp_jval_bool_or(v, 0));
	else if (xp_jval_is_int(v))
		snprintf(buf, len, "%lld", (long long)xp_jval_i64_or(v, 0));
	else if (!xp_jval_dbl(v, &d))
		snprintf(buf, len, "%.17g", d);
}

static int flatten(const struct xp_jval *v, char *path, size_t off, size_t cap,
		   struct row *r)
{
	const struct xp_jval *m;
	char text[512];
	size_t i = 0, klen;

	if (xp_jval_type(v) != XP_JOBJ && xp_jval_type(v) != XP_JARR) {
		if (off >= 9 && !strcmp(path + off - 9, "histogram"))
			return 0;
		leaf_text(v, text, sizeof(text));
		return push_cell(r, path, text);
	}
	for (m = xp_jval_first(v); m; m = xp_jval_next(m), i++) {
		const char *key = xp_jval_type(v) == XP_JOBJ ? xp_jval_key(m, &klen) : NULL;
		int n = key ? snprintf(path + off, cap - off, "%s%s", off ? "." : "", key)
			    : snprintf(path + off, cap - off, "%s%zu", off ? "." : "", i);

		if (n < 0 || (size_t)n >= cap - off)
			continue; /* a path too long to name: left out */
		if (flatten(m, path, off + (size_t)n, cap, r))
			return -1;
		path[off] = 0;
	}
	return 0;
}

static int add_col(struct cols *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->name[i], name))
			return 0;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 128;
		char **n = realloc(c->name, cap * sizeof(*n));

		if (!n)
			return -1;
		c->name = n;
		c->cap = cap;
	}
	c->name[c->n++] = (char *)name;
	return 0;
}

/* A CSV field: quoted when it holds a comma, quote or line break. */
static void field(FILE *f, const char *s, int first)
{
	if (!first)
		fputc(',', f);
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static const char *lookup(const struct row *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->c[i].path, name))
			return r->c[i].value;
	return "";
}

static void write_rows(FILE *f, const struct xp_sweep_ctx *x, const struct row *rows,
		       const struct cols *cols)
{
	unsigned p, d;
	size_t i;

	for (d = 0; d < x->sw->ndims; d++)
		field(f, x->sw->dim[d].name, d == 0);
	fputs(",figure_median,figure_min,figure_max", f);
	for (i = 0; i < cols->n; i++)
		field(f, cols->name[i], 0);
	fputc('\n', f);
	for (p = 0; p < x->sw->npoints && x->pts[p].done; p++) {
		for (d = 0; d < x->sw->ndims; d++)
			field(f, x->sw->dim[d].text[x->pts[p].idx[d]], d == 0);
		fprintf(f, ",%.17g,%.17g,%.17g", x->pts[p].median, x->pts[p].min, x->pts[p].max);
		for (i = 0; i < cols->n; i++)
			field(f, lookup(&rows[p], cols->name[i]), 0);
		fputc('\n', f);
	}
}

static int flatten_points(const struct xp_sweep_ctx *x, struct row *rows,
			  struct cols *cols, struct xp_err *err)
{
	unsigned p;
	size_t i;
	char path[512] = "";

	for (p = 0; p < x->sw->npoints && x->pts[p].done; p++) {
		struct xp_jdoc *doc = xp_jdoc_parse(x->pts[p].json, strlen(x->pts[p].json),
						     NULL, err);
		int rc = doc ? flatten(xp_jdoc_root(doc), path, 0, sizeof(path), &rows[p]) : -1;

		xp_jdoc_free(doc);
		if (rc)
			return xp_err_set(err, "--csv: %s", doc ? "out of memory" : err->msg);
		for (i = 0; i < rows[p].n; i++)
			if (add_col(cols, rows[p].c[i].path))
				return xp_err_set(err, "--csv: out of memory");
	}
	return 0;
}

int xp_sweep_csv(const struct xp_sweep_ctx *x, const char *path, struct xp_err *err)
{
	struct row *rows = calloc(x->sw->npoints, sizeof(*rows));
	struct cols cols = { 0 };
	FILE *f = NULL;
	unsigned p;
	size_t i;
	int rc = -1;

	if (!rows)
		return xp_err_set(err, "--csv: out of memory");
	if (flatten_points(x, rows, &cols, err))
		goto out;
	if (!(f = fopen(path, "we"))) {
		xp_err_sys(err, errno, "--csv %s", path);
		goto out;
	}
	write_rows(f, x, rows, &cols);
	rc = fclose(f) ? xp_err_sys(err, errno, "--csv %s", path) : 0;
out:
	for (p = 0; p < x->sw->npoints; p++) {
		for (i = 0; i < rows[p].n; i++) {
			free(rows[p].c[i].path);
			free(rows[p].c[i].value);
		}
		free(rows[p].c);
	}
	free(rows);
	free(cols.name);
	return rc;
}
