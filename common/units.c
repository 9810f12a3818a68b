/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/units.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define NS_PER_SEC UINT64_C(1000000000)

enum digits_status { DIGITS_OK, DIGITS_NONE, DIGITS_OVERFLOW };

/* Parse [0-9]+ at *p, advancing *p past every digit even on overflow, so
 * the caller can still check what follows.  No sign, no whitespace: strtoull
 * would accept both (and wrap "-1" to 2^64-1), which is why it is not used. */
static enum digits_status parse_digits(const char **p, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int overflow = 0;

	while (*s >= '0' && *s <= '9') {
		unsigned d = (unsigned)(*s++ - '0');

		if (v > (UINT64_MAX - d) / 10)
			overflow = 1;
		else
			v = v * 10 + d;
	}
	*out = v;
	if (s == *p)
		return DIGITS_NONE;
	*p = s;
	return overflow ? DIGITS_OVERFLOW : DIGITS_OK;
}

static const char *name(const char *what)
{
	return what ? what : "value";
}

/* Binary shift for a K/M/G suffix, 0 for none, -1 for anything else. */
static int suffix_shift(char c)
{
	switch (c) {
	case '\0':
		return 0;
	case 'k':
	case 'K':
		return 10;
	case 'm':
	case 'M':
		return 20;
	case 'g':
	case 'G':
		return 30;
	default:
		return -1;
	}
}

int xp_parse_size(const char *s, uint64_t max, const char *what,
		  uint64_t *out, struct xp_err *err)
{
	const char *p = s;
	enum digits_status st;
	uint64_t v = 0;
	int shift;

	st = parse_digits(&p, &v);
	shift = st == DIGITS_NONE ? -1 : suffix_shift(*p);
	if (shift < 0 || (shift > 0 && p[1] != '\0'))
		return xp_err_set(err,
				  "%s: invalid size '%s' (expected a number with optional K/M/G suffix)",
				  name(what), s);
	if (st == DIGITS_OVERFLOW || v > UINT64_MAX >> shift ||
	    (v << shift) > max)
		return xp_err_set(err, "%s: size %s exceeds the maximum %" PRIu64,
				  name(what), s, max);
	*out = v << shift;
	return 0;
}

int xp_parse_uint(const char *s, uint64_t min, uint64_t max, const char *what,
		  uint64_t *out, struct xp_err *err)
{
	const char *p = s;
	enum digits_status st;
	uint64_t v = 0;

	st = parse_digits(&p, &v);
	if (st == DIGITS_NONE || *p != '\0')
		return xp_err_set(err,
				  "%s: invalid number '%s' (expected an unsigned decimal integer)",
				  name(what), s);
	if (st == DIGITS_OVERFLOW || v < min || v > max)
		return xp_err_set(err,
				  "%s: %s is out of range (expected %" PRIu64
				  " to %" PRIu64 ")",
				  name(what), s, min, max);
	*out = v;
	return 0;
}

/* Fractional digits after the '.', as nanoseconds.  Digits past the ninth
 * are below the clock's resolution and are dropped (still validated). */
static int parse_frac_ns(const char **p, uint64_t *ns)
{
	const char *s = *p;
	uint64_t scale = NS_PER_SEC / 10;

	*ns = 0;
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++, scale /= 10)
		*ns += (uint64_t)(*s - '0') * scale;
	*p = s;
	return 0;
}

int xp_parse_secs(const char *s, double max_s, const char *what,
		  uint64_t *out_ns, struct xp_err *err)
{
	const char *p = s;
	enum digits_status st;
	uint64_t sec = 0, frac = 0;
	int bad;

	st = parse_digits(&p, &sec);
	bad = st == DIGITS_NONE;
	if (!bad && *p == '.') {
		p++;
		bad = parse_frac_ns(&p, &frac) < 0;
	}
	if (bad || *p != '\0')
		return xp_err_set(err,
				  "%s: invalid duration '%s' (expected seconds, e.g. 10 or 0.5)",
				  name(what), s);
	/* Compare in ns as long double (max_s * 1e9 may not fit in 64 bits),
	 * written so that a NaN max_s rejects rather than accepts. */
	if (st == DIGITS_OVERFLOW || sec > (UINT64_MAX - frac) / NS_PER_SEC ||
	    !((long double)(sec * NS_PER_SEC + frac) <= (long double)max_s * 1e9L))
		return xp_err_set(err, "%s: duration %s exceeds the maximum %g s",
				  name(what), s, max_s);
	if (sec == 0 && frac == 0)
		return xp_err_set(err,
				  "%s: duration '%s' must be at least 1 ns",
				  name(what), s);
	*out_ns = sec * NS_PER_SEC + frac;
	return 0;
}

/* State of one xp_parse_cpus() call, so the helpers stay small. */
struct cpu_parse {
	const char *s, *what;
	struct xp_err *err;
	int *cpus;
	int cap, n;
	unsigned char seen[XP_CPUS_MAX / 8]; /* bitmap, for duplicates */
};

