/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: the --slo expression and --percentiles parsers
 * (common/slo.h).  Parsed bounds are well-formed and checkable. */
#include "tests/fuzz/fuzz.h"

#include "client/report/slo.h"

static void check_slo(const char *s)
{
	struct xp_slo *slo = malloc(sizeof(*slo));
	struct xp_err err = { .msg = "" };
	int i;

	if (!slo)
		abort();
	if (xp_slo_parse(s, slo, &err) == 0) {
		if (slo->n < 0 || slo->n > XP_SLO_MAX)
			abort();
		for (i = 0; i < slo->n; i++) {
			const struct xp_slo_bound *b = &slo->b[i];

			if (b->metric < XP_SLO_LATENCY_PCT ||
			    b->metric > XP_SLO_RETRANSMITS ||
			    b->op < XP_SLO_LE || b->op > XP_SLO_GT ||
			    !memchr(b->text, '\0', sizeof(b->text)) ||
			    !memchr(b->name, '\0', sizeof(b->name)))
				abort();
			(void)xp_slo_check(b, b->limit);
		}
	}
	FUZZ_ERR_OK(err);
	free(slo);
}

static void check_percentiles(const char *s)
{
	double p[8];
	struct xp_err err = { .msg = "" };
	int n, i;

	n = xp_parse_percentiles(s, p, 8, &err);
	if (n > 8)
		abort();
	for (i = 0; i < n; i++)
		if (!(p[i] > 0 && p[i] <= 100))
			abort();
	FUZZ_ERR_OK(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size);

	check_slo(s);
	check_percentiles(s);
	free(s);
	return 0;
}
