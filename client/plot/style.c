/* SPDX-License-Identifier: BSD-2-Clause */
/* The look every part of a chart shares: each series' colour and dash,
 * and how wide a text is drawn (frame and series lay out by it). */
#include "client/plot/plot_int.h"

#define NPALETTE 7

double xp_plot_text_width(const char *text, double size)
{
	return (double)xp_svg_utf8_len(text) * size * 0.6;
}

/* Okabe & Ito (2008), "Color Universal Design"; black is for BOLD. */
static const char *const palette[NPALETTE] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442",
};

const char *xp_plot_series_color(const struct xp_plot *p, size_t i)
{
	if (i < p->nseries && p->series[i].style == XP_STYLE_BOLD)
		return "#000000";
	return palette[i % NPALETTE];
}

const char *xp_plot_series_dash(const struct xp_plot *p, size_t i)
{
	static const char *const cycle[] = { "", "7 3", "2 3", "7 3 2 3" };
	size_t k = i / NPALETTE;

	if (i < p->nseries && p->series[i].style == XP_STYLE_BOLD)
		return ""; /* black, and the only one */
	if (i < p->nseries && p->series[i].style == XP_STYLE_DASHED && !k)
		return "6 4";
	return cycle[k < 3 ? k : 3];
}
