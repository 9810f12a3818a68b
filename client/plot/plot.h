/* SPDX-License-Identifier: BSD-2-Clause */
/* Charts as self-contained SVG: no scripts, no fonts or files of its own
 * (text asks for system fonts), a fixed width and height with a viewBox.
 * The caller fills a struct xp_plot with plain arrays; this module knows
 * nothing else about xperf, so the client, --sweep and `xperf lab` share it.
 *
 * Four kinds:
 *   LINE   x = seconds; one series per flow plus a bold sum; series with
 *          y2 set use a second y axis on the right (e.g. retransmits per
 *          interval as BARS, or loss as a DASHED line).
 *   CDF    x = latency on a log axis (microseconds by default), y the
 *          cumulative fraction 0..1 (or a NINES axis); markers draw dashed
 *          vertical lines labelled "P99 152 us" (label + value).
 *   TREND  x = the swept value (linear or log), y = the main figure: each
 *          series is a median line with points and a shaded band lo..hi.
 *   BARS   one group per entry of groups (e.g. a topology), one bar per
 *          series in each group: y[g] is the bar, lo[g]..hi[g] its error bar.
 *
 * Every chart has a title, a legend, axis titles with units ("Throughput
 * (bit/s)"), tick labels at 1-2-5 steps (log axes: powers of ten, with 2
 * and 5 as minor ticks) carrying SI prefixes ("10 Gbit/s", "500 us"), and
 * the caption (the command line) at the bottom, wrapped to at most three
 * lines and cut with an ellipsis beyond.
 *
 * Colours are Okabe & Ito's colour-blind-safe palette, in this order:
 * blue #0072B2, vermillion #D55E00, bluish green #009E73, reddish purple
 * #CC79A7, orange #E69F00, sky blue #56B4E9, yellow #F0E442: series i
 * takes colour i mod 7, except BOLD series, which are solid black #000000.
 * Lines of the second and later rounds of the palette are dashed
 * (7 3, then 2 3, then 7 3 2 3) so they stay distinguishable.
 *
 * Data that cannot be drawn is skipped: NaN, infinities, |v| > 1e300,
 * values <= 0 on a log axis, fractions outside 0..1 on a NINES axis.  A
 * line breaks at a skipped point.  A chart with nothing to draw still
 * renders its frame with "no data" in the middle. */
#ifndef XP_PLOT_H
#define XP_PLOT_H

#include <stddef.h>

#include "client/plot/svg.h"
#include "common/err.h"

enum xp_plot_kind { XP_PLOT_LINE, XP_PLOT_CDF, XP_PLOT_TREND, XP_PLOT_BARS };

enum xp_plot_scale {
	XP_SCALE_LINEAR,
	XP_SCALE_LOG,   /* log10; ticks at powers of ten */
	XP_SCALE_NINES  /* fractions 0..1 spaced by -log10(1 - p): 0, 0.9, 0.99, ... */
};

enum xp_plot_style {
	XP_STYLE_LINE,   /* palette colour, normal width */
	XP_STYLE_BOLD,   /* black, thick: the sum of the flows */
	XP_STYLE_DASHED, /* palette colour, dashed */
	XP_STYLE_BARS    /* LINE charts: a bar per point (e.g. retransmits) */
};

struct xp_plot_axis {
	const char *title;     /* "Throughput"; NULL: no title */
	const char *unit;      /* "bit/s", "s", "%", "" for a count */
	enum xp_plot_scale scale;
	int si;                /* tick labels with SI prefixes: 1.5 Gbit/s, 20 ms, 3k */
	double to_unit;        /* data x to_unit = value in unit (0 means 1):
				* 1e-6 for data in microseconds on an "s" axis */
	double min, max;       /* fixed bounds in data units, NAN: automatic */
	int zero;              /* automatic linear bounds include 0 */
};

struct xp_plot_series {
	const char *name;      /* legend text */
	const double *x, *y;   /* n points (BARS charts: x unused, y[group]) */
	const double *lo, *hi; /* optional, n each: TREND band, BARS error bar */
	size_t n;
	enum xp_plot_style style;
	int y2;                /* LINE charts: against the right-hand axis */
};

struct xp_plot_marker {
	double x;              /* data units of the x axis */
	const char *label;     /* "P99"; the value is appended */
};

struct xp_plot {
	enum xp_plot_kind kind;
	int width, height;     /* pixels, 240..8000 x 160..8000 */
	const char *title;
	const char *caption;   /* the exact command line */
	struct xp_plot_axis x, y, y2;
	const struct xp_plot_series *series;
	size_t nseries;
	const struct xp_plot_marker *markers; /* CDF charts */
	size_t nmarkers;
	const char *const *groups; /* BARS charts: ngroups names */
	size_t ngroups;
	int panel;             /* several charts in one document: a distinct
				* number each (it names the chart's clip path) */
};

/* Defaults for a kind: 800 x 480, automatic bounds, and the axes xperf
 * uses: LINE x "Time" (s) from 0, y "Throughput" (bit/s, SI) from 0, y2 a
 * count from 0; CDF x "Round-trip latency" log, data in microseconds shown
 * in seconds with prefixes, y "Fraction of transactions" 0..1; TREND and
 * BARS y from 0.  The caller then sets titles, series and caption. */
void xp_plot_init(struct xp_plot *p, enum xp_plot_kind kind);

/* Draw the chart into out (initialised by the caller, appended to).
 * -1 with err on a malformed description (a series with n > 0 and no y,
 * BARS without groups, a size out of range) or when memory runs out. */
int xp_plot_render(const struct xp_plot *p, struct xp_svg *out, struct xp_err *err);

/* Render and write to path. */
int xp_plot_write(const struct xp_plot *p, const char *path, struct xp_err *err);

/* "#rrggbb" of series i of p (after the palette and BOLD rules above). */
const char *xp_plot_series_color(const struct xp_plot *p, size_t i);

/* The 1-2-5 step: the smallest {1, 2, 5} x 10^k >= range / target. */
double xp_plot_nice_step(double range, int target);

/* Tick label of v on an axis whose ticks are step apart (0 on log and
 * nines axes): "10 Gbit/s", "500 us", "0.99", "25%". */
void xp_plot_format_tick(const struct xp_plot_axis *ax, double v, double step,
			 char *buf, size_t len);

#endif
