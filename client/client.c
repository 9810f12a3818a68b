/* SPDX-License-Identifier: BSD-2-Clause */
#include "client/client_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "client/auth.h"
#include "client/dial.h"
#include "client/mux.h"
#include "client/verify.h"
#include "common/clock.h"
#include "common/cpu.h"
#include "common/ctl.h"
#include "common/fill.h"
#include "common/live.h"
#include "common/units.h"
#include "common/sockpath.h"
#include "common/engine/pace.h"
#include "client/client_path.h"
#include "client/shape.h"

#define CTL_MS 15000
#define TEARDOWN_NS (300 * XP_NS_PER_MS)

/* The server sends on some flow (its data, or --bidir's reverse half):
 * it is told to STOP before the client's receivers wait for the end. */
static int server_sends(const struct client *cl)
{
	return cl->ops->server_sends || cl->run.bidir;
}

static void sockopts(const struct xp_opts *o, int remote, struct xp_sockopts *so)
{
	uint64_t snd = remote ? o->remote_sndbuf : o->sndbuf;
	uint64_t rcv = remote ? o->remote_rcvbuf : o->rcvbuf;

	so->nodelay = xp_opts_nodelay(o);
	so->sndbuf = snd ? snd : o->window;
	so->rcvbuf = rcv ? rcv : o->window;
	so->busy_poll_us = o->busy_poll;
	so->pacing_Bps = xp_opts_tcp_sender(o, remote) ? xp_pacing_Bps(o->rate) : 0;
	if (!remote)
		xp_client_path_sockopts(o, so);
}

static int send_setup(struct client *cl, struct xp_err *err)
{
	const struct xp_opts *o = cl->o;
	struct xp_msg m;
	struct xp_sockopts so;

	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_SETUP;
	m.u.setup.test = (uint64_t)o->test;
	m.u.setup.duration_ms = xp_opts_duration_ns(o) / XP_NS_PER_MS;
	m.u.setup.req_size = xp_opts_req_size(o);
	m.u.setup.rsp_size = xp_opts_rsp_size(o);
	m.u.setup.flows = cl->run.flows;
	m.u.setup.threads = o->threads;
	m.u.setup.nodelay = (uint64_t)xp_opts_nodelay(o);
	sockopts(o, 1, &so);
	m.u.setup.sndbuf = so.sndbuf;
	m.u.setup.rcvbuf = so.rcvbuf;
	m.u.setup.rr_timeout_ms = o->rr_timeout / XP_NS_PER_MS;
	if (!m.u.setup.rr_timeout_ms)
		m.u.setup.rr_timeout_ms = 1;
	if (o->remote_cpus)
		snprintf(m.u.setup.cpus, sizeof(m.u.setup.cpus), "%s", o->remote_cpus);
	m.u.setup.flags = (o->spin ? XP_SETUP_F_SPIN : 0) |
			  (o->no_gso ? XP_SETUP_F_NO_GSO : 0) |
			  (o->zerocopy ? XP_SETUP_F_ZEROCOPY : 0) |
			  (o->self_probe_ns ? XP_SETUP_F_SELF_PROBES : 0);
	m.u.setup.busy_poll_us = o->busy_poll;
	m.u.setup.rate_bps = o->rate;
	m.u.setup.burst = o->burst;
	m.u.setup.pace_burst = o->pace_burst;
	m.u.setup.rcvlowat = o->rcvlowat;
	m.u.setup.read_size = o->read_size;
	xp_client_path_setup(o, &m.u.setup);
	m.u.setup.bidir = cl->run.bidir;
	m.u.setup.quota = cl->run.quota;
	m.u.setup.omit_ms = o->omit / XP_NS_PER_MS + (o->omit % XP_NS_PER_MS != 0);
	m.u.setup.heartbeat_ms = XP_HEARTBEAT_MS;
	m.u.setup.interval_ms = o->interval / XP_NS_PER_MS;
	m.u.setup.interval_origin_ms = (xp_test(o->test)->rr ? xp_opts_warmup_ns(o) : o->omit) /
				       XP_NS_PER_MS;
	m.u.setup.stamps = cl->run.stamps;
	return xp_ctl_send_min(cl->ctl, &m, XP_CTL_NETPERF_LEN, xp_cl_ms_left(cl, CTL_MS),
			       cl->peer, err);
}

