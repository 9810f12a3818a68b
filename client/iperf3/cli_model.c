/* SPDX-License-Identifier: BSD-2-Clause */
/* The iperf3 front end's client report (client/iperf3/cli.h) from what
 * xperf's iperf3 client returns: the streams as opened, xperf's interval
 * reports, and at the end both ends' results messages, read as a stock
 * iperf3 client reads them: for a stream the client sends on, its own
 * bytes and time are the sender's and the server's the receiver's; the
 * other way round for one it receives on.  Pure. */
#include "client/iperf3/cli.h"

#include <string.h>

int xp_i3m_setup(struct xp_i3_report *r, const struct xp_i3fe_cfg *c)
{
	uint32_t n = c->bidir ? 2 * c->parallel : c->parallel, pos;

	if (xp_i3r_init(r, n))
		return -1;
	r->udp = c->udp;
	r->reverse = c->reverse;
	r->bidir = c->bidir;
	r->parallel = c->parallel;
	snprintf(r->host, sizeof(r->host), "%s", c->host);
	r->port = c->port;
	r->mss = c->mss;
	r->target_bitrate = c->rate;
	r->sock_bufsize = c->window;
	r->blksize = c->len ? c->len : c->udp ? 0 : XP_I3FE_TCP_LEN;
	r->blksize_auto = c->udp && !c->len;
	r->omit = c->omit;
	r->duration = c->time_s;
	r->bytes = c->bytes;
	r->blocks = c->blocks;
	r->fqrate = c->fqrate;
	r->tos = c->tos;
	r->interval = c->interval;
	r->format = c->json || c->json_stream ? 'a' : c->format;
	r->verbose = c->verbose;
	r->title = c->title;
	r->extra_data = c->extra_data;
	for (pos = 0; pos < n; pos++) {
		r->st[pos].socket = (int)(5 + 2 * pos);
		r->st[pos].sender = xp_i3_c2s(pos, c->parallel, c->reverse, c->bidir);
		r->st[pos].retransmits = -1;
	}
	return 0;
}

void xp_i3m_connected(struct xp_i3_report *r, const struct xp_i3_client_out *out,
		      const struct xp_client_result *xr)
{
	uint32_t pos;

	snprintf(r->cookie, sizeof(r->cookie), "%s", out->cookie);
	r->ctl_mss = out->ctl_mss;
	r->blksize = (uint32_t)xr->req;
	r->stage = 2;
	for (pos = 0; pos < r->nstreams && pos < out->nstreams; pos++) {
		struct xp_i3r_stream *s = &r->st[pos];

		xp_i3r_split_addr(out->streams[pos].local, s->local_host, sizeof(s->local_host),
				  &s->local_port);
		xp_i3r_split_addr(out->streams[pos].remote, s->remote_host,
				  sizeof(s->remote_host), &s->remote_port);
	}
}

/* A TCP sender's TCP_INFO into the interval and the stream's extremes. */
static void tcp_info(struct xp_i3r_stream *s, struct xp_i3r_ivs *v, const struct xp_i3m_tcpi *t)
{
	v->snd_cwnd = t->cwnd_bytes;
	v->snd_wnd = t->wnd;
	v->rtt = t->rtt_us;
	v->rttvar = t->rttvar_us;
	v->pmtu = t->pmtu;
	if (t->cwnd_bytes > s->max_snd_cwnd)
		s->max_snd_cwnd = t->cwnd_bytes;
	if (t->wnd > s->max_snd_wnd)
		s->max_snd_wnd = t->wnd;
	if (t->rtt_us > s->max_rtt)
		s->max_rtt = t->rtt_us;
	if (!s->rtt_n || t->rtt_us < s->min_rtt)
		s->min_rtt = t->rtt_us;
	s->rtt_sum += t->rtt_us;
	s->rtt_n++;
	s->mean_rtt = s->rtt_sum / s->rtt_n;
}

/* iperf3 leaves out a short tail interval (under a tenth of -i) that
 * carried no data. */
static int empty_tail(const struct xp_i3_report *r, const struct xp_interval *iv)
{
	uint32_t pos;

	for (pos = 0; pos < iv->nflows; pos++)
		if (iv->flows[pos].bytes)
			return 0;
	return iv->end - iv->start < 0.1 * r->interval;
}

