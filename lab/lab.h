/* SPDX-License-Identifier: BSD-2-Clause */
/* xperf lab: build network namespaces joined by a chosen topology (veth,
 * bridge, macvlan, ipvlan, vxlan) with rtnetlink, measure xperf tests
 * across them, print one comparison table, remove everything made.
 * Entered from main() as `xperf lab ...`; argv[0] is "lab".  Returns the
 * process exit status: 0 every row measured, 1 a row failed or is
 * unsupported (also: no root, interrupted, teardown failed), 2 usage. */
#ifndef XP_LAB_H
#define XP_LAB_H

#include <stdio.h>

int xp_lab_main(int argc, char **argv);

/* The topologies' names, space-separated, for bash completion. */
void xp_lab_topo_names(FILE *f);

#endif