static int make_workers(struct client *cl, struct xp_err *err)
{
	return xp_group_create(&cl->g, &cl->run, (int)cl->o->threads, cl->o->cpus, "--cpus",
			       err);
}

static void fill_run(struct client *cl)
{
	const struct xp_opts *o = cl->o;
	struct xp_run *r = &cl->run;

	r->test = o->test;
	r->role = XP_ROLE_CLIENT;
	r->req = (uint32_t)xp_opts_req_size(o);
	r->rsp = (uint32_t)xp_opts_rsp_size(o);
	sockopts(o, 0, &r->so);
	r->rr_timeout_ns = o->rr_timeout;
	r->peer = cl->addr;
	r->flows = (uint32_t)xp_opts_flows_total(o);
	r->threads = (uint32_t)o->threads;
	r->bidir = (uint8_t)o->bidir;
	r->omit = o->omit != 0;
	r->quota = xp_opts_quota(o);
	r->quota_flows = xp_run_quota_flows(r, XP_ROLE_CLIENT);
	r->done_fd = -1;
	cl->server_senders = xp_run_quota_flows(r, XP_ROLE_SERVER);
	r->spin = o->spin;
	r->gso = !o->no_gso;
	r->zerocopy = o->zerocopy;
	r->self_probes = o->self_probe_ns != 0;
	r->self_probe_ns = o->self_probe_ns;
	r->burst = (uint32_t)o->burst;
	r->rate_bps = o->rate;
	r->pace_burst = (uint32_t)o->pace_burst;
	r->rcvlowat = o->rcvlowat;
	r->read_size = o->read_size;
	r->sched_ns = o->tps ? XP_NS_PER_SEC * o->flows / o->tps : 0;
	r->fastopen = o->fastopen;
	r->sendfile = o->sendfile; /* whichever flows this end sends on */
	r->fill = cl->fill;
	r->fill_len = cl->fill_len;
	r->note_mptcp = o->mptcp;
	r->connect_timeout_ns = o->connect_timeout;
	xp_cl_owd_run(cl);
}

/* The control connection leaves from -B's address and port and through
 * --bind-dev's device, as the data flows do (client/dial.h); on a MUX
 * channel it is there already (the connection authenticated). */
static int connect_control(struct client *cl, const char *host, uint16_t port,
			   struct xp_err *err)
{
	struct xp_dial d;
	int rc;

	if (cl->ctl >= 0)
		rc = xp_client_dial_names(cl->o, host, port, &d, err);
	else
		rc = xp_client_dial(cl->o, host, port,
				    xp_cl_ms_left(cl, xp_client_connect_ms(cl->o)), cl->key,
				    xp_cl_ms_left(cl, CTL_MS), &d, err);
	if (d.fd >= 0)
		cl->ctl = cl->ctl_sock = d.fd;
	cl->addr = d.addr;
	cl->run.so.local = d.local;
	snprintf(cl->peer, sizeof(cl->peer), "%s", d.peer);
	snprintf(cl->who, sizeof(cl->who), "%s", d.who);
	return rc;
}

/* The server counted the warm-up too, and what completed after STOP.
 * Every TCP request it answered in the warm-up was one of the client's
 * warm-up transactions; for UDP_RR take out the requests sent in it (a
 * few of those may have been lost). */
static void discount_warmup(struct xp_client_result *r)
{
	struct xp_counters *s = &r->remote.c;
	const struct xp_counters *w = &r->warm;
	uint64_t served = xp_test(r->test)->udp ? w->datagrams_sent : w->transactions;

	if (!r->warmup_ns)
		return;

#define TAKE(field, n) (field) -= (n) < (field) ? (n) : (field)
	TAKE(s->transactions, served);
	TAKE(s->bytes_received, w->bytes_sent);
	TAKE(s->bytes_sent, w->bytes_received);
	TAKE(s->datagrams_received, w->datagrams_sent);
	TAKE(s->datagrams_sent, w->datagrams_received);
#undef TAKE
}

