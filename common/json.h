/* SPDX-License-Identifier: BSD-2-Clause */
/* Minimal streaming JSON writer into a growable buffer.  Never emits NaN
 * or Infinity (non-finite doubles become null) and escapes strings fully,
 * so the output always parses.  Usage:
 *   struct xp_json j; xp_json_init(&j, 1);
 *   xp_json_obj_open(&j, NULL);
 *   xp_json_u64(&j, "bytes", 10); xp_json_obj_open(&j, "rr"); ...
 *   xp_json_obj_close(&j); xp_json_obj_close(&j);
 *   fputs(xp_json_str(&j), stdout); xp_json_free(&j);
 * key is NULL inside arrays and for the top-level value. */
#ifndef XP_JSON_H
#define XP_JSON_H

#include <stddef.h>
#include <stdint.h>

struct xp_json {
	char *buf;
	size_t len, cap;
	int depth;
	int pretty;
	int need_comma;
	int oom;
};

void xp_json_init(struct xp_json *j, int pretty);
void xp_json_free(struct xp_json *j);
/* NUL-terminated document so far.  After an allocation failure oom is set
 * and "" is returned (never a truncated document): treat it as an error.
 * Each complete top-level value ends with a newline, in both modes. */
const char *xp_json_str(const struct xp_json *j);

void xp_json_obj_open(struct xp_json *j, const char *key);
void xp_json_obj_close(struct xp_json *j);
void xp_json_arr_open(struct xp_json *j, const char *key);
void xp_json_arr_close(struct xp_json *j);
void xp_json_str_val(struct xp_json *j, const char *key, const char *val);
void xp_json_u64(struct xp_json *j, const char *key, uint64_t val);
void xp_json_i64(struct xp_json *j, const char *key, int64_t val);
void xp_json_dbl(struct xp_json *j, const char *key, double val);
void xp_json_bool(struct xp_json *j, const char *key, int val);
void xp_json_null(struct xp_json *j, const char *key);

#endif
