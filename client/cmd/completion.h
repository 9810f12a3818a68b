/* SPDX-License-Identifier: BSD-2-Clause */
/* A bash completion script generated from the option tables
 * (common/opts.def, lab/lab_opts.def), so completion cannot fall behind
 * the options. */
#ifndef XP_OPTS_COMPLETE_H
#define XP_OPTS_COMPLETE_H

#include <stdio.h>

/* Print the script: a function _xperf registered with `complete -F` for
 * xperf.  It completes option names (long and short), `lab` as the first
 * word and, after `lab`, lab's own options too; and values where they are
 * known: test names after -t/--test (comma lists under lab), topology
 * names after lab's --topology, alternatives spelled "a|b" in the table's
 * metavar, files after options whose metavar is FILE, host names after
 * HOST and ADDR.  After --iperf3-args, the iperf3 front end's options
 * (client/iperf3/optab.c), hosts after -c and -B, files after --logfile
 * and --pidfile.  Other option values get no suggestions. */
void xp_opts_completion(FILE *f);

#endif
