/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: the CPU-list parser (xp_parse_cpus, common/units.h).
 * A list that parses has 1..cap distinct CPUs below XP_CPUS_MAX, and
 * formats to a list that parses to the same CPUs in the same order. */
#include "tests/fuzz/fuzz.h"

#include "common/units.h"

static void check(const char *s, int cap)
{
	static const size_t buf_len = XP_CPUS_MAX * 6;
	int *a = malloc(sizeof(int) * (size_t)cap), *b = malloc(sizeof(int) * XP_CPUS_MAX);
	char *buf = malloc(buf_len);
	struct xp_err err = { .msg = "" };
	int n, m, i, j;

	if (!a || !b || !buf)
		abort();
	n = xp_parse_cpus(s, a, cap, "-C", &err);
	FUZZ_ERR_OK(err);
	if (n != -1 && (n < 1 || n > cap))
		abort();
	for (i = 0; i < n; i++) {
		if (a[i] < 0 || a[i] >= XP_CPUS_MAX)
			abort();
		for (j = 0; j < i; j++)
			if (a[i] == a[j])
				abort();
	}
	if (n > 0) {
		xp_format_cpus(a, n, buf, (unsigned)buf_len);
		m = xp_parse_cpus(buf, b, XP_CPUS_MAX, "-C", &err);
		if (m != n || memcmp(a, b, sizeof(int) * (size_t)n) != 0)
			abort();
	}
	free(a);
	free(b);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size);

	check(s, XP_CPUS_MAX);
	check(s, 1 + (int)(size % 7)); /* small caps: the cap check */
	free(s);
	return 0;
}
