/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's value syntax, as both option tables (client/netperf/options.c,
 * options_test.c) and -D (demo.c) read it: sizes with netperf's suffixes,
 * "a,b" pairs, integers in a range, address families and hosts.  Pure. */
#include "client/netperf/options.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "common/units.h"

void xp_np_split_pair(const char *s, int both, char *a, char *b, size_t len)
{
	const char *comma = strchr(s, ',');
	size_t n = comma ? (size_t)(comma - s) : strlen(s);

	if (n >= len)
		n = len - 1;
	memcpy(a, s, n);
	a[n] = 0;
	if (comma)
		snprintf(b, len, "%s", comma + 1);
	else
		snprintf(b, len, "%s", both ? a : "");
}

int xp_np_parse_size(const char *s, const char *what, uint64_t *out,
		     struct xp_err *err)
{
	char *end;
	unsigned long long v;
	uint64_t mult = 1;

	if (!s || !isdigit((unsigned char)*s))
		return xp_err_set(err, "%s: invalid size '%s'", what, s ? s : "");
	v = strtoull(s, &end, 10);
	switch (*end) {
	case 'K': mult = 1024; end++; break;
	case 'M': mult = 1024 * 1024; end++; break;
	case 'G': mult = 1024 * 1024 * 1024; end++; break;
	case 'k': mult = 1000; end++; break;
	case 'm': mult = 1000 * 1000; end++; break;
	case 'g': mult = 1000 * 1000 * 1000; end++; break;
	default: break;
	}
	if (*end)
		return xp_err_set(err, "%s: invalid size '%s'", what, s);
	if (v > SIZE_MAX_NP / mult)
		return xp_err_set(err, "%s: size '%s' above 1G", what, s);
	*out = v * mult;
	return 0;
}

int xp_np_parse_int(const char *s, long lo, long hi, const char *what, int *out,
		    struct xp_err *err)
{
	char *end;
	long v;

	if (!*s)
		return xp_err_set(err, "%s: empty value", what);
	v = strtol(s, &end, 10);
	if (*end || v < lo || v > hi)
		return xp_err_set(err, "%s: '%s' is not a number in [%ld, %ld]", what,
				  s, lo, hi);
	*out = (int)v;
	return 0;
}

int xp_np_size_pair(const char *arg, int both, const char *what, uint64_t *a,
		    uint64_t *b, struct xp_err *err)
{
	char s1[64], s2[64];

	xp_np_split_pair(arg, both, s1, s2, sizeof(s1));
	if (*s1 && xp_np_parse_size(s1, what, a, err))
		return -1;
	if (*s2 && xp_np_parse_size(s2, what, b, err))
		return -1;
	return 0;
}

int xp_np_parse_family(const char *s)
{
	if (strchr(s, '6'))
		return AF_INET6;
	if (strstr(s, "inet") || strchr(s, '4'))
		return AF_INET;
	return AF_UNSPEC;
}

int xp_np_host_family(const char *arg, const char *what, char *buf, size_t len,
		      const char **host, int *family, struct xp_err *err)
{
	const char *comma = strchr(arg, ',');
	size_t n = comma ? (size_t)(comma - arg) : strlen(arg);

	if (n >= len)
		return xp_err_set(err, "%s %s: name longer than %zu characters", what, arg,
				  len - 1);
	memcpy(buf, arg, n);
	buf[n] = 0;
	*host = n ? buf : NULL;
	*family = comma ? xp_np_parse_family(comma + 1) : AF_UNSPEC;
	return 0;
}

/* One address in binary form: its family, or 0 when s is not numeric. */
static int numeric(const char *s, unsigned char *bin)
{
	if (inet_pton(AF_INET, s, bin) == 1)
		return AF_INET;
	if (inet_pton(AF_INET6, s, bin) == 1)
		return AF_INET6;
	return 0;
}

int xp_np_same_host(const char *a, const char *b)
{
	unsigned char x[16], y[16];
	int fa = numeric(a, x), fb = numeric(b, y);

	if (fa || fb)
		return fa == fb && !memcmp(x, y, fa == AF_INET ? 4 : 16);
	return !strcasecmp(a, b);
}
