/* SPDX-License-Identifier: BSD-2-Clause */
/* Accessors of the JSON reader: navigation, typed getters, dotted paths. */
#include "common/json_read.h"
#include "common/json_read_int.h"
#include "common/json.h"

#include <math.h>
#include <string.h>

const struct xp_jval *xp_jdoc_root(const struct xp_jdoc *doc)
{
	return doc && doc->n ? &doc->nodes[0] : NULL;
}

size_t xp_jdoc_nodes(const struct xp_jdoc *doc)
{
	return doc ? doc->n : 0;
}

enum xp_jtype xp_jval_type(const struct xp_jval *v)
{
	return v ? (enum xp_jtype)v->type : XP_JNULL;
}

const char *xp_jtype_name(enum xp_jtype t)
{
	static const char *const names[] = { "null",   "boolean", "number",
					     "string", "array",	  "object" };

	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] :
								"unknown";
}

static int is_container(const struct xp_jval *v)
{
	return v && (v->type == XP_JARR || v->type == XP_JOBJ);
}

size_t xp_jval_len(const struct xp_jval *v)
{
	return is_container(v) ? v->u.c.count : 0;
}

const struct xp_jval *xp_jval_first(const struct xp_jval *container)
{
	return xp_jval_len(container) ? container + 1 : NULL;
}

/* No parent pointer is needed: the parser marks every child that has a
 * sibling after it (XP_JF_MORE). */
const struct xp_jval *xp_jval_next(const struct xp_jval *v)
{
	if (!v || !(v->flags & XP_JF_MORE))
		return NULL;
	return v + (is_container(v) ? v->u.c.span : 1);
}

const struct xp_jval *xp_jval_at(const struct xp_jval *arr, size_t i)
{
	const struct xp_jval *v;

	if (!arr || arr->type != XP_JARR || i >= arr->u.c.count)
		return NULL;
	for (v = arr + 1; i; i--)
		v = xp_jval_next(v);
	return v;
}

const struct xp_jval *xp_jval_member_n(const struct xp_jval *obj,
				       const char *key, size_t keylen)
{
	const struct xp_jval *v;

	if (!obj || obj->type != XP_JOBJ || !key)
		return NULL;
	for (v = xp_jval_first(obj); v; v = xp_jval_next(v))
		if (v->keylen == keylen && memcmp(v->key, key, keylen) == 0)
			return v;
	return NULL;
}

const struct xp_jval *xp_jval_member(const struct xp_jval *obj,
				     const char *key)
{
	return key ? xp_jval_member_n(obj, key, strlen(key)) : NULL;
}

const char *xp_jval_key(const struct xp_jval *v, size_t *len)
{
	if (!v || !v->key)
		return NULL;
	if (len)
		*len = v->keylen;
	return v->key;
}

/* A segment that is all decimal digits (no sign, at most 19 of them). */
static int seg_index(const char *s, size_t n, size_t *out)
{
	size_t i, v = 0;

	if (n == 0 || n > 19)
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (size_t)(s[i] - '0');
	}
	*out = v;
	return 1;
}

const struct xp_jval *xp_jval_path(const struct xp_jval *v, const char *path)
{
	const char *s = path, *dot;
	size_t n, idx;

	if (!path)
		return NULL;
	while (v && *s) {
		dot = strchr(s, '.');
		n = dot ? (size_t)(dot - s) : strlen(s);
		if (v->type == XP_JARR)
			v = seg_index(s, n, &idx) ? xp_jval_at(v, idx) : NULL;
		else
			v = xp_jval_member_n(v, s, n);
		if (!dot)
			break;
		s = dot + 1;
		if (!*s) /* a trailing '.' names an empty key */
			v = xp_jval_member_n(v, "", 0);
	}
	return v;
}

int xp_jval_is_int(const struct xp_jval *v)
{
	return v && v->type == XP_JNUM && (v->flags & XP_JF_INT);
}

int xp_jval_u64(const struct xp_jval *v, uint64_t *out)
{
	if (!xp_jval_is_int(v) || ((v->flags & XP_JF_NEG) && v->u.num.mag))
		return -1;
	*out = v->u.num.mag;
	return 0;
}

