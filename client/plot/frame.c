/* SPDX-License-Identifier: BSD-2-Clause */
/* Everything around the data: layout, title, grid, axes with ticks and
 * titles, the legend and the caption. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "client/plot/plot_int.h"

#define MARGIN 16.0
#define TITLE_SIZE 16.0
#define LEGEND_SIZE 12.0
#define LEGEND_ROW 18.0
#define TICK_SIZE 11.0
#define AXIS_TITLE_SIZE 12.0
#define CAPTION_SIZE 11.0
#define CAPTION_ROW 14.0
#define CAPTION_FONTS "DejaVu Sans Mono, Liberation Mono, Courier New, monospace"
#define TEXT_COLOR "#222222"
#define AXIS_COLOR "#444444"

/* Text of at most max_w pixels: cut with an ellipsis when longer. */
static void put_fitted(struct xp_svg *s, const char *text, double size, double max_w)
{
	size_t chars = max_w > 0 ? (size_t)(max_w / (size * 0.6)) : 0;

	if (xp_svg_utf8_len(text) <= chars) {
		xp_svg_text(s, text);
		return;
	}
	if (chars > 1)
		xp_svg_textn(s, text, xp_svg_utf8_prefix(text, chars - 1));
	xp_svg_raw(s, "\xe2\x80\xa6"); /* U+2026 HORIZONTAL ELLIPSIS */
}

static void legend_name(const struct xp_plot *p, size_t i, char *buf, size_t len)
{
	const struct xp_plot_series *sr = &p->series[i];
	const char *name = sr->name && *sr->name ? sr->name : NULL;

	if (name)
		snprintf(buf, len, "%s%s", name, sr->y2 && p->kind == XP_PLOT_LINE ?
			 " (right axis)" : "");
	else
		snprintf(buf, len, "series %zu", i + 1);
}

static void legend_item(struct xp_plot_ctx *c, size_t i, double x, double y,
			const char *name, double max_w)
{
	const struct xp_plot *p = c->p;
	const char *color = xp_plot_series_color(p, i);
	int bar = p->kind == XP_PLOT_BARS || p->series[i].style == XP_STYLE_BARS;

	if (bar) {
		xp_svg_raw(c->s, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" "
			   "fill=\"%s\"/>", x + 3, y - 9, color);
	} else {
		xp_svg_raw(c->s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"%s\" stroke-width=\"%s\" stroke-dasharray=\"%s\"/>",
			   x, y - 4, x + 20, y - 4, color,
			   p->series[i].style == XP_STYLE_BOLD ? "3" : "2",
			   *xp_plot_series_dash(p, i) ? xp_plot_series_dash(p, i) : "none");
	}
	xp_svg_raw(c->s, "<text x=\"%.1f\" y=\"%.1f\">", x + 26, y);
	put_fitted(c->s, name, LEGEND_SIZE, max_w);
	xp_svg_raw(c->s, "</text>\n");
}

/* Lay the entries out in rows (at most XP_PLOT_LEGEND_ROWS, then "+N
 * more"); draw them when asked.  Returns the number of rows. */
static int legend_flow(struct xp_plot_ctx *c, int draw)
{
	const struct xp_plot *p = c->p;
	double x = MARGIN, y = c->legend_y, maxx = p->width - MARGIN, w;
	char name[256];
	int rows = 1;
	size_t i;

	for (i = 0; i < p->nseries; i++) {
		legend_name(p, i, name, sizeof(name));
		w = fmin(26 + xp_plot_text_width(name, LEGEND_SIZE), maxx - MARGIN) + 16;
		if (x + w > maxx && x > MARGIN) {
			if (rows == XP_PLOT_LEGEND_ROWS) {
				if (draw)
					xp_svg_raw(c->s, "<text x=\"%.1f\" y=\"%.1f\">+%zu more"
						   "</text>\n", fmin(x, maxx - 70), y, p->nseries - i);
				break;
			}
			rows++;
			x = MARGIN;
			y += LEGEND_ROW;
		}
		if (draw)
			legend_item(c, i, x, y, name, w - 42 + 1);
		x += w;
	}
	return rows;
}

void xp_plot_draw_legend(struct xp_plot_ctx *c)
{
	if (!c->p->nseries)
		return;
	xp_svg_raw(c->s, "<g class=\"legend\" font-size=\"%g\" fill=\"%s\">\n",
		   LEGEND_SIZE, TEXT_COLOR);
	legend_flow(c, 1);
	xp_svg_raw(c->s, "</g>\n");
}

/* Split the caption into lines of at most cpl characters, preferring to
 * break at a space; the last allowed line ends in an ellipsis if cut. */
