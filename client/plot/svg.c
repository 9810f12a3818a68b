/* SPDX-License-Identifier: BSD-2-Clause */
#include "client/plot/svg.h"
#include "common/utf8.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void xp_svg_init(struct xp_svg *s)
{
	memset(s, 0, sizeof(*s));
}

void xp_svg_free(struct xp_svg *s)
{
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

/* Room for n more bytes plus a terminating NUL. */
static int reserve(struct xp_svg *s, size_t n)
{
	size_t cap = s->cap ? s->cap : 4096;
	char *p;

	if (s->failed)
		return -1;
	if (s->len + n + 1 <= s->cap)
		return 0;
	while (cap < s->len + n + 1) {
		if (cap > SIZE_MAX / 2)
			break;
		cap *= 2;
	}
	if (cap < s->len + n + 1 || !(p = realloc(s->buf, cap))) {
		s->failed = 1;
		return -1;
	}
	s->buf = p;
	s->cap = cap;
	return 0;
}

static void append(struct xp_svg *s, const char *p, size_t n)
{
	if (reserve(s, n))
		return;
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	s->buf[s->len] = '\0';
}

void xp_svg_raw(struct xp_svg *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || reserve(s, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(s->buf + s->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	s->len += (size_t)n;
}

/* Length of the valid UTF-8 sequence at p (at most avail bytes) that
 * XML 1.0 allows, or 0: overlong forms, surrogates, code points above
 * U+10FFFF, U+FFFE/U+FFFF and control characters other than tab, LF and
 * CR are refused. */
static size_t utf8_seq(const unsigned char *p, size_t avail)
{
	uint32_t cp;
	size_t n = xp_utf8_seq(p, avail, &cp);

	if (n == 1)
		return (cp >= 0x20 || cp == '\t' || cp == '\n' || cp == '\r') && cp != 0x7f;
	if (!n || cp == 0xfffe || cp == 0xffff || (cp >= 0x80 && cp <= 0x9f))
		return 0;
	return n;
}

static const char *entity(unsigned char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&#39;";
	case '\t': case '\n': case '\r': return " ";
	}
	return NULL;
}

void xp_svg_textn(struct xp_svg *s, const char *text, size_t n)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t i = 0, k;

	while (i < n && p[i]) {
		const char *e = entity(p[i]);

		k = utf8_seq(p + i, strnlen(text + i, n - i < 4 ? n - i : 4));
		if (e) {
			append(s, e, strlen(e));
			k = 1;
		} else if (k) {
			append(s, text + i, k);
		} else {
			append(s, "?", 1);
			for (k = 1; i + k < n && (p[i + k] & 0xc0) == 0x80 && k < 4; k++)
				;
		}
		i += k;
	}
}

void xp_svg_text(struct xp_svg *s, const char *text)
{
	if (text)
		xp_svg_textn(s, text, strlen(text));
}

void xp_svg_num(struct xp_svg *s, double v)
{
	long long c;
	char buf[40];
	int n;

	if (!isfinite(v) || fabs(v) > 1e15)
		v = isfinite(v) ? copysign(1e15, v) : 0;
	c = llround(v * 100);
	n = snprintf(buf, sizeof(buf), "%s%lld", c < 0 ? "-" : "", llabs(c) / 100);
	c = llabs(c) % 100;
	if (c && n > 0)
		snprintf(buf + n, sizeof(buf) - (size_t)n, c % 10 ? ".%02lld" : ".%lld",
			 c % 10 ? c : c / 10);
	if (!strcmp(buf, "-0"))
		strcpy(buf, "0");
	append(s, buf, strlen(buf));
}

void xp_svg_begin(struct xp_svg *s, int width, int height, const char *fonts)
{
	xp_svg_raw(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		      "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"",
		   width, height, width, height);
	xp_svg_text(s, fonts);
	xp_svg_raw(s, "\">\n");
}

int xp_svg_finish(struct xp_svg *s, struct xp_err *err)
{
	xp_svg_raw(s, "</svg>\n");
	if (s->failed)
		return xp_err_set(err, "svg: out of memory after %zu bytes", s->len);
	return 0;
}

int xp_svg_write_file(const struct xp_svg *s, const char *path, struct xp_err *err)
{
	FILE *f;
	int bad;

	if (s->failed || !s->buf)
		return xp_err_set(err, "%s: no complete SVG to write", path);
	errno = 0;
	f = fopen(path, "we");
	if (!f)
		return xp_err_sys(err, errno, "%s", path);
	bad = fwrite(s->buf, 1, s->len, f) != s->len;
	bad |= ferror(f);
	if (fclose(f) || bad)
		return xp_err_sys(err, errno ? errno : EIO, "write %s", path);
	return 0;
}

size_t xp_svg_utf8_prefix(const char *text, size_t chars)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t i = 0, k;

	while (chars-- && p[i]) {
		k = utf8_seq(p + i, strnlen(text + i, 4));
		if (!k)
			for (k = 1; p[i + k] && (p[i + k] & 0xc0) == 0x80 && k < 4; k++)
				;
		i += k;
	}
	return i;
}

size_t xp_svg_utf8_len(const char *text)
{
	size_t n = 0, i = 0, len = strlen(text);

	while (i < len) {
		i += xp_svg_utf8_prefix(text + i, 1);
		n++;
	}
	return n;
}