/* RR: the transactions under way at STOP completed after it and are not
 * counted (the rate's window ends at STOP); at both ends their bytes and
 * datagrams are taken out too, so that each end's figures are those of
 * the counted transactions (bytes_sent = transactions x -m ...). */
static void discount_late(struct xp_client_result *r)
{
	struct xp_counters *s = &r->remote.c, *l = &r->local.c;
	uint64_t n = l->late_transactions;

	if (!n || !xp_test(r->test)->rr)
		return;
#define TAKE(field, k) (field) -= (k) < (field) ? (k) : (field)
	TAKE(s->transactions, n);
	TAKE(s->bytes_received, n * r->req);
	TAKE(s->bytes_sent, n * r->rsp);
	TAKE(l->bytes_sent, n * r->req);
	TAKE(l->bytes_received, n * r->rsp);
	if (xp_test(r->test)->udp) {
		TAKE(s->datagrams_received, n);
		TAKE(s->datagrams_sent, n);
		TAKE(l->datagrams_sent, n);
		TAKE(l->datagrams_received, n);
	}
#undef TAKE
}

/* STOP; no heartbeats after it (the server reads no more). */
static int send_stop(struct client *cl, uint64_t dgrams, struct xp_err *err)
{
	struct xp_msg m;

	cl->live.every_ns = 0;
	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_STOP;
	m.u.stop.datagrams_sent = dgrams;
	return xp_ctl_send(cl->ctl, &m, xp_cl_ms_left(cl, CTL_MS), cl->peer, err);
}

static void collect(struct client *cl, struct xp_client_result *r,
		    const struct xp_cpu_snap *a, const struct xp_cpu_snap *b)
{
	int i;

	xp_group_sum(&cl->g, &r->local);
	xp_group_sum_warm(&cl->g, &r->warm);
	xp_cpu_fill(&r->local, a, b);
	if (!r->local.elapsed_ns)
		r->local.elapsed_ns = r->local.active_ns;
	for (i = 0; i < cl->g.n; i++) {
		const struct xp_worker *w = &cl->g.w[i];

		xp_hist_merge(r->hist, w->hist);
		if (w->raw_hist && (r->raw_hist || (r->raw_hist = xp_hist_new())))
			xp_hist_merge(r->raw_hist, w->raw_hist);
		for (int k = 0; k < 2; k++)
			if (w->self_way[k] && (r->self_way[k] || (r->self_way[k] = xp_hist_new())))
				xp_hist_merge(r->self_way[k], w->self_way[k]);
		r->direct |= w->direct;
		xp_shape_collect(r, w);
	}
	xp_cl_owd_collect(cl, r);
	if (r->local.warning[0])
		snprintf(r->warning, sizeof(r->warning), "%s", r->local.warning);
	r->threads = cl->g.n;
}

/* -i: one of the server's intervals, beside the client's of that index
 * (a server that took more or fewer than the client is told by the
 * intervals without one). */
static void server_interval(struct xp_client_result *r, const struct xp_msg_interval *m)
{
	struct xp_interval *iv;

	if (m->index >= r->nintervals)
		return;
	iv = &r->intervals[m->index];
	iv->server.have = 1;
	iv->server.start = (double)m->start_us / 1e6;
	iv->server.end = (double)m->end_us / 1e6;
	iv->server.bytes_sent = m->bytes_sent;
	iv->server.bytes_received = m->bytes_received;
	iv->server.transactions = m->transactions;
	iv->server.datagrams_sent = m->datagrams_sent;
	iv->server.datagrams_received = m->datagrams_received;
	iv->server.lost = m->lost;
	if (r->owd && m->fwd_count && !iv->fwd.count) { /* UDP_STREAM's receivers */
		iv->fwd.count = m->fwd_count;
		iv->fwd.p50_us = ((double)m->fwd_p50_ns - (double)r->owd->est.unc_ns) / 1e3;
		iv->fwd.p99_us = ((double)m->fwd_p99_ns - (double)r->owd->est.unc_ns) / 1e3;
	}
}

/* The server's per-flow results (FLOW), then its RESULT; a DONE sent as
 * the client's timer ended the test is passed over. */
