/* SPDX-License-Identifier: BSD-2-Clause */
/* Parsing of sizes, counts, durations and CPU lists from the command line
 * and the wire.  Pure functions: no printing, errors in struct xp_err. */
#ifndef XP_UNITS_H
#define XP_UNITS_H

#include <stdint.h>

#include "common/err.h"

#define XP_CPUS_MAX 1024

/* "64", "128K", "4M", "1G" (also lower-case k/m/g): suffixes multiply by
 * 1024, 1024^2, 1024^3.  Rejects empty strings, signs, junk after the
 * number or suffix, and results above max.  "what" names the option in
 * the error ("-m: invalid size 'x12'"). */
int xp_parse_size(const char *s, uint64_t max, const char *what,
		  uint64_t *out, struct xp_err *err);

/* Plain unsigned decimal integer in [min, max]. */
int xp_parse_uint(const char *s, uint64_t min, uint64_t max, const char *what,
		  uint64_t *out, struct xp_err *err);

/* Non-negative decimal seconds ("10", "0.5"), in (0, max_s]; out in ns. */
int xp_parse_secs(const char *s, double max_s, const char *what,
		  uint64_t *out_ns, struct xp_err *err);

/* Rate in bits per second: "100M", "2.5G", "64k", "1000000": decimal
 * number, optional k/K, m/M, g/G suffix multiplying by 10^3, 10^6, 10^9
 * (network rates are decimal, as in iperf3 -b).  0 allowed; <= max. */
int xp_parse_rate(const char *s, uint64_t max, const char *what, uint64_t *out,
		  struct xp_err *err);

/* CPU list "0,2-4,7" -> cpus[] in the given order, no duplicates, each
 * < XP_CPUS_MAX, at most cap entries.  Returns count (>= 1) or -1. */
int xp_parse_cpus(const char *s, int *cpus, int cap, const char *what,
		  struct xp_err *err);

/* Format cpus[] as "0,1,2" (no ranges); returns buf. */
char *xp_format_cpus(const int *cpus, int n, char *buf, unsigned len);

#endif
