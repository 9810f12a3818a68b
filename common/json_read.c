/* SPDX-License-Identifier: BSD-2-Clause */
/* Strict RFC 8259 parser into a flat, depth-first node array; see
 * json_read.h for the layout.  The accessors live in json_read_val.c. */
#include "common/json_read.h"
#include "common/utf8.h"
#include "common/json_read_int.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HARD_MAX_BYTES ((size_t)1 << 30) /* lengths are stored in 32 bits */
#define A_VALUE "a value (true, false, null, a number, a string, '[' or '{')"
#define NUM_STACK 128			 /* number tokens longer than this
					    are copied to the heap */

struct parser {
	const unsigned char *start, *p, *end;
	char *arena; /* decoded strings; never longer than the input */
	size_t alen;
	struct xp_jval *nodes;
	size_t n, cap, max_nodes;
	unsigned depth, max_depth;
	struct xp_err *err;
};

static int parse_value(struct parser *ps, const char *key, uint32_t keylen);

/* "expected X, got Y" where Y is what stands at p. */
static int expected(struct parser *ps, const char *what)
{
	char got[32];

	if (ps->p >= ps->end)
		snprintf(got, sizeof(got), "end of input");
	else if (*ps->p >= 0x21 && *ps->p < 0x7f)
		snprintf(got, sizeof(got), "'%c'", *ps->p);
	else
		snprintf(got, sizeof(got), "byte 0x%02x", *ps->p);
	return xp_err_set(ps->err, "JSON offset %zu: expected %s, got %s",
			  (size_t)(ps->p - ps->start), what, got);
}

static int fail_at(struct parser *ps, const unsigned char *at, const char *what)
{
	return xp_err_set(ps->err, "JSON offset %zu: %s",
			  (size_t)(at - ps->start), what);
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

/* Index of a fresh node, or -1. */
static long new_node(struct parser *ps, int type, const char *key,
		     uint32_t keylen)
{
	struct xp_jval *v;

	if (ps->n == ps->max_nodes)
		return xp_err_set(ps->err,
				  "JSON offset %zu: more than %zu values",
				  (size_t)(ps->p - ps->start), ps->max_nodes);
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 64;

		if (cap > ps->max_nodes)
			cap = ps->max_nodes;
		v = realloc(ps->nodes, cap * sizeof(*v));
		if (!v)
			return xp_err_set(ps->err, "JSON: out of memory for "
				"%zu values", cap);
		ps->nodes = v;
		ps->cap = cap;
	}
	v = &ps->nodes[ps->n];
	memset(v, 0, sizeof(*v));
	v->type = (uint8_t)type;
	v->key = key;
	v->keylen = keylen;
	return (long)ps->n++;
}

static int literal(struct parser *ps, const char *word, int type, int b,
		   const char *key, uint32_t keylen)
{
	size_t n = strlen(word);
	long i;

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
		return expected(ps, A_VALUE);
	i = new_node(ps, type, key, keylen);
	if (i < 0)
		return -1;
	ps->nodes[i].u.b = b;
	ps->p += n;
	return 0;
}

/* ---- strings ---- */