int xp_jval_i64(const struct xp_jval *v, int64_t *out)
{
	uint64_t m;

	if (!xp_jval_is_int(v))
		return -1;
	m = v->u.num.mag;
	if (!(v->flags & XP_JF_NEG) || m == 0) {
		if (m > INT64_MAX)
			return -1;
		*out = (int64_t)m;
		return 0;
	}
	if (m > (uint64_t)INT64_MAX + 1)
		return -1;
	*out = -(int64_t)(m - 1) - 1;
	return 0;
}

int xp_jval_dbl(const struct xp_jval *v, double *out)
{
	if (!v || v->type != XP_JNUM || !isfinite(v->u.num.d))
		return -1;
	*out = v->u.num.d;
	return 0;
}

int xp_jval_bool(const struct xp_jval *v, int *out)
{
	if (!v || v->type != XP_JBOOL)
		return -1;
	*out = v->u.b;
	return 0;
}

int xp_jval_str(const struct xp_jval *v, const char **out, size_t *len)
{
	if (!v || v->type != XP_JSTR)
		return -1;
	*out = v->u.str.s;
	if (len)
		*len = v->u.str.len;
	return 0;
}

uint64_t xp_jval_u64_or(const struct xp_jval *v, uint64_t def)
{
	uint64_t x;

	return xp_jval_u64(v, &x) == 0 ? x : def;
}

int64_t xp_jval_i64_or(const struct xp_jval *v, int64_t def)
{
	int64_t x;

	return xp_jval_i64(v, &x) == 0 ? x : def;
}

double xp_jval_dbl_or(const struct xp_jval *v, double def)
{
	double x;

	return xp_jval_dbl(v, &x) == 0 ? x : def;
}

int xp_jval_bool_or(const struct xp_jval *v, int def)
{
	int x;

	return xp_jval_bool(v, &x) == 0 ? x : def;
}

const char *xp_jval_str_or(const struct xp_jval *v, const char *def)
{
	const char *s;

	return xp_jval_str(v, &s, NULL) == 0 ? s : def;
}

static const char *found(const struct xp_jval *v)
{
	if (!v)
		return "nothing (missing)";
	if (v->type != XP_JNUM)
		return xp_jtype_name((enum xp_jtype)v->type);
	if (!isfinite(v->u.num.d))
		return "a number too large for a double";
	if (!(v->flags & XP_JF_INT))
		return "a number that is not an integer or not below 2^64";
	return "a negative integer";
}

int xp_jval_path_u64(const struct xp_jval *v, const char *path, uint64_t *out,
		     struct xp_err *err)
{
	const struct xp_jval *at = xp_jval_path(v, path);

	if (xp_jval_u64(at, out) == 0)
		return 0;
	return xp_err_set(err, "%s: expected an unsigned integer, got %s",
			  path ? path : "(null)", found(at));
}

int xp_jval_path_dbl(const struct xp_jval *v, const char *path, double *out,
		     struct xp_err *err)
{
	const struct xp_jval *at = xp_jval_path(v, path);

	if (xp_jval_dbl(at, out) == 0)
		return 0;
	return xp_err_set(err, "%s: expected a finite number, got %s",
			  path ? path : "(null)", found(at));
}

static void write_number(struct xp_json *j, const char *key,
			 const struct xp_jval *v)
{
	uint64_t u;
	int64_t i;

	if (xp_jval_u64(v, &u) == 0)
		xp_json_u64(j, key, u);
	else if (xp_jval_i64(v, &i) == 0)
		xp_json_i64(j, key, i);
	else
		xp_json_dbl(j, key, v->u.num.d);
}

void xp_jval_write(struct xp_json *j, const char *key, const struct xp_jval *v)
{
	const struct xp_jval *c;

	switch (xp_jval_type(v)) {
	case XP_JBOOL:
		xp_json_bool(j, key, v->u.b);
		break;
	case XP_JNUM:
		write_number(j, key, v);
		break;
	case XP_JSTR:
		xp_json_str_val(j, key, v->u.str.s);
		break;
	case XP_JARR:
	case XP_JOBJ:
		if (v->type == XP_JARR)
			xp_json_arr_open(j, key);
		else
			xp_json_obj_open(j, key);
		for (c = xp_jval_first(v); c; c = xp_jval_next(c))
			xp_jval_write(j, c->key, c);
		if (v->type == XP_JARR)
			xp_json_arr_close(j);
		else
			xp_json_obj_close(j);
		break;
	default:
		xp_json_null(j, key);
	}
}
