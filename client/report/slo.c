/* SPDX-License-Identifier: BSD-2-Clause */
#include "client/report/slo.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Bounds are parsed in place as [p, end) spans of the caller's string, so
 * an element of any length needs no buffer and no truncation. */
struct span {
	const char *p, *end;
};

/* A decimal number as mantissa * 10^exp.  Keeping at most 15 significant
 * digits keeps the mantissa exact, so scaling it by an exact power of ten
 * (up to 10^22) rounds once: "99.99" gives the same double as strtod, and
 * "0.1ms" gives exactly 100 us instead of 0.1 * 1000. */
struct decimal {
	double mant;
	int exp;
	int has_point;
};

#define SIG_DIGITS 15
#define PCT_NAME_MAX 16 /* "p99.9999999999": a name longer is refused */
#define EXP_CAP 10000

/* Unit of a metric: turns the number and what follows it into the
 * canonical unit.  Returns NULL or why the value is wrong. */
typedef const char *(*unit_fn)(const struct decimal *d, struct span unit,
			       double *out);

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_op_char(char c)
{
	return c == '<' || c == '>' || c == '=' || c == '!';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static size_t span_len(struct span s)
{
	return (size_t)(s.end - s.p);
}

/* Length for a "%.*s" in an error message; the message is bounded anyway. */
static int show_len(struct span s)
{
	size_t n = span_len(s);

	return n > 200 ? 200 : (int)n;
}

static void skip_space(struct span *s)
{
	while (s->p < s->end && is_space(*s->p))
		s->p++;
}

static void trim(struct span *s)
{
	skip_space(s);
	while (s->end > s->p && is_space(s->end[-1]))
		s->end--;
}

static int span_eq(struct span s, const char *word, int nocase)
{
	size_t i, n = strlen(word);

	if (span_len(s) != n)
		return 0;
	for (i = 0; i < n; i++)
		if (nocase ? lower(s.p[i]) != word[i] : s.p[i] != word[i])
			return 0;
	return 1;
}

/* Next comma-separated item of *cur, trimmed; *cur becomes NULL after the
 * last one. */
static struct span next_item(const char **cur)
{
	const char *p = *cur, *comma = strchr(p, ',');
	struct span it = { p, comma ? comma : p + strlen(p) };

	*cur = comma ? comma + 1 : NULL;
	trim(&it);
	return it;
}

static int is_blank(const char *s)
{
	struct span all = { s, s + strlen(s) };

	trim(&all);
	return all.p == all.end;
}

static void add_digit(struct decimal *d, int *sig, char c, int frac)
{
	if (*sig >= SIG_DIGITS) {
		if (!frac && d->exp < EXP_CAP)
			d->exp++;
		return;
	}
	d->mant = d->mant * 10 + (c - '0');
	if (frac)
		d->exp--;
	if (d->mant != 0)
		(*sig)++;
}

/* DIGITS [ "." DIGITS ] at s->p, advancing past it.  No sign, no exponent,
 * no "inf" or "nan" (strtod would take all of them).  0 or -1. */
static int scan_decimal(struct span *s, struct decimal *d)
{
	const char *p = s->p;
	int sig = 0;

	*d = (struct decimal){ 0, 0, 0 };
	if (p == s->end || !is_digit(*p))
		return -1;
	while (p < s->end && is_digit(*p))
		add_digit(d, &sig, *p++, 0);
	if (p < s->end && *p == '.') {
		d->has_point = 1;
		if (++p == s->end || !is_digit(*p))
			return -1;
		while (p < s->end && is_digit(*p))
			add_digit(d, &sig, *p++, 1);
	}
	s->p = p;
	return 0;
}

/* d * 10^exp10; may be inf for absurdly long numbers (callers check). */
static double decimal_value(const struct decimal *d, int exp10)
{
	static const double exact[] = {
		1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
		1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
		1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
	};
	int e = d->exp + exp10, a = e < 0 ? -e : e;
	double scale = a <= 22 ? exact[a] : pow(10, a);

	if (d->mant == 0)
		return 0;
	return e < 0 ? d->mant / scale : d->mant * scale;
}

/* A whole span as a percentile in (0, 100]. */
static const char *parse_pct(struct span s, double *out)
{
	struct decimal d;

	if (scan_decimal(&s, &d) < 0 || s.p != s.end)
		return "invalid value (expected a number in (0, 100])";
	*out = decimal_value(&d, 0);
	if (!(*out > 0 && *out <= 100))
		return "out of range (0, 100]";
	return NULL;
}

/* Decimal power of a k/K, m/M or g/G prefix (x1000 each), or -1. */
static int si_exp(char c, int allow_g)
{
	switch (c) {
	case 'k':
	case 'K':
		return 3;
	case 'm':
	case 'M':
		return 6;
	case 'g':
	case 'G':
		return allow_g ? 9 : -1;
	default:
		return -1;
	}
}

static const char *unit_latency(const struct decimal *d, struct span unit,
				double *out)
{
	static const struct {
		const char *name;
		int exp10;
	} units[] = {
		{ "", 0 },  { "us", 0 }, { "\xc2\xb5s", 0 }, /* µs */
		{ "ns", -3 }, { "ms", 3 }, { "s", 6 },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (span_eq(unit, units[i].name, 1)) {
			*out = decimal_value(d, units[i].exp10);
			return NULL;
		}
	}
	return "invalid unit (expected ns, us, ms or s)";
}

static const char *unit_throughput(const struct decimal *d, struct span unit,
				   double *out)
{
	int e = unit.p < unit.end ? si_exp(*unit.p, 1) : -1;

	if (e < 0)
		e = 0;
	else
		unit.p++;
	if (!span_eq(unit, "", 0) && !span_eq(unit, "bit/s", 0) &&
	    !span_eq(unit, "bps", 0) && !span_eq(unit, "b", 0))
		return "invalid unit (expected k, M or G, then optionally bit/s or bps)";
	*out = decimal_value(d, e);
	return NULL;
}

static const char *unit_rate(const struct decimal *d, struct span unit,
			     double *out)
{
	int e = 0;

	if (unit.p < unit.end) {
		e = si_exp(*unit.p, 0);
		if (e < 0 || span_len(unit) != 1)
			return "invalid unit (expected k or M)";
	}
	*out = decimal_value(d, e);
	return NULL;
}

static const char *unit_loss(const struct decimal *d, struct span unit,
			     double *out)
{
	if (!span_eq(unit, "", 0) && !span_eq(unit, "%", 0))
		return "invalid unit (expected %)";
	*out = decimal_value(d, 0);
	return *out > 100 ? "loss above 100%" : NULL;
}

static const char *unit_count(const struct decimal *d, struct span unit,
			      double *out)
{
	if (d->has_point)
		return "invalid value (expected a whole number)";
	if (unit.p != unit.end)
		return "invalid unit (retransmits take none)";
	*out = decimal_value(d, 0);
	return NULL;
}

static const unit_fn metric_unit[] = {
	[XP_SLO_LATENCY_PCT] = unit_latency,
	[XP_SLO_LATENCY_MEAN] = unit_latency,
	[XP_SLO_LATENCY_MIN] = unit_latency,
	[XP_SLO_LATENCY_MAX] = unit_latency,
	[XP_SLO_LATENCY_STDDEV] = unit_latency,
	[XP_SLO_RATE] = unit_rate,
	[XP_SLO_THROUGHPUT] = unit_throughput,
	[XP_SLO_LOSS] = unit_loss,
	[XP_SLO_RETRANSMITS] = unit_count,
	[XP_SLO_RPM] = unit_rate,
	[XP_SLO_THROUGHPUT_UP] = unit_throughput,
	[XP_SLO_THROUGHPUT_DOWN] = unit_throughput,
};

static int span_prefix(struct span *s, const char *word)
{
	size_t n = strlen(word);

	if (span_len(*s) <= n || !span_eq((struct span){ s->p, s->p + n }, word, 1))
		return 0;
	s->p += n;
	return 1;
}

/* -t RRUL's scope before a metric: udp_, self_, self_up_ or self_down_, then idle_, loaded_ or
 * inflation_; the words taken, into b and the name's prefix. */
static struct span parse_scope(struct span tok, struct xp_slo_bound *b, char *pre, size_t len)
{
	static const char *const phases[] = { NULL, "idle_", "loaded_", "inflation_" };
	static const char *const ways[] = { "", "fwd_", "ret_" };
	static const char *const selves[] = { "", "self_", "self_up_", "self_down_" };
	int i;

	for (i = XP_SLO_FWD; i <= XP_SLO_RET; i++)
		if (span_prefix(&tok, ways[i]))
			b->way = i;
	b->udp = span_prefix(&tok, "udp_");
	for (i = XP_SLO_SELF_DOWN; !b->udp && !b->self && i >= XP_SLO_SELF; i--)
		if (span_prefix(&tok, selves[i]))
			b->self = i;
	for (i = XP_SLO_IDLE; i <= XP_SLO_INFLATION; i++)
		if (span_prefix(&tok, phases[i]))
			b->phase = i;
	snprintf(pre, len, "%s%s%s", ways[b->way],
		 b->udp ? "udp_" : selves[b->self], b->phase ? phases[b->phase] : "");
	return tok;
}

static int latency_metric(int m)
{
	return m >= XP_SLO_LATENCY_PCT && m <= XP_SLO_LATENCY_STDDEV;
}

/* Canonical "pNN.N" from the digits as written: no leading zeros in the
 * integer part, no trailing zeros (nor a bare point) in the fraction, so
 * "p099.90" and "p99.9" both read "p99.9".  -1 if it does not fit. */
static int pct_name(struct span num, char *name, size_t size)
{
	const char *dot = memchr(num.p, '.', span_len(num));
	const char *ip = num.p, *iend = dot ? dot : num.end, *fend = num.end;
	int n;

	while (ip + 1 < iend && *ip == '0')
		ip++;
	while (dot && fend > dot + 1 && fend[-1] == '0')
		fend--;
	if (dot && fend == dot + 1)
		fend = dot;
	n = snprintf(name, size, "p%.*s%.*s", (int)(iend - ip), ip,
		     (int)(fend - iend), iend);
	return n >= 0 && (size_t)n < size ? 0 : -1;
}

static const char *parse_plain_metric(struct span tok, struct xp_slo_bound *b)
{
	static const struct {
		const char *word, *canon;
		int metric;
	} names[] = {
		{ "mean", "mean", XP_SLO_LATENCY_MEAN },
		{ "avg", "mean", XP_SLO_LATENCY_MEAN },
		{ "min", "min", XP_SLO_LATENCY_MIN },
		{ "max", "max", XP_SLO_LATENCY_MAX },
		{ "stddev", "stddev", XP_SLO_LATENCY_STDDEV },
		{ "rate", "rate", XP_SLO_RATE },
		{ "throughput", "throughput", XP_SLO_THROUGHPUT },
		{ "tput", "throughput", XP_SLO_THROUGHPUT },
		{ "loss", "loss", XP_SLO_LOSS },
		{ "retransmits", "retransmits", XP_SLO_RETRANSMITS },
		{ "retrans", "retransmits", XP_SLO_RETRANSMITS },
		{ "rpm", "rpm", XP_SLO_RPM },
		{ "throughput_up", "throughput_up", XP_SLO_THROUGHPUT_UP },
		{ "throughput_down", "throughput_down", XP_SLO_THROUGHPUT_DOWN },
	};
	struct span num = { tok.p + 1, tok.end };
	size_t i;

	if (tok.p == tok.end)
		return "missing metric";
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (span_eq(tok, names[i].word, 1)) {
			b->metric = names[i].metric;
			snprintf(b->name, sizeof(b->name), "%s", names[i].canon);
			return NULL;
		}
	}
	if (lower(*tok.p) != 'p' || span_len(tok) < 2 || !is_digit(tok.p[1]))
		return "unknown metric (expected pNN, mean, min, max, stddev, "
		       "rate, throughput, loss or retransmits; --one-way: fwd_ or ret_ and "
		       "a latency one; -t RRUL: idle_, loaded_ or inflation_ and a "
		       "latency one (udp_, self_, self_up_ or self_down_ before them), rpm, throughput_up, "
		       "throughput_down)";
	b->metric = XP_SLO_LATENCY_PCT;
	if (parse_pct(num, &b->pct))
		return "invalid percentile (expected pNN with 0 < NN <= 100)";
	if (pct_name(num, b->name, PCT_NAME_MAX) < 0)
		return "percentile has too many digits";
	return NULL;
}

