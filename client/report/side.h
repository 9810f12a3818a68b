/* SPDX-License-Identifier: BSD-2-Clause */
/* What each side's sockets and path were (congestion control, MSS, TOS,
 * MPTCP, TCP Fast Open, sendfile, local address), in the human report and
 * the JSON document; and the human report's rate unit (-f) and interval
 * time stamps (--timestamps). */
#ifndef XP_REPORT_SIDE_H
#define XP_REPORT_SIDE_H

#include <stdio.h>

#include "client/client.h"
#include "common/json.h"
#include "common/opts.h"

/* The "path" lines of the human summary (none when nothing applies). */
void xp_report_path_human(FILE *f, const struct xp_opts *o, const struct xp_client_result *r);

/* start.test_start: what was asked. */
void xp_report_path_json_start(struct xp_json *j, const struct xp_opts *o);
/* A CPU list "0,2" as a JSON array of integers under key. */
void xp_report_json_cpus(struct xp_json *j, const char *key, const char *list);
/* end.client / end.server: what the side's sockets had. */
void xp_report_side_json(struct xp_json *j, const struct xp_side_result *s);
/* end: iperf3's sender_tcp_congestion and receiver_tcp_congestion. */
void xp_report_path_json_end(struct xp_json *j, const struct xp_client_result *r);

/* A rate in the unit -f asks for (default Gbit/s), the number padded to
 * `width`. */
const char *xp_report_rate(char *buf, size_t len, int width, const struct xp_opts *o,
			   double bits_per_s);
/* --timestamps: the local time, formatted, before an interval line. */
void xp_report_timestamp(FILE *f, const struct xp_opts *o);

#endif
