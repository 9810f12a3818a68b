/* SPDX-License-Identifier: BSD-2-Clause */
/* The client command: runs the test (--iterations times), prints the
 * chosen output (human, --json, --json-stream), interval reports, --slo
 * verdicts and the --histogram file, and decides the exit status. */
#ifndef XP_CLI_H
#define XP_CLI_H

#include <stdint.h>

#include "client/report/cli.h"

/* Run against host:port and print; returns the process exit status. */
int xp_cli_run(const struct xp_cli *c, const char *host, uint16_t port, int sigfd);

#endif
