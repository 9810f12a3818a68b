/* SPDX-License-Identifier: BSD-2-Clause */
/* iperf3's JSON output (client/iperf3/report.h): the document of -J with
 * iperf3 3.12's keys, in its order and with its types, and the events of
 * --json-stream (iperf3 3.17: {"event": NAME, "data": ...} a line).  The
 * "start" and the intervals are here, the "end" in
 * client/iperf3/jsonend.c.  Pure. */
#include "client/iperf3/text_int.h"

#include <string.h>
#include <time.h>

static void connected(struct xp_json *j, const struct xp_i3_report *r)
{
	uint32_t i;

	xp_json_arr_open(j, "connected");
	for (i = 0; r->stage >= 2 && i < r->nstreams; i++) {
		const struct xp_i3r_stream *s = &r->st[i];

		xp_json_obj_open(j, NULL);
		xp_json_i64(j, "socket", s->socket);
		xp_json_str_val(j, "local_host", s->local_host);
		xp_json_u64(j, "local_port", s->local_port);
		xp_json_str_val(j, "remote_host", s->remote_host);
		xp_json_u64(j, "remote_port", s->remote_port);
		xp_json_obj_close(j);
	}
	xp_json_arr_close(j);
}

static void timestamp(struct xp_json *j, const struct xp_i3_report *r)
{
	time_t s = (time_t)r->timesecs;
	struct tm tm;
	char t[64] = "";

	if (gmtime_r(&s, &tm))
		strftime(t, sizeof(t), "%a, %d %b %Y %H:%M:%S %Z", &tm);
	xp_json_obj_open(j, "timestamp");
	xp_json_str_val(j, "time", t);
	xp_json_i64(j, "timesecs", r->timesecs);
	xp_json_obj_close(j);
}

static void buffers(struct xp_json *j, const struct xp_i3_report *r)
{
	xp_json_u64(j, "sock_bufsize", r->sock_bufsize);
	xp_json_u64(j, "sndbuf_actual", r->sndbuf_actual);
	xp_json_u64(j, "rcvbuf_actual", r->rcvbuf_actual);
}

static void test_start(struct xp_json *j, const struct xp_i3_report *r)
{
	xp_json_obj_open(j, "test_start");
	xp_json_str_val(j, "protocol", r->udp ? "UDP" : "TCP");
	xp_json_u64(j, "num_streams", r->parallel);
	xp_json_u64(j, "blksize", r->blksize);
	xp_json_u64(j, "omit", r->omit);
	xp_json_u64(j, "duration", r->duration);
	xp_json_u64(j, "bytes", r->bytes);
	xp_json_u64(j, "blocks", r->blocks);
	xp_json_u64(j, "reverse", (uint64_t)r->reverse);
	xp_json_i64(j, "tos", r->tos > 0 ? r->tos : 0);
	xp_json_u64(j, "target_bitrate", r->target_bitrate);
	/* iperf3 3.17's */
	xp_json_u64(j, "bidir", (uint64_t)r->bidir);
	xp_json_u64(j, "fqrate", r->fqrate);
	xp_json_dbl(j, "interval", r->interval);
	xp_json_obj_close(j);
}

static void connection(struct xp_json *j, const struct xp_i3_report *r)
{
	if (r->server)
		buffers(j, r);
	timestamp(j, r);
	xp_json_obj_open(j, r->server ? "accepted_connection" : "connecting_to");
	xp_json_str_val(j, "host", r->server ? r->peer_host : r->host);
	xp_json_u64(j, "port", r->server ? r->peer_port : r->port);
	xp_json_obj_close(j);
	xp_json_str_val(j, "cookie", r->cookie);
	if (!r->udp)
		xp_json_u64(j, r->mss ? "tcp_mss" : "tcp_mss_default", r->mss ? r->mss : r->ctl_mss);
	xp_json_u64(j, "target_bitrate", r->target_bitrate);
	if (!r->server)
		buffers(j, r);
}

void xp_i3j_start(struct xp_json *j, const struct xp_i3_report *r, const char *key)
{
	char v[96];

	xp_json_obj_open(j, key);
	connected(j, r);
	xp_i3r_version(v, sizeof(v));
	xp_json_str_val(j, "version", v);
	xp_json_str_val(j, "system_info", r->system_info);
	if (r->stage >= 1)
		connection(j, r);
	if (r->stage >= 2)
		test_start(j, r);
	xp_json_obj_close(j);
}

static double pct(int64_t lost, int64_t packets)
{
	return packets > 0 ? 100.0 * (double)lost / (double)packets : 0.0;
}

/* The figures every interval object begins with. */
static void iv_head(struct xp_json *j, const struct xp_i3r_interval *iv, uint64_t bytes)
{
	double secs = iv->end - iv->start;

	xp_json_dbl(j, "start", iv->start);
	xp_json_dbl(j, "end", iv->end);
	xp_json_dbl(j, "seconds", secs);
	xp_json_u64(j, "bytes", bytes);
	xp_json_dbl(j, "bits_per_second", xp_i3t_bps(bytes, secs));
}

static void iv_udp_rx(struct xp_json *j, const struct xp_i3r_ivs *s)
{
	xp_json_dbl(j, "jitter_ms", s->jitter_ms);
	xp_json_i64(j, "lost_packets", s->lost);
	xp_json_i64(j, "packets", s->packets);
	xp_json_dbl(j, "lost_percent", pct(s->lost, s->packets));
}

