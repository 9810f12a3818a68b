/* SPDX-License-Identifier: BSD-2-Clause */
/* Internal to the iperf3 front end's printers (client/iperf3/text*.c, sums.c,
 * client/iperf3/json*.c). */
#ifndef XP_IPERF3_TEXT_INT_H
#define XP_IPERF3_TEXT_INT_H

#include <stddef.h>

#include "client/iperf3/fe.h"
#include "client/iperf3/report.h"

#define XP_I3T_VERSION XP_I3FE_VERSION
#define XP_I3T_SEPARATOR "- - - - - - - - - - - - - - - - - - - - - - - - -\n"

/* The columns every line begins with (socket < 0: "[SUM]"). */
void xp_i3t_cols(char *buf, size_t len, const struct xp_i3_report *r, int socket,
		 int sender, double start, double end, uint64_t bytes, double secs);
/* 1 if this end sends on any stream. */
int xp_i3t_sends(const struct xp_i3_report *r);
/* The streams reported in pass 0 and 1, as iperf3 orders them: the
 * sender flag they have, or -1 when the pass has none (only --bidir has
 * two: the client's sending streams first, the server's receiving ones). */
int xp_i3t_pass_sender(const struct xp_i3_report *r, int pass);
/* The streams one way in interval iv, summed as iperf3 sums them (UDP
 * jitter: the mean over -P). */
void xp_i3t_iv_total(const struct xp_i3_report *r, const struct xp_i3r_interval *iv,
		     int sender, struct xp_i3r_ivs *t);
/* The end of the streams one way, summed.  Times: the longest. */
struct xp_i3t_total {
	uint64_t sent, received;
	double sender_time, receiver_time;
	int64_t retransmits, lost, sender_packets, receiver_packets, packets;
	double jitter_ms;        /* mean over -P */
	uint32_t n;
};
void xp_i3t_end_total(const struct xp_i3_report *r, int sender, struct xp_i3t_total *t);
/* Does the sender of the streams one way report retransmits (iperf3's
 * sender_has_retransmits for that way, at the end)? */
int xp_i3t_retrans(const struct xp_i3_report *r, int sender);
/* "sum" (base) or, with --bidir, for the data the server sends,
 * "sum_bidir_reverse" (base + "_bidir_reverse"), into buf. */
const char *xp_i3j_sum_name(const struct xp_i3_report *r, int sender, const char *base,
			    char *buf, size_t len);
/* bytes * 8 / secs, 0 when secs is not positive. */
double xp_i3t_bps(uint64_t bytes, double secs);

#endif
