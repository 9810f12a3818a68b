/* SPDX-License-Identifier: BSD-2-Clause */
/* Internals shared by client/plot*.c: resolved axes and the drawing
 * context.  Not for callers of client/plot/plot.h. */
#ifndef XP_PLOT_INT_H
#define XP_PLOT_INT_H

#include "client/plot/plot.h"

#define XP_PLOT_TICKS 64
#define XP_PLOT_HUGE 1e300
#define XP_PLOT_LEGEND_ROWS 3
#define XP_PLOT_CAPTION_LINES 3

/* An axis with its bounds, ticks and pixel span resolved. */
struct xp_plot_map {
	const struct xp_plot_axis *ax;
	double lo, hi;   /* bounds, data units */
	double tlo, thi; /* the same after the scale's transform */
	double step;     /* linear axes: tick step in data units */
	double ticks[XP_PLOT_TICKS], minor[XP_PLOT_TICKS];
	size_t nticks, nminor;
	double p0, p1;   /* pixel positions of lo and hi */
};

/* The chart being drawn. */
struct xp_plot_ctx {
	const struct xp_plot *p;
	struct xp_svg *s;
	struct xp_plot_map x, y, y2;
	int has_y2, any_data;
	double left, right, top, bottom;      /* the plot area */
	double legend_y;                      /* baseline of the first legend row */
	size_t cap_off[XP_PLOT_CAPTION_LINES], cap_len[XP_PLOT_CAPTION_LINES];
	int cap_lines, cap_cut;               /* caption lines; 1: ends in ... */
};

/* Whether v can be drawn on ax (finite, in range for the scale). */
int xp_plot_drawable(const struct xp_plot_axis *ax, double v);

/* Whether v counts for the automatic bounds (drawable; NINES: below 1). */
int xp_plot_extent_value(const struct xp_plot_axis *ax, double v);

/* Bounds and ticks from the data extent dmin..dmax (dmin > dmax: no data)
 * and the axis' fixed bounds; pad: automatic linear bounds get 5% of
 * headroom (y axes).  Pixels are set later by the layout. */
void xp_plot_map_resolve(struct xp_plot_map *m, const struct xp_plot_axis *ax,
			 double dmin, double dmax, int pad);

/* Pixel position of v, or NAN when v cannot be drawn on this axis. */
double xp_plot_px(const struct xp_plot_map *m, double v);

/* Estimated width in pixels of text at a font size (no font metrics:
 * 0.6 em per character, a little wide for DejaVu Sans). */
double xp_plot_text_width(const char *text, double size);

/* Frame: layout, then background, title, grid, axes, legend, caption. */
void xp_plot_layout(struct xp_plot_ctx *c);
void xp_plot_draw_frame(struct xp_plot_ctx *c);
void xp_plot_draw_legend(struct xp_plot_ctx *c);
void xp_plot_draw_caption(struct xp_plot_ctx *c);

/* The series (clipped to the plot area) and, on CDF charts, the markers. */
void xp_plot_draw_series(struct xp_plot_ctx *c);

/* Stroke dash pattern of series i ("" for solid). */
const char *xp_plot_series_dash(const struct xp_plot *p, size_t i);

#endif
