/* SPDX-License-Identifier: BSD-2-Clause */
/* Error-reporting forms of the checked arithmetic (common/checked.h). */
#include "common/checked.h"

typedef unsigned long long ull;

int xp_u64_add_checked(uint64_t a, uint64_t b, const char *field,
		       uint64_t *out, struct xp_err *err)
{
	if (xp_u64_add(a, b, out))
		return xp_err_set(err, "%s %llu + %llu overflows 64 bits", field,
				  (ull)a, (ull)b);
	return 0;
}

int xp_u64_mul_checked(uint64_t a, uint64_t b, const char *field,
		       uint64_t *out, struct xp_err *err)
{
	if (xp_u64_mul(a, b, out))
		return xp_err_set(err, "%s %llu * %llu overflows 64 bits", field,
				  (ull)a, (ull)b);
	return 0;
}

static int to_ns(uint64_t v, uint64_t per, const char *unit,
		 const char *field, uint64_t *ns, struct xp_err *err)
{
	if (xp_u64_mul(v, per, ns))
		return xp_err_set(err, "%s %llu: more than %llu %s does not fit "
				  "in 64-bit nanoseconds", field, (ull)v,
				  (ull)(UINT64_MAX / per), unit);
	return 0;
}

int xp_ms_to_ns_checked(uint64_t ms, const char *field, uint64_t *ns,
			struct xp_err *err)
{
	return to_ns(ms, 1000000, "ms", field, ns, err);
}

int xp_us_to_ns_checked(uint64_t us, const char *field, uint64_t *ns,
			struct xp_err *err)
{
	return to_ns(us, 1000, "us", field, ns, err);
}

int xp_check_range(uint64_t v, uint64_t lo, uint64_t hi, const char *field,
		   struct xp_err *err)
{
	if (v < lo || v > hi)
		return xp_err_set(err, "%s %llu: out of range [%llu, %llu]", field,
				  (ull)v, (ull)lo, (ull)hi);
	return 0;
}
