/* SPDX-License-Identifier: BSD-2-Clause */
/* Internal to client/iperf3_client*.c: the state of one test against a
 * stock iperf3 server. */
#ifndef XP_IPERF3_CLIENT_INT_H
#define XP_IPERF3_CLIENT_INT_H

#include "client/intervals.h"
#include "client/iperf3/client.h"
#include "common/cpu.h"
#include "common/iperf3/engine.h"

struct xp_i3c {
	const struct xp_i3_client_cfg *c;
	const struct xp_opts *o;
	struct xp_addr addr;
	char addr_str[80];          /* "10.0.0.2:5201" */
	char peer[112];             /* "iperf3 server 10.0.0.2:5201" */
	int ctl, sigfd;
	struct xp_i3_params p;
	struct xp_i3_side side;
	struct xp_sockopts so;      /* every stream's */
	int side_made;
	struct xp_i3_client_out *out;
	struct xp_iv_state *iv[2];  /* -i: per group */
	uint64_t t_go;              /* GO, or the end of --omit */
	struct xp_cpu_snap a, b;
	struct xp_addr local;       /* -B (len 0: none) */
	uint16_t ctl_port;          /* -B ADDR:PORT: the control connection's */
	int done_fd;                /* -n/-k: the senders are done (eventfd) */
	uint64_t rx_quota;          /* -n/-k with -R: bytes or datagrams to receive */
	struct xp_iv_state *prog;   /* ... their snapshots */
	uint64_t prog_got;          /* ... what they hold so far */
	uint64_t *iv_bytes;         /* -i: each flow's bytes in the intervals so far */
};

/* Read a state byte: 0 if it is `want`; otherwise -1 with err naming
 * what came (busy, the server's error, another state). */
int xp_i3c_expect(struct xp_i3c *cl, int want, int timeout_ms, struct xp_err *err);
/* Bytes per write or datagram: -m, or iperf3's TCP default, or xperf's
 * UDP one. */
uint32_t xp_i3c_len(const struct xp_i3c *cl);
/* The parameters this test sends. */
void xp_i3c_params(const struct xp_i3c *cl, struct xp_i3_params *p);
/* ... the ones only the iperf3 front end's options set. */
void xp_i3c_params_more(const struct xp_i3c *cl, struct xp_i3_params *p);
/* -n/-k in the senders' units: bytes (TCP) or datagrams (UDP); 0 none. */
uint64_t xp_i3c_quota(const struct xp_i3c *cl);
/* The workers and every stream, connected, in iperf3's order. */
int xp_i3c_open_streams(struct xp_i3c *cl, struct xp_err *err);
/* This client's results message (after the test). */
void xp_i3c_local_results(const struct xp_i3c *cl, struct xp_i3_results *res);
/* dst += src (interval reports of two groups); src is freed. */
void xp_i3c_iv_add(struct xp_interval *dst, struct xp_interval *src);
/* The result's fixed parts, before the test. */
void xp_i3c_result_start(const struct xp_i3c *cl, struct xp_client_result *r, uint16_t port);
/* The result from both ends' numbers, after the exchange. */
void xp_i3c_fill(const struct xp_i3c *cl, struct xp_client_result *r);

#endif
