/* SPDX-License-Identifier: BSD-2-Clause */
/* The iperf3 front end's server (`iperf3 -s`): an xperf server on the
 * port, printing iperf3's server output for each iperf3 client it serves
 * (client/iperf3/srv.c); the report built from what the server tells of
 * the test (client/iperf3/srv_model.c, pure). */
#ifndef XP_IPERF3_SRV_H
#define XP_IPERF3_SRV_H

#include "client/iperf3/fe.h"
#include "client/iperf3/report.h"
#include "client/iperf3/text_int.h"
#include "server/iperf3/hooks.h"

/* A new report for the test v describes (its parameters in), printed as
 * the command line c asks.  0, or -1 (no memory). */
int xp_i3s_setup(struct xp_i3_report *r, const struct xp_i3srv_view *v,
		 const struct xp_i3fe_cfg *c);
/* Its streams are in: their numbers, directions and addresses. */
void xp_i3s_started(struct xp_i3_report *r, const struct xp_i3srv_view *v);
/* The counters now (v->flows at v->t) less prev (updated) as an interval
 * from start: 1 added, 0 left out (a short tail with no data, as iperf3
 * leaves it out; interval is -i in seconds), -1 no memory. */
int xp_i3s_interval(struct xp_i3_report *r, const struct xp_i3srv_view *v,
		    struct xp_i3srv_flow *prev, double start, double interval);
/* The end from the server's results (mine) and the client's (theirs, or
 * NULL). */
void xp_i3s_end(struct xp_i3_report *r, const struct xp_i3_results *mine,
		const struct xp_i3_results *theirs);

#endif
