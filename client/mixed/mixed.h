/* SPDX-License-Identifier: BSD-2-Clause */
/* -t RRUL, latency under load: TCP and UDP probes on a fixed schedule,
 * first alone (the idle phase), then beside TCP load flows up, down or
 * both ways (the loaded phase), in one report: idle and loaded latency,
 * their inflation, throughput per direction and the responsiveness
 * draft's round trips per minute (man xperf, LATENCY UNDER LOAD). */
#ifndef XP_MIXED_H
#define XP_MIXED_H

#include <stdint.h>

#include "client/report/cli.h"

/* Run against host:port and print; returns the process exit status. */
int xp_mixed_run(const struct xp_cli *c, const char *host, uint16_t port, int sigfd);

#endif
