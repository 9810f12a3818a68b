/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: sizes, integers, seconds and rates (common/units.h).
 * Whatever parses is within the bounds asked for. */
#include "tests/fuzz/fuzz.h"

#include "common/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t maxes[] = { 0, 1, 1u << 30, UINT64_MAX };
	char *s = fuzz_cstr(data, size);
	uint64_t max = maxes[size % 4], out;
	struct xp_err err = { .msg = "" };

	if (xp_parse_size(s, max, "-m", &out, &err) == 0 && out > max)
		abort();
	FUZZ_ERR_OK(err);
	if (xp_parse_uint(s, 3, max, "-P", &out, &err) == 0 &&
	    (out < 3 || out > max))
		abort();
	FUZZ_ERR_OK(err);
	if (xp_parse_secs(s, 86400.0, "-l", &out, &err) == 0 &&
	    (out == 0 || out > 86400ull * 1000000000ull))
		abort();
	FUZZ_ERR_OK(err);
	if (xp_parse_rate(s, max, "-b", &out, &err) == 0 && out > max)
		abort();
	FUZZ_ERR_OK(err);
	free(s);
	return 0;
}