static void iv_stream(struct xp_json *j, const struct xp_i3_report *r,
		      const struct xp_i3r_interval *iv, uint32_t i)
{
	const struct xp_i3r_ivs *s = &iv->st[i];
	int sender = r->st[i].sender;

	xp_json_obj_open(j, NULL);
	xp_json_i64(j, "socket", r->st[i].socket);
	iv_head(j, iv, s->bytes);
	if (!r->udp && sender) {
		xp_json_i64(j, "retransmits", s->retransmits);
		xp_json_u64(j, "snd_cwnd", s->snd_cwnd);
		xp_json_u64(j, "snd_wnd", s->snd_wnd);
		xp_json_u64(j, "rtt", s->rtt);
		xp_json_u64(j, "rttvar", s->rttvar);
		xp_json_u64(j, "pmtu", s->pmtu);
	} else if (r->udp && sender) {
		xp_json_i64(j, "packets", s->packets);
	} else if (r->udp) {
		iv_udp_rx(j, s);
	}
	xp_json_bool(j, "omitted", iv->omitted);
	xp_json_bool(j, "sender", sender);
	xp_json_obj_close(j);
}

static void iv_sum(struct xp_json *j, const struct xp_i3_report *r,
		   const struct xp_i3r_interval *iv, int sender)
{
	struct xp_i3r_ivs t;
	char name[40];

	xp_i3t_iv_total(r, iv, sender, &t);
	xp_json_obj_open(j, xp_i3j_sum_name(r, sender, "sum", name, sizeof(name)));
	iv_head(j, iv, t.bytes);
	if (!r->udp && sender)
		xp_json_i64(j, "retransmits", t.retransmits);
	else if (r->udp && sender)
		xp_json_i64(j, "packets", t.packets);
	else if (r->udp)
		iv_udp_rx(j, &t);
	xp_json_bool(j, "omitted", iv->omitted);
	xp_json_bool(j, "sender", sender);
	xp_json_obj_close(j);
}

void xp_i3j_interval(struct xp_json *j, const struct xp_i3_report *r, uint32_t k,
		     const char *key)
{
	const struct xp_i3r_interval *iv = &r->iv[k];
	int pass;
	uint32_t i;

	xp_json_obj_open(j, key);
	xp_json_arr_open(j, "streams");
	for (pass = 0; pass < 2; pass++)
		for (i = 0; xp_i3t_pass_sender(r, pass) >= 0 && i < r->nstreams; i++)
			if (r->st[i].sender == xp_i3t_pass_sender(r, pass))
				iv_stream(j, r, iv, i);
	xp_json_arr_close(j);
	for (pass = 0; pass < 2; pass++)
		if (xp_i3t_pass_sender(r, pass) >= 0)
			iv_sum(j, r, iv, xp_i3t_pass_sender(r, pass));
	xp_json_obj_close(j);
}

/* What iperf3 adds at the top level after "end". */
static void tail(struct xp_json *j, const struct xp_i3_report *r)
{
	if (r->error[0])
		xp_json_str_val(j, "error", r->error);
	if (r->title)
		xp_json_str_val(j, "title", r->title);
	if (r->extra_data)
		xp_json_str_val(j, "extra_data", r->extra_data);
	if (r->server_output_json)
		xp_jval_write(j, "server_output_json", r->server_output_json);
	if (r->server_output_text)
		xp_json_str_val(j, "server_output_text", r->server_output_text);
	if (r->extra)
		r->extra(r->extra_ctx, j, "xperf");
}

void xp_i3j_document(struct xp_json *j, const struct xp_i3_report *r)
{
	uint32_t k;

	xp_json_obj_open(j, NULL);
	xp_i3j_start(j, r, "start");
	xp_json_arr_open(j, "intervals");
	for (k = 0; k < r->nintervals; k++)
		xp_i3j_interval(j, r, k, NULL);
	xp_json_arr_close(j);
	xp_i3j_end(j, r, "end");
	tail(j, r);
	xp_json_obj_close(j);
}

void xp_i3j_event_start(struct xp_json *j, const struct xp_i3_report *r)
{
	xp_json_obj_open(j, NULL);
	xp_json_str_val(j, "event", "start");
	xp_i3j_start(j, r, "data");
	xp_json_obj_close(j);
}

void xp_i3j_event_interval(struct xp_json *j, const struct xp_i3_report *r, uint32_t k)
{
	xp_json_obj_open(j, NULL);
	xp_json_str_val(j, "event", "interval");
	xp_i3j_interval(j, r, k, "data");
	xp_json_obj_close(j);
}

void xp_i3j_event_end(struct xp_json *j, const struct xp_i3_report *r)
{
	if (r->error[0]) {
		xp_json_obj_open(j, NULL);
		xp_json_str_val(j, "event", "error");
		xp_json_str_val(j, "data", r->error);
		xp_json_obj_close(j);
	}
	if (r->server_output_json) {
		xp_json_obj_open(j, NULL);
		xp_json_str_val(j, "event", "server_output_json");
		xp_jval_write(j, "data", r->server_output_json);
		xp_json_obj_close(j);
	}
	if (r->server_output_text) {
		xp_json_obj_open(j, NULL);
		xp_json_str_val(j, "event", "server_output_text");
		xp_json_str_val(j, "data", r->server_output_text);
		xp_json_obj_close(j);
	}
	xp_json_obj_open(j, NULL);
	xp_json_str_val(j, "event", "end");
	xp_i3j_end(j, r, "data");
	xp_json_obj_close(j);
}