static const char *parse_metric(struct span tok, struct xp_slo_bound *b)
{
	char pre[24], name[sizeof(b->name)];
	const char *why;

	tok = parse_scope(tok, b, pre, sizeof(pre));
	why = parse_plain_metric(tok, b);
	if (why)
		return why;
	if (b->udp && !b->phase)
		return "udp_ goes before idle_, loaded_ or inflation_";
	if (b->self && b->phase != XP_SLO_LOADED && b->phase != XP_SLO_INFLATION)
		return "self_, self_up_ and self_down_ (the load's own connections) go before "
		       "loaded_ or inflation_";
	if (b->self && b->way)
		return "self probes have no one-way delays: fwd_ and ret_ do not go with self_";
	if (b->way && !latency_metric(b->metric))
		return "fwd_ and ret_ (--one-way) go before a latency metric (pNN, mean, min, "
		       "max, stddev)";
	if (b->phase && !latency_metric(b->metric))
		return "idle_, loaded_ and inflation_ go before a latency metric (pNN, mean, "
		       "min, max, stddev)";
	memcpy(name, b->name, sizeof(name));
	if (snprintf(b->name, sizeof(b->name), "%s%s", pre, name) >= (int)sizeof(b->name))
		return "metric name too long";
	return NULL;
}

/* <=, <, >= or > at s->p, advancing past it.  0 or -1. */
static int parse_op(struct span *s, int *op)
{
	int eq;

	if (s->p == s->end || (*s->p != '<' && *s->p != '>'))
		return -1;
	eq = s->p + 1 < s->end && s->p[1] == '=';
	if (*s->p == '<')
		*op = eq ? XP_SLO_LE : XP_SLO_LT;
	else
		*op = eq ? XP_SLO_GE : XP_SLO_GT;
	s->p += 1 + eq;
	return 0;
}

