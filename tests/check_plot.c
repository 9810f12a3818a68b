/* SPDX-License-Identifier: BSD-2-Clause */
/* client/plot/svg.c and client/plot*.c: the SVG is well-formed XML whatever the
 * text and data (checked by a small well-formedness checker below), each
 * series is one element, ticks are 1-2-5 multiples or powers of ten, tick
 * labels carry SI prefixes, edge cases draw without NaN in the output. */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/plot/plot.h"
#include "client/plot/plot_int.h"
#include "client/plot/svg.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- a tiny XML well-formedness checker ------------------------------ */

struct xml {
	const char *p;
	const char *stack[64];
	size_t nstack[64];
	int depth, roots;
};

/* & must start &amp; &lt; &gt; &quot; &apos; or &#N;, and < never
 * appears in text or attribute values. */
static int xml_chars(const char *p, size_t n)
{
	static const char *const ent[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
	size_t i, k;

	for (i = 0; i < n; i++) {
		if (p[i] == '<')
			return 0;
		if (p[i] != '&')
			continue;
		for (k = 0; k < ARRAY_LEN(ent); k++)
			if (!strncmp(p + i, ent[k], strlen(ent[k])))
				break;
		if (k == ARRAY_LEN(ent)) {
			if (p[i + 1] != '#' || !isdigit((unsigned char)p[i + 2]))
				return 0;
			for (k = i + 2; isdigit((unsigned char)p[k]); k++)
				;
			if (p[k] != ';')
				return 0;
		}
	}
	return 1;
}

static size_t name_len(const char *p)
{
	size_t n = 0;

	while (isalnum((unsigned char)p[n]) || strchr(":_-.", p[n]))
		n++;
	return p[n] ? n : 0;
}

/* Attributes up to > or />; returns 1 for an empty element, 0 for an open
 * one, -1 if malformed. */
static int xml_attrs(struct xml *x)
{
	const char *q;
	size_t n;

	for (;;) {
		while (isspace((unsigned char)*x->p))
			x->p++;
		if (*x->p == '>' || (x->p[0] == '/' && x->p[1] == '>'))
			return *x->p == '/' ? (x->p += 2, 1) : (x->p++, 0);
		n = name_len(x->p);
		if (!n || x->p[n] != '=' || x->p[n + 1] != '"')
			return -1;
		x->p += n + 2;
		q = strchr(x->p, '"');
		if (!q || !xml_chars(x->p, (size_t)(q - x->p)))
			return -1;
		x->p = q + 1;
	}
}

static int xml_tag(struct xml *x)
{
	size_t n;
	int empty;

	if (x->p[1] == '/') {
		n = name_len(x->p + 2);
		if (!x->depth || n != x->nstack[x->depth - 1] ||
		    strncmp(x->p + 2, x->stack[x->depth - 1], n) || x->p[2 + n] != '>')
			return 0;
		x->depth--;
		x->p += n + 3;
		return 1;
	}
	n = name_len(x->p + 1);
	if (!n || x->depth >= 64 || (!x->depth && x->roots++))
		return 0;
	x->stack[x->depth] = x->p + 1;
	x->nstack[x->depth] = n;
	x->p += n + 1;
	empty = xml_attrs(x);
	if (empty < 0)
		return 0;
	x->depth += !empty;
	return 1;
}

static int xml_well_formed(const char *doc)
{
	struct xml x = { .p = doc };
	const char *lt;

	if (strncmp(x.p, "<?xml ", 6) || !(x.p = strstr(x.p, "?>")))
		return 0;
	x.p += 2;
	while (*x.p) {
		lt = strchr(x.p, '<');
		if (!lt)
			lt = x.p + strlen(x.p);
		if (!xml_chars(x.p, (size_t)(lt - x.p)))
			return 0;
		if (!x.depth)
			for (; x.p < lt; x.p++)
				if (!isspace((unsigned char)*x.p))
					return 0;
		x.p = lt;
		if (*x.p && !xml_tag(&x))
			return 0;
	}
	return x.depth == 0 && x.roots == 1;
}

/* ---- helpers --------------------------------------------------------- */

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/* Render p; assert it worked, is well-formed and prints no NaN/inf. */
static char *render(const struct xp_plot *p)
{
	struct xp_svg s;
	struct xp_err err = { "" };

	xp_svg_init(&s);
	ck_assert_msg(xp_plot_render(p, &s, &err) == 0, "render: %s", err.msg);
	ck_assert_msg(xml_well_formed(s.buf), "not well-formed:\n%s", s.buf);
	ck_assert_msg(!strstr(s.buf, "nan") && !strstr(s.buf, "inf"), "NaN/inf in:\n%s", s.buf);
	return s.buf;
}

START_TEST(test_xml_checker)
{
	ck_assert(xml_well_formed("<?xml version=\"1.0\"?><a x=\"1\"><b/>t &amp; u</a>"));
	ck_assert(!xml_well_formed("<?xml version=\"1.0\"?><a><b></a></b>"));
	ck_assert(!xml_well_formed("<?xml version=\"1.0\"?><a>x & y</a>"));
	ck_assert(!xml_well_formed("<?xml version=\"1.0\"?><a t=\"<\"/>"));
	ck_assert(!xml_well_formed("<?xml version=\"1.0\"?><a/><b/>"));
	ck_assert(!xml_well_formed("<?xml version=\"1.0\"?><a>"));
}
END_TEST

START_TEST(test_svg_num)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
		{ 12.5, "12.5" }, { -3, "-3" }, { 0.07, "0.07" }, { -0.001, "0" },
		{ 0, "0" }, { 100.456, "100.46" }, { 2.999, "3" }, { -0.5, "-0.5" },
		{ NAN, "0" }, { INFINITY, "0" }, { 1e20, "1000000000000000" },
	};
	struct xp_svg s;
	size_t i;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		xp_svg_init(&s);
		xp_svg_num(&s, cases[i].v);
		ck_assert_str_eq(s.buf, cases[i].want);
		xp_svg_free(&s);
	}
}
END_TEST

