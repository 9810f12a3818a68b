/* SPDX-License-Identifier: BSD-2-Clause */
/* Parsing of the socket- and path-level option values (--tos, --dscp,
 * --bind) and of the rate format letter (-f).  Pure functions: no
 * printing, errors in struct xp_err. */
#ifndef XP_NETPARSE_H
#define XP_NETPARSE_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"

#define XP_HOST_MAX 256 /* a host name or address, with its NUL */

/* A DSCP code point by name (RFC 2474, 2597, 3246, 5865, 8622), any case:
 * CS0..CS7, AF11..AF43, EF, VOICE-ADMIT, LE.  -1 when unknown. */
int xp_dscp_by_name(const char *name);

/* --tos: the TOS / traffic class byte, 0-255, as decimal, 0x hex, or a
 * DSCP name (which gives the name's code point << 2). */
int xp_parse_tos(const char *s, const char *what, int *tos, struct xp_err *err);

/* --dscp: a DSCP code point, 0-63, decimal, 0x hex or a name. */
int xp_parse_dscp(const char *s, const char *what, int *dscp, struct xp_err *err);

/* "ADDR", "ADDR:PORT", "[ADDR]", "[ADDR]:PORT"; an address with two or
 * more colons and no brackets is an IPv6 address without a port.  host
 * gets the address without brackets, port the port (0: none given; a
 * given port must be 1-65535). */
int xp_parse_hostport(const char *s, const char *what, char *host, size_t hostlen,
		      uint16_t *port, struct xp_err *err);

/* -f: k, m, g, t (bits per second x1000^n) or K, M, G, T (bytes per
 * second x1024^n), as iperf3.  1 if c is one of them. */
int xp_rate_format_ok(char c);

/* A rate given in bits per second, in the unit the letter names ("%.3f
 * Mbit/s", "%.3f MByte/s"); fmt 0 is Gbit/s.  width pads the number. */
char *xp_format_rate(char *buf, size_t len, int width, double bits_per_s, char fmt);

#endif