static void wrap_caption(struct xp_plot_ctx *c)
{
	const char *t = c->p->caption;
	size_t cpl = (size_t)fmax(10, (c->p->width - 2 * MARGIN) / (CAPTION_SIZE * 0.6));
	size_t off = 0, n, k;

	c->cap_lines = c->cap_cut = 0;
	while (t && t[off] && c->cap_lines < XP_PLOT_CAPTION_LINES) {
		while (t[off] == ' ')
			off++;
		if (!t[off])
			break;
		c->cap_off[c->cap_lines] = off;
		if (xp_svg_utf8_len(t + off) <= cpl) {
			c->cap_len[c->cap_lines++] = strlen(t + off);
			return;
		}
		if (c->cap_lines == XP_PLOT_CAPTION_LINES - 1) {
			c->cap_len[c->cap_lines++] = xp_svg_utf8_prefix(t + off, cpl - 1);
			c->cap_cut = 1;
			return;
		}
		n = xp_svg_utf8_prefix(t + off, cpl);
		for (k = n; k > n / 2 && t[off + k] != ' '; k--)
			;
		n = k > n / 2 ? k : n;
		c->cap_len[c->cap_lines++] = n;
		off += n;
	}
}

void xp_plot_draw_caption(struct xp_plot_ctx *c)
{
	double y = c->p->height - 10 - (c->cap_lines - 1) * CAPTION_ROW;
	int i;

	if (!c->cap_lines)
		return;
	xp_svg_raw(c->s, "<g class=\"caption\" font-size=\"%g\" font-family=\"%s\" "
		   "fill=\"#555555\">\n", CAPTION_SIZE, CAPTION_FONTS);
	for (i = 0; i < c->cap_lines; i++, y += CAPTION_ROW) {
		xp_svg_raw(c->s, "<text x=\"%g\" y=\"%.1f\">", MARGIN, y);
		xp_svg_textn(c->s, c->p->caption + c->cap_off[i], c->cap_len[i]);
		if (c->cap_cut && i == c->cap_lines - 1)
			xp_svg_raw(c->s, "\xe2\x80\xa6");
		xp_svg_raw(c->s, "</text>\n");
	}
	xp_svg_raw(c->s, "</g>\n");
}

/* Widest tick label of an axis, in pixels. */
static double ticks_width(const struct xp_plot_map *m)
{
	char buf[64];
	double w = 0;
	size_t i;

	for (i = 0; i < m->nticks; i++) {
		xp_plot_format_tick(m->ax, m->ticks[i], m->step, buf, sizeof(buf));
		w = fmax(w, xp_plot_text_width(buf, TICK_SIZE));
	}
	return w;
}

static double side_width(const struct xp_plot_map *m)
{
	return (m->ax->title ? 22 : 0) + ticks_width(m) + 10;
}

void xp_plot_layout(struct xp_plot_ctx *c)
{
	const struct xp_plot *p = c->p;
	double last_x = 0;
	char buf[64];

	c->legend_y = p->title ? 48 : 22;
	c->top = p->nseries ? c->legend_y + (legend_flow(c, 0) - 1) * LEGEND_ROW + 18
			    : c->legend_y;
	wrap_caption(c);
	c->bottom = p->height - 10 - c->cap_lines * CAPTION_ROW - (p->x.title ? 40 : 24);
	c->left = MARGIN + side_width(&c->y);
	if (p->kind != XP_PLOT_BARS && c->x.nticks) {
		xp_plot_format_tick(&p->x, c->x.ticks[c->x.nticks - 1], c->x.step, buf,
				    sizeof(buf));
		last_x = xp_plot_text_width(buf, TICK_SIZE) / 2;
	}
	c->right = p->width - MARGIN - (c->has_y2 ? side_width(&c->y2) : fmax(4, last_x));
	/* tiny charts: keep some plot area whatever the labels want */
	c->left = fmin(c->left, p->width * 0.4);
	c->right = fmax(c->right, c->left + p->width * 0.3);
	c->bottom = fmax(c->bottom, c->top + p->height * 0.25);
	c->x.p0 = c->left;
	c->x.p1 = c->right;
	c->y.p0 = c->y2.p0 = c->bottom;
	c->y.p1 = c->y2.p1 = c->top;
}

static void axis_title(struct xp_svg *s, const struct xp_plot_axis *ax, double x,
		       double y, int rotate)
{
	if (!ax->title)
		return;
	if (rotate)
		xp_svg_raw(s, "<text transform=\"translate(%.1f %.1f) rotate(%d)\" ", x, y,
			   rotate);
	else
		xp_svg_raw(s, "<text x=\"%.1f\" y=\"%.1f\" ", x, y);
	xp_svg_raw(s, "text-anchor=\"middle\" font-size=\"%g\">", AXIS_TITLE_SIZE);
	xp_svg_text(s, ax->title);
	if (ax->unit && *ax->unit) {
		xp_svg_raw(s, " (");
		xp_svg_text(s, ax->unit);
		xp_svg_raw(s, ")");
	}
	xp_svg_raw(s, "</text>\n");
}

static void grid(struct xp_plot_ctx *c, const struct xp_plot_map *m, int vertical,
		 const double *v, size_t n, const char *color)
{
	size_t i;
	double px;

	for (i = 0; i < n; i++) {
		px = xp_plot_px(m, v[i]);
		if (isnan(px))
			continue;
		if (vertical)
			xp_svg_raw(c->s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				   "stroke=\"%s\"/>\n", px, c->top, px, c->bottom, color);
		else
			xp_svg_raw(c->s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				   "stroke=\"%s\"/>\n", c->left, px, c->right, px, color);
	}
}