/* Parse one "N" or "N-M" element at *p into [*lo, *hi]; *p is left on the
 * character after it.  Returns 0, or -1 with the error set. */
static int parse_cpu_range(struct cpu_parse *cp, const char **p,
			   uint64_t *lo, uint64_t *hi)
{
	enum digits_status st_lo, st_hi = DIGITS_OK;

	st_lo = parse_digits(p, lo);
	*hi = *lo;
	if (st_lo != DIGITS_NONE && **p == '-') {
		(*p)++;
		st_hi = parse_digits(p, hi);
	}
	if (st_lo == DIGITS_NONE || st_hi == DIGITS_NONE ||
	    (**p != ',' && **p != '\0'))
		return xp_err_set(cp->err,
				  "%s: invalid CPU list '%s' (expected e.g. 0,2-4,7)",
				  name(cp->what), cp->s);
	if (st_lo == DIGITS_OVERFLOW || st_hi == DIGITS_OVERFLOW)
		return xp_err_set(cp->err,
				  "%s: CPU number too large in '%s' (maximum %d)",
				  name(cp->what), cp->s, XP_CPUS_MAX - 1);
	if (*lo >= XP_CPUS_MAX || *hi >= XP_CPUS_MAX)
		return xp_err_set(cp->err,
				  "%s: CPU %" PRIu64 " in '%s' exceeds the maximum %d",
				  name(cp->what), *lo >= XP_CPUS_MAX ? *lo : *hi,
				  cp->s, XP_CPUS_MAX - 1);
	if (*lo > *hi)
		return xp_err_set(cp->err,
				  "%s: reversed CPU range %" PRIu64 "-%" PRIu64
				  " in '%s'",
				  name(cp->what), *lo, *hi, cp->s);
	return 0;
}

static int add_cpu_range(struct cpu_parse *cp, uint64_t lo, uint64_t hi)
{
	uint64_t c;

	for (c = lo; c <= hi; c++) {
		if (cp->seen[c / 8] & (1u << (c % 8)))
			return xp_err_set(cp->err,
					  "%s: CPU %" PRIu64 " listed twice in '%s'",
					  name(cp->what), c, cp->s);
		if (cp->n >= cp->cap)
			return xp_err_set(cp->err,
					  "%s: more than %d CPUs in '%s'",
					  name(cp->what), cp->cap, cp->s);
		cp->seen[c / 8] |= (unsigned char)(1u << (c % 8));
		cp->cpus[cp->n++] = (int)c;
	}
	return 0;
}

int xp_parse_cpus(const char *s, int *cpus, int cap, const char *what,
		  struct xp_err *err)
{
	struct cpu_parse cp = {
		.s = s, .what = what, .err = err, .cpus = cpus, .cap = cap,
	};
	const char *p = s;
	uint64_t lo, hi;

	for (;;) {
		if (parse_cpu_range(&cp, &p, &lo, &hi) < 0 ||
		    add_cpu_range(&cp, lo, hi) < 0)
			return -1;
		if (*p == '\0')
			return cp.n;
		p++; /* ',' */
	}
}

char *xp_format_cpus(const int *cpus, int n, char *buf, unsigned len)
{
	unsigned used = 0;
	char item[16];
	int i, w;

	if (!len)
		return buf;
	buf[0] = '\0';
	/* Only whole numbers are written: a truncated "12" reading as "1"
	 * would be worse than a shorter list. */
	for (i = 0; i < n; i++) {
		w = snprintf(item, sizeof(item), "%s%d", i ? "," : "", cpus[i]);
		if (w < 0 || (unsigned)w >= len - used)
			break;
		memcpy(buf + used, item, (size_t)w + 1);
		used += (unsigned)w;
	}
	return buf;
}

int xp_parse_rate(const char *s, uint64_t max, const char *what, uint64_t *out,
		  struct xp_err *err)
{
	const char *p = s;
	double v = 0, scale = 1;
	int digits = 0;

	if (!what)
		what = "rate";
	if (!s)
		return xp_err_set(err, "%s: missing rate", what);
	for (; *p >= '0' && *p <= '9'; p++, digits++)
		v = v * 10 + (*p - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, digits++)
			v += (*p - '0') * (scale /= 10);
	switch (*p) {
	case 'k': case 'K': v *= 1e3; p++; break;
	case 'm': case 'M': v *= 1e6; p++; break;
	case 'g': case 'G': v *= 1e9; p++; break;
	default: break;
	}
	if (!digits || *p)
		return xp_err_set(err, "%s: invalid rate '%s' (expected bits/s with "
				  "optional k/M/G suffix, e.g. 100M)", what, s);
	if (v > (double)max || v >= 18446744073709551616.0) /* 2^64 */
		return xp_err_set(err, "%s: rate %s exceeds the maximum %llu bits/s",
				  what, s, (unsigned long long)max);
	*out = (uint64_t)(v + 0.5);
	return 0;
}