START_TEST(test_svg_escape)
{
	struct xp_svg s;

	xp_svg_init(&s);
	xp_svg_text(&s, "a<b>&\"c' \x01\x7f \xff\xc3\xa9 \xe2\x82");
	ck_assert_str_eq(s.buf, "a&lt;b&gt;&amp;&quot;c&#39; ?? ?\xc3\xa9 ?");
	xp_svg_free(&s);
	/* a prefix never cuts a UTF-8 sequence */
	ck_assert_uint_eq(xp_svg_utf8_prefix("\xc3\xa9\xc3\xa9x", 1), 2);
	ck_assert_uint_eq(xp_svg_utf8_prefix("ab", 5), 2);
	ck_assert_uint_eq(xp_svg_utf8_len("\xe2\x80\xa6.."), 3);
}
END_TEST

START_TEST(test_nice_step)
{
	static const double cases[][3] = {
		/* range, target, step */
		{ 10, 5, 2 }, { 1, 5, 0.2 }, { 7, 5, 2 }, { 3e9, 5, 1e9 }, { 100, 5, 20 },
		{ 0.003, 5, 0.001 }, { 25, 5, 5 }, { 1e300, 5, 2e299 }, { 0, 5, 1 }, { -4, 5, 1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		double got = xp_plot_nice_step(cases[i][0], (int)cases[i][1]);

		ck_assert_msg(fabs(got - cases[i][2]) <= 1e-9 * cases[i][2],
			      "nice_step(%g) = %g, want %g", cases[i][0], got, cases[i][2]);
	}
}
END_TEST

/* step is {1,2,5} x 10^k and every tick a multiple of it */
static void assert_linear_nice(const struct xp_plot_map *m, double dmin, double dmax)
{
	double mant = m->step / pow(10, floor(log10(m->step) + 1e-9));
	size_t i;

	ck_assert_msg(fabs(mant - 1) < 1e-6 || fabs(mant - 2) < 1e-6 || fabs(mant - 5) < 1e-6,
		      "step %g is not 1-2-5", m->step);
	ck_assert_msg(m->nticks >= 2 && m->nticks <= 12, "%zu ticks for %g..%g", m->nticks,
		      dmin, dmax);
	ck_assert(m->lo <= dmin && m->hi >= dmax);
	for (i = 0; i < m->nticks; i++) {
		double k = m->ticks[i] / m->step;

		ck_assert_msg(fabs(k - round(k)) < 1e-6, "tick %g not a multiple of %g",
			      m->ticks[i], m->step);
	}
}

START_TEST(test_ticks_linear)
{
	static const double ranges[][2] = {
		{ 0, 1 }, { 0, 9.3e9 }, { 1.2, 1.7 }, { -40, 260 }, { 123456, 123999 },
		{ 0, 0.00042 }, { 3, 3.0000001 }, { 0, 1e300 }, { -1e300, 1e300 },
	};
	struct xp_plot_axis ax = { .min = NAN, .max = NAN };
	struct xp_plot_map m;
	size_t i;

	for (i = 0; i < ARRAY_LEN(ranges); i++) {
		xp_plot_map_resolve(&m, &ax, ranges[i][0], ranges[i][1], (int)(i % 2));
		assert_linear_nice(&m, ranges[i][0], ranges[i][1]);
	}
	/* all values equal, and the axis includes zero */
	ax.zero = 1;
	xp_plot_map_resolve(&m, &ax, 7, 7, 0);
	ck_assert(m.lo == 0 && m.hi >= 7);
	xp_plot_map_resolve(&m, &ax, 0, 0, 0);
	ck_assert(m.lo == 0 && m.hi == 1);
	ax.zero = 0;
	xp_plot_map_resolve(&m, &ax, 5, 5, 0);
	ck_assert(m.lo < 5 && m.hi > 5);
}
END_TEST

START_TEST(test_ticks_log)
{
	struct xp_plot_axis ax = { .scale = XP_SCALE_LOG, .min = NAN, .max = NAN };
	struct xp_plot_map m;
	size_t i;

	xp_plot_map_resolve(&m, &ax, 12, 3400, 0);
	ck_assert(m.lo == 10 && m.hi == 10000);
	ck_assert_uint_eq(m.nticks, 4);
	for (i = 0; i < m.nticks; i++)
		ck_assert(fabs(log10(m.ticks[i]) - round(log10(m.ticks[i]))) < 1e-9);
	ck_assert_uint_eq(m.nminor, 6); /* 20 50 200 500 2000 5000 */
	ck_assert(fabs(m.minor[0] - 20) < 1e-9 && fabs(m.minor[1] - 50) < 1e-9);
	/* one decade: 2 and 5 get labels too */
	xp_plot_map_resolve(&m, &ax, 15, 80, 0);
	ck_assert_uint_eq(m.nticks, 4);
	ck_assert(fabs(m.ticks[1] - 20) < 1e-9 && fabs(m.ticks[2] - 50) < 1e-9);
	/* a huge span thins the decades out */
	xp_plot_map_resolve(&m, &ax, 1e-200, 1e200, 0);
	ck_assert(m.nticks >= 2 && m.nticks <= 10);
}
END_TEST

START_TEST(test_tick_labels)
{
	struct xp_plot p;
	char buf[64];

	xp_plot_init(&p, XP_PLOT_LINE);
	xp_plot_format_tick(&p.y, 10e9, 5e9, buf, sizeof(buf));
	ck_assert_str_eq(buf, "10 Gbit/s");
	xp_plot_format_tick(&p.y, 1.5e9, 5e8, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1.5 Gbit/s");
	xp_plot_format_tick(&p.y, 500e6, 5e8, buf, sizeof(buf));
	ck_assert_str_eq(buf, "500 Mbit/s");
	xp_plot_format_tick(&p.y, 1e-7, 5e8, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0");
	xp_plot_format_tick(&p.x, 2.5, 0.5, buf, sizeof(buf));
	ck_assert_str_eq(buf, "2.5 s");
	xp_plot_format_tick(&p.y2, 3000, 1000, buf, sizeof(buf));
	ck_assert_str_eq(buf, "3k");
	xp_plot_init(&p, XP_PLOT_CDF); /* microseconds shown in seconds */
	xp_plot_format_tick(&p.x, 500, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "500 us");
	xp_plot_format_tick(&p.x, 1000, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1 ms");
	xp_plot_format_tick(&p.x, 152.3, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "152 us");
	xp_plot_format_tick(&p.y, 0.2, 0.2, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0.2");
	p.y.scale = XP_SCALE_NINES;
	xp_plot_format_tick(&p.y, 0.999, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0.999");
	p.y.unit = "%";
	p.y.scale = XP_SCALE_LINEAR;
	xp_plot_format_tick(&p.y, 25, 5, buf, sizeof(buf));
	ck_assert_str_eq(buf, "25%");
}
END_TEST

static const double xs[5] = { 1, 2, 3, 4, 5 };
static const double ys[5] = { 1e9, 2e9, 1.5e9, 3e9, 2.5e9 };

START_TEST(test_series_count)
{
	static const enum xp_plot_kind kinds[] = { XP_PLOT_LINE, XP_PLOT_CDF, XP_PLOT_TREND,
						   XP_PLOT_BARS };
	static const char *const groups[5] = { "veth", "bridge", "macvlan", "ipvlan", "vxlan" };
	struct xp_plot_series s[9];
	struct xp_plot p;
	size_t k, n, i;
	char *svg;

	for (k = 0; k < ARRAY_LEN(kinds); k++)
		for (n = 0; n <= 9; n += 3) {
			memset(s, 0, sizeof(s));
			for (i = 0; i < n; i++)
				s[i] = (struct xp_plot_series){ .x = xs, .y = ys, .lo = ys, .hi = ys,
								.n = 5, .y2 = i == 1,
								.style = i == 2 ? XP_STYLE_BOLD :
									 i == 1 ? XP_STYLE_BARS :
										  XP_STYLE_LINE };
			xp_plot_init(&p, kinds[k]);
			p.series = s;
			p.nseries = n;
			p.groups = groups;
			p.ngroups = 5;
			svg = render(&p);
			ck_assert_msg(count(svg, "class=\"series\"") == n,
				      "kind %zu: %zu series drawn, want %zu", k,
				      count(svg, "class=\"series\""), n);
			ck_assert(count(svg, "class=\"no-data\"") == (n == 0));
			free(svg);
		}
}
END_TEST

START_TEST(test_caption_escaped)
{
	struct xp_plot_series s = { .name = "flow <1> & \"2\"", .x = xs, .y = ys, .n = 5 };
	struct xp_plot p;
	char *svg;

	xp_plot_init(&p, XP_PLOT_LINE);
	p.title = "a <title> & more";
	p.caption = "xperf --title '<&\">' --odd \x01\x02\xff\xfe";
	p.series = &s;
	p.nseries = 1;
	svg = render(&p);
	ck_assert(strstr(svg, "--title &#39;&lt;&amp;&quot;&gt;&#39; --odd ????"));
	ck_assert(strstr(svg, "flow &lt;1&gt; &amp; &quot;2&quot;"));
	ck_assert(strstr(svg, "a &lt;title&gt; &amp; more"));
	/* self-contained: no scripts, no references to other files */
	ck_assert(!strstr(svg, "<script") && !strstr(svg, "href") && !strstr(svg, "@font-face"));
	ck_assert(strstr(svg, "viewBox=\"0 0 800 480\""));
	free(svg);
}
END_TEST

START_TEST(test_caption_wrapped)
{
	char caption[2000], *svg;
	struct xp_plot p;
	size_t i;

	for (i = 0; i + 1 < sizeof(caption); i++)
		caption[i] = i % 9 == 8 ? ' ' : (char)('a' + i % 7);
	caption[i] = '\0';
	xp_plot_init(&p, XP_PLOT_CDF);
	p.caption = caption;
	svg = render(&p);
	/* three lines in the caption group, the last one cut with an ellipsis */
	ck_assert_uint_eq(count(strstr(svg, "class=\"caption\""), "<text"), 3);
	ck_assert(strstr(svg, "\xe2\x80\xa6</text>"));
	free(svg);
}

START_TEST(test_edge_cases)
{
	static const double odd[8] = { NAN, INFINITY, -INFINITY, 0, 1e300, 1e308, -5, 3 };
	static const double seq[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const double same[8] = { 4, 4, 4, 4, 4, 4, 4, 4 };
	static const double nans[8] = { NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	static const double *const ys_[] = { odd, same, nans, seq };
	static const char *const groups[8] = { "a", "b", "c", "d", "e", "f", "g", "h" };
	static const enum xp_plot_kind kinds[] = { XP_PLOT_LINE, XP_PLOT_CDF, XP_PLOT_TREND,
						   XP_PLOT_BARS };
	struct xp_plot_marker mk[2] = { { NAN, "P50" }, { 1e308, "P99" } };
	struct xp_plot_series s[2];
	struct xp_plot p;
	size_t k, a, b, n;

	for (k = 0; k < ARRAY_LEN(kinds); k++)
		for (a = 0; a < ARRAY_LEN(ys_); a++)
			for (b = 0; b < ARRAY_LEN(ys_); b++)
				for (n = 0; n <= 8; n += n < 2 ? 1 : 6) {
					s[0] = (struct xp_plot_series){ .x = ys_[a], .y = ys_[b],
									.lo = ys_[a], .hi = ys_[b],
									.n = n };
					s[1] = (struct xp_plot_series){ .x = ys_[b], .y = ys_[a],
									.n = n, .y2 = 1,
									.style = XP_STYLE_BARS };
					xp_plot_init(&p, kinds[k]);
					p.y.scale = b == 3 && k == XP_PLOT_CDF ? XP_SCALE_NINES
									     : p.y.scale;
					p.series = s;
					p.nseries = 2;
					p.markers = mk;
					p.nmarkers = 2;
					p.groups = groups;
					p.ngroups = 8;
					free(render(&p));
				}
}
END_TEST

START_TEST(test_fixed_bounds)
{
	struct xp_plot_series s = { .x = xs, .y = ys, .n = 5 };
	struct xp_plot p;
	char *svg;

	xp_plot_init(&p, XP_PLOT_LINE);
	p.series = &s;
	p.nseries = 1;
	p.y.min = 0;
	p.y.max = 2e9; /* the data go above: clipped to the plot area */
	svg = render(&p);
	ck_assert(strstr(svg, "clip-path=\"url(#xp-plot-area0)\""));
	ck_assert(strstr(svg, ">2 Gbit/s<"));
	ck_assert(!strstr(svg, ">3 Gbit/s<"));
	free(svg);
}
END_TEST

START_TEST(test_bad_input)
{
	struct xp_plot_series s = { .name = "f1", .x = xs, .y = NULL, .n = 5 };
	struct xp_err err = { "" };
	struct xp_plot p;
	struct xp_svg out;

	xp_svg_init(&out);
	xp_plot_init(&p, XP_PLOT_LINE);
	p.series = &s;
	p.nseries = 1;
	ck_assert_int_eq(xp_plot_render(&p, &out, &err), -1);
	ck_assert_msg(strstr(err.msg, "series 1 (f1)"), "%s", err.msg);
	s.y = ys;
	p.width = 100;
	ck_assert_int_eq(xp_plot_render(&p, &out, &err), -1);
	ck_assert_msg(strstr(err.msg, "100x480"), "%s", err.msg);
	p.width = 800;
	p.x.min = 5;
	p.x.max = 5;
	ck_assert_int_eq(xp_plot_render(&p, &out, &err), -1);
	ck_assert_msg(strstr(err.msg, "x axis: min 5"), "%s", err.msg);
	xp_plot_init(&p, XP_PLOT_CDF);
	p.x.min = 0;
	ck_assert_int_eq(xp_plot_render(&p, &out, &err), -1);
	ck_assert_msg(strstr(err.msg, "logarithmic"), "%s", err.msg);
	xp_plot_init(&p, XP_PLOT_BARS);
	p.ngroups = 3;
	ck_assert_int_eq(xp_plot_render(&p, &out, &err), -1);
	ck_assert_int_eq(xp_plot_write(&p, "/nonexistent/dir/x.svg", &err), -1);
	xp_plot_init(&p, XP_PLOT_LINE);
	ck_assert_int_eq(xp_plot_write(&p, "/nonexistent/dir/x.svg", &err), -1);
	ck_assert_msg(strstr(err.msg, "/nonexistent/dir/x.svg: No such file"), "%s", err.msg);
	xp_svg_free(&out);
}
END_TEST

START_TEST(test_many_series)
{
	static struct xp_plot_series s[40];
	struct xp_plot p;
	char *svg;
	size_t i;

	for (i = 0; i < 40; i++)
		s[i] = (struct xp_plot_series){ .name = "a flow with a long name", .x = xs,
						.y = ys, .n = 5 };
	xp_plot_init(&p, XP_PLOT_LINE);
	p.series = s;
	p.nseries = 40;
	svg = render(&p);
	ck_assert_uint_eq(count(svg, "class=\"series\""), 40);
	ck_assert(strstr(svg, " more</text>"));
	/* colours repeat after seven, dashed from the second round */
	ck_assert_str_eq(xp_plot_series_color(&p, 7), xp_plot_series_color(&p, 0));
	ck_assert_str_ne(xp_plot_series_color(&p, 1), xp_plot_series_color(&p, 0));
	ck_assert(strstr(svg, "stroke-dasharray=\"7 3\""));
	free(svg);
	/* a bold sum stays solid and black wherever it is */
	s[20].style = XP_STYLE_BOLD;
	ck_assert_str_eq(xp_plot_series_color(&p, 20), "#000000");
	ck_assert_str_eq(xp_plot_series_dash(&p, 20), "");
}
END_TEST

static Suite *plot_suite(void)
{
	Suite *s = suite_create("plot");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_xml_checker);
	tcase_add_test(tc, test_svg_num);
	tcase_add_test(tc, test_svg_escape);
	tcase_add_test(tc, test_nice_step);
	tcase_add_test(tc, test_ticks_linear);
	tcase_add_test(tc, test_ticks_log);
	tcase_add_test(tc, test_tick_labels);
	tcase_add_test(tc, test_series_count);
	tcase_add_test(tc, test_caption_escaped);
	tcase_add_test(tc, test_caption_wrapped);
	tcase_add_test(tc, test_edge_cases);
	tcase_add_test(tc, test_fixed_bounds);
	tcase_add_test(tc, test_bad_input);
	tcase_add_test(tc, test_many_series);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(plot_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
