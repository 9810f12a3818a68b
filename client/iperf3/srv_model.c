/* SPDX-License-Identifier: BSD-2-Clause */
/* The iperf3 front end's server report (client/iperf3/srv.h) from what an
 * xperf server tells of an iperf3 test (server/iperf3/hooks.h): the
 * client's parameters, its streams, their counters at each interval and
 * both ends' results.  Pure. */
#include "client/iperf3/srv.h"

#include <string.h>

int xp_i3s_setup(struct xp_i3_report *r, const struct xp_i3srv_view *v,
		 const struct xp_i3fe_cfg *c)
{
	const struct xp_i3_params *p = v->p;
	uint32_t par = p->parallel > 0 && p->parallel <= 128 ? (uint32_t)p->parallel : 1;

	if (xp_i3r_init(r, p->bidir ? 2 * par : par))
		return -1;
	r->server = 1;
	r->udp = p->proto == XP_I3_PROTO_UDP;
	r->reverse = p->reverse;
	r->bidir = p->bidir;
	r->parallel = par;
	r->blksize = p->len > 0 ? (uint32_t)p->len : XP_I3FE_TCP_LEN;
	r->omit = p->omit > 0 ? (uint32_t)p->omit : 0;
	r->duration = p->time > 0 ? (uint32_t)p->time : 0;
	r->bytes = p->num > 0 ? (uint64_t)p->num : 0;
	r->blocks = p->blockcount > 0 ? (uint64_t)p->blockcount : 0;
	r->tos = p->tos > 0 ? (int)p->tos : 0;
	r->mss = p->mss > 0 ? (uint32_t)p->mss : 0;
	r->target_bitrate = p->bandwidth > 0 ? (uint64_t)p->bandwidth : 0;
	r->sock_bufsize = p->window > 0 ? (uint64_t)p->window : 0;
	r->fqrate = p->fqrate > 0 ? (uint64_t)p->fqrate : 0;
	r->interval = c->interval;
	r->format = c->json || c->json_stream ? 'a' : c->format;
	r->verbose = c->verbose;
	r->stage = 1;
	snprintf(r->cookie, sizeof(r->cookie), "%s", v->cookie);
	xp_i3r_split_addr(v->peer, r->peer_host, sizeof(r->peer_host), &r->peer_port);
	return 0;
}

void xp_i3s_started(struct xp_i3_report *r, const struct xp_i3srv_view *v)
{
	uint32_t i;

	r->stage = 2;
	for (i = 0; i < r->nstreams && i < v->nstreams; i++) {
		struct xp_i3r_stream *s = &r->st[i];

		s->socket = (int)(5 + 2 * i);
		s->sender = v->sender[i];
		s->retransmits = -1;
		if (!v->addr)
			continue;
		xp_i3r_split_addr(v->addr[i].local, s->local_host, sizeof(s->local_host),
				  &s->local_port);
		xp_i3r_split_addr(v->addr[i].remote, s->remote_host, sizeof(s->remote_host),
				  &s->remote_port);
	}
}

static void tcpi(struct xp_i3r_stream *s, struct xp_i3r_ivs *o, const struct xp_i3srv_flow *f)
{
	o->snd_cwnd = f->cwnd_bytes;
	o->snd_wnd = f->wnd;
	o->rtt = f->rtt_us;
	o->rttvar = f->rttvar_us;
	o->pmtu = f->pmtu;
	s->max_snd_cwnd = f->cwnd_bytes > s->max_snd_cwnd ? f->cwnd_bytes : s->max_snd_cwnd;
	s->max_snd_wnd = f->wnd > s->max_snd_wnd ? f->wnd : s->max_snd_wnd;
	s->max_rtt = f->rtt_us > s->max_rtt ? f->rtt_us : s->max_rtt;
	s->min_rtt = !s->rtt_n || f->rtt_us < s->min_rtt ? f->rtt_us : s->min_rtt;
	s->rtt_sum += f->rtt_us;
	s->rtt_n++;
	s->mean_rtt = s->rtt_sum / s->rtt_n;
}

int xp_i3s_interval(struct xp_i3_report *r, const struct xp_i3srv_view *v,
		    struct xp_i3srv_flow *prev, double start, double interval)
{
	struct xp_i3r_interval *iv;
	uint64_t bytes = 0;
	uint32_t i;

	for (i = 0; i < r->nstreams && i < v->nstreams; i++)
		bytes += v->flows[i].bytes - prev[i].bytes;
	/* iperf3 leaves out a short tail interval with no data in it */
	if (!bytes && v->t - start < 0.1 * interval)
		return 0;
	iv = xp_i3r_add_interval(r, start, v->t);
	if (!iv)
		return -1;
	for (i = 0; i < r->nstreams && i < v->nstreams; i++) {
		const struct xp_i3srv_flow *f = &v->flows[i];
		struct xp_i3r_ivs *o = &iv->st[i];
		int64_t dgrams;

		o->bytes = f->bytes - prev[i].bytes;
		o->retransmits = (int64_t)(f->retrans - prev[i].retrans);
		dgrams = r->blksize ? (int64_t)(o->bytes / r->blksize) : 0;
		o->lost = r->udp && !r->st[i].sender ? f->lost - prev[i].lost : 0;
		o->packets = dgrams + o->lost;
		o->jitter_ms = f->jitter_ms > 0 ? f->jitter_ms : 0;
		if (f->has_tcpi)
			tcpi(&r->st[i], o, f);
		prev[i] = *f;
	}
	return 1;
}

void xp_i3s_end(struct xp_i3_report *r, const struct xp_i3_results *mine,
		const struct xp_i3_results *theirs)
{
	uint32_t i;

	for (i = 0; i < r->nstreams; i++) {
		int64_t id = xp_i3_stream_id(i);
		const struct xp_i3_stream_res *m = xp_i3_results_find(mine, id);
		const struct xp_i3_stream_res *t = theirs ? xp_i3_results_find(theirs, id) : NULL;

		if (r->st[i].sender)
			xp_i3r_stream_end(&r->st[i], m, t);
		else
			xp_i3r_stream_end(&r->st[i], t, m);
	}
	r->cpu[0] = mine->cpu_total;
	r->cpu[1] = mine->cpu_user;
	r->cpu[2] = mine->cpu_system;
	if (theirs) {
		r->remote_cpu[0] = theirs->cpu_total;
		r->remote_cpu[1] = theirs->cpu_user;
		r->remote_cpu[2] = theirs->cpu_system;
	}
	snprintf(r->cc_local, sizeof(r->cc_local), "%s", mine->congestion_used);
	/* as an iperf3 server holds them when it prints (before the exchange:
	 * no congestion control of the client's) */
	r->sender_has_retransmits = !r->udp && xp_i3t_sends(r);
	r->other_has_retransmits = 0;
	r->ended = 1;
}
