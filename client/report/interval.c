/* SPDX-License-Identifier: BSD-2-Clause */
/* One interval report: its human line and its JSON object, for the final
 * report's intervals array and the --json-stream events alike. */
#include "client/report/interval.h"

#include "client/report/side.h"
#include "common/tests.h"

/* What a stream interval counts: what the client sent, or when the
 * server sends (the test table's fact) what it received; --bidir: both. */
static uint64_t iv_bytes(const struct xp_interval *iv, int test)
{
	if (iv->bidir)
		return iv->bytes_sent + iv->bytes_received;
	return xp_test(test)->server_sends ? iv->bytes_received : iv->bytes_sent;
}

static void json_jitter(struct xp_json *j, double ms)
{
	if (ms < 0)
		xp_json_null(j, "jitter_ms");
	else
		xp_json_dbl(j, "jitter_ms", ms);
}

static double iv_secs(const struct xp_interval *iv)
{
	return iv->end > iv->start ? iv->end - iv->start : 0;
}

void xp_report_interval_human(FILE *f, const struct xp_opts *o, const struct xp_interval *iv,
			      int test)
{
	const struct xp_test *t = xp_test(test);
	double s = iv_secs(iv);
	char rate[40];
	uint32_t i;

	xp_report_timestamp(f, o);
	fprintf(f, "[%7.2f-%7.2f s]", iv->start, iv->end);
	if (t->rr)
		fprintf(f, " %10llu trans %12.1f trans/s  p50 %.2f us  p99 %.2f us",
			(unsigned long long)iv->transactions,
			s ? (double)iv->transactions / s : 0, iv->p50_us, iv->p99_us);
	else
		fprintf(f, " %14llu B %s", (unsigned long long)iv_bytes(iv, test),
			xp_report_rate(rate, sizeof(rate), 10, o,
				       s ? (double)iv_bytes(iv, test) * 8 / s : 0));
	if (iv->bidir)
		fprintf(f, " (client sent %llu B, received %llu B)",
			(unsigned long long)iv->bytes_sent, (unsigned long long)iv->bytes_received);
	if (t->udp && t->rr)
		fprintf(f, "  lost %llu", (unsigned long long)iv->lost);
	if (t->udp && t->bulk && iv->jitter_ms >= 0)
		fprintf(f, "  jitter %.3f ms", iv->jitter_ms);
	if (t->tcp_info)
		fprintf(f, "  retrans %llu", (unsigned long long)iv->retrans);
	if (iv->fwd.count)
		fprintf(f, "  fwd p50 %.2f p99 %.2f us", iv->fwd.p50_us, iv->fwd.p99_us);
	if (iv->ret.count)
		fprintf(f, "  ret p50 %.2f p99 %.2f us", iv->ret.p50_us, iv->ret.p99_us);
	fputc('\n', f);
	if (iv->nflows < 2 || iv->nflows > 8)
		return;
	for (i = 0; i < iv->nflows; i++)
		fprintf(f, "    flow %u: %llu B, %llu trans, retrans %llu\n", iv->flows[i].idx,
			(unsigned long long)iv->flows[i].bytes,
			(unsigned long long)iv->flows[i].trans,
			(unsigned long long)iv->flows[i].retrans);
}

static void json_way(struct xp_json *j, const char *key, const struct xp_iv_owd *w)
{
	if (!w->count)
		return;
	xp_json_obj_open(j, key);
	xp_json_u64(j, "count", w->count);
	xp_json_dbl(j, "p50", w->p50_us);
	xp_json_dbl(j, "p99", w->p99_us);
	xp_json_obj_close(j);
}

/* --one-way: the interval's delays, keys as the end's one_way. */
static void json_one_way(struct xp_json *j, const struct xp_interval *iv)
{
	if (!iv->fwd.count && !iv->ret.count)
		return;
	xp_json_obj_open(j, "one_way");
	json_way(j, "forward_us", &iv->fwd);
	json_way(j, "return_us", &iv->ret);
	xp_json_obj_close(j);
}

/* The server's interval of the same index, when it sent one. */
static void json_server(struct xp_json *j, const struct xp_interval *iv)
{
	if (!iv->server.have)
		return;
	xp_json_obj_open(j, "server");
	xp_json_dbl(j, "start_s", iv->server.start);
	xp_json_dbl(j, "end_s", iv->server.end);
	xp_json_u64(j, "bytes_sent", iv->server.bytes_sent);
	xp_json_u64(j, "bytes_received", iv->server.bytes_received);
	xp_json_u64(j, "transactions", iv->server.transactions);
	xp_json_u64(j, "packets_sent", iv->server.datagrams_sent);
	xp_json_u64(j, "packets_received", iv->server.datagrams_received);
	xp_json_u64(j, "packets_lost", iv->server.lost);
	xp_json_obj_close(j);
}

void xp_json_interval(struct xp_json *j, const char *key, const struct xp_interval *iv,
		      int test)
{
	double s = iv_secs(iv);
	uint32_t i;

	xp_json_obj_open(j, key);
	xp_json_arr_open(j, "streams");
	for (i = 0; i < iv->nflows; i++) {
		const struct xp_flow_iv *fl = &iv->flows[i];

		xp_json_obj_open(j, NULL);
		xp_json_u64(j, "flow", fl->idx);
		xp_json_u64(j, "bytes", fl->bytes);
		xp_json_dbl(j, "bits_per_second", s ? (double)fl->bytes * 8 / s : 0);
		xp_json_u64(j, "transactions", fl->trans);
		xp_json_u64(j, "retransmits", fl->retrans);
		if (xp_test(test)->udp && xp_test(test)->bulk)
			json_jitter(j, fl->jitter_ms);
		xp_json_obj_close(j);
	}
	xp_json_arr_close(j);
	xp_json_obj_open(j, "sum");
	xp_json_dbl(j, "start_s", iv->start);
	xp_json_dbl(j, "end_s", iv->end);
	xp_json_dbl(j, "seconds", s);
	xp_json_u64(j, "bytes", iv_bytes(iv, test));
	xp_json_dbl(j, "bits_per_second", s ? (double)iv_bytes(iv, test) * 8 / s : 0);
	xp_json_u64(j, "bytes_sent", iv->bytes_sent);
	xp_json_u64(j, "bytes_received", iv->bytes_received);
	xp_json_u64(j, "transactions", iv->transactions);
	xp_json_dbl(j, "transactions_per_second", s ? (double)iv->transactions / s : 0);
	xp_json_u64(j, "latency_samples", iv->count);
	xp_json_dbl(j, "p50_us", iv->p50_us);
	xp_json_dbl(j, "p99_us", iv->p99_us);
	xp_json_u64(j, "retransmits", iv->retrans);
	xp_json_u64(j, "packets_sent", iv->datagrams_sent);
	xp_json_u64(j, "packets_received", iv->datagrams_received);
	xp_json_u64(j, "packets_lost", iv->lost);
	xp_json_u64(j, "late_workers", iv->late);
	if (xp_test(test)->udp && xp_test(test)->bulk)
		json_jitter(j, iv->jitter_ms);
	json_one_way(j, iv);
	xp_json_obj_close(j);
	json_server(j, iv);
	xp_json_obj_close(j);
}