static int recv_result(struct client *cl, struct xp_client_result *r, struct xp_msg *m,
		       struct xp_err *err)
{
	for (;;) {
		/* the server beats while it drains: silence means it is gone */
		if (xp_live_wait(&cl->live, m, cl->deadline, err))
			return -1;
		if (m->type == XP_MSG_FLOW)
			xp_shape_remote_flow(r, &m->u.flow, cl->run.flows);
		else if (m->type == XP_MSG_INTERVAL)
			server_interval(r, &m->u.interval);
		else if (m->type == XP_MSG_HIST && xp_cl_owd_hist(cl, r, &m->u.hist, err))
			return -1;
		else if (m->type != XP_MSG_HIST && (m->type != XP_MSG_DONE || !cl->server_senders))
			break;
	}
	if (m->type == XP_MSG_ERROR)
		return xp_err_set(err, "%s: %s", cl->who, m->u.error.text);
	if (m->type != XP_MSG_RESULT)
		return xp_err_set(err, "%s: expected RESULT, got %s", cl->who,
				  xp_msg_type_name(m->type));
	return 0;
}

/* -i: the interval state, with the one-way delays under --one-way. */
static int new_intervals(struct client *cl, const struct xp_client_result *r)
{
	if (!(cl->iv = xp_iv_new(cl->g.n, cl->run.flows)))
		return -1;
	if (r->owd && (cl->run.stamps & XP_STAMP_ONE_WAY))
		return xp_iv_one_way(cl->iv, r->owd->est.unc_ns);
	return 0;
}

/* The clock offset (--one-way), then READY .. GO.  The offset first: a
 * hook may hold this test until a path is loaded (RRUL's loaded probes),
 * and an offset read through one bloated way is off by half its queue. */
static int ready_go(struct client *cl, struct xp_client_result *r, struct xp_err *err)
{
	struct xp_msg m;

	if (xp_cl_owd_clock(cl, r, err))
		return -1;
	if (cl->hooks && cl->hooks->on_ready)
		cl->hooks->on_ready(cl->hooks->ctx);
	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_READY;
	if (xp_ctl_send(cl->ctl, &m, xp_cl_ms_left(cl, CTL_MS), cl->peer, err) ||
	    xp_ctl_expect(cl->ctl, &m, XP_MSG_GO, xp_cl_ms_left(cl, CTL_MS), cl->who, err))
		return -1;
	return 0;
}

/* GO .. duration .. STOP .. RESULT. */
static int run_test(struct client *cl, struct xp_client_result *r, struct xp_err *err)
{
	struct xp_cpu_snap a, b;
	struct xp_msg m;
	int rc, early;

	if (ready_go(cl, r, err))
		return -1;
	/* heartbeats with a server that announced its own */
	xp_live_init(&cl->live, cl->ctl, cl->who, cl->server_hb_ms ? XP_HEARTBEAT_MS : 0,
		     cl->server_hb_ms);
	cl->live.info_fd = cl->ctl_sock;
	if (cl->o->interval && new_intervals(cl, r))
		return xp_err_set(err, "out of memory for interval reports");
	xp_cpu_snap(&a);
	r->start_time = (int64_t)time(NULL);
	r->go_wall_ns = xp_wall_ns();
	cl->t_go = xp_now_ns();
	xp_group_cmd(&cl->g, XP_CMD_GO);
	rc = xp_cl_warm_up(cl, r, err);
	if (rc < 0)
		return -1;
	if (rc == 0)
		xp_cpu_snap(&a); /* the CPU use of the measured part only */
	if (cl->hooks && cl->hooks->on_start)
		cl->hooks->on_start(cl->hooks->ctx, r);
	rc = rc ? rc : xp_cl_wait_duration(cl, r, err);
	if (rc < 0)
		return -1;
	r->interrupted = rc == 1;
	/* the server's last datagrams take up to a round trip after our STOP */
	cl->run.drain_grace_ns = xp_sock_rtt_bound_ns(cl->ctl_sock);
	xp_group_cmd(&cl->g, XP_CMD_STOP);
	/* STOP at once when the server sends, and in TCP tests, so both ends
	 * drain at the same time; else (UDP) with the datagrams sent, known
	 * once the workers are done */
	early = server_sends(cl) || !cl->ops->udp;
	if (early && send_stop(cl, 0, err))
		return -1;
	xp_cl_join_workers(cl, !early);
	xp_cpu_snap(&b);
	collect(cl, r, &a, &b);
	if (!early && send_stop(cl, r->local.c.datagrams_sent, err))
		return -1;
	if (recv_result(cl, r, &m, err) || xp_cl_owd_finish(cl, r, err))
		return -1;
	r->remote = m.u.result;
	xp_shape_sort(r);
	discount_warmup(r);
	discount_late(r);
	xp_shape_fix_warmup(r);
	xp_shape_fix_omit(r);
	if (!r->warning[0] && cl->note[0])
		snprintf(r->warning, sizeof(r->warning), "%s", cl->note);
	if (!r->warning[0] && r->remote.warning[0])
		snprintf(r->warning, sizeof(r->warning), "server: %s", r->remote.warning);
	return 0;
}

