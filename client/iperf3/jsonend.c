/* SPDX-License-Identifier: BSD-2-Clause */
/* The "end" of iperf3's JSON (client/iperf3/report.h): each stream's
 * sender and receiver (UDP: one "udp" object), sum_sent and sum_received
 * with retransmits (UDP: sum too, with jitter and loss), the --bidir
 * reverse sums, CPU and congestion control, with iperf3 3.12's keys and
 * order.  Pure. */
#include "client/iperf3/text_int.h"

static double pct(int64_t lost, int64_t packets)
{
	return packets > 0 ? 100.0 * (double)lost / (double)packets : 0.0;
}

static void head(struct xp_json *j, int socket, double end, double secs, uint64_t bytes,
		 double bps_secs)
{
	if (socket >= 0)
		xp_json_i64(j, "socket", socket);
	xp_json_dbl(j, "start", 0);
	xp_json_dbl(j, "end", end);
	xp_json_dbl(j, "seconds", secs);
	xp_json_u64(j, "bytes", bytes);
	xp_json_dbl(j, "bits_per_second", xp_i3t_bps(bytes, bps_secs));
}

static void tcp_stream(struct xp_json *j, const struct xp_i3_report *r,
		       const struct xp_i3r_stream *s, int sender)
{
	double local = s->sender ? s->sender_time : s->receiver_time;

	xp_json_obj_open(j, "sender");
	head(j, s->socket, s->sender_time, s->sender_time, s->bytes_sent, s->sender_time);
	if (xp_i3t_retrans(r, sender)) {
		xp_json_i64(j, "retransmits", s->retransmits > 0 ? s->retransmits : 0);
		xp_json_u64(j, "max_snd_cwnd", s->max_snd_cwnd);
		xp_json_u64(j, "max_snd_wnd", s->max_snd_wnd);
		xp_json_u64(j, "max_rtt", s->max_rtt);
		xp_json_u64(j, "min_rtt", s->min_rtt);
		xp_json_u64(j, "mean_rtt", s->mean_rtt);
	}
	xp_json_bool(j, "sender", sender);
	xp_json_obj_close(j);
	xp_json_obj_open(j, "receiver");
	head(j, s->socket, s->receiver_time, local, s->bytes_received, s->receiver_time);
	xp_json_bool(j, "sender", sender);
	xp_json_obj_close(j);
}

static void udp_stream(struct xp_json *j, const struct xp_i3r_stream *s, int sender)
{
	int64_t packets = s->sender_packets ? s->sender_packets : s->receiver_packets;

	xp_json_obj_open(j, "udp");
	head(j, s->socket, s->sender_time, s->sender_time, s->bytes_sent, s->sender_time);
	xp_json_dbl(j, "jitter_ms", s->jitter_ms);
	xp_json_i64(j, "lost_packets", s->lost);
	xp_json_i64(j, "packets", packets);
	xp_json_dbl(j, "lost_percent", pct(s->lost, s->sender_packets));
	xp_json_i64(j, "out_of_order", s->out_of_order);
	xp_json_bool(j, "sender", sender);
	xp_json_obj_close(j);
}

static void tcp_sums(struct xp_json *j, const struct xp_i3_report *r, int sender,
		     const struct xp_i3t_total *t)
{
	char name[48];

	xp_json_obj_open(j, xp_i3j_sum_name(r, sender, "sum_sent", name, sizeof(name)));
	head(j, -1, t->sender_time, t->sender_time, t->sent, t->sender_time);
	if (xp_i3t_retrans(r, sender))
		xp_json_i64(j, "retransmits", t->retransmits);
	xp_json_bool(j, "sender", sender);
	xp_json_obj_close(j);
	xp_json_obj_open(j, xp_i3j_sum_name(r, sender, "sum_received", name, sizeof(name)));
	head(j, -1, t->receiver_time, t->receiver_time, t->received, t->receiver_time);
	xp_json_bool(j, "sender", sender);
	xp_json_obj_close(j);
}

static void udp_tail(struct xp_json *j, double jitter, int64_t lost, int64_t packets,
		     double lost_pct, int sender)
{
	xp_json_dbl(j, "jitter_ms", jitter);
	xp_json_i64(j, "lost_packets", lost);
	xp_json_i64(j, "packets", packets);
	xp_json_dbl(j, "lost_percent", lost_pct);
	xp_json_bool(j, "sender", sender);
}

