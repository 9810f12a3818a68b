/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/json.h"
#include "common/utf8.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MIN_CAP 256

void xp_json_init(struct xp_json *j, int pretty)
{
	memset(j, 0, sizeof(*j));
	j->pretty = pretty;
}

void xp_json_free(struct xp_json *j)
{
	free(j->buf);
	j->buf = NULL;
	j->len = j->cap = 0;
}

const char *xp_json_str(const struct xp_json *j)
{
	/* A truncated document is not JSON: give nothing rather than half. */
	return j->buf && !j->oom ? j->buf : "";
}

/* Make room for n more bytes plus the NUL; on failure set oom, after which
 * every write is dropped. */
static int reserve(struct xp_json *j, size_t n)
{
	size_t cap = j->cap ? j->cap : JSON_MIN_CAP;
	char *p;

	if (j->oom)
		return -1;
	if (n > SIZE_MAX / 2 - j->len)
		goto fail;
	while (cap < j->len + n + 1)
		cap *= 2;
	if (cap == j->cap)
		return 0;
	p = realloc(j->buf, cap);
	if (!p)
		goto fail;
	j->buf = p;
	j->cap = cap;
	return 0;
fail:
	j->oom = 1;
	return -1;
}

static void put_mem(struct xp_json *j, const char *s, size_t n)
{
	if (reserve(j, n) < 0)
		return;
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

static void put(struct xp_json *j, const char *s)
{
	put_mem(j, s, strlen(s));
}

static void put_indent(struct xp_json *j)
{
	int i;

	put(j, "\n");
	for (i = 0; i < j->depth; i++)
		put(j, "  ");
}

/* Length of the valid UTF-8 sequence at s, 0 if it is not one. */
static int utf8_len(const unsigned char *s)
{
	uint32_t cp;

	return (int)xp_utf8_seq(s, SIZE_MAX, &cp);
}

static void put_escaped_char(struct xp_json *j, unsigned char c)
{
	char esc[8];

	switch (c) {
	case '"':
		put(j, "\\\"");
		break;
	case '\\':
		put(j, "\\\\");
		break;
	case '\n':
		put(j, "\\n");
		break;
	case '\r':
		put(j, "\\r");
		break;
	case '\t':
		put(j, "\\t");
		break;
	default:
		snprintf(esc, sizeof(esc), "\\u%04x", c);
		put(j, esc);
	}
}

/* Strings come from hostnames, error messages and user labels; invalid
 * UTF-8 becomes U+FFFD so that strict parsers still accept the document. */
static void put_string(struct xp_json *j, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	int n;

	put(j, "\"");
	while (*s) {
		if (*s < 0x20 || *s == '"' || *s == '\\') {
			put_escaped_char(j, *s++);
			continue;
		}
		n = utf8_len(s);
		if (n)
			put_mem(j, (const char *)s, (size_t)n);
		else
			put(j, "\\ufffd");
		s += n ? n : 1;
	}
	put(j, "\"");
}

/* Separator, indentation and key before any value.  Keys are ignored at
 * the top level, where they would make the document invalid. */
static void begin_value(struct xp_json *j, const char *key)
{
	if (j->need_comma && j->depth > 0)
		put(j, ",");
	if (j->pretty && j->depth > 0)
		put_indent(j);
	if (key && j->depth > 0) {
		put_string(j, key);
		put(j, j->pretty ? ": " : ":");
	}
}

/* Every top-level value ends with a newline: one document per line in
 * compact mode, and a clean end of output in pretty mode. */
static void end_value(struct xp_json *j)
{
	j->need_comma = 1;
	if (j->depth == 0) {
		put(j, "\n");
		j->need_comma = 0;
	}
}

static void scalar(struct xp_json *j, const char *key, const char *text)
{
	begin_value(j, key);
	put(j, text);
	end_value(j);
}

static void open_container(struct xp_json *j, const char *key, const char *c)
{
	begin_value(j, key);
	put(j, c);
	j->depth++;
	j->need_comma = 0;
}

static void close_container(struct xp_json *j, const char *c)
{
	if (j->depth <= 0)
		return;
	j->depth--;
	/* need_comma is still set iff the container holds an element; an
	 * empty one stays on one line: {} or []. */
	if (j->pretty && j->need_comma)
		put_indent(j);
	put(j, c);
	end_value(j);
}

void xp_json_obj_open(struct xp_json *j, const char *key)
{
	open_container(j, key, "{");
}

void xp_json_obj_close(struct xp_json *j)
{
	close_container(j, "}");
}

void xp_json_arr_open(struct xp_json *j, const char *key)
{
	open_container(j, key, "[");
}

void xp_json_arr_close(struct xp_json *j)
{
	close_container(j, "]");
}

void xp_json_str_val(struct xp_json *j, const char *key, const char *val)
{
	if (!val) {
		xp_json_null(j, key);
		return;
	}
	begin_value(j, key);
	put_string(j, val);
	end_value(j);
}

void xp_json_u64(struct xp_json *j, const char *key, uint64_t val)
{
	char num[24];

	snprintf(num, sizeof(num), "%" PRIu64, val);
	scalar(j, key, num);
}

void xp_json_i64(struct xp_json *j, const char *key, int64_t val)
{
	char num[24];

	snprintf(num, sizeof(num), "%" PRId64, val);
	scalar(j, key, num);
}

/* %g never yields a form JSON rejects once non-finite values are excluded
 * ("1e+20", "-0" and "1e-05" are all valid).  A decimal comma from a
 * foreign LC_NUMERIC would be, hence the replacement. */
static void format_double(double val, char *num, size_t size)
{
	char *c;

	snprintf(num, size, "%.15g", val);
	/* 15 digits read well (0.1, not 0.10000000000000001); fall back to 17,
	 * which always round-trips, only when 15 lose information. */
	if (strtod(num, NULL) != val)
		snprintf(num, size, "%.17g", val);
	c = strchr(num, ',');
	if (c)
		*c = '.';
}

void xp_json_dbl(struct xp_json *j, const char *key, double val)
{
	char num[40];

	if (!isfinite(val)) {
		xp_json_null(j, key);
		return;
	}
	format_double(val, num, sizeof(num));
	scalar(j, key, num);
}

void xp_json_bool(struct xp_json *j, const char *key, int val)
{
	scalar(j, key, val ? "true" : "false");
}

void xp_json_null(struct xp_json *j, const char *key)
{
	scalar(j, key, "null");
}
