/* SPDX-License-Identifier: BSD-2-Clause */
/* Per-flow end-of-test results: end.streams[] in the JSON and a table in
 * the human report.  A flow's rate is its bytes over its direction's time
 * at that end (client/report/dir.h), so the flows' rates add up to the
 * direction's. */
#include "client/report/flows.h"

#include "client/report/dir.h"
#include "client/shape.h"
#include "common/tests.h"

static int flow_s2c(const struct xp_client_result *r, uint32_t i)
{
	return xp_test(r->test)->server_sends ^ (r->bidir && i >= r->flows_opened / 2);
}

/* The time a flow's bytes at this end are counted over. */
static uint64_t flow_ns(const struct xp_client_result *r, const struct xp_flow_result *f,
			int s2c)
{
	struct xp_dir d[2];
	int n = xp_report_dirs(r, d), k = n > 1 && s2c ? 1 : 0;

	if (!n)
		return r->local.active_ns;
	return (f->flags & XP_FLOW_F_SENDER) ? d[k].sent_ns : d[k].recv_ns;
}

static double bps(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes * 8e9 / (double)ns : 0;
}

static void json_view(struct xp_json *j, const char *key, const struct xp_client_result *r,
		      const struct xp_flow_result *f, int s2c)
{
	const struct xp_test *t = xp_test(r->test);
	int snd;

	if (!f) {
		xp_json_null(j, key);
		return;
	}
	snd = (f->flags & XP_FLOW_F_SENDER) != 0;
	xp_json_obj_open(j, key);
	xp_json_bool(j, "sender", snd);
	if (t->bulk) {
		xp_json_u64(j, "bytes_sent", snd ? f->bytes : 0);
		xp_json_u64(j, "bytes_received", snd ? 0 : f->bytes);
		xp_json_u64(j, "omitted_bytes", f->omitted_bytes);
	} else {
		xp_json_u64(j, "bytes", f->bytes);
		xp_json_u64(j, "transactions", f->transactions);
	}
	xp_json_dbl(j, "bits_per_second", bps(f->bytes, flow_ns(r, f, s2c)));
	if (f->flags & XP_FLOW_F_TCP_INFO)
		xp_json_u64(j, "retransmits", f->retrans);
	if (t->udp && t->bulk) {
		xp_json_u64(j, snd ? "packets_sent" : "packets_received", f->datagrams);
		if (!snd) {
			xp_json_u64(j, "out_of_order", f->out_of_order);
			xp_json_u64(j, "duplicates", f->duplicates);
			if (f->flags & XP_FLOW_F_JITTER)
				xp_json_dbl(j, "jitter_ms", (double)f->jitter_ns / 1e6);
			else
				xp_json_null(j, "jitter_ms");
		}
	}
	xp_json_obj_close(j);
}

/* UDP: the flow's loss, from the sender's count and the receiver's. */
static void json_lost(struct xp_json *j, const struct xp_flow_result *snd,
		      const struct xp_flow_result *rcv)
{
	uint64_t lost;

	if (!snd || !rcv) {
		xp_json_null(j, "lost");
		return;
	}
	lost = snd->datagrams > rcv->datagrams ? snd->datagrams - rcv->datagrams : 0;
	xp_json_u64(j, "lost", lost);
	xp_json_dbl(j, "lost_percent",
		    snd->datagrams ? 100.0 * (double)lost / (double)snd->datagrams : 0);
}

void xp_report_json_streams(struct xp_json *j, const struct xp_client_result *r)
{
	const struct xp_test *t = xp_test(r->test);
	uint32_t i;

	if (!t->persistent)
		return;
	xp_json_arr_open(j, "streams");
	for (i = 0; i < r->flows_opened; i++) {
		const struct xp_flow_result *l = xp_shape_local(r, i), *s = xp_shape_remote(r, i);
		int s2c = flow_s2c(r, i);

		xp_json_obj_open(j, NULL);
		xp_json_u64(j, "flow", i);
		if (t->bulk)
			xp_json_str_val(j, "direction", s2c ? "server_to_client" : "client_to_server");
		json_view(j, "client", r, l, s2c);
		json_view(j, "server", r, s, s2c);
		if (t->udp && t->bulk)
			json_lost(j, s2c ? s : l, s2c ? l : s);
		xp_json_obj_close(j);
	}
	xp_json_arr_close(j);
}

static void human_stream_flow(FILE *fp, const struct xp_client_result *r, uint32_t i)
{
	int s2c = flow_s2c(r, i), udp = xp_test(r->test)->udp;
	const struct xp_flow_result *l = xp_shape_local(r, i), *s = xp_shape_remote(r, i);
	const struct xp_flow_result *snd = s2c ? s : l, *rcv = s2c ? l : s;
	uint64_t sent = snd ? snd->bytes : 0, got = rcv ? rcv->bytes : 0;

	fprintf(fp, "            %4u %-4s %14llu %14llu %10.3f", i, s2c ? "s->c" : "c->s",
		(unsigned long long)sent, (unsigned long long)got,
		rcv ? bps(got, flow_ns(r, rcv, s2c)) / 1e9 : 0);
	if (!udp) {
		fprintf(fp, " %8llu\n", (unsigned long long)(snd ? snd->retrans : 0));
		return;
	}
	fprintf(fp, " %8lld %6llu", snd && rcv ? (long long)snd->datagrams - (long long)rcv->datagrams
					       : 0LL,
		(unsigned long long)(rcv ? rcv->out_of_order : 0));
	if (rcv && (rcv->flags & XP_FLOW_F_JITTER))
		fprintf(fp, " %9.3f\n", (double)rcv->jitter_ns / 1e6);
	else
		fprintf(fp, " %9s\n", "n/a");
}

void xp_report_human_flows(FILE *fp, const struct xp_client_result *r)
{
	const struct xp_test *t = xp_test(r->test);
	uint32_t i;

	if (!t->persistent || r->flows_opened < 2 || r->flows_opened > XP_REPORT_FLOWS_MAX)
		return;
	if (!t->bulk) {
		fprintf(fp, "  per flow  flow  transactions        served\n");
		for (i = 0; i < r->flows_opened; i++) {
			const struct xp_flow_result *l = xp_shape_local(r, i);
			const struct xp_flow_result *s = xp_shape_remote(r, i);

			fprintf(fp, "            %4u %13llu %13llu\n", i,
				(unsigned long long)(l ? l->transactions : 0),
				(unsigned long long)(s ? s->transactions : 0));
		}
		return;
	}
	fprintf(fp, "  per flow  flow dir    sent (bytes) received (b)     Gbit/s %s\n",
		t->udp ? "    lost  reord jitter_ms" : " retrans");
	for (i = 0; i < r->flows_opened; i++)
		human_stream_flow(fp, r, i);
}
