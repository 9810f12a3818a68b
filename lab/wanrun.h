/* SPDX-License-Identifier: BSD-2-Clause */
/* The delay line during a lab run: its own ceiling, measured before the
 * tests by blasting through it unimpaired, and each measurement's share
 * of its counters and of that ceiling. */
#ifndef XP_LAB_WANRUN_H
#define XP_LAB_WANRUN_H

#include <stdint.h>

#include "common/err.h"
#include "lab/report.h"
#include "lab/run.h"
#include "lab/wan/line.h"

/* A TCP_STREAM and a UDP_STREAM (64-byte datagrams, no GSO) of ms each
 * through the line in bypass.  0 with c filled, or -1 with err (and
 * *interrupted, *stuck as xp_lab_measure sets them). */
int xp_lab_line_calibrate(struct xp_wan_line *line, const struct xp_lab_where *w,
			  int ipv6, int sigfd, uint64_t ms, struct xp_lab_ceiling *c,
			  int *interrupted, int *stuck, struct xp_err *err);

/* The share of the ceiling a measurement of ns with counters delta used:
 * the larger of its frame rate and its bit rate over the ceiling's; 0
 * without a ceiling. */
double xp_lab_line_load(const struct xp_lab_ceiling *c, const struct xp_wan_stats *delta,
			uint64_t ns);

#endif
