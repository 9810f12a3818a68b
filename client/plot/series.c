/* SPDX-License-Identifier: BSD-2-Clause */
/* The data: lines, bars, bands, error bars and CDF markers.  Each series
 * is exactly one element with class="series" (a path), so a reader of the
 * SVG (and tests/check_plot.c) can count them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "client/plot/plot_int.h"

#define MARKER_ROWS 3

static double x_of(const struct xp_plot_series *sr, size_t j)
{
	return sr->x ? sr->x[j] : (double)(j + 1);
}

static const struct xp_plot_map *y_map(const struct xp_plot_ctx *c,
				       const struct xp_plot_series *sr)
{
	return sr->y2 && c->has_y2 ? &c->y2 : &c->y;
}

/* Pixel position of point j, or 0 when it cannot be drawn. */
static int point(const struct xp_plot_ctx *c, const struct xp_plot_series *sr, size_t j,
		 double *px, double *py)
{
	*px = xp_plot_px(&c->x, x_of(sr, j));
	*py = xp_plot_px(y_map(c, sr), sr->y[j]);
	return !isnan(*px) && !isnan(*py);
}

static void move_or_line(struct xp_svg *s, int line, double x, double y)
{
	xp_svg_raw(s, line ? "L" : "M");
	xp_svg_num(s, x);
	xp_svg_raw(s, " ");
	xp_svg_num(s, y);
}

static void circle(struct xp_svg *s, double x, double y, double r, const char *color)
{
	xp_svg_raw(s, "<circle class=\"point\" cx=\"");
	xp_svg_num(s, x);
	xp_svg_raw(s, "\" cy=\"");
	xp_svg_num(s, y);
	xp_svg_raw(s, "\" r=\"%g\" fill=\"%s\"/>\n", r, color);
}

/* A polyline broken at points that cannot be drawn; points with no
 * drawable neighbour get a dot (a line of one point shows nothing). */
static void line_series(struct xp_plot_ctx *c, size_t i, int dots)
{
	const struct xp_plot_series *sr = &c->p->series[i];
	const char *color = xp_plot_series_color(c->p, i), *dash = xp_plot_series_dash(c->p, i);
	int bold = sr->style == XP_STYLE_BOLD, pen = 0, prev = 0, cur, next;
	double px, py, qx, qy;
	size_t j;

	xp_svg_raw(c->s, "<path class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" "
		   "stroke-linejoin=\"round\" stroke-linecap=\"round\"%s%s%s d=\"",
		   color, bold ? "3" : "2", *dash ? " stroke-dasharray=\"" : "", dash,
		   *dash ? "\"" : "");
	for (j = 0; j < sr->n; j++) {
		if (!point(c, sr, j, &px, &py)) {
			pen = 0;
			continue;
		}
		move_or_line(c->s, pen, px, py);
		pen = 1;
	}
	xp_svg_raw(c->s, "\"/>\n");
	for (j = 0; j < sr->n; j++) {
		cur = point(c, sr, j, &px, &py);
		next = j + 1 < sr->n && point(c, sr, j + 1, &qx, &qy);
		if (cur && (dots || (!prev && !next)))
			circle(c->s, px, py, dots ? 3.5 : 2.5, color);
		prev = cur;
	}
}

static void rect_subpath(struct xp_svg *s, double x0, double x1, double y0, double y1)
{
	move_or_line(s, 0, x0, y0);
	xp_svg_raw(s, "H");
	xp_svg_num(s, x1);
	xp_svg_raw(s, "V");
	xp_svg_num(s, y1);
	xp_svg_raw(s, "H");
	xp_svg_num(s, x0);
	xp_svg_raw(s, "Z");
}

/* Where bars start: the value 0, or the bottom when 0 is off the axis. */
static double baseline(const struct xp_plot_ctx *c, const struct xp_plot_map *m)
{
	double b = xp_plot_px(m, 0);

	return isnan(b) ? c->bottom : fmax(c->top, fmin(c->bottom, b));
}

/* LINE charts: one bar per point (e.g. retransmits per interval), 0.6 of
 * the narrowest gap between points wide. */
