/* SPDX-License-Identifier: BSD-2-Clause */
/* Axes: bounds, 1-2-5 and power-of-ten ticks, the value-to-pixel map and
 * tick labels with SI prefixes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/plot/plot_int.h"

#define NINES_MAX 6

double xp_plot_nice_step(double range, int target)
{
	double raw, mag, n;

	if (!(range > 0) || !isfinite(range) || target < 1)
		return 1;
	raw = range / target;
	mag = pow(10, floor(log10(raw)));
	n = raw / mag;
	/* n is in [1, 10), give or take a rounding error */
	if (n <= 1 + 1e-9)
		return mag;
	if (n <= 2 + 1e-9)
		return 2 * mag;
	if (n <= 5 + 1e-9)
		return 5 * mag;
	return 10 * mag;
}

int xp_plot_drawable(const struct xp_plot_axis *ax, double v)
{
	if (!isfinite(v) || fabs(v) > XP_PLOT_HUGE)
		return 0;
	if (ax->scale == XP_SCALE_LOG)
		return v > 1e-300;
	if (ax->scale == XP_SCALE_NINES)
		return v >= 0 && v <= 1;
	return 1;
}

int xp_plot_extent_value(const struct xp_plot_axis *ax, double v)
{
	return xp_plot_drawable(ax, v) && !(ax->scale == XP_SCALE_NINES && v >= 1);
}

static double transform(const struct xp_plot_map *m, double v)
{
	if (m->ax->scale == XP_SCALE_LOG)
		return log10(v);
	if (m->ax->scale == XP_SCALE_NINES)
		return v >= 1 ? m->thi : -log10(1 - v);
	return v;
}

static void add_tick(double *t, size_t *n, double v)
{
	if (*n < XP_PLOT_TICKS)
		t[(*n)++] = v;
}

static void linear_ticks(struct xp_plot_map *m)
{
	double k0 = ceil(m->lo / m->step - 1e-9), k1 = floor(m->hi / m->step + 1e-9), k;

	for (k = k0; k <= k1 && m->nticks < XP_PLOT_TICKS; k++)
		add_tick(m->ticks, &m->nticks, k * m->step);
}

static void resolve_linear(struct xp_plot_map *m, const struct xp_plot_axis *ax,
			   double dmin, double dmax, int pad)
{
	int fixed_lo = isfinite(ax->min), fixed_hi = isfinite(ax->max);

	if (dmin > dmax)
		dmin = 0, dmax = 1;
	if (ax->zero)
		dmin = fmin(dmin, 0), dmax = fmax(dmax, 0);
	if (dmax - dmin <= fmax(fabs(dmin), fabs(dmax)) * 1e-9) {
		double d = dmax == 0 ? 1 : fabs(dmax) * 0.1;

		dmax += d;
		if (!(ax->zero && dmin == 0))
			dmin -= d;
	} else if (pad) { /* headroom: a line at the maximum stays off the frame */
		double room = (dmax - dmin) * 0.05;

		dmax += dmax == 0 && ax->zero ? 0 : room;
		dmin -= dmin == 0 && ax->zero ? 0 : room;
	}
	if (fixed_lo)
		dmin = ax->min;
	if (fixed_hi)
		dmax = ax->max;
	m->step = xp_plot_nice_step(dmax - dmin, 5);
	m->lo = fixed_lo ? dmin : floor(dmin / m->step) * m->step;
	m->hi = fixed_hi ? dmax : ceil(dmax / m->step) * m->step;
	if (!(m->hi > m->lo)) /* rounding at the edge of the double range */
		m->lo = dmin, m->hi = dmax;
	m->tlo = m->lo;
	m->thi = m->hi;
	linear_ticks(m);
}

