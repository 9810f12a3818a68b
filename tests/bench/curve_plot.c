/* SPDX-License-Identifier: BSD-2-Clause */
/* The bench's scaling curves as pictures, drawn by xperf's own chart code
 * (client/plot/plot.c, a TREND chart: one line per tool against the swept
 * value, with a band from the lowest to the highest round).  Built by
 * `make check` and `make bench`; tests/bench/bench.py writes the spec,
 * tests/bench_plot.sh checks the picture.
 *
 * usage: curve_plot OUT.svg < SPEC
 *
 * SPEC is text, one item a line, fields separated by tabs:
 *   title   TEXT
 *   caption TEXT                     (the command that made the data)
 *   x       TITLE  UNIT  log|linear
 *   y       TITLE  UNIT  log|linear
 *   series  NAME                     (the points below are its own)
 *   X  Y  [LO  HI]                   (numbers; LO and HI: the band)
 * Lines starting with # and empty lines are skipped.  At most 16 series
 * of 64 points, lines of 1000 bytes.  Prints "OUT.svg SERIES" (the number
 * of series drawn); a bad line is named with its number, exit 1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/plot/plot.h"

#define MAX_SERIES 16
#define MAX_POINTS 64
#define LINE_MAX_LEN 1000
#define FIELDS 5

struct curve {
	char name[LINE_MAX_LEN];
	double x[MAX_POINTS], y[MAX_POINTS], lo[MAX_POINTS], hi[MAX_POINTS];
	size_t n;
	int band; /* every point had LO and HI */
};

struct spec {
	char title[LINE_MAX_LEN], caption[LINE_MAX_LEN];
	char xt[LINE_MAX_LEN], xu[LINE_MAX_LEN], yt[LINE_MAX_LEN], yu[LINE_MAX_LEN];
	int xlog, ylog;
	struct curve c[MAX_SERIES];
	size_t nc;
};

/* Split s at tabs into at most FIELDS fields; the count. */
static int split(char *s, char **f)
{
	int n = 0;

	f[n++] = s;
	while (n < FIELDS && (s = strchr(s, '\t')) != NULL) {
		*s++ = '\0';
		f[n++] = s;
	}
	return n;
}

static int copy(char *dst, const char *src)
{
	snprintf(dst, LINE_MAX_LEN, "%s", src);
	return 0;
}

static int scale(const char *s, int *log)
{
	if (strcmp(s, "log") && strcmp(s, "linear"))
		return -1;
	*log = !strcmp(s, "log");
	return 0;
}

static int axis(char **f, int n, char *title, char *unit, int *log)
{
	if (n != 4 || scale(f[3], log))
		return -1;
	copy(title, f[1]);
	return copy(unit, f[2]);
}

static int number(const char *s, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return end == s || *end || !isfinite(*v) ? -1 : 0;
}

/* X Y [LO HI] of the current series. */
static int point(struct spec *sp, char **f, int n)
{
	struct curve *c = sp->nc ? &sp->c[sp->nc - 1] : NULL;
	size_t i;

	if (!c || c->n == MAX_POINTS || (n != 2 && n != 4))
		return -1;
	i = c->n;
	if (number(f[0], &c->x[i]) || number(f[1], &c->y[i]))
		return -1;
	if (n == 4 && (number(f[2], &c->lo[i]) || number(f[3], &c->hi[i])))
		return -1;
	c->band = (i == 0 || c->band) && n == 4;
	c->n++;
	return 0;
}

static int series(struct spec *sp, char **f, int n)
{
	if (n != 2 || sp->nc == MAX_SERIES)
		return -1;
	sp->c[sp->nc].n = 0;
	copy(sp->c[sp->nc++].name, f[1]);
	return 0;
}

static int item(struct spec *sp, char *line)
{
	char *f[FIELDS];
	int n = split(line, f);

	if (!strcmp(f[0], "title") && n == 2)
		return copy(sp->title, f[1]);
	if (!strcmp(f[0], "caption") && n == 2)
		return copy(sp->caption, f[1]);
	if (!strcmp(f[0], "x"))
		return axis(f, n, sp->xt, sp->xu, &sp->xlog);
	if (!strcmp(f[0], "y"))
		return axis(f, n, sp->yt, sp->yu, &sp->ylog);
	if (!strcmp(f[0], "series"))
		return series(sp, f, n);
	return point(sp, f, n);
}

static int read_spec(FILE *in, struct spec *sp)
{
	char line[LINE_MAX_LEN + 2];
	int no = 0;

	while (fgets(line, sizeof(line), in)) {
		size_t len = strlen(line);

		no++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		else if (!feof(in))
			return fprintf(stderr, "curve_plot: line %d: over %d bytes\n", no,
				       LINE_MAX_LEN), -1;
		if (!len || line[0] == '#')
			continue;
		if (item(sp, line))
			return fprintf(stderr, "curve_plot: line %d: not a title, caption, "
				       "x, y, series or point line (or over the limits)\n", no), -1;
	}
	return 0;
}

static void axes(struct xp_plot *p, const struct spec *sp)
{
	p->x.title = sp->xt[0] ? sp->xt : NULL;
	p->x.unit = sp->xu;
	p->x.scale = sp->xlog ? XP_SCALE_LOG : XP_SCALE_LINEAR;
	p->x.si = 1;
	p->y.title = sp->yt[0] ? sp->yt : NULL;
	p->y.unit = sp->yu;
	p->y.scale = sp->ylog ? XP_SCALE_LOG : XP_SCALE_LINEAR;
	p->y.si = 1;
}

static int draw(const struct spec *sp, const char *path)
{
	struct xp_plot_series s[MAX_SERIES];
	struct xp_plot p;
	struct xp_err err;
	size_t i, n = 0;

	for (i = 0; i < sp->nc; i++) {
		const struct curve *c = &sp->c[i];

		if (!c->n)
			continue; /* a tool with no point (skipped) is not drawn */
		s[n++] = (struct xp_plot_series){ .name = c->name, .x = c->x, .y = c->y,
						  .lo = c->band ? c->lo : NULL,
						  .hi = c->band ? c->hi : NULL, .n = c->n };
	}
	xp_plot_init(&p, XP_PLOT_TREND);
	p.title = sp->title[0] ? sp->title : NULL;
	p.caption = sp->caption[0] ? sp->caption : NULL;
	axes(&p, sp);
	p.series = s;
	p.nseries = n;
	if (!n || xp_plot_write(&p, path, &err))
		return fprintf(stderr, "curve_plot: %s: %s\n", path,
			       n ? err.msg : "no series with points"), -1;
	printf("%s %zu\n", path, n);
	return 0;
}

int main(int argc, char **argv)
{
	struct spec *sp;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: curve_plot OUT.svg < SPEC\n");
		return 2;
	}
	sp = calloc(1, sizeof(*sp));
	if (!sp) {
		fprintf(stderr, "curve_plot: out of memory\n");
		return 1;
	}
	rc = read_spec(stdin, sp) || draw(sp, argv[1]) ? 1 : 0;
	free(sp);
	return rc;
}
