/* SPDX-License-Identifier: BSD-2-Clause */
/* Writes one SVG of each chart kind from synthetic data into DIR, for
 * tests/plot_render.sh (and for looking at):
 *   line.svg   3 flows + bold sum (bit/s) and retransmits as bars (y2)
 *   cdf.svg    a latency CDF, log x in microseconds, P50/P99/P99.9 marked
 *   nines.svg  the same CDF on a NINES y axis
 *   trend.svg  2 series against a log-scaled swept message size, bands
 *   bars.svg   4 topologies x 3 tests with error bars
 * and prints "FILE SERIES" per chart: the number of series drawn, which
 * is the number of distinct palette colours the picture must show.
 * usage: plot_demo DIR [CAPTION] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/plot/plot.h"

#define NI 20
#define NF 3
#define NC 400

/* A deterministic pseudo-random number in [0, 1). */
static double rnd(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return (double)((*state >> 8) & 0xffffff) / 16777216.0;
}

static int emit(const struct xp_plot *p, const char *dir, const char *name)
{
	char path[4096];
	struct xp_err err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (xp_plot_write(p, path, &err)) {
		fprintf(stderr, "plot_demo: %s\n", err.msg);
		return -1;
	}
	printf("%s %zu\n", name, p->nseries);
	return 0;
}

static int line(const char *dir, const char *caption)
{
	static const char *const names[NF] = { "flow 1", "flow 2", "flow 3" };
	double t[NI], y[NF + 1][NI], rtx[NI];
	struct xp_plot_series s[NF + 2];
	struct xp_plot p;
	unsigned st = 1;
	int i, f;

	for (i = 0; i < NI; i++) {
		t[i] = (i + 1) * 0.5;
		y[NF][i] = 0;
		for (f = 0; f < NF; f++) {
			y[f][i] = (2.0 + f + rnd(&st)) * 1e9 * (i < 2 ? 0.5 : 1);
			y[NF][i] += y[f][i];
		}
		rtx[i] = i % 4 == 1 ? 20 + 200 * rnd(&st) : 0;
	}
	memset(s, 0, sizeof(s));
	for (f = 0; f <= NF; f++) {
		s[f].name = f < NF ? names[f] : "sum";
		s[f].x = t;
		s[f].y = y[f];
		s[f].n = NI;
		s[f].style = f < NF ? XP_STYLE_LINE : XP_STYLE_BOLD;
	}
	s[NF + 1] = (struct xp_plot_series){ .name = "retransmits", .x = t, .y = rtx,
					     .n = NI, .style = XP_STYLE_BARS, .y2 = 1 };
	xp_plot_init(&p, XP_PLOT_LINE);
	p.title = "TCP_STREAM, 3 flows: throughput per 0.5 s interval";
	p.caption = caption;
	p.series = s;
	p.nseries = NF + 2;
	return emit(&p, dir, "line.svg");
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Latencies in microseconds: a log-normal body around 40 us and a tail. */
static void latencies(double *us, double *frac)
{
	unsigned st = 7;
	int i;

	for (i = 0; i < NC; i++) {
		double g = rnd(&st) + rnd(&st) + rnd(&st) + rnd(&st) - 2;

		us[i] = 40 * exp(0.5 * g) * (i % 97 == 0 ? 30 : 1);
	}
	qsort(us, NC, sizeof(double), cmp);
	for (i = 0; i < NC; i++)
		frac[i] = (double)(i + 1) / NC;
}

static int cdf(const char *dir, const char *caption, int nines)
{
	static double us[NC], frac[NC];
	struct xp_plot_marker m[3] = { { 0, "P50" }, { 0, "P99" }, { 0, "P99.9" } };
	struct xp_plot_series s = { .name = "TCP_RR round trip", .n = NC };
	struct xp_plot p;

	latencies(us, frac);
	m[0].x = us[NC / 2 - 1];
	m[1].x = us[NC * 99 / 100 - 1];
	m[2].x = us[NC - 1];
	s.x = us;
	s.y = frac;
	xp_plot_init(&p, XP_PLOT_CDF);
	p.title = nines ? "TCP_RR latency (tail view)" : "TCP_RR latency";
	p.caption = caption;
	p.series = &s;
	p.nseries = 1;
	p.markers = m;
	p.nmarkers = 3;
	if (nines) {
		p.y.scale = XP_SCALE_NINES;
		p.y.min = p.y.max = NAN;
	}
	return emit(&p, dir, nines ? "nines.svg" : "cdf.svg");
}

static int trend(const char *dir, const char *caption)
{
	static const double x[6] = { 64, 256, 1024, 4096, 16384, 65536 };
	double y[2][6], lo[2][6], hi[2][6];
	struct xp_plot_series s[2];
	struct xp_plot p;
	int i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < 6; i++) {
			y[k][i] = (k ? 0.6 : 1) * 40e9 * x[i] / (x[i] + 2000);
			lo[k][i] = y[k][i] * (0.85 + 0.02 * i);
			hi[k][i] = y[k][i] * (1.12 - 0.01 * i);
		}
	for (k = 0; k < 2; k++)
		s[k] = (struct xp_plot_series){ .name = k ? "TCP_MAERTS" : "TCP_STREAM",
						.x = x, .y = y[k], .lo = lo[k], .hi = hi[k], .n = 6 };
	xp_plot_init(&p, XP_PLOT_TREND);
	p.title = "Throughput against message size (median, min..max of 5 iterations)";
	p.caption = caption;
	p.x.title = "Message size";
	p.x.unit = "B";
	p.x.scale = XP_SCALE_LOG;
	p.series = s;
	p.nseries = 2;
	return emit(&p, dir, "trend.svg");
}

static int bars(const char *dir, const char *caption)
{
	static const char *const topo[4] = { "veth", "bridge", "macvlan", "vxlan" };
	static const char *const test[3] = { "TCP_STREAM", "TCP_STREAM -P 4", "UDP_STREAM" };
	static const double base[3] = { 30e9, 45e9, 8e9 }, slow[4] = { 1, 0.8, 0.9, 0.35 };
	double y[3][4], lo[3][4], hi[3][4];
	struct xp_plot_series s[3];
	struct xp_plot p;
	int g, k;

	for (k = 0; k < 3; k++) {
		for (g = 0; g < 4; g++) {
			y[k][g] = base[k] * slow[g];
			lo[k][g] = y[k][g] * 0.9;
			hi[k][g] = y[k][g] * 1.07;
		}
		s[k] = (struct xp_plot_series){ .name = test[k], .y = y[k], .lo = lo[k],
						.hi = hi[k], .n = 4 };
	}
	xp_plot_init(&p, XP_PLOT_BARS);
	p.title = "xperf lab: throughput per topology (median, min..max of 3)";
	p.caption = caption;
	p.x.title = "Topology";
	p.series = s;
	p.nseries = 3;
	p.groups = topo;
	p.ngroups = 4;
	return emit(&p, dir, "bars.svg");
}

int main(int argc, char **argv)
{
	const char *caption = argc > 2 ? argv[2] : "xperf -c 10.0.0.2 -t TCP_STREAM -P 3 -i 0.5";

	if (argc < 2) {
		fprintf(stderr, "usage: plot_demo DIR [CAPTION]\n");
		return 2;
	}
	if (line(argv[1], caption) || cdf(argv[1], caption, 0) || cdf(argv[1], caption, 1) ||
	    trend(argv[1], caption) || bars(argv[1], caption))
		return 1;
	return 0;
}
