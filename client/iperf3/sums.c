/* SPDX-License-Identifier: BSD-2-Clause */
/* iperf3's sums (client/iperf3/text_int.h): which streams each pass
 * reports, their totals per interval and at the end, as iperf3 adds them;
 * numbers only, for the text and JSON printers alike.  Pure. */
#include "client/iperf3/text_int.h"

#include <string.h>

double xp_i3t_bps(uint64_t bytes, double secs)
{
	return secs > 0 ? (double)bytes * 8 / secs : 0;
}

int xp_i3t_pass_sender(const struct xp_i3_report *r, int pass)
{
	if (r->bidir)
		return r->server ? pass : !pass;
	if (pass)
		return -1;
	/* one way: the client sends unless -R, the server only with -R */
	return r->server ? r->reverse : !r->reverse;
}

int xp_i3t_retrans(const struct xp_i3_report *r, int sender)
{
	if (r->udp)
		return 0;
	return r->bidir && !sender ? r->other_has_retransmits : r->sender_has_retransmits;
}

void xp_i3t_iv_total(const struct xp_i3_report *r, const struct xp_i3r_interval *iv,
		     int sender, struct xp_i3r_ivs *t)
{
	uint32_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < r->nstreams; i++) {
		if (r->st[i].sender != sender)
			continue;
		t->bytes += iv->st[i].bytes;
		t->retransmits += iv->st[i].retransmits;
		t->packets += iv->st[i].packets;
		t->lost += iv->st[i].lost;
		t->jitter_ms += iv->st[i].jitter_ms;
	}
	t->jitter_ms /= r->parallel ? r->parallel : 1;
}

void xp_i3t_end_total(const struct xp_i3_report *r, int sender, struct xp_i3t_total *t)
{
	uint32_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < r->nstreams; i++) {
		const struct xp_i3r_stream *s = &r->st[i];

		if (s->sender != sender)
			continue;
		t->n++;
		t->sent += s->bytes_sent;
		t->received += s->bytes_received;
		t->sender_time = s->sender_time > t->sender_time ? s->sender_time : t->sender_time;
		t->receiver_time = s->receiver_time > t->receiver_time ? s->receiver_time
								       : t->receiver_time;
		t->retransmits += s->retransmits > 0 ? s->retransmits : 0;
		t->lost += s->lost;
		t->sender_packets += s->sender_packets;
		t->receiver_packets += s->receiver_packets;
		t->packets += s->sender_packets ? s->sender_packets : s->receiver_packets;
		t->jitter_ms += s->jitter_ms;
	}
	t->jitter_ms /= r->parallel ? r->parallel : 1;
}