static const char *parse_value(int metric, struct span v, double *out)
{
	struct decimal d;
	const char *why;

	if (v.p == v.end)
		return "missing value";
	if (is_op_char(*v.p))
		return "duplicate operator";
	if (scan_decimal(&v, &d) < 0)
		return "invalid value";
	skip_space(&v);
	why = metric_unit[metric](&d, v, out);
	if (!why && !isfinite(*out))
		return "value out of range";
	return why;
}

static int same_bound(const struct xp_slo_bound *a,
		      const struct xp_slo_bound *b)
{
	return a->metric == b->metric && a->op == b->op && a->phase == b->phase &&
	       a->udp == b->udp && a->self == b->self && a->way == b->way &&
	       (a->metric != XP_SLO_LATENCY_PCT || a->pct == b->pct);
}

/* One trimmed, non-empty element into b.  NULL or why it is wrong. */
static const char *parse_bound(struct span el, const struct xp_slo *slo,
			       struct xp_slo_bound *b)
{
	struct span tok = { el.p, el.p }, rest;
	const char *why;
	int i;

	memset(b, 0, sizeof(*b));
	while (tok.end < el.end && !is_space(*tok.end) && !is_op_char(*tok.end))
		tok.end++;
	why = parse_metric(tok, b);
	if (why)
		return why;
	rest = (struct span){ tok.end, el.end };
	skip_space(&rest);
	if (parse_op(&rest, &b->op) < 0)
		return "missing operator (expected <=, <, >= or >)";
	skip_space(&rest);
	why = parse_value(b->metric, rest, &b->limit);
	if (why)
		return why;
	for (i = 0; i < slo->n; i++)
		if (same_bound(&slo->b[i], b))
			return "duplicate bound (same metric and operator twice)";
	snprintf(b->text, sizeof(b->text), "%.*s", show_len(el), el.p);
	return NULL;
}