static int setup(struct client *cl, struct xp_err *err)
{
	struct xp_msg m;

	if (send_setup(cl, err) ||
	    xp_client_expect(cl->ctl, &m, XP_MSG_SETUP_OK, xp_cl_ms_left(cl, CTL_MS), cl->who, err))
		return -1;
	cl->run.cookie = m.u.setup_ok.cookie;
	cl->server_hb_ms = m.u.setup_ok.heartbeat_ms;
	cl->padded_hello = m.u.setup_ok.padded_hello == 1;
	cl->server_clock = m.u.setup_ok.clock == 1;
	if (m.u.setup_ok.data_port > 65535)
		return xp_err_set(err, "%s: data port %llu out of range", cl->who,
				  (unsigned long long)m.u.setup_ok.data_port);
	if (m.u.setup_ok.data_port) /* the test's own listener: server/session.c */
		xp_addr_set_port(&cl->run.peer, (uint16_t)m.u.setup_ok.data_port);
	if (cl->run.quota_flows &&
	    (cl->run.done_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0)
		return xp_err_sys(err, errno, "eventfd for -n/-k");
	if (make_workers(cl, err) || xp_cl_open_flows(cl, err) || xp_group_start(&cl->g, err))
		return -1;
	return 0;
}

static void cleanup(struct client *cl)
{
	xp_group_destroy(&cl->g);
	xp_iv_free(cl->iv);
	if (cl->ctl_sock >= 0 && cl->ctl_sock != cl->ctl)
		close(cl->ctl_sock);
	if (cl->ctl >= 0)
		close(cl->ctl);
	if (cl->run.done_fd >= 0)
		close(cl->run.done_fd);
	free(cl->fill);
}

int xp_client_run(const struct xp_opts *o, const char *host, uint16_t port,
		  int sigfd, struct xp_client_result *r, struct xp_err *err)
{
	return xp_client_run_ex(o, host, port, sigfd, NULL, r, err);
}

/* How long the whole test may take: its length (or -n/-k's bound), the
 * warm-up (RR) or --omit, and --control-timeout. */
static uint64_t allowed_ns(const struct client *cl)
{
	const struct xp_opts *o = cl->o;

	return xp_opts_duration_ns(o) + (cl->ops->rr ? o->warmup : 0) + o->omit +
	       o->control_timeout;
}

/* How long connecting may take: --control-timeout, and 5 ms more per
 * flow (a kernel whose ephemeral ports are mostly in TIME_WAIT toward the
 * server, after an earlier test of thousands of flows, takes a few ms to
 * find a port for each connect).  The server waits as long for the flows
 * (server/session.c). */
static uint64_t setup_ns(const struct client *cl)
{
	return cl->o->control_timeout + xp_opts_flows_total(cl->o) * XP_SETUP_NS_PER_FLOW;
}

/* Whatever failed, past the deadline the deadline is the reason. */
static void past_deadline(const struct client *cl, int set_up, struct xp_err *err)
{
	char why[XP_ERR_MAX];

	snprintf(why, sizeof(why), "%s", err->msg);
	if (!set_up)
		xp_err_set(err, "%s: the test and its %u flow%s not set up %.3g s after it began "
			   "(--control-timeout %.3g s + 5 ms a flow; a round trip longer than "
			   "that cannot make it): giving up (%s)", cl->who,
			   (unsigned)xp_opts_flows_total(cl->o), xp_opts_flows_total(cl->o) == 1 ?
			   " was" : "s were", (double)setup_ns(cl) / XP_NS_PER_SEC,
			   (double)cl->o->control_timeout / XP_NS_PER_SEC, why);
	else
		xp_err_set(err, "%s: the test was not over %.1f s after its flows were connected "
			   "(-l + --warmup + --omit + --control-timeout): giving up (%s)", cl->who,
			   (double)allowed_ns(cl) / XP_NS_PER_SEC, why);
}

static void arm_deadline(struct client *cl, uint64_t ns)
{
	cl->deadline = xp_now_ns() + ns;
	/* "ends within": give up a little early, leaving time to close down */
	if (cl->o->control_timeout > 2 * TEARDOWN_NS)
		cl->deadline -= TEARDOWN_NS;
}

static int run(struct client *cl, const char *host, uint16_t port,
	       struct xp_client_result *r, struct xp_err *err)
{
	int rc, set_up = 0;

	arm_deadline(cl, setup_ns(cl));
	rc = connect_control(cl, host, port, err);
	if (!rc) {
		snprintf(r->server, sizeof(r->server), "%s", cl->peer);
		r->port = port;
		fill_run(cl);
		rc = setup(cl, err);
	}
	if (!rc) {
		set_up = 1;
		arm_deadline(cl, allowed_ns(cl));
		rc = run_test(cl, r, err);
	}
	if (rc && xp_now_ns() >= cl->deadline)
		past_deadline(cl, set_up, err);
	if (!rc)
		xp_verify_result(cl->o, r);
	return rc;
}

int xp_client_run_ex(const struct xp_opts *o, const char *host, uint16_t port,
		     int sigfd, const struct xp_client_hooks *hooks,
		     struct xp_client_result *r, struct xp_err *err)
{
	struct xp_auth_key key;
	struct client cl;
	int rc;

	memset(&cl, 0, sizeof(cl));
	memset(r, 0, sizeof(*r));
	cl.o = o;
	cl.hooks = hooks;
	cl.ctl = cl.ctl_sock = -1;
	if (hooks && hooks->chan) { /* the test's from here, whatever happens */
		cl.ctl = hooks->chan->fd;
		cl.ctl_sock = hooks->chan->sock;
	}
	cl.sigfd = sigfd;
	cl.ops = xp_test(o->test);
	r->test = o->test;
	r->req = xp_opts_req_size(o);
	r->rsp = xp_opts_rsp_size(o);
	r->bidir = o->bidir;
	r->quota = xp_opts_quota(o);
	r->flows_opened = (uint32_t)xp_opts_flows_total(o);
	cl.run.done_fd = -1;
	r->hist = xp_hist_new();
	if (!r->hist)
		return xp_err_set(err, "out of memory");
	/* the file is read before anything connects, once per run */
	if (xp_client_path_check(o, err) ||
	    (o->fill && xp_fill_load(o->fill, &cl.fill, &cl.fill_len, err)))
		return -1;
	if (o->auth_file && xp_auth_key_load(o->auth_file, &key, err)) {
		free(cl.fill);
		return -1;
	}
	cl.key = o->auth_file ? &key : NULL;
	rc = run(&cl, host, port, r, err);
	cleanup(&cl);
	if (cl.key)
		xp_auth_key_wipe(&key);
	return rc;
}

void xp_client_result_free(struct xp_client_result *r)
{
	uint32_t i;

	for (i = 0; i < r->nintervals; i++)
		xp_interval_free(&r->intervals[i]);
	free(r->intervals);
	r->intervals = NULL;
	r->nintervals = 0;
	free(r->flows);
	free(r->remote_flows);
	r->flows = r->remote_flows = NULL;
	xp_hist_free(r->hist);
	xp_hist_free(r->raw_hist);
	r->hist = r->raw_hist = NULL;
	for (i = 0; i < 2; i++) {
		xp_hist_free(r->self_way[i]);
		r->self_way[i] = NULL;
	}
	xp_owd_result_free(r);
}