/* Tick marks and labels of a y axis, on the left (dir -1) or right (1). */
static void y_ticks(struct xp_plot_ctx *c, const struct xp_plot_map *m, int dir)
{
	double x = dir < 0 ? c->left : c->right, py;
	char buf[64];
	size_t i;

	for (i = 0; i < m->nticks; i++) {
		py = xp_plot_px(m, m->ticks[i]);
		if (isnan(py))
			continue;
		xp_plot_format_tick(m->ax, m->ticks[i], m->step, buf, sizeof(buf));
		xp_svg_raw(c->s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
			   x, py, x + 4 * dir, py, AXIS_COLOR, x + 7 * dir, py + 4,
			   dir < 0 ? "end" : "start");
		xp_svg_text(c->s, buf);
		xp_svg_raw(c->s, "</text>\n");
	}
}

/* x tick labels; one that would overlap the previous one is left out. */
static void x_ticks(struct xp_plot_ctx *c)
{
	const struct xp_plot_map *m = &c->x;
	double end = -1e9, px, w;
	char buf[64];
	size_t i;

	for (i = 0; i < m->nticks; i++) {
		px = xp_plot_px(m, m->ticks[i]);
		if (isnan(px))
			continue;
		xp_svg_raw(c->s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"%s\"/>\n", px, c->bottom, px, c->bottom + 4, AXIS_COLOR);
		xp_plot_format_tick(m->ax, m->ticks[i], m->step, buf, sizeof(buf));
		w = xp_plot_text_width(buf, TICK_SIZE);
		if (px - w / 2 < end + 6)
			continue;
		end = px + w / 2;
		xp_svg_raw(c->s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", px,
			   c->bottom + 16);
		xp_svg_text(c->s, buf);
		xp_svg_raw(c->s, "</text>\n");
	}
}

static void group_labels(struct xp_plot_ctx *c)
{
	const struct xp_plot *p = c->p;
	double w = (c->right - c->left) / (double)p->ngroups;
	size_t g;

	for (g = 0; g < p->ngroups; g++) {
		xp_svg_raw(c->s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			   xp_plot_px(&c->x, (double)g + 0.5), c->bottom + 16);
		put_fitted(c->s, p->groups[g] ? p->groups[g] : "", TICK_SIZE, w - 6);
		xp_svg_raw(c->s, "</text>\n");
	}
}

static void title(struct xp_plot_ctx *c)
{
	if (!c->p->title)
		return;
	xp_svg_raw(c->s, "<text class=\"title\" x=\"%.1f\" y=\"24\" text-anchor=\"middle\" "
		   "font-size=\"%g\" font-weight=\"bold\">", c->p->width / 2.0, TITLE_SIZE);
	put_fitted(c->s, c->p->title, TITLE_SIZE, c->p->width - 2 * MARGIN);
	xp_svg_raw(c->s, "</text>\n");
}

void xp_plot_draw_frame(struct xp_plot_ctx *c)
{
	const struct xp_plot *p = c->p;
	int bars = p->kind == XP_PLOT_BARS;

	xp_svg_raw(c->s, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n"
		   "<g fill=\"%s\">\n", p->width, p->height, TEXT_COLOR);
	title(c);
	xp_svg_raw(c->s, "<g class=\"grid\" stroke-width=\"1\">\n");
	grid(c, &c->y, 0, c->y.minor, c->y.nminor, "#f0f0f0");
	if (!bars) {
		grid(c, &c->x, 1, c->x.minor, c->x.nminor, "#f0f0f0");
		grid(c, &c->x, 1, c->x.ticks, c->x.nticks, "#dddddd");
	}
	grid(c, &c->y, 0, c->y.ticks, c->y.nticks, "#dddddd");
	xp_svg_raw(c->s, "</g>\n<rect class=\"plot-area\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		   "height=\"%.1f\" fill=\"none\" stroke=\"%s\"/>\n<g class=\"ticks\" "
		   "font-size=\"%g\" fill=\"#333333\">\n", c->left, c->top, c->right - c->left,
		   c->bottom - c->top, AXIS_COLOR, TICK_SIZE);
	y_ticks(c, &c->y, -1);
	if (c->has_y2)
		y_ticks(c, &c->y2, 1);
	if (bars)
		group_labels(c);
	else
		x_ticks(c);
	xp_svg_raw(c->s, "</g>\n");
	axis_title(c->s, &p->x, (c->left + c->right) / 2, c->bottom + 34, 0);
	axis_title(c->s, &p->y, MARGIN + 8, (c->top + c->bottom) / 2, -90);
	if (c->has_y2)
		axis_title(c->s, &p->y2, p->width - MARGIN - 8, (c->top + c->bottom) / 2, 90);
	xp_svg_raw(c->s, "</g>\n");
}