static void log_ticks(struct xp_plot_map *m, int e0, int e1)
{
	int stride = (e1 - e0 + 7) / 8, e;
	double v;

	for (e = e0; e <= e1; e += stride) {
		v = pow(10, e);
		if (v >= m->lo * (1 - 1e-9) && v <= m->hi * (1 + 1e-9))
			add_tick(m->ticks, &m->nticks, v);
	}
	for (e = e0; stride == 1 && e < e1; e++) {
		double mult[2] = { 2, 5 };
		int i;

		for (i = 0; i < 2; i++) {
			v = mult[i] * pow(10, e);
			if (v < m->lo || v > m->hi)
				continue;
			/* one decade or less: label 2 and 5 too */
			if (e1 - e0 <= 1)
				add_tick(m->ticks, &m->nticks, v);
			else
				add_tick(m->minor, &m->nminor, v);
		}
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void resolve_log(struct xp_plot_map *m, const struct xp_plot_axis *ax,
			double dmin, double dmax)
{
	int e0, e1;

	if (dmin > dmax)
		dmin = 1, dmax = 10;
	if (isfinite(ax->min) && ax->min > 0)
		dmin = ax->min;
	if (isfinite(ax->max) && ax->max > dmin)
		dmax = ax->max;
	e0 = (int)fmax(-300, floor(log10(dmin) + 1e-9));
	e1 = (int)fmin(300, ceil(log10(dmax) - 1e-9));
	if (e1 <= e0)
		e1 = e0 + 1;
	m->lo = isfinite(ax->min) && ax->min > 0 ? ax->min : pow(10, e0);
	m->hi = isfinite(ax->max) && ax->max > m->lo ? ax->max : pow(10, e1);
	m->tlo = log10(m->lo);
	m->thi = log10(m->hi);
	log_ticks(m, e0, e1);
	qsort(m->ticks, m->nticks, sizeof(double), cmp_double);
}

static void resolve_nines(struct xp_plot_map *m, const struct xp_plot_axis *ax, double dmax)
{
	double top = 3;
	int t;

	if (isfinite(ax->max) && ax->max > 0 && ax->max < 1)
		dmax = ax->max;
	if (dmax >= 0 && dmax < 1)
		top = ceil(-log10(1 - dmax) - 1e-9);
	top = fmin(NINES_MAX, fmax(1, top));
	m->lo = 0;
	m->hi = 1 - pow(10, -top);
	m->tlo = 0;
	m->thi = top;
	for (t = 0; t <= (int)top; t++)
		add_tick(m->ticks, &m->nticks, 1 - pow(10, -t));
}

void xp_plot_map_resolve(struct xp_plot_map *m, const struct xp_plot_axis *ax,
			 double dmin, double dmax, int pad)
{
	memset(m, 0, sizeof(*m));
	m->ax = ax;
	if (ax->scale == XP_SCALE_LOG)
		resolve_log(m, ax, dmin, dmax);
	else if (ax->scale == XP_SCALE_NINES)
		resolve_nines(m, ax, dmax);
	else
		resolve_linear(m, ax, dmin, dmax, pad);
}

double xp_plot_px(const struct xp_plot_map *m, double v)
{
	double t, px;

	if (!xp_plot_drawable(m->ax, v) || !(m->thi > m->tlo))
		return NAN;
	t = transform(m, v);
	px = m->p0 + (t - m->tlo) / (m->thi - m->tlo) * (m->p1 - m->p0);
	/* far outside the area (fixed bounds): clipped anyway, keep it short */
	return fmax(-1e6, fmin(1e6, px));
}

/* Append the unit (with its prefix) to a formatted number. */
static void add_unit(char *buf, size_t len, const char *prefix, const char *unit)
{
	size_t n = strlen(buf);

	if (n >= len)
		return;
	if (!unit || !*unit || !strcmp(unit, "%"))
		snprintf(buf + n, len - n, "%s%s", prefix, unit ? unit : "");
	else
		snprintf(buf + n, len - n, " %s%s", prefix, unit);
}

/* "1.50" -> "1.5", "2.00" -> "2"; leaves exponent forms alone. */
static void trim_zeros(char *buf)
{
	char *dot = strchr(buf, '.'), *end;

	if (!dot || strchr(buf, 'e'))
		return;
	end = buf + strlen(buf);
	while (end > dot + 1 && end[-1] == '0')
		*--end = '\0';
	if (end == dot + 1)
		*dot = '\0';
}

static int decimals(double step)
{
	if (!(step > 0))
		return 3;
	return (int)fmax(0, fmin(12, ceil(-log10(step) - 1e-9)));
}

static void format_number(char *buf, size_t len, double v, double step)
{
	if (fabs(v) >= 1e9 || (fabs(v) < 1e-4 && v != 0) || !(step > 0))
		snprintf(buf, len, "%.4g", v);
	else
		snprintf(buf, len, "%.*f", decimals(step), v);
	trim_zeros(buf);
}

/* The number scaled to an SI prefix, which is returned ("k", "u", ""). */
static const char *format_si(char *buf, size_t len, double v, double step)
{
	static const char *const prefix[] = { "f", "p", "n", "u", "m", "",
					      "k", "M", "G", "T", "P", "E" };
	int e = (int)floor((log10(fabs(v)) + 1e-9) / 3) * 3;
	double scale;

	e = e < -15 ? -15 : e > 18 ? 18 : e;
	scale = pow(10, e);
	if (step > 0 && fabs(v / scale) < 1e4)
		snprintf(buf, len, "%.*f", decimals(step / scale), v / scale);
	else
		snprintf(buf, len, "%.3g", v / scale);
	trim_zeros(buf);
	return prefix[(e + 15) / 3];
}

static void format_nines(char *buf, size_t len, double p)
{
	int t = p >= 1 ? 0 : (int)lround(-log10(1 - p));

	if (p >= 1 || p <= 0)
		snprintf(buf, len, "%d", p >= 1 ? 1 : 0);
	else
		snprintf(buf, len, "%.*f", t < 1 ? 1 : t, p);
	trim_zeros(buf);
}

void xp_plot_format_tick(const struct xp_plot_axis *ax, double v, double step,
			 char *buf, size_t len)
{
	double k = ax->to_unit > 0 ? ax->to_unit : 1;
	const char *prefix = "";

	if (!len)
		return;
	if (ax->scale == XP_SCALE_NINES) {
		format_nines(buf, len, v);
		return;
	}
	v *= k;
	step *= k;
	if (step > 0 && fabs(v / step) < 1e15)
		v = round(v / step) * step;
	if (v == 0 || !isfinite(v)) {
		snprintf(buf, len, "%s", v == 0 ? "0" : "?");
		return;
	}
	if (ax->si)
		prefix = format_si(buf, len, v, step);
	else
		format_number(buf, len, v, step);
	add_unit(buf, len, prefix, ax->unit);
}
