/* SPDX-License-Identifier: BSD-2-Clause */
/* A small, strict JSON reader (RFC 8259) for documents of bounded size:
 * iperf3 results, xperf results to merge, control messages.
 *
 * The whole document is parsed at once into one flat array of nodes in
 * document order (a tree laid out depth first, as jsmn does with tokens):
 * a container's children follow it, and each container knows how many
 * nodes its subtree spans, so the next sibling is one addition away and
 * iteration is O(n) with no pointers to chase.  Unlike jsmn the values are
 * decoded during the parse: strings are unescaped (\uXXXX, surrogate pairs
 * to UTF-8) into one arena as large as the input, numbers are converted
 * once.  Two allocations in all; handles stay valid until xp_jdoc_free().
 *
 * Numbers: an integral number (whatever its spelling: 12, 1.2e1, 120e-1)
 * is kept exactly as a 64-bit magnitude and sign, without a detour through
 * double, so counters up to UINT64_MAX and INT64_MIN survive; every number
 * also has its nearest double (strtod, decimal point fixed whatever the
 * locale).  Numbers too large for a double parse, with a non-finite double.
 *
 * Strictness: only RFC 8259 JSON (no comments, no trailing commas, no
 * NaN, no single quotes, no leading zeros, no raw control characters in
 * strings, valid UTF-8 only, no lone surrogates); one leading UTF-8 BOM is
 * skipped.  Any value may be the top level.  Duplicate keys are kept;
 * lookups return the first.  A key that contains "\u0000" is reachable by
 * iteration or xp_jval_member_n() only.
 *
 * Errors name the byte offset and what was expected, e.g.
 * "JSON offset 17: expected ',' or '}' after an object member, got 'x'". */
#ifndef XP_JSON_READ_H
#define XP_JSON_READ_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"

enum xp_jtype {
	XP_JNULL,
	XP_JBOOL,
	XP_JNUM,
	XP_JSTR,
	XP_JARR,
	XP_JOBJ,
};

/* Limits; 0 in a field means its default.  Memory is at most about
 * max_bytes + 32 * max_nodes bytes. */
struct xp_jlimits {
	size_t max_bytes;   /* default 16 MiB */
	unsigned max_depth; /* nesting of arrays and objects; default 64,
			       at most 4096 (the parser recurses) */
	size_t max_nodes;   /* values in the document; default 4 Mi */
};

#define XP_JREAD_MAX_BYTES ((size_t)16 << 20)
#define XP_JREAD_MAX_DEPTH 64u
#define XP_JREAD_DEPTH_CAP 4096u
#define XP_JREAD_MAX_NODES ((size_t)4 << 20)

struct xp_jdoc;
struct xp_jval;

/* Parse text[0, len) (need not be NUL-terminated; a NUL byte inside is an
 * error).  lim may be NULL for the defaults.  Returns NULL and fills err
 * on a syntax error, a limit exceeded or an allocation failure. */
struct xp_jdoc *xp_jdoc_parse(const char *text, size_t len,
			      const struct xp_jlimits *lim, struct xp_err *err);
void xp_jdoc_free(struct xp_jdoc *doc);
/* The top-level value; never NULL for a parsed document. */
const struct xp_jval *xp_jdoc_root(const struct xp_jdoc *doc);
/* Number of nodes (values) in the document. */
size_t xp_jdoc_nodes(const struct xp_jdoc *doc);

/* Every accessor below takes NULL (a missing value) and then returns
 * NULL, 0, -1 or the default, so lookups chain without checks. */
enum xp_jtype xp_jval_type(const struct xp_jval *v); /* XP_JNULL for NULL */
const char *xp_jtype_name(enum xp_jtype t);	     /* "object", ... */

/* Containers.  len: elements of an array or members of an object, 0 for
 * anything else.  first/next iterate either kind in document order. */
size_t xp_jval_len(const struct xp_jval *v);
const struct xp_jval *xp_jval_first(const struct xp_jval *container);
const struct xp_jval *xp_jval_next(const struct xp_jval *v);
/* Element i of an array (O(i)); NULL if out of range or not an array. */
const struct xp_jval *xp_jval_at(const struct xp_jval *arr, size_t i);
/* Member of an object by key (first match; O(members)). */
const struct xp_jval *xp_jval_member(const struct xp_jval *obj,
				     const char *key);
const struct xp_jval *xp_jval_member_n(const struct xp_jval *obj,
				       const char *key, size_t keylen);
/* The key of an object member (NULL for array elements and the root);
 * NUL-terminated; *len (if not NULL) gets its length. */
const char *xp_jval_key(const struct xp_jval *v, size_t *len);

/* Dotted path from v: segments separated by '.'; a segment indexes an
 * array when it is a decimal number, otherwise names an object member
 * ("end.sum_received.bits_per_second", "intervals.0.sum.bytes").  An
 * empty path is v itself.  NULL if any step is missing. */
const struct xp_jval *xp_jval_path(const struct xp_jval *v, const char *path);

/* Typed getters: 0 and *out set on success; -1 (out untouched) when v is
 * missing, of another type, or the number does not fit exactly.
 *   u64/i64: integral numbers within range (1e3 and 2.0 count, 2.5 not).
 *   dbl:     any finite number (the nearest double).
 *   bool:    true/false (1/0).
 *   str:     the decoded string, NUL-terminated, *len its length (strings
 *            may hold "\u0000"). */
int xp_jval_u64(const struct xp_jval *v, uint64_t *out);
int xp_jval_i64(const struct xp_jval *v, int64_t *out);
int xp_jval_dbl(const struct xp_jval *v, double *out);
int xp_jval_bool(const struct xp_jval *v, int *out);
int xp_jval_str(const struct xp_jval *v, const char **out, size_t *len);
/* 1 if v is an integral number (see u64/i64), else 0. */
int xp_jval_is_int(const struct xp_jval *v);

/* Same, with a default for anything that does not fit. */
uint64_t xp_jval_u64_or(const struct xp_jval *v, uint64_t def);
int64_t xp_jval_i64_or(const struct xp_jval *v, int64_t def);
double xp_jval_dbl_or(const struct xp_jval *v, double def);
int xp_jval_bool_or(const struct xp_jval *v, int def);
const char *xp_jval_str_or(const struct xp_jval *v, const char *def);

/* Path + getter in one call, filling err with the path and what was found
 * when it fails: "end.sum.bytes: expected an unsigned integer, got string". */
int xp_jval_path_u64(const struct xp_jval *v, const char *path, uint64_t *out,
		     struct xp_err *err);
int xp_jval_path_dbl(const struct xp_jval *v, const char *path, double *out,
		     struct xp_err *err);

/* Write v (and its subtree) with the xperf JSON writer under key (NULL in
 * arrays and at the top level), e.g. to copy parts of one result into
 * another.  Integral numbers are written exactly, others as the nearest
 * double (a non-finite one as null, like the writer does); "-0" becomes 0.
 * A string or key holding "\u0000" is cut there (the writer takes C
 * strings). */
struct xp_json;
void xp_jval_write(struct xp_json *j, const char *key,
		   const struct xp_jval *v);

#endif
