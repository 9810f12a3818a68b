/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/netparse.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int xp_dscp_by_name(const char *name)
{
	static const struct {
		const char *name;
		int dscp;
	} fixed[] = { { "EF", 46 }, { "VOICE-ADMIT", 44 }, { "VA", 44 }, { "LE", 1 } };
	size_t i;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!strcasecmp(name, fixed[i].name))
			return fixed[i].dscp;
	/* CSn: class selector n (RFC 2474) */
	if (!strncasecmp(name, "CS", 2) && name[2] >= '0' && name[2] <= '7' && !name[3])
		return (name[2] - '0') << 3;
	/* AFxy: class x (1-4), drop precedence y (1-3) (RFC 2597) */
	if (!strncasecmp(name, "AF", 2) && name[2] >= '1' && name[2] <= '4' &&
	    name[3] >= '1' && name[3] <= '3' && !name[4])
		return 8 * (name[2] - '0') + 2 * (name[3] - '0');
	return -1;
}

/* Decimal or 0x hex, nothing else, in [0, max].  0 or -1. */
static int parse_num(const char *s, long max, long *out)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;
	char *end;
	long v;

	if (!*digits || !isxdigit((unsigned char)*digits))
		return -1;
	errno = 0;
	v = strtol(digits, &end, hex ? 16 : 10);
	if (errno || *end || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

int xp_parse_tos(const char *s, const char *what, int *tos, struct xp_err *err)
{
	int d = s ? xp_dscp_by_name(s) : -1;
	long v;

	if (d >= 0) {
		*tos = d << 2;
		return 0;
	}
	if (!s || parse_num(s, 255, &v))
		return xp_err_set(err, "%s: '%s' is not a TOS byte (0-255, decimal or 0x hex) "
				  "or a DSCP name (EF, AF11-AF43, CS0-CS7, VOICE-ADMIT, LE)",
				  what, s ? s : "");
	*tos = (int)v;
	return 0;
}

int xp_parse_dscp(const char *s, const char *what, int *dscp, struct xp_err *err)
{
	int d = s ? xp_dscp_by_name(s) : -1;
	long v;

	if (d >= 0) {
		*dscp = d;
		return 0;
	}
	if (!s || parse_num(s, 63, &v))
		return xp_err_set(err, "%s: '%s' is not a DSCP code point (0-63, decimal or 0x "
				  "hex) or name (EF, AF11-AF43, CS0-CS7, VOICE-ADMIT, LE)",
				  what, s ? s : "");
	*dscp = (int)v;
	return 0;
}

static int parse_port(const char *p, const char *what, const char *s, uint16_t *port,
		      struct xp_err *err)
{
	long v;

	if (parse_num(p, 65535, &v) || v == 0 || (p[0] == '0' && p[1] == 'x'))
		return xp_err_set(err, "%s: '%s': the port must be 1-65535", what, s);
	*port = (uint16_t)v;
	return 0;
}

static int copy_host(const char *h, size_t n, const char *what, const char *s, char *host,
		     size_t hostlen, struct xp_err *err)
{
	if (!n)
		return xp_err_set(err, "%s: '%s': no address", what, s);
	if (n >= hostlen)
		return xp_err_set(err, "%s: '%s': address longer than %zu characters", what, s,
				  hostlen - 1);
	memcpy(host, h, n);
	host[n] = 0;
	return 0;
}

int xp_parse_hostport(const char *s, const char *what, char *host, size_t hostlen,
		      uint16_t *port, struct xp_err *err)
{
	const char *colon = strrchr(s, ':');

	*port = 0;
	if (s[0] == '[') {
		const char *close = strchr(s, ']');

		if (!close || (close[1] && close[1] != ':') || (close[1] == ':' && !close[2]))
			return xp_err_set(err, "%s: '%s': expected [ADDR] or [ADDR]:PORT", what,
					  s);
		if (copy_host(s + 1, (size_t)(close - s - 1), what, s, host, hostlen, err))
			return -1;
		return close[1] ? parse_port(close + 2, what, s, port, err) : 0;
	}
	if (!colon || strchr(s, ':') != colon) /* no colon, or a bare IPv6 address */
		return copy_host(s, strlen(s), what, s, host, hostlen, err);
	if (copy_host(s, (size_t)(colon - s), what, s, host, hostlen, err))
		return -1;
	return parse_port(colon + 1, what, s, port, err);
}

int xp_rate_format_ok(char c)
{
	return c && strchr("kmgtKMGT", c) != NULL;
}

char *xp_format_rate(char *buf, size_t len, int width, double bits_per_s, char fmt)
{
	static const char *bit_units[] = { "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s" };
	static const char *byte_units[] = { "KByte/s", "MByte/s", "GByte/s", "TByte/s" };
	const char *letters = "kmgt", *p;
	double v;
	int i, n;

	if (!xp_rate_format_ok(fmt))
		fmt = 'g';
	p = strchr(letters, tolower((unsigned char)fmt));
	n = (int)(p - letters);
	if (islower((unsigned char)fmt)) {
		for (v = bits_per_s, i = 0; i <= n; i++)
			v /= 1000;
		snprintf(buf, len, "%*.3f %s", width, v, bit_units[n]);
	} else {
		for (v = bits_per_s / 8, i = 0; i <= n; i++)
			v /= 1024;
		snprintf(buf, len, "%*.3f %s", width, v, byte_units[n]);
	}
	return buf;
}
