/* SPDX-License-Identifier: BSD-2-Clause */
/* Parsing the sweep and running its points (client/sweep/sweep.h); the table,
 * CSV and chart are in client/sweep/out.c. */
#include "client/sweep/sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/client.h"
#include "client/sweep/sweep_int.h"
#include "common/exitcodes.h"

static int parse_dim(const struct xp_opts *o, const char *spec, struct xp_sweep_dim *d,
		     struct xp_err *err)
{
	const char *eq = strchr(spec, '=');
	char *p, *save = NULL;
	struct xp_opts t;

	if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof(d->name) || !eq[1])
		return xp_err_set(err, "--sweep '%s': expected NAME=V1,V2,...", spec);
	memcpy(d->name, spec, (size_t)(eq - spec));
	d->name[eq - spec] = 0;
	if (strlen(eq + 1) >= sizeof(d->buf))
		return xp_err_set(err, "--sweep %s: list too long", d->name);
	strcpy(d->buf, eq + 1);
	for (p = strtok_r(d->buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (d->n == XP_SWEEP_VALUES)
			return xp_err_set(err, "--sweep %s: at most %d values", d->name,
					  XP_SWEEP_VALUES);
		t = *o;
		if (xp_opts_set_numeric(&t, d->name, p, err) ||
		    xp_opts_get_numeric(&t, d->name, &d->value[d->n]))
			return -1;
		d->text[d->n++] = p;
	}
	return d->n ? 0 : xp_err_set(err, "--sweep %s: no values", d->name);
}

int xp_sweep_prepare(const struct xp_opts *o, struct xp_sweep *sw, struct xp_err *err)
{
	unsigned i, k;

	memset(sw, 0, sizeof(*sw));
	sw->npoints = 1;
	for (i = 0; i < o->sweep.n; i++) {
		if (parse_dim(o, o->sweep.v[i], &sw->dim[i], err))
			return -1;
		for (k = 0; k < i; k++)
			if (!strcmp(sw->dim[k].name, sw->dim[i].name))
				return xp_err_set(err, "--sweep %s given twice", sw->dim[i].name);
		sw->ndims++;
		sw->npoints *= sw->dim[i].n;
	}
	if (sw->npoints > 1000)
		return xp_err_set(err, "--sweep: %u points, at most 1000", sw->npoints);
	return 0;
}

/* The options of point p (the first sweep varies slowest). */
static int point_opts(const struct xp_sweep *sw, unsigned p, const struct xp_opts *o,
		      struct xp_opts *t, unsigned *idx, struct xp_err *err)
{
	int d;

	*t = *o;
	for (d = (int)sw->ndims - 1; d >= 0; d--) {
		idx[d] = p % sw->dim[d].n;
		p /= sw->dim[d].n;
		if (xp_opts_set_numeric(t, sw->dim[d].name, sw->dim[d].text[idx[d]], err))
			return -1;
	}
	return xp_opts_check(t, err);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Run one point -I times; keep the run whose figure is the median. */
static int run_point(const struct xp_sweep_ctx *x, const struct xp_opts *t,
		     struct xp_sweep_point *pt, struct xp_err *err)
{
	unsigned i, n = t->iterations ? (unsigned)t->iterations : 1, best = 0;
	struct xp_client_result *r = calloc(n, sizeof(*r));
	double *v = calloc(n, sizeof(*v)), *sorted = calloc(n, sizeof(*v));
	int rc = -1;

	if (!r || !v || !sorted) {
		xp_err_set(err, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (xp_client_run(t, x->host, x->port, x->sigfd, &r[i], err))
			goto out;
		v[i] = xp_sweep_figure(&r[i]);
		sorted[i] = v[i];
	}
	qsort(sorted, n, sizeof(*sorted), cmp_dbl);
	pt->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	pt->min = sorted[0];
	pt->max = sorted[n - 1];
	for (i = 1; i < n; i++)
		if (abs_diff(v[i], pt->median) < abs_diff(v[best], pt->median))
			best = i;
	rc = xp_sweep_keep(x, t, &r[best], pt, err);
out:
	for (i = 0; r && i < n; i++)
		xp_client_result_free(&r[i]);
	free(r);
	free(v);
	free(sorted);
	return rc;
}

int xp_sweep_run(const struct xp_cli *c, const struct xp_sweep *sw, const char *host,
		 uint16_t port, int sigfd)
{
	struct xp_sweep_ctx x = { c, sw, host, port, sigfd, NULL };
	struct xp_err err = { "" };
	struct xp_opts t;
	unsigned p;
	int rc = XP_EXIT_OK;

	x.pts = calloc(sw->npoints, sizeof(*x.pts));
	if (!x.pts)
		return xp_cli_fail(c->o, "out of memory");
	xp_sweep_print_head(&x);
	for (p = 0; p < sw->npoints; p++) {
		struct xp_sweep_point *pt = &x.pts[p];

		if (point_opts(sw, p, c->o, &t, pt->idx, &err) || run_point(&x, &t, pt, &err)) {
			rc = xp_cli_fail(c->o, err.msg);
			break;
		}
		pt->done = 1;
		xp_sweep_print_row(&x, pt);
	}
	if (rc == XP_EXIT_OK && xp_sweep_outputs(&x, &err))
		rc = xp_cli_fail(c->o, err.msg);
	xp_sweep_free(&x);
	return rc;
}
