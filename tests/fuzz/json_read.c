/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer target for the JSON reader (common/json_read.c).  Build by
 * hand until `make fuzz` exists:
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. \
 *         tests/fuzz/json_read.c common/json_read.c common/json_read_val.c \
 *         common/json.c common/err.c -lm -o /tmp/fuzz_json_read
 *   /tmp/fuzz_json_read -max_total_time=60 -max_len=4096
 * Properties: no crash, leak or undefined behaviour on any input; every
 * accessor works on every node; whatever parses is rewritten by the
 * project's writer into text that parses again, and rewriting that gives
 * the same text (write(parse(x)) is a fixed point after one pass). */
#include "common/json.h"
#include "common/json_read.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Touch every getter on v; check the invariants they promise. */
static void visit(const struct xp_jval *v)
{
	const struct xp_jval *c;
	const char *s;
	size_t n = 0, len;
	uint64_t u;
	int64_t i;
	double d;
	int b;

	if (xp_jval_u64(v, &u) == 0 && !xp_jval_is_int(v))
		abort();
	if (xp_jval_i64(v, &i) == 0 && !xp_jval_is_int(v))
		abort();
	if (xp_jval_dbl(v, &d) == 0 && xp_jval_type(v) != XP_JNUM)
		abort();
	if (xp_jval_bool(v, &b) == 0 && b != 0 && b != 1)
		abort();
	if (xp_jval_str(v, &s, &len) == 0 && s[len] != '\0')
		abort();
	for (c = xp_jval_first(v); c; c = xp_jval_next(c)) {
		if (xp_jval_type(v) == XP_JARR && xp_jval_at(v, n) != c)
			abort();
		if (xp_jval_type(v) == XP_JOBJ &&
		    (!xp_jval_key(c, &len) || !xp_jval_member_n(v,
			     xp_jval_key(c, NULL), len)))
			abort();
		visit(c);
		n++;
	}
	if (n != xp_jval_len(v))
		abort();
}

static char *rewrite(const struct xp_jval *v)
{
	struct xp_json j;
	char *s;

	xp_json_init(&j, 0);
	xp_jval_write(&j, NULL, v);
	if (j.oom)
		abort();
	s = strdup(xp_json_str(&j));
	xp_json_free(&j);
	if (!s)
		abort();
	return s;
}

static void round_trip(const struct xp_jdoc *doc)
{
	struct xp_jdoc *d2, *d3;
	char *t1 = rewrite(xp_jdoc_root(doc)), *t2, *t3;
	struct xp_err err;

	d2 = xp_jdoc_parse(t1, strlen(t1), NULL, &err);
	if (!d2)
		abort();
	t2 = rewrite(xp_jdoc_root(d2));
	d3 = xp_jdoc_parse(t2, strlen(t2), NULL, &err);
	if (!d3)
		abort();
	t3 = rewrite(xp_jdoc_root(d3));
	if (strcmp(t2, t3) != 0)
		abort();
	xp_jdoc_free(d2);
	xp_jdoc_free(d3);
	free(t1);
	free(t2);
	free(t3);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *paths[] = { "a", "0", "a.0.b", "0.0", "", "a..b",
				       "end.sum_received.bits_per_second" };
	struct xp_jlimits lim = { 1 << 20, 32, 1 << 16 };
	struct xp_jdoc *doc;
	struct xp_err err;
	uint64_t u;
	size_t k;

	doc = xp_jdoc_parse((const char *)data, size, &lim, &err);
	if (!doc) {
		if (!strstr(err.msg, "JSON"))
			abort(); /* every message says where it came from */
		return 0;
	}
	visit(xp_jdoc_root(doc));
	for (k = 0; k < sizeof(paths) / sizeof(paths[0]); k++)
		xp_jval_path_u64(xp_jdoc_root(doc), paths[k], &u, &err);
	round_trip(doc);
	xp_jdoc_free(doc);
	return 0;
}