static int hex4(const unsigned char *s, const unsigned char *end, uint32_t *out)
{
	uint32_t v = 0;
	int i;

	if (end - s < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		unsigned char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v |= (c | 0x20) - 'a' + 10;
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *dst, uint32_t cp)
{
	if (cp < 0x80) {
		dst[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		dst[0] = (char)(0xc0 | cp >> 6);
		dst[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		dst[0] = (char)(0xe0 | cp >> 12);
		dst[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		dst[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	dst[0] = (char)(0xf0 | cp >> 18);
	dst[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	dst[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	dst[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* \uXXXX at p (p at the backslash), with a following low surrogate when
 * the first is a high one.  Appends UTF-8 to the arena. */
static int unicode_escape(struct parser *ps)
{
	uint32_t cp, lo;

	if (hex4(ps->p + 2, ps->end, &cp) < 0)
		return fail_at(ps, ps->p, "expected 4 hex digits after \\u");
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fail_at(ps, ps->p, "lone low surrogate \\u escape "
			       "(U+DC00-U+DFFF without a high one before it)");
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (ps->end - ps->p < 12 || ps->p[6] != '\\' ||
		    ps->p[7] != 'u' || hex4(ps->p + 8, ps->end, &lo) < 0 ||
		    lo < 0xdc00 || lo > 0xdfff)
			return fail_at(ps, ps->p, "expected a low surrogate "
				       "\\uDC00-\\uDFFF after a high one");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		ps->p += 6;
	}
	ps->p += 6;
	ps->alen += put_utf8(ps->arena + ps->alen, cp);
	return 0;
}

static int escape(struct parser *ps)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *c;

	if (ps->end - ps->p < 2)
		return fail_at(ps, ps->p, "expected an escape after '\\', "
			       "got end of input");
	if (ps->p[1] == 'u')
		return unicode_escape(ps);
	c = ps->p[1] ? strchr(from, ps->p[1]) : NULL;
	if (!c) {
		ps->p++;
		return expected(ps, "one of \" \\ / b f n r t u after '\\'");
	}
	ps->arena[ps->alen++] = to[c - from];
	ps->p += 2;
	return 0;
}

/* Length of the valid UTF-8 sequence at s (before end), 0 if invalid. */
static int utf8_len(const unsigned char *s, const unsigned char *end)
{
	uint32_t cp;

	return (int)xp_utf8_seq(s, (size_t)(end - s), &cp);
}

/* One string at p (the opening quote) into the arena, NUL-terminated. */
static int string(struct parser *ps, const char **out, uint32_t *len)
{
	const unsigned char *open = ps->p++;
	size_t from = ps->alen;
	int n;

	for (;;) {
		if (ps->p >= ps->end)
			return fail_at(ps, open, "unterminated string "
				       "(expected '\"' before end of input)");
		if (*ps->p == '"')
			break;
		if (*ps->p == '\\') {
			if (escape(ps) < 0)
				return -1;
			continue;
		}
		if (*ps->p < 0x20)
			return expected(ps, "a string character (control "
					"characters must be escaped)");
		n = *ps->p < 0x80 ? 1 : utf8_len(ps->p, ps->end);
		if (!n)
			return expected(ps, "valid UTF-8 in a string");
		memcpy(ps->arena + ps->alen, ps->p, (size_t)n);
		ps->alen += (size_t)n;
		ps->p += n;
	}
	ps->p++;
	ps->arena[ps->alen++] = '\0';
	*out = ps->arena + from;
	*len = (uint32_t)(ps->alen - from - 1);
	return 0;
}

static int string_value(struct parser *ps, const char *key, uint32_t keylen)
{
	const char *s;
	uint32_t len;
	long i = new_node(ps, XP_JSTR, key, keylen);

	if (i < 0 || string(ps, &s, &len) < 0)
		return -1;
	ps->nodes[i].u.str.s = s;
	ps->nodes[i].u.str.len = len;
	return 0;
}

/* ---- numbers ---- */

/* Where the parts of a number token are. */
struct numtok {
	const unsigned char *start, *intd, *fracd, *end;
	size_t nint, nfrac;
	long long exp; /* saturated at +-1e12 */
	int neg;
};

static int digits(struct parser *ps, size_t *n)
{
	const unsigned char *from = ps->p;

	while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
		ps->p++;
	*n = (size_t)(ps->p - from);
	return *n ? 0 : -1;
}

static int scan_exp(struct parser *ps, struct numtok *t)
{
	int neg = 0;

	ps->p++;
	if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
		neg = *ps->p++ == '-';
	if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
		return expected(ps, "a digit in the exponent");
	for (; ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9'; ps->p++)
		if (t->exp < 1000000000000LL)
			t->exp = t->exp * 10 + (*ps->p - '0');
	t->exp = neg ? -t->exp : t->exp;
	return 0;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int scan_number(struct parser *ps, struct numtok *t)
{
	memset(t, 0, sizeof(*t));
	t->start = ps->p;
	if (*ps->p == '-') {
		t->neg = 1;
		ps->p++;
	}
	t->intd = ps->p;
	if (digits(ps, &t->nint) < 0)
		return expected(ps, "a digit after '-'");
	if (t->nint > 1 && *t->intd == '0')
		return fail_at(ps, t->intd, "leading zero in a number");
	if (ps->p < ps->end && *ps->p == '.') {
		t->fracd = ++ps->p;
		if (digits(ps, &t->nfrac) < 0)
			return expected(ps, "a digit after '.'");
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E') &&
	    scan_exp(ps, t) < 0)
		return -1;
	t->end = ps->p;
	return 0;
}

static int digit_at(const struct numtok *t, size_t k)
{
	return k < t->nint ? t->intd[k] - '0' : t->fracd[k - t->nint] - '0';
}

/* Exact magnitude if the number is integral and below 2^64: digit k of
 * the int+frac digits has place value 10^(nint - 1 - k + exp). */
static int exact_int(const struct numtok *t, uint64_t *mag)
{
	size_t total = t->nint + t->nfrac, f = 0, l = total, k;
	long long place;
	uint64_t m = 0;

	while (f < total && digit_at(t, f) == 0)
		f++;
	*mag = 0;
	if (f == total)
		return 1;
	while (digit_at(t, l - 1) == 0)
		l--;
	if ((long long)t->nint - (long long)l + t->exp < 0 ||
	    (long long)t->nint - 1 - (long long)f + t->exp > 19)
		return 0;
	for (k = f; k < l; k++) {
		uint64_t d = (uint64_t)digit_at(t, k);

		if (m > (UINT64_MAX - d) / 10)
			return 0;
		m = m * 10 + d;
	}
	for (place = (long long)t->nint - (long long)l + t->exp; place > 0;
	     place--) {
		if (m > UINT64_MAX / 10)
			return 0;
		m *= 10;
	}
	*mag = m;
	return 1;
}

/* strtod on a NUL-terminated copy whose '.' is this locale's radix. */
static int to_double(struct parser *ps, const struct numtok *t, double *d)
{
	const char *radix = localeconv()->decimal_point;
	size_t rlen = radix && *radix ? strlen(radix) : 1, n = 0, len;
	char stack[NUM_STACK], *buf = stack;
	const unsigned char *s;

	len = (size_t)(t->end - t->start) + rlen + 1;
	if (len > sizeof(stack) && !(buf = malloc(len)))
		return xp_err_set(ps->err, "JSON: out of memory for a number "
				  "of %zu bytes", len);
	for (s = t->start; s < t->end; s++) {
		if (*s == '.' && rlen > 1) {
			memcpy(buf + n, radix, rlen);
			n += rlen;
		} else {
			buf[n++] = *s == '.' && radix && *radix ? *radix :
				   (char)*s;
		}
	}
	buf[n] = '\0';
	*d = strtod(buf, NULL);
	if (buf != stack)
		free(buf);
	return 0;
}

static int number(struct parser *ps, const char *key, uint32_t keylen)
{
	struct numtok t;
	struct xp_jval *v;
	uint64_t mag;
	long i;

	i = new_node(ps, XP_JNUM, key, keylen);
	if (i < 0 || scan_number(ps, &t) < 0)
		return -1;
	v = &ps->nodes[i];
	v->flags = (uint8_t)((exact_int(&t, &mag) ? XP_JF_INT : 0) |
			     (t.neg ? XP_JF_NEG : 0));
	v->u.num.mag = mag;
	return to_double(ps, &t, &v->u.num.d);
}

/* ---- containers ---- */

static long open_container(struct parser *ps, int type, const char *key,
			   uint32_t keylen)
{
	if (ps->depth >= ps->max_depth)
		return xp_err_set(ps->err, "JSON offset %zu: nesting deeper "
				  "than the limit of %u",
				  (size_t)(ps->p - ps->start), ps->max_depth);
	ps->depth++;
	ps->p++;
	skip_ws(ps);
	return new_node(ps, type, key, keylen);
}

static void close_container(struct parser *ps, long i, uint32_t count)
{
	ps->nodes[i].u.c.count = count;
	ps->nodes[i].u.c.span = (uint32_t)(ps->n - (size_t)i);
	ps->depth--;
	ps->p++;
}

static int array(struct parser *ps, const char *key, uint32_t keylen)
{
	long i = open_container(ps, XP_JARR, key, keylen);
	uint32_t count = 0;
	size_t child;

	if (i < 0)
		return -1;
	while (!(ps->p < ps->end && *ps->p == ']' && count == 0)) {
		child = ps->n;
		if (parse_value(ps, NULL, 0) < 0)
			return -1;
		count++;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ']')
			break;
		if (ps->p >= ps->end || *ps->p != ',')
			return expected(ps, "',' or ']' after an array element");
		ps->nodes[child].flags |= XP_JF_MORE;
		ps->p++;
	}
	close_container(ps, i, count);
	return 0;
}

static int object(struct parser *ps, const char *key, uint32_t keylen)
{
	long i = open_container(ps, XP_JOBJ, key, keylen);
	uint32_t count = 0, klen;
	const char *k;
	size_t child;

	if (i < 0)
		return -1;
	while (!(ps->p < ps->end && *ps->p == '}' && count == 0)) {
		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != '"')
			return expected(ps, count ? "a string key after ','" :
					"a string key or '}'");
		if (string(ps, &k, &klen) < 0)
			return -1;
		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != ':')
			return expected(ps, "':' after an object key");
		ps->p++;
		child = ps->n;
		if (parse_value(ps, k, klen) < 0)
			return -1;
		count++;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == '}')
			break;
		if (ps->p >= ps->end || *ps->p != ',')
			return expected(ps, "',' or '}' after an object member");
		ps->nodes[child].flags |= XP_JF_MORE;
		ps->p++;
	}
	close_container(ps, i, count);
	return 0;
}

static int parse_value(struct parser *ps, const char *key, uint32_t keylen)
{
	skip_ws(ps);
	if (ps->p >= ps->end)
		return expected(ps, "a value");
	switch (*ps->p) {
	case '{':
		return object(ps, key, keylen);
	case '[':
		return array(ps, key, keylen);
	case '"':
		return string_value(ps, key, keylen);
	case 't':
		return literal(ps, "true", XP_JBOOL, 1, key, keylen);
	case 'f':
		return literal(ps, "false", XP_JBOOL, 0, key, keylen);
	case 'n':
		return literal(ps, "null", XP_JNULL, 0, key, keylen);
	default:
		if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
			return number(ps, key, keylen);
		return expected(ps, A_VALUE);
	}
}

static int setup(struct parser *ps, const char *text, size_t len,
		 const struct xp_jlimits *lim, struct xp_err *err)
{
	size_t max_bytes = lim && lim->max_bytes ? lim->max_bytes :
						   XP_JREAD_MAX_BYTES;

	memset(ps, 0, sizeof(*ps));
	ps->err = err;
	ps->max_depth = lim && lim->max_depth ? lim->max_depth :
						XP_JREAD_MAX_DEPTH;
	if (ps->max_depth > XP_JREAD_DEPTH_CAP)
		ps->max_depth = XP_JREAD_DEPTH_CAP;
	ps->max_nodes = lim && lim->max_nodes ? lim->max_nodes :
						XP_JREAD_MAX_NODES;
	if (ps->max_nodes > UINT32_MAX)
		ps->max_nodes = UINT32_MAX;
	if (max_bytes > HARD_MAX_BYTES)
		max_bytes = HARD_MAX_BYTES;
	if (!text && len)
		return xp_err_set(err, "JSON: no text (NULL) of %zu bytes", len);
	if (len > max_bytes)
		return xp_err_set(err, "JSON document of %zu bytes is larger "
				  "than the limit of %zu", len, max_bytes);
	ps->start = ps->p = (const unsigned char *)(text ? text : "");
	ps->end = ps->start + len;
	ps->arena = malloc(len + 1);
	if (!ps->arena)
		return xp_err_set(err, "JSON: out of memory for %zu bytes", len);
	return 0;
}

struct xp_jdoc *xp_jdoc_parse(const char *text, size_t len,
			      const struct xp_jlimits *lim, struct xp_err *err)
{
	struct parser ps;
	struct xp_jdoc *doc;

	if (setup(&ps, text, len, lim, err) < 0)
		return NULL;
	if (len >= 3 && memcmp(ps.p, "\xef\xbb\xbf", 3) == 0)
		ps.p += 3;
	if (parse_value(&ps, NULL, 0) < 0)
		goto fail;
	skip_ws(&ps);
	if (ps.p != ps.end) {
		expected(&ps, "end of input after the top-level value");
		goto fail;
	}
	doc = malloc(sizeof(*doc));
	if (!doc) {
		xp_err_set(err, "JSON: out of memory");
		goto fail;
	}
	doc->nodes = ps.nodes;
	doc->n = ps.n;
	doc->arena = ps.arena;
	return doc;
fail:
	free(ps.nodes);
	free(ps.arena);
	return NULL;
}

void xp_jdoc_free(struct xp_jdoc *doc)
{
	if (!doc)
		return;
	free(doc->nodes);
	free(doc->arena);
	free(doc);
}