int xp_slo_parse(const char *s, struct xp_slo *slo, struct xp_err *err)
{
	struct xp_slo tmp; /* so that slo is untouched on error */
	const char *cur = s, *why;
	struct span el;

	if (!s || is_blank(s))
		return xp_err_set(err, "--slo: empty list");
	tmp.n = 0;
	while (cur) {
		el = next_item(&cur);
		if (el.p == el.end)
			return xp_err_set(err, "--slo: '%s': empty bound", s);
		if (tmp.n == XP_SLO_MAX)
			return xp_err_set(err,
					  "--slo: '%.*s': too many bounds (at most %d)",
					  show_len(el), el.p, XP_SLO_MAX);
		why = parse_bound(el, &tmp, &tmp.b[tmp.n]);
		if (why)
			return xp_err_set(err, "--slo: '%.*s': %s",
					  show_len(el), el.p, why);
		tmp.n++;
	}
	*slo = tmp;
	return 0;
}

int xp_slo_check(const struct xp_slo_bound *b, double measured)
{
	switch (b->op) {
	case XP_SLO_LE:
		return measured <= b->limit;
	case XP_SLO_LT:
		return measured < b->limit;
	case XP_SLO_GE:
		return measured >= b->limit;
	case XP_SLO_GT:
		return measured > b->limit;
	default:
		return 0;
	}
}

static int pct_error(struct xp_err *err, struct span it, const char *why)
{
	return xp_err_set(err, "--percentiles: '%.*s': %s", show_len(it), it.p,
			  why);
}

int xp_parse_percentiles(const char *s, double *out, int cap,
			 struct xp_err *err)
{
	const char *cur = s, *why;
	struct span it;
	double v;
	int i, n = 0;

	if (!s || is_blank(s))
		return xp_err_set(err, "--percentiles: empty list");
	while (cur) {
		it = next_item(&cur);
		if (it.p == it.end)
			return xp_err_set(err, "--percentiles: '%s': empty item", s);
		why = parse_pct(it, &v);
		if (why)
			return pct_error(err, it, why);
		for (i = 0; i < n; i++)
			if (out[i] == v)
				return pct_error(err, it, "duplicate");
		if (n >= cap)
			return xp_err_set(err,
					  "--percentiles: '%.*s': too many (at most %d)",
					  show_len(it), it.p, cap);
		out[n++] = v;
	}
	return n;
}
