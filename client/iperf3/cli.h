/* SPDX-License-Identifier: BSD-2-Clause */
/* The iperf3 front end's client (client/iperf3/fe.h): the report built
 * from an iperf3 test xperf ran (client/iperf3/cli_model.c, pure), and
 * the run that prints it as it goes (client/iperf3/cli.c). */
#ifndef XP_IPERF3_CLI_H
#define XP_IPERF3_CLI_H

#include "client/client.h"
#include "client/iperf3/client.h"
#include "client/iperf3/fe.h"
#include "client/iperf3/report.h"

/* A TCP sender's TCP_INFO at the end of an interval. */
struct xp_i3m_tcpi {
	int valid;
	uint64_t cwnd_bytes, wnd, rtt_us, rttvar_us, pmtu;
};

/* What the command line says, before anything is known of the server:
 * the test, its streams (their numbers and directions), how to print.
 * 0, or -1 (no memory). */
int xp_i3m_setup(struct xp_i3_report *r, const struct xp_i3fe_cfg *c);
/* The streams are open: the cookie, the sizes, every stream's addresses. */
void xp_i3m_connected(struct xp_i3_report *r, const struct xp_i3_client_out *out,
		      const struct xp_client_result *xr);
/* One interval of xperf's (its flows are the streams, by position) and
 * the senders' TCP_INFO (ti[nstreams], or NULL).  1 added, 0 left out
 * (a short tail with no data, as iperf3 leaves it out), -1 no memory. */
int xp_i3m_interval(struct xp_i3_report *r, const struct xp_interval *iv,
		    const struct xp_i3m_tcpi *ti);
/* The end: both ends' results messages and xperf's result. */
void xp_i3m_end(struct xp_i3_report *r, const struct xp_i3_client_out *out,
		const struct xp_client_result *xr);

/* Run the client the command line asks for, printing as iperf3 does. */
int xp_i3fe_client(const struct xp_i3fe_cfg *c, struct xp_i3fe_run *run);
/* The server (client/iperf3/srv.c). */
int xp_i3fe_server(const struct xp_i3fe_cfg *c, struct xp_i3fe_run *run);

#endif
