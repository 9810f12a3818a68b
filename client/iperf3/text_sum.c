/* SPDX-License-Identifier: BSD-2-Clause */
/* iperf3's text summary (client/iperf3/report.h): after the separator,
 * each stream's sender and receiver line, their [SUM] with -P, the CPU
 * and congestion lines of -V, the server's output.  A server prints only
 * the lines of its own end, as iperf3's does.  Pure. */
#include "client/iperf3/text_int.h"

#include <string.h>

static double pct(int64_t lost, int64_t packets)
{
	return packets > 0 ? 100.0 * (double)lost / (double)packets : 0.0;
}

/* A stream's (socket >= 0) or the sum's sender and receiver lines. */
static void lines(const struct xp_i3out *o, const struct xp_i3_report *r, int socket,
		  int sender, const struct xp_i3t_total *t)
{
	char cols[160], id[16];
	int retr = xp_i3t_retrans(r, sender);

	if (socket >= 0)
		snprintf(id, sizeof(id), "[%3d]", socket);
	else
		snprintf(id, sizeof(id), "[SUM]");
	if (r->server && !sender) {
		if (r->verbose)
			xp_i3out_printf(o, "%s (sender statistics not available)\n", id);
	} else {
		xp_i3t_cols(cols, sizeof(cols), r, socket, sender, 0, t->sender_time, t->sent,
			    t->sender_time);
		if (r->udp)
			xp_i3out_printf(o, "%s  %5.3f ms  %d/%lld (%.2g%%)  sender\n", cols, 0.0, 0,
					(long long)t->sender_packets, 0.0);
		else if (retr)
			xp_i3out_printf(o, "%s  %3lld             sender\n", cols, (long long)t->retransmits);
		else
			xp_i3out_printf(o, "%s                  sender\n", cols);
	}
	if (r->server && sender) {
		if (r->verbose)
			xp_i3out_printf(o, "%s (receiver statistics not available)\n", id);
		return;
	}
	xp_i3t_cols(cols, sizeof(cols), r, socket, sender, 0, t->receiver_time, t->received,
		    t->receiver_time);
	if (r->udp)
		xp_i3out_printf(o, "%s  %5.3f ms  %lld/%lld (%.2g%%)  receiver\n", cols, t->jitter_ms,
				(long long)t->lost, (long long)t->receiver_packets,
				pct(t->lost, socket >= 0 ? t->receiver_packets : t->packets));
	else
		xp_i3out_printf(o, "%s                  receiver\n", cols);
}

static void stream_total(const struct xp_i3r_stream *s, struct xp_i3t_total *t)
{
	memset(t, 0, sizeof(*t));
	t->n = 1;
	t->sent = s->bytes_sent;
	t->received = s->bytes_received;
	t->sender_time = s->sender_time;
	t->receiver_time = s->receiver_time;
	t->retransmits = s->retransmits > 0 ? s->retransmits : 0;
	t->lost = s->lost;
	t->sender_packets = s->sender_packets;
	t->receiver_packets = s->receiver_packets;
	t->jitter_ms = s->jitter_ms;
}

static void out_of_order(const struct xp_i3out *o, const struct xp_i3_report *r,
			 const struct xp_i3r_stream *s)
{
	char role[12] = "";

	if (r->bidir)
		snprintf(role, sizeof(role), "[%s-%s]", s->sender ? "TX" : "RX",
			 r->server ? "S" : "C");
	xp_i3out_printf(o, "[SUM]%s %4.1f-%4.1f sec  %lld datagrams received out-of-order\n", role,
			0.0, s->sender_time, (long long)s->out_of_order);
}

static void cpu_lines(const struct xp_i3out *o, const struct xp_i3_report *r)
{
	int k;

	for (k = 0; k < (r->bidir ? 2 : 1); k++) {
		int local_sends = k == 0;

		xp_i3out_printf(o, "CPU Utilization: local/%s %.1f%% (%.1f%%u/%.1f%%s), remote/%s "
				"%.1f%% (%.1f%%u/%.1f%%s)\n",
				local_sends ? "sender" : "receiver", r->cpu[0], r->cpu[1], r->cpu[2],
				local_sends ? "receiver" : "sender", r->remote_cpu[0],
				r->remote_cpu[1], r->remote_cpu[2]);
	}
}

/* -V's lines after one way's streams. */
static void verbose_tail(const struct xp_i3out *o, const struct xp_i3_report *r, int sender)
{
	const char *snd = sender ? r->cc_local : r->cc_remote;
	const char *rcv = sender ? r->cc_remote : r->cc_local;

	if (sender)
		cpu_lines(o, r);
	if (r->udp)
		return;
	if (snd[0])
		xp_i3out_printf(o, "snd_tcp_congestion %s\n", snd);
	if (rcv[0])
		xp_i3out_printf(o, "rcv_tcp_congestion %s\n", rcv);
}

/* --get-server-output: what the server sent, its JSON document pretty. */
static void server_output(const struct xp_i3out *o, const struct xp_i3_report *r)
{
	struct xp_json j;

	if (r->server_output_json) {
		xp_json_init(&j, 1);
		xp_jval_write(&j, NULL, r->server_output_json);
		if (!j.oom)
			xp_i3out_printf(o, "\nServer JSON output:\n%s", xp_json_str(&j));
		xp_json_free(&j);
	}
	if (r->server_output_text)
		xp_i3out_printf(o, "\nServer output:\n%s\n", r->server_output_text);
}

static void header(const struct xp_i3out *o, const struct xp_i3_report *r)
{
	const char *id = r->bidir ? "[ ID][Role]" : "[ ID]";

	if (r->udp)
		xp_i3out_printf(o, "%s Interval           Transfer     Bitrate         "
				"Jitter    Lost/Total Datagrams\n", id);
	else
		xp_i3out_printf(o, "%s Interval           Transfer     Bitrate%s\n", id,
				r->sender_has_retransmits || r->other_has_retransmits ?
				"         Retr" : "");
}

void xp_i3t_summary(const struct xp_i3out *o, const struct xp_i3_report *r)
{
	struct xp_i3t_total t;
	int pass;

	xp_i3out_printf(o, "%s", XP_I3T_SEPARATOR);
	if (r->verbose)
		xp_i3out_printf(o, "Test Complete. Summary Results:\n");
	header(o, r);
	for (pass = 0; pass < 2; pass++) {
		int sender = xp_i3t_pass_sender(r, pass);
		uint32_t i;

		if (sender < 0)
			continue;
		for (i = 0; i < r->nstreams; i++) {
			if (r->st[i].sender != sender)
				continue;
			stream_total(&r->st[i], &t);
			lines(o, r, r->st[i].socket, sender, &t);
			if (r->udp && r->st[i].out_of_order > 0)
				out_of_order(o, r, &r->st[i]);
		}
		xp_i3t_end_total(r, sender, &t);
		if (r->parallel > 1)
			lines(o, r, -1, sender, &t);
		if (r->verbose)
			verbose_tail(o, r, sender);
		if (pass == 0 && !r->server)
			server_output(o, r);
	}
	fflush(o->f);
}
