/* SPDX-License-Identifier: BSD-2-Clause */
/* `xperf --iperf3-wire ...`: a test against a stock iperf3 server with
 * xperf's reports, until the iperf3 front end exists (client/iperf3_wire.c). */
#ifndef XP_IPERF3_WIRE_H
#define XP_IPERF3_WIRE_H

/* argv[0] is "--iperf3-wire"; the exit status. */
int xp_i3_wire_main(int argc, char **argv);

#endif
