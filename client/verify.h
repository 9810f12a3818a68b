/* SPDX-License-Identifier: BSD-2-Clause */
/* The client checks its server: figures no honest server can report
 * (more bytes than any link carries in the time, more CPU time than its
 * CPUs have, more received than the client sent, CPU ids out of range,
 * counts of more than one a nanosecond...) become warnings, shown in the
 * report and in JSON (end.warnings), and fail the run (exit 1) unless
 * --trust-server.  The figures themselves are left as they are, except
 * the server's CPU list, whose impossible entries become "?". */
#ifndef XP_CLIENT_VERIFY_H
#define XP_CLIENT_VERIFY_H

#include <stdio.h>

#include "client/client.h"
#include "common/json.h"

#define XP_LINK_MAX_BPS 10e12 /* 10 Tbit/s: more than any one host moves */

/* Check r->remote against what the client saw; fills r->warnings.
 * Returns the number of warnings. */
int xp_verify_result(const struct xp_opts *o, struct xp_client_result *r);

/* The warnings, one "  warning  ..." line each (human report). */
void xp_verify_print(FILE *f, const struct xp_client_result *r);
/* "warnings": [...] (JSON end object; always present). */
void xp_verify_json(struct xp_json *j, const struct xp_client_result *r);

#endif