static void bar_series(struct xp_plot_ctx *c, size_t i)
{
	const struct xp_plot_series *sr = &c->p->series[i];
	double w = 1e9, last = NAN, base = baseline(c, y_map(c, sr)), px, py;
	size_t j;

	for (j = 0; j < sr->n; j++) {
		if (!point(c, sr, j, &px, &py))
			continue;
		if (!isnan(last) && fabs(px - last) > 0)
			w = fmin(w, fabs(px - last));
		last = px;
	}
	w = w >= 1e9 ? 12 : fmax(1, fmin(40, w * 0.6));
	xp_svg_raw(c->s, "<path class=\"series\" fill=\"%s\" stroke=\"none\" d=\"",
		   xp_plot_series_color(c->p, i));
	for (j = 0; j < sr->n; j++)
		if (point(c, sr, j, &px, &py))
			rect_subpath(c->s, px - w / 2, px + w / 2, base, py);
	xp_svg_raw(c->s, "\"/>\n");
}

static int band_point(const struct xp_plot_ctx *c, const struct xp_plot_series *sr,
		      size_t j, double *px, double *plo, double *phi)
{
	*px = xp_plot_px(&c->x, x_of(sr, j));
	*plo = xp_plot_px(&c->y, sr->lo[j]);
	*phi = xp_plot_px(&c->y, sr->hi[j]);
	return !isnan(*px) && !isnan(*plo) && !isnan(*phi);
}

/* Points a..k-1, all with both bounds: a closed outline along hi and
 * back along lo (a run of one point is a narrow bar). */
static void band_run(struct xp_plot_ctx *c, const struct xp_plot_series *sr, size_t a,
		     size_t k)
{
	double px, lo, hi;
	size_t j;

	if (k - a == 1) {
		band_point(c, sr, a, &px, &lo, &hi);
		rect_subpath(c->s, px - 3, px + 3, hi, lo);
		return;
	}
	for (j = a; j < k; j++) {
		band_point(c, sr, j, &px, &lo, &hi);
		move_or_line(c->s, j > a, px, hi);
	}
	for (j = k; j-- > a;) {
		band_point(c, sr, j, &px, &lo, &hi);
		move_or_line(c->s, 1, px, lo);
	}
	xp_svg_raw(c->s, "Z");
}

/* TREND: the shaded lo..hi band behind the median line. */
static void band(struct xp_plot_ctx *c, size_t i)
{
	const struct xp_plot_series *sr = &c->p->series[i];
	double px, lo, hi;
	size_t j = 0, k;

	if (!sr->lo || !sr->hi)
		return;
	xp_svg_raw(c->s, "<path class=\"band\" fill=\"%s\" fill-opacity=\"0.2\" stroke=\"none\" "
		   "d=\"", xp_plot_series_color(c->p, i));
	while (j < sr->n) {
		if (!band_point(c, sr, j, &px, &lo, &hi)) {
			j++;
			continue;
		}
		for (k = j; k < sr->n && band_point(c, sr, k, &px, &lo, &hi); k++)
			;
		band_run(c, sr, j, k);
		j = k;
	}
	xp_svg_raw(c->s, "\"/>\n");
}

/* BARS charts: group g spans g..g+1 on the x axis; its bars share the
 * middle 0.8 of it, series i in slot i. */
static double slot_x(const struct xp_plot *p, size_t g, size_t i, double f)
{
	double slot = 0.8 / (double)p->nseries;

	return (double)g + 0.1 + ((double)i + f) * slot;
}

static size_t bar_count(const struct xp_plot *p, const struct xp_plot_series *sr)
{
	return sr->n < p->ngroups ? sr->n : p->ngroups;
}

static void bar_chart_series(struct xp_plot_ctx *c, size_t i)
{
	const struct xp_plot *p = c->p;
	const struct xp_plot_series *sr = &p->series[i];
	double base = baseline(c, &c->y), py;
	size_t g;

	xp_svg_raw(c->s, "<path class=\"series\" fill=\"%s\" stroke=\"none\" d=\"",
		   xp_plot_series_color(p, i));
	for (g = 0; g < bar_count(p, sr); g++) {
		py = xp_plot_px(&c->y, sr->y[g]);
		if (!isnan(py))
			rect_subpath(c->s, xp_plot_px(&c->x, slot_x(p, g, i, 0.06)),
				     xp_plot_px(&c->x, slot_x(p, g, i, 0.94)), base, py);
	}
	xp_svg_raw(c->s, "\"/>\n");
}