static void udp_sums(struct xp_json *j, const struct xp_i3_report *r, int sender,
		     const struct xp_i3t_total *t)
{
	char name[48];

	/* iperf3's first UDP summary: the bytes sent, over the receiver's time */
	xp_json_obj_open(j, xp_i3j_sum_name(r, sender, "sum", name, sizeof(name)));
	head(j, -1, t->receiver_time, t->receiver_time, t->sent, t->sender_time);
	udp_tail(j, t->jitter_ms, t->lost, t->packets, pct(t->lost, t->packets), sender);
	xp_json_obj_close(j);
	xp_json_obj_open(j, xp_i3j_sum_name(r, sender, "sum_sent", name, sizeof(name)));
	head(j, -1, t->sender_time, t->sender_time, t->sent, t->sender_time);
	udp_tail(j, 0, 0, t->sender_packets, 0, 1);
	xp_json_obj_close(j);
	xp_json_obj_open(j, xp_i3j_sum_name(r, sender, "sum_received", name, sizeof(name)));
	head(j, -1, t->receiver_time, t->receiver_time, t->received, t->receiver_time);
	udp_tail(j, t->jitter_ms, t->lost, t->receiver_packets, pct(t->lost, t->packets), 0);
	xp_json_obj_close(j);
}

static void cpu_cc(struct xp_json *j, const struct xp_i3_report *r, int sender)
{
	const char *snd = sender ? r->cc_local : r->cc_remote;
	const char *rcv = sender ? r->cc_remote : r->cc_local;

	xp_json_obj_open(j, "cpu_utilization_percent");
	xp_json_dbl(j, "host_total", r->cpu[0]);
	xp_json_dbl(j, "host_user", r->cpu[1]);
	xp_json_dbl(j, "host_system", r->cpu[2]);
	xp_json_dbl(j, "remote_total", r->remote_cpu[0]);
	xp_json_dbl(j, "remote_user", r->remote_cpu[1]);
	xp_json_dbl(j, "remote_system", r->remote_cpu[2]);
	xp_json_obj_close(j);
	if (r->udp)
		return;
	if (snd[0])
		xp_json_str_val(j, "sender_tcp_congestion", snd);
	if (rcv[0])
		xp_json_str_val(j, "receiver_tcp_congestion", rcv);
}

void xp_i3j_end(struct xp_json *j, const struct xp_i3_report *r, const char *key)
{
	struct xp_i3t_total t;
	int pass, last = -1;
	uint32_t i;

	xp_json_obj_open(j, key);
	if (!r->ended) {
		xp_json_obj_close(j);
		return;
	}
	xp_json_arr_open(j, "streams");
	for (pass = 0; pass < 2; pass++) {
		int sender = xp_i3t_pass_sender(r, pass);

		for (i = 0; sender >= 0 && i < r->nstreams; i++) {
			if (r->st[i].sender != sender)
				continue;
			xp_json_obj_open(j, NULL);
			if (r->udp)
				udp_stream(j, &r->st[i], sender);
			else
				tcp_stream(j, r, &r->st[i], sender);
			xp_json_obj_close(j);
		}
	}
	xp_json_arr_close(j);
	for (pass = 0; pass < 2; pass++) {
		int sender = xp_i3t_pass_sender(r, pass);

		if (sender < 0)
			continue;
		xp_i3t_end_total(r, sender, &t);
		if (r->udp)
			udp_sums(j, r, sender, &t);
		else
			tcp_sums(j, r, sender, &t);
		last = sender;
	}
	cpu_cc(j, r, last);
	xp_json_obj_close(j);
}

/* "sum" or, with --bidir, the data the server sends: "sum_bidir_reverse". */
const char *xp_i3j_sum_name(const struct xp_i3_report *r, int sender, const char *base,
			    char *buf, size_t len)
{
	int rev = r->bidir && (r->server ? sender : !sender);

	snprintf(buf, len, "%s%s", base, rev ? "_bidir_reverse" : "");
	return buf;
}
