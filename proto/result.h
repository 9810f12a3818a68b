/* SPDX-License-Identifier: BSD-2-Clause */
/* What one side of a test reports: one type for the client's own view, the
 * server's (sent in its RESULT message), and for merging several.  Every
 * number is declared once, in proto/result.def. */
#ifndef XP_PROTO_RESULT_H
#define XP_PROTO_RESULT_H

#include <stdint.h>

#define XP_RESULT_STR_MAX 256 /* the wire's longest string (XP_MSG_STR_MAX) */
#define XP_CC_NAME_MAX 16     /* a congestion control's name with its NUL (TCP_CA_NAME_MAX) */

/* What a side's workers count as the test runs. */
struct xp_counters {
#define XP_RESULT(g, f, tag, merge) XP_RESULT_FIELD_##g(f)
#define XP_RESULT_FIELD_C(f) uint64_t f;
#define XP_RESULT_FIELD_TCP(f)
#define XP_RESULT_FIELD_SIDE(f)
#include "proto/result.def"
#undef XP_RESULT_FIELD_C
#undef XP_RESULT_FIELD_TCP
#undef XP_RESULT_FIELD_SIDE
};

/* TCP_INFO of a side's TCP flows, read just before each closes. */
struct xp_tcp_totals {
#define XP_RESULT_FIELD_C(f)
#define XP_RESULT_FIELD_TCP(f) uint64_t f;
#define XP_RESULT_FIELD_SIDE(f)
#include "proto/result.def"
#undef XP_RESULT_FIELD_C
#undef XP_RESULT_FIELD_TCP
#undef XP_RESULT_FIELD_SIDE
};

#define XP_OFFLOAD_GRO 1u
#define XP_OFFLOAD_GSO 2u

struct xp_side_result {
	struct xp_counters c;
	struct xp_tcp_totals tcp;
#define XP_RESULT_FIELD_C(f)
#define XP_RESULT_FIELD_TCP(f)
#define XP_RESULT_FIELD_SIDE(f) uint64_t f;
#include "proto/result.def"
#undef XP_RESULT_FIELD_C
#undef XP_RESULT_FIELD_TCP
#undef XP_RESULT_FIELD_SIDE
#undef XP_RESULT
	char cpus[XP_RESULT_STR_MAX + 1];    /* CPU each worker last ran on, "0,1" */
	char warning[XP_RESULT_STR_MAX + 1]; /* first recoverable error seen */
	char congestion[XP_CC_NAME_MAX];     /* TCP_CONGESTION of its data sockets, "" = no TCP */
};

/* One flow's result as it finished, at one end: its counters and, for a
 * TCP flow, its TCP_INFO (the FLOW message, and per-flow reports).  Counts
 * are of the measured part (after --omit). */
struct xp_flow_result {
	uint64_t flow, retrans, rtt_us, rttvar_us, cwnd, mss, delivery_rate_bps;
	uint64_t flags;          /* XP_FLOW_F_* */
	uint64_t bytes;          /* payload this end moved: a sender's sent, a
				  * receiver's received; RR: both ways */
	uint64_t omitted_bytes;  /* ... before --omit ended */
	uint64_t datagrams;      /* UDP bulk: sent, or unique received */
	uint64_t out_of_order, duplicates; /* UDP bulk receiver */
	uint64_t transactions;   /* RR */
	uint64_t jitter_ns;      /* UDP bulk receiver: RFC 3550 jitter at the end */
	uint64_t omitted_transactions; /* RR client: before --warmup ended (UDP_RR:
					* requests sent and not outstanding then) */
	uint64_t advmss; /* the MSS this end advertised */
};

#define XP_FLOW_F_SENDER 1u   /* this end sent the flow's data (RR: its requests) */
#define XP_FLOW_F_JITTER 2u   /* jitter_ns holds a value */
#define XP_FLOW_F_TCP_INFO 4u /* the TCP_INFO fields hold values */
#define XP_FLOW_F_S2C 8u      /* the flow's data went server to client */

/* dst += src by each counter's merge rule (all counters are sums). */
void xp_counters_add(struct xp_counters *dst, const struct xp_counters *src);
/* dst and src combined (two sets of flows). */
void xp_tcp_totals_merge(struct xp_tcp_totals *dst, const struct xp_tcp_totals *src);
/* One more flow into the totals. */
void xp_tcp_totals_add(struct xp_tcp_totals *t, const struct xp_flow_result *f);
/* dst and src combined by each field's rule (proto/result.def); strings:
 * dst keeps its warning and congestion, or takes src's; cpus are appended. */
void xp_side_result_merge(struct xp_side_result *dst, const struct xp_side_result *src);
/* The process's CPU time as a percentage of one CPU over cpu_wall_us. */
double xp_side_proc_percent(const struct xp_side_result *r);
/* The mean round-trip time over the flows, microseconds (0: none). */
double xp_tcp_rtt_us_mean(const struct xp_tcp_totals *t);
double xp_tcp_rttvar_us_mean(const struct xp_tcp_totals *t);
/* The mean of the receivers' per-flow jitter, ns; -1 when no flow had one. */
double xp_side_jitter_ns_mean(const struct xp_side_result *r);

#endif