static void error_bars(struct xp_plot_ctx *c, size_t i)
{
	const struct xp_plot *p = c->p;
	const struct xp_plot_series *sr = &p->series[i];
	double cx, lo, hi, cap;
	size_t g;

	if (!sr->lo || !sr->hi)
		return;
	cap = fmin(6, (xp_plot_px(&c->x, slot_x(p, 0, i, 1)) -
		       xp_plot_px(&c->x, slot_x(p, 0, i, 0))) / 3);
	xp_svg_raw(c->s, "<path class=\"errbar\" fill=\"none\" stroke=\"#222222\" "
		   "stroke-width=\"1.5\" d=\"");
	for (g = 0; g < bar_count(p, sr); g++) {
		cx = xp_plot_px(&c->x, slot_x(p, g, i, 0.5));
		lo = xp_plot_px(&c->y, sr->lo[g]);
		hi = xp_plot_px(&c->y, sr->hi[g]);
		if (isnan(lo) || isnan(hi))
			continue;
		move_or_line(c->s, 0, cx, lo);
		move_or_line(c->s, 1, cx, hi);
		move_or_line(c->s, 0, cx - cap, hi);
		move_or_line(c->s, 1, cx + cap, hi);
		move_or_line(c->s, 0, cx - cap, lo);
		move_or_line(c->s, 1, cx + cap, lo);
	}
	xp_svg_raw(c->s, "\"/>\n");
}

/* CDF: a dashed vertical line per marker, labelled "P99 152 us" at the
 * top; labels that would overlap move down a row. */
static void markers(struct xp_plot_ctx *c)
{
	double row_end[MARKER_ROWS] = { -1e9, -1e9, -1e9 }, px, w, x0;
	char value[64], label[160];
	size_t i;
	int r, left;

	for (i = 0; i < c->p->nmarkers; i++) {
		const struct xp_plot_marker *mk = &c->p->markers[i];

		px = xp_plot_px(&c->x, mk->x);
		if (isnan(px) || px < c->left - 0.5 || px > c->right + 0.5)
			continue;
		xp_plot_format_tick(&c->p->x, mk->x, 0, value, sizeof(value));
		snprintf(label, sizeof(label), "%s %s", mk->label ? mk->label : "", value);
		w = xp_plot_text_width(label, 11);
		left = px + 4 + w > c->right;
		x0 = left ? px - 4 - w : px + 4;
		for (r = 0; r < MARKER_ROWS - 1 && x0 < row_end[r] + 6; r++)
			;
		row_end[r] = x0 + w;
		xp_svg_raw(c->s, "<line class=\"marker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			   "y2=\"%.1f\" stroke=\"#555555\" stroke-width=\"1.2\" "
			   "stroke-dasharray=\"5 3\"/>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" "
			   "font-size=\"11\" fill=\"#222222\" stroke=\"#ffffff\" stroke-width=\"3\" "
			   "paint-order=\"stroke\">", px, c->top, px, c->bottom,
			   left ? px - 4 : px + 4, c->top + 14 + r * 14.0, left ? "end" : "start");
		xp_svg_text(c->s, label);
		xp_svg_raw(c->s, "</text>\n");
	}
}

static void line_chart(struct xp_plot_ctx *c)
{
	const struct xp_plot *p = c->p;
	size_t i;

	for (i = 0; i < p->nseries; i++)
		if (p->series[i].style == XP_STYLE_BARS)
			bar_series(c, i);
	for (i = 0; i < p->nseries; i++)
		if (p->series[i].style != XP_STYLE_BARS && p->series[i].style != XP_STYLE_BOLD)
			line_series(c, i, 0);
	for (i = 0; i < p->nseries; i++)
		if (p->series[i].style == XP_STYLE_BOLD)
			line_series(c, i, 0);
}

void xp_plot_draw_series(struct xp_plot_ctx *c)
{
	const struct xp_plot *p = c->p;
	size_t i;

	xp_svg_raw(c->s, "<g class=\"data\" clip-path=\"url(#xp-plot-area%d)\">\n", p->panel);
	if (p->kind == XP_PLOT_BARS) {
		for (i = 0; i < p->nseries; i++)
			bar_chart_series(c, i);
		for (i = 0; i < p->nseries; i++)
			error_bars(c, i);
	} else if (p->kind == XP_PLOT_TREND) {
		for (i = 0; i < p->nseries; i++)
			band(c, i);
		for (i = 0; i < p->nseries; i++)
			line_series(c, i, 1);
	} else {
		line_chart(c);
	}
	xp_svg_raw(c->s, "</g>\n");
	if (p->kind == XP_PLOT_CDF)
		markers(c);
}
