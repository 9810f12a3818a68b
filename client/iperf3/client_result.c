/* SPDX-License-Identifier: BSD-2-Clause */
/* A test against a stock iperf3 server: this client's results message,
 * and xperf's result (struct xp_client_result) from both ends' numbers
 * (client/iperf3/client_int.h). */
#include "client/iperf3/client_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cpu_pct(const struct xp_side_result *s, struct xp_i3_results *res)
{
	double wall = s->cpu_wall_us ? (double)s->cpu_wall_us : 1;

	res->cpu_user = 100.0 * (double)s->cpu_user_us / wall;
	res->cpu_system = 100.0 * (double)s->cpu_sys_us / wall;
	res->cpu_total = res->cpu_user + res->cpu_system;
}

void xp_i3c_local_results(const struct xp_i3c *cl, struct xp_i3_results *res)
{
	struct xp_side_result cpu;
	uint32_t pos;

	memset(res, 0, sizeof(*res));
	memset(&cpu, 0, sizeof(cpu));
	xp_cpu_fill(&cpu, &cl->a, &cl->b);
	cpu_pct(&cpu, res);
	res->sender_has_retransmits = !cl->side.nflows[XP_I3_TX] ? -1 : cl->side.udp ? 0 : 1;
	xp_i3_side_streams(&cl->side, res);
	for (pos = 0; pos < cl->side.nst && !res->congestion_used[0]; pos++)
		snprintf(res->congestion_used, sizeof(res->congestion_used), "%s",
			 cl->side.st[pos].congestion);
}

void xp_i3c_iv_add(struct xp_interval *dst, struct xp_interval *src)
{
	uint32_t k;

	dst->bytes_sent += src->bytes_sent;
	dst->bytes_received += src->bytes_received;
	dst->transactions += src->transactions;
	dst->retrans += src->retrans;
	dst->datagrams_sent += src->datagrams_sent;
	dst->datagrams_received += src->datagrams_received;
	dst->lost += src->lost;
	for (k = 0; k < dst->nflows && k < src->nflows; k++) {
		dst->flows[k].bytes += src->flows[k].bytes;
		dst->flows[k].trans += src->flows[k].trans;
		dst->flows[k].retrans += src->flows[k].retrans;
	}
	xp_interval_free(src);
}

void xp_i3c_result_start(const struct xp_i3c *cl, struct xp_client_result *r, uint16_t port)
{
	if (cl->c->udp)
		r->test = XP_UDP_STREAM;
	else
		r->test = cl->c->reverse ? XP_TCP_MAERTS : XP_TCP_STREAM;
	r->req = xp_i3c_len(cl);
	r->port = port;
}

/* One of the server's streams into its side of the result. */
static void remote_stream(const struct xp_i3c *cl, const struct xp_i3_stream_res *s,
			  struct xp_side_result *rs)
{
	int64_t pos = xp_i3_stream_pos(s->id), pk = s->packets - s->omitted_packets;
	int64_t lost = s->errors - s->omitted_errors;
	uint64_t end = s->end_time > 0 ? (uint64_t)(s->end_time * 1e9) : 0;

	if (pos < 0 || pos >= (int64_t)cl->side.nst)
		return;
	if (!cl->side.st[pos].sender) { /* the server sent it */
		rs->c.bytes_sent += s->bytes;
		rs->c.datagrams_sent += cl->side.udp && pk > 0 ? (uint64_t)pk : 0;
		if (!cl->side.udp && s->retransmits >= 0) {
			rs->tcp.retrans += (uint64_t)s->retransmits;
			rs->tcp.flows++;
		}
	} else {
		rs->c.bytes_received += s->bytes;
		if (cl->side.udp && pk - (lost > 0 ? lost : 0) > 0)
			rs->c.datagrams_received += (uint64_t)(pk - (lost > 0 ? lost : 0));
		rs->c.lost += cl->side.udp && lost > 0 ? (uint64_t)lost : 0;
	}
	rs->elapsed_ns = end > rs->elapsed_ns ? end : rs->elapsed_ns;
}

static void remote_side(const struct xp_i3c *cl, uint64_t wall_us, struct xp_side_result *rs)
{
	const struct xp_i3_results *pr = &cl->out->remote;
	uint32_t i;

	memset(rs, 0, sizeof(*rs));
	for (i = 0; i < pr->nstreams; i++)
		remote_stream(cl, &pr->streams[i], rs);
	rs->active_ns = rs->elapsed_ns;
	rs->cpu_wall_us = wall_us;
	rs->cpu_user_us = (uint64_t)(pr->cpu_user > 0 ? pr->cpu_user / 100 * (double)wall_us : 0);
	rs->cpu_sys_us = (uint64_t)(pr->cpu_system > 0 ? pr->cpu_system / 100 * (double)wall_us : 0);
}

/* Each stream as a flow result: its bytes and, for TCP, its TCP_INFO. */
static void tcp_flows(const struct xp_i3c *cl, struct xp_client_result *r)
{
	uint32_t pos;

	r->flows = calloc(cl->side.nst ? cl->side.nst : 1, sizeof(*r->flows));
	if (!r->flows)
		return;
	for (pos = 0; pos < cl->side.nst; pos++) {
		struct xp_flow_result *f = &r->flows[pos];

		if (cl->side.st[pos].has_tcp)
			*f = cl->side.st[pos].tcp;
		f->flow = pos;
		f->bytes = cl->side.st[pos].bytes;
		f->flags = (cl->side.st[pos].sender ? XP_FLOW_F_SENDER : 0) |
			   (cl->side.st[pos].has_tcp ? XP_FLOW_F_TCP_INFO : 0);
	}
	r->nflows = cl->side.nst;
	r->flows_opened = cl->side.nst;
}

void xp_i3c_fill(const struct xp_i3c *cl, struct xp_client_result *r)
{
	xp_i3_side_sum(&cl->side, &r->local);
	xp_cpu_fill(&r->local, &cl->a, &cl->b);
	if (!r->local.elapsed_ns)
		r->local.elapsed_ns = r->local.active_ns;
	remote_side(cl, r->local.cpu_wall_us, &r->remote);
	tcp_flows(cl, r);
	r->threads = cl->side.g[0].n + cl->side.g[1].n;
	if (r->local.warning[0])
		snprintf(r->warning, sizeof(r->warning), "%s", r->local.warning);
}
