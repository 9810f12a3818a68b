/* SPDX-License-Identifier: BSD-2-Clause */
/* Chart model: defaults, checks, data extents, colours and the order in
 * which the parts are drawn. */
#include "client/plot/plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "client/plot/plot_int.h"

#define FONTS "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"

static void axis(struct xp_plot_axis *a, const char *title, const char *unit,
		 enum xp_plot_scale scale, int si, int zero)
{
	memset(a, 0, sizeof(*a));
	a->title = title;
	a->unit = unit;
	a->scale = scale;
	a->si = si;
	a->zero = zero;
	a->min = a->max = NAN;
}

void xp_plot_init(struct xp_plot *p, enum xp_plot_kind kind)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->width = 800;
	p->height = 480;
	axis(&p->x, NULL, "", XP_SCALE_LINEAR, 1, 0);
	axis(&p->y, "Throughput", "bit/s", XP_SCALE_LINEAR, 1, 1);
	axis(&p->y2, "Retransmits", "", XP_SCALE_LINEAR, 1, 1);
	if (kind == XP_PLOT_LINE)
		axis(&p->x, "Time", "s", XP_SCALE_LINEAR, 0, 1);
	if (kind == XP_PLOT_CDF) {
		axis(&p->x, "Round-trip latency", "s", XP_SCALE_LOG, 1, 0);
		p->x.to_unit = 1e-6;
		axis(&p->y, "Fraction of transactions", "", XP_SCALE_LINEAR, 0, 0);
		p->y.min = 0;
		p->y.max = 1;
	}
}

static int check_axis(const struct xp_plot_axis *a, const char *name, struct xp_err *err)
{
	if (isfinite(a->min) && isfinite(a->max) && !(a->min < a->max))
		return xp_err_set(err, "plot: %s axis: min %g is not below max %g", name,
				  a->min, a->max);
	if (a->scale == XP_SCALE_LOG && isfinite(a->min) && !(a->min > 0))
		return xp_err_set(err, "plot: %s axis is logarithmic, min %g must be above 0",
				  name, a->min);
	return 0;
}

static int check(const struct xp_plot *p, struct xp_err *err)
{
	size_t i;

	if (p->width < 240 || p->width > 8000 || p->height < 160 || p->height > 8000)
		return xp_err_set(err, "plot: size %dx%d out of range (240..8000 x 160..8000)",
				  p->width, p->height);
	if ((p->nseries && !p->series) || (p->nmarkers && !p->markers) ||
	    (p->ngroups && !p->groups))
		return xp_err_set(err, "plot: %zu series, %zu markers, %zu groups, but no array",
				  p->nseries, p->nmarkers, p->ngroups);
	for (i = 0; i < p->nseries; i++)
		if (p->series[i].n && !p->series[i].y)
			return xp_err_set(err, "plot: series %zu (%s) has %zu points and no y",
					  i + 1, p->series[i].name ? p->series[i].name : "",
					  p->series[i].n);
	if (check_axis(&p->x, "x", err) || check_axis(&p->y, "y", err))
		return -1;
	return check_axis(&p->y2, "y2", err);
}

struct extent {
	double min, max;
};

static void grow(struct extent *e, const struct xp_plot_axis *ax, double v)
{
	if (!xp_plot_extent_value(ax, v))
		return;
	e->min = fmin(e->min, v);
	e->max = fmax(e->max, v);
}

/* The extents of one series: its drawable points, and lo/hi. */
static int series_extent(const struct xp_plot *p, const struct xp_plot_series *sr,
			 struct extent *ex, struct extent *ey)
{
	const struct xp_plot_axis *ya = sr->y2 && p->kind == XP_PLOT_LINE ? &p->y2 : &p->y;
	int bars = p->kind == XP_PLOT_BARS, any = 0;
	size_t j;