int xp_i3m_interval(struct xp_i3_report *r, const struct xp_interval *iv,
		    const struct xp_i3m_tcpi *ti)
{
	struct xp_i3r_interval *out;
	uint32_t pos;

	if (empty_tail(r, iv))
		return 0;
	out = xp_i3r_add_interval(r, iv->start, iv->end);
	if (!out)
		return -1;
	for (pos = 0; pos < r->nstreams && pos < iv->nflows; pos++) {
		const struct xp_flow_iv *f = &iv->flows[pos];
		struct xp_i3r_ivs *v = &out->st[pos];
		int64_t dgrams = r->blksize ? (int64_t)(f->bytes / r->blksize) : 0;

		v->bytes = f->bytes;
		v->retransmits = (int64_t)f->retrans;
		if (r->udp && r->st[pos].sender) {
			v->packets = dgrams;
		} else if (r->udp) {
			/* the flow's trans counts its losses (may step back) */
			v->lost = (int64_t)f->trans;
			v->packets = dgrams + v->lost;
			v->jitter_ms = f->jitter_ms > 0 ? f->jitter_ms : 0;
		}
		if (!r->udp && r->st[pos].sender && ti && ti[pos].valid)
			tcp_info(&r->st[pos], v, &ti[pos]);
	}
	return 1;
}

/* What the interval reports did not see: TCP_INFO of each sender as its
 * flow closed (xperf's per-flow results). */
static void tcp_close_info(struct xp_i3_report *r, const struct xp_client_result *xr)
{
	uint32_t k;

	for (k = 0; k < xr->nflows; k++) {
		const struct xp_flow_result *f = &xr->flows[k];
		struct xp_i3r_stream *s = f->flow < r->nstreams ? &r->st[f->flow] : NULL;

		if (!s || !s->sender || !(f->flags & XP_FLOW_F_TCP_INFO) || s->rtt_n)
			continue;
		s->max_snd_cwnd = f->cwnd * f->mss;
		s->max_rtt = s->min_rtt = s->mean_rtt = f->rtt_us;
	}
}

static void end_cpu(struct xp_i3_report *r, const struct xp_i3_results *l,
		    const struct xp_i3_results *m)
{
	r->cpu[0] = l->cpu_total;
	r->cpu[1] = l->cpu_user;
	r->cpu[2] = l->cpu_system;
	r->remote_cpu[0] = m->cpu_total;
	r->remote_cpu[1] = m->cpu_user;
	r->remote_cpu[2] = m->cpu_system;
	snprintf(r->cc_local, sizeof(r->cc_local), "%s", l->congestion_used);
	snprintf(r->cc_remote, sizeof(r->cc_remote), "%s", m->congestion_used);
}

void xp_i3m_end(struct xp_i3_report *r, const struct xp_i3_client_out *out,
		const struct xp_client_result *xr)
{
	uint32_t pos, nrecv = 0;

	for (pos = 0; pos < r->nstreams; pos++) {
		int64_t id = xp_i3_stream_id(pos);
		const struct xp_i3_stream_res *mine = xp_i3_results_find(&out->local, id);
		const struct xp_i3_stream_res *peer = xp_i3_results_find(&out->remote, id);

		if (r->st[pos].sender)
			xp_i3r_stream_end(&r->st[pos], mine, peer);
		else
			xp_i3r_stream_end(&r->st[pos], peer, mine);
		nrecv += !r->st[pos].sender;
	}
	/* out of order: xperf counts them per side; exact with one stream */
	for (pos = 0; r->udp && nrecv == 1 && pos < r->nstreams; pos++)
		if (!r->st[pos].sender)
			r->st[pos].out_of_order = (int64_t)xr->local.c.out_of_order;
	tcp_close_info(r, xr);
	end_cpu(r, &out->local, &out->remote);
	/* iperf3's sender_has_retransmits as a client holds it at the end */
	r->sender_has_retransmits = r->udp ? 0 : r->reverse ?
		(int)out->remote.sender_has_retransmits : 1;
	r->other_has_retransmits = r->bidir ? (int)out->remote.sender_has_retransmits : 0;
	r->ended = 1;
}