	for (j = 0; j < sr->n && (!bars || j < p->ngroups); j++) {
		double x = bars ? 0.5 : sr->x ? sr->x[j] : (double)(j + 1);

		if (!xp_plot_drawable(bars ? ya : &p->x, x) || !xp_plot_drawable(ya, sr->y[j]))
			continue;
		any = 1;
		if (!bars)
			grow(ex, &p->x, x);
		grow(ey, ya, sr->y[j]);
		if (sr->lo && sr->hi && p->kind != XP_PLOT_LINE) {
			grow(ey, ya, sr->lo[j]);
			grow(ey, ya, sr->hi[j]);
		}
	}
	return any;
}

static void resolve_axes(struct xp_plot_ctx *c)
{
	const struct xp_plot *p = c->p;
	struct extent ex = { INFINITY, -INFINITY }, ey = ex, ey2 = ex;
	size_t i;

	for (i = 0; i < p->nseries; i++) {
		int right = p->series[i].y2 && p->kind == XP_PLOT_LINE;

		c->any_data |= series_extent(p, &p->series[i], &ex, right ? &ey2 : &ey);
		c->has_y2 |= right;
	}
	for (i = 0; p->kind == XP_PLOT_CDF && i < p->nmarkers; i++)
		grow(&ex, &p->x, p->markers[i].x);
	xp_plot_map_resolve(&c->x, &p->x, ex.min, ex.max, 0);
	xp_plot_map_resolve(&c->y, &p->y, ey.min, ey.max, 1);
	xp_plot_map_resolve(&c->y2, &p->y2, ey2.min, ey2.max, 1);
	if (p->kind == XP_PLOT_BARS) { /* categories: group g spans g..g+1 */
		memset(&c->x, 0, sizeof(c->x));
		c->x.ax = &p->x;
		c->x.hi = c->x.thi = p->ngroups ? (double)p->ngroups : 1;
	}
}

static void no_data(struct xp_plot_ctx *c)
{
	if (c->any_data)
		return;
	xp_svg_raw(c->s, "<text class=\"no-data\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
		   "font-size=\"16\" fill=\"#777777\">no data</text>\n",
		   (c->left + c->right) / 2, (c->top + c->bottom) / 2);
}

static void head(struct xp_plot_ctx *c)
{
	xp_svg_begin(c->s, c->p->width, c->p->height, FONTS);
	if (c->p->title) {
		xp_svg_raw(c->s, "<title>");
		xp_svg_text(c->s, c->p->title);
		xp_svg_raw(c->s, "</title>\n");
	}
	if (c->p->caption) {
		xp_svg_raw(c->s, "<desc>");
		xp_svg_text(c->s, c->p->caption);
		xp_svg_raw(c->s, "</desc>\n");
	}
	/* 4 pixels beyond the area: a dot on the frame stays round */
	xp_svg_raw(c->s, "<defs><clipPath id=\"xp-plot-area%d\"><rect x=\"%.1f\" y=\"%.1f\" "
		   "width=\"%.1f\" height=\"%.1f\"/></clipPath></defs>\n", c->p->panel, c->left - 4,
		   c->top - 4, c->right - c->left + 8, c->bottom - c->top + 8);
}

int xp_plot_render(const struct xp_plot *p, struct xp_svg *out, struct xp_err *err)
{
	struct xp_plot q = *p;
	struct xp_plot_ctx c;

	if (!q.width && !q.height)
		q.width = 800, q.height = 480;
	if (check(&q, err))
		return -1;
	memset(&c, 0, sizeof(c));
	c.p = &q;
	c.s = out;
	resolve_axes(&c);
	xp_plot_layout(&c);
	head(&c);
	xp_plot_draw_frame(&c);
	xp_plot_draw_legend(&c);
	xp_plot_draw_series(&c);
	no_data(&c);
	xp_plot_draw_caption(&c);
	return xp_svg_finish(out, err);
}

int xp_plot_write(const struct xp_plot *p, const char *path, struct xp_err *err)
{
	struct xp_svg s;
	int rc;

	xp_svg_init(&s);
	rc = xp_plot_render(p, &s, err);
	if (!rc)
		rc = xp_svg_write_file(&s, path, err);
	xp_svg_free(&s);
	return rc;
}
