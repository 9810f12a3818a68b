/* SPDX-License-Identifier: BSD-2-Clause */
#include "client/client.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/cpu.h"
#include "common/ctl.h"
#include "common/units.h"
#include "common/sockpath.h"
#include "common/engine/pace.h"
#include "client/client_path.h"
#include "client/shape.h"

#define CTL_MS 15000
#define UDP_HELLO_MS 100

struct client {
	const struct xp_opts *o;
	const struct xp_client_hooks *hooks;
	struct xp_iv_state *iv;
	uint64_t t_go;
	struct xp_addr addr;
	char peer[96];
	char who[112];   /* "server 10.0.0.2:5310", for errors */
	int ctl;
	int sigfd;
	struct xp_run run;
	struct xp_group g;
	const struct xp_test *ops;  /* facts about the test */
	uint32_t server_senders;    /* -n/-k: server flows with a share */
	int server_done;            /* ... and the server said DONE */
};

/* The server sends on some flow (its data, or --bidir's reverse half):
 * it is told to STOP before the client's receivers wait for the end. */
static int server_sends(const struct client *cl)
{
	return cl->ops->server_sends || cl->run.bidir;
}

static int family(const struct xp_opts *o)
{
	return o->ipv4 ? AF_INET : o->ipv6 ? AF_INET6 : AF_UNSPEC;
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
			  (o->zerocopy ? XP_SETUP_F_ZEROCOPY : 0);
	m.u.setup.busy_poll_us = o->busy_poll;
	m.u.setup.rate_bps = o->rate;
	m.u.setup.burst = o->burst;
	m.u.setup.pace_burst = o->pace_burst;
	m.u.setup.rcvlowat = o->rcvlowat;
	xp_client_path_setup(o, &m.u.setup);
	m.u.setup.bidir = cl->run.bidir;
	m.u.setup.quota = cl->run.quota;
	m.u.setup.omit_ms = o->omit / XP_NS_PER_MS + (o->omit % XP_NS_PER_MS != 0);
	return xp_ctl_send_min(cl->ctl, &m, XP_CTL_NETPERF_LEN, CTL_MS, cl->peer, err);
}

static int make_workers(struct client *cl, struct xp_err *err)
{
	return xp_group_create(&cl->g, &cl->run, (int)cl->o->threads, cl->o->cpus, "--cpus",
			       err);
}

static int tcp_flow(struct client *cl, uint32_t idx, struct xp_err *err)
{
	uint8_t hello[XP_DATA_HELLO_LEN];
	uint16_t lport = cl->o->cport ? (uint16_t)(cl->o->cport + idx) : 0;
	int ms = xp_client_connect_ms(cl->o);
	int fd = xp_connect_tcp_port(&cl->addr, &cl->run.so, lport, ms, err);

	if (fd < 0)
		return -1;
	xp_data_hello_encode(hello, cl->run.cookie, idx);
	if (xp_send_all(fd, hello, sizeof(hello), ms, cl->peer, err)) {
		close(fd);
		return -1;
	}
	xp_set_nonblock(fd, 1);
	return fd;
}

/* The hello is repeated until the server's flow socket echoes it. */
static int udp_handshake(struct client *cl, int fd, const uint8_t *hello,
			 struct xp_err *err)
{
	uint8_t b[64];
	int i, tries = (xp_client_connect_ms(cl->o) + UDP_HELLO_MS - 1) / UDP_HELLO_MS;

	for (i = 0; i < tries; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (send(fd, hello, XP_DATA_HELLO_LEN, 0) < 0 && errno != ECONNREFUSED)
			return xp_err_sys(err, errno, "udp hello to %s", cl->peer);
		while (poll(&p, 1, UDP_HELLO_MS) > 0) {
			ssize_t n = recv(fd, b, sizeof(b), MSG_DONTWAIT);

			if (n == XP_DATA_HELLO_LEN && !memcmp(b, hello, XP_DATA_HELLO_LEN))
				return 0;
			if (n < 0 && errno != ECONNREFUSED && errno != EAGAIN)
				return xp_err_sys(err, errno, "udp hello to %s", cl->peer);
			if (n < 0)
				break;
		}
	}
	return xp_err_set(err, "udp hello to %s: no answer after %.1f s (is UDP port %u "
			  "open?)", cl->peer, tries * UDP_HELLO_MS / 1000.0,
			  xp_addr_port(&cl->addr));
}

static int udp_flow(struct client *cl, uint32_t idx, struct xp_err *err)
{
	uint8_t hello[XP_DATA_HELLO_LEN];
	uint16_t lport = cl->o->cport ? (uint16_t)(cl->o->cport + idx) : 0;
	struct xp_addr dst = cl->addr;
	int fd = xp_sock_client(dst.ss.ss_family, SOCK_DGRAM, &cl->run.so, lport, err);

	if (fd < 0)
		return -1;
	if ((cl->run.so.flowlabel && xp_sock_flowlabel(fd, &dst, cl->run.so.flowlabel, err)) ||
	    connect(fd, (const struct sockaddr *)&dst.ss, dst.len)) {
		if (!err->msg[0])
			xp_err_sys(err, errno, "connect udp %s", cl->peer);
		close(fd);
		return -1;
	}
	xp_data_hello_encode(hello, cl->run.cookie, idx);
	if (udp_handshake(cl, fd, hello, err)) {
		close(fd);
		return -1;
	}
	xp_set_nonblock(fd, 1);
	return fd;
}

static int open_flows(struct client *cl, struct xp_err *err)
{
	uint32_t i;

	for (i = 0; i < cl->run.flows; i++) {
		int fd = -1;

		err->msg[0] = 0;
		if (cl->ops->persistent) {
			fd = cl->ops->sock_type == SOCK_DGRAM ? udp_flow(cl, i, err)
							      : tcp_flow(cl, i, err);
			if (fd < 0)
				return -1;
		}
		if (xp_worker_add_flow(&cl->g.w[i % (uint32_t)cl->g.n], fd, i, err)) {
			if (fd >= 0)
				close(fd);
			return -1;
		}
	}
	return 0;
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
	r->burst = (uint32_t)o->burst;
	r->rate_bps = o->rate;
	r->pace_burst = (uint32_t)o->pace_burst;
	r->rcvlowat = o->rcvlowat;
	r->sched_ns = o->tps ? XP_NS_PER_SEC * o->flows / o->tps : 0;
	r->fastopen = o->fastopen;
	r->sendfile = o->sendfile; /* whichever flows this end sends on */
	r->note_mptcp = o->mptcp;
	r->connect_timeout_ns = o->connect_timeout;
}

/* The control connection leaves from -B's address and port and through
 * --bind-dev's device, as the data flows do. */
static int connect_control(struct client *cl, const char *host, uint16_t port,
			   struct xp_err *err)
{
	struct xp_sockopts ctl;
	uint16_t lport;

	if (xp_resolve(host, port, family(cl->o), &cl->addr, err))
		return -1;
	xp_addr_str(&cl->addr, cl->peer, sizeof(cl->peer));
	snprintf(cl->who, sizeof(cl->who), "server %s", cl->peer);
	memset(&ctl, 0, sizeof(ctl));
	if (xp_client_local(cl->o, cl->addr.ss.ss_family, &ctl.local, &lport, err))
		return -1;
	ctl.bind_dev = cl->o->bind_dev;
	cl->run.so.local = ctl.local;
	cl->ctl = xp_connect_tcp_port(&cl->addr, &ctl, lport, xp_client_connect_ms(cl->o), err);
	return cl->ctl < 0 ? -1 : 0;
}

/* -n/-k: every sender of both ends has sent its share (or ended). */
static int senders_done(const struct client *cl)
{
	if (!cl->run.quota)
		return 0;
	return atomic_load(&cl->run.quota_done) >= cl->run.quota_flows &&
	       (!cl->server_senders || cl->server_done);
}

/* The server spoke: DONE (-n/-k) is taken note of; anything else can only
 * be an error or a close.  0 or -1. */
static int server_spoke(struct client *cl, struct xp_err *err)
{
	struct xp_msg m;

	if (xp_ctl_recv(cl->ctl, &m, 1000, cl->peer, err))
		return -1;
	if (m.type == XP_MSG_DONE && cl->server_senders) {
		cl->server_done = 1;
		return 0;
	}
	return xp_err_set(err, "server %s ended the test: %s", cl->peer,
			  m.type == XP_MSG_ERROR ? m.u.error.text : xp_msg_type_name(m.type));
}

/* Sleep until `until`, waking early if the server speaks, a signal
 * arrives or the -n/-k senders are done.  0: reached; 1: interrupted by a
 * signal; 2: senders done; -1: server error. */
static int wait_until(struct client *cl, uint64_t until, struct xp_err *err)
{
	struct pollfd p[3] = { { .fd = cl->ctl, .events = POLLIN },
			       { .fd = cl->sigfd, .events = POLLIN },
			       { .fd = cl->run.done_fd, .events = POLLIN } };
	uint64_t now, v;

	while ((now = xp_now_ns()) < until) {
		int ms = (int)((until - now + XP_NS_PER_MS - 1) / XP_NS_PER_MS);
		int n;

		if (senders_done(cl))
			return 2;
		n = poll(p, 3, ms > 1000 ? 1000 : ms);
		if (n > 0 && (p[1].revents & POLLIN))
			return 1;
		if (n > 0 && (p[2].revents & POLLIN) && read(p[2].fd, &v, sizeof(v)) < 0)
			p[2].fd = -1; /* cannot happen: the counter is there to read */
		if (n > 0 && p[0].revents && server_spoke(cl, err))
			return -1;
	}
	return 0;
}

static void take_interval(struct client *cl, struct xp_client_result *r)
{
	struct xp_interval iv, *n;

	if (xp_iv_take(cl->iv, cl->g.w, cl->g.n, cl->t_go, &iv))
		return;
	iv.bidir = r->bidir;
	n = realloc(r->intervals, (r->nintervals + 1) * sizeof(*n));
	if (!n) {
		xp_interval_free(&iv);
		return;
	}
	r->intervals = n;
	r->intervals[r->nintervals++] = iv;
	if (cl->hooks && cl->hooks->on_interval)
		cl->hooks->on_interval(cl->hooks->ctx, r, &iv);
}

/* The test duration, with an interval report at each boundary and for a
 * last part longer than a tenth of an interval. */
static int wait_duration(struct client *cl, struct xp_client_result *r,
			 struct xp_err *err)
{
	uint64_t iv = cl->o->interval, until = cl->t_go + xp_opts_duration_ns(cl->o);
	uint64_t next = iv ? cl->t_go + iv : until, last = cl->t_go;
	int rc;

	for (;;) {
		rc = wait_until(cl, next < until ? next : until, err);
		if (rc || next >= until || !iv)
			break;
		take_interval(cl, r);
		last = next;
		next += iv;
	}
	if (rc >= 0 && iv && xp_now_ns() - last > iv / 10)
		take_interval(cl, r);
	return rc == 2 ? 0 : rc;
}

/* --warmup (RR tests): transactions run for that long before the measured
 * part and are counted apart, on both ends: the client's workers move
 * theirs to w->warm when told, and the server's totals are corrected
 * after the test (discount_warmup; exact: every request the client
 * completed in it, the server served).  --omit (stream tests): the same
 * on the client, and MEASURE has the server's workers start again too
 * (client/shape.h).  0 as wait_until, with cl->t_go moved to where the
 * measurement starts. */
static int warm_up(struct client *cl, struct xp_client_result *r, struct xp_err *err)
{
	uint64_t secs = cl->ops->rr ? xp_opts_warmup_ns(cl->o) : cl->o->omit;
	int rc;

	if (!secs)
		return 0;
	rc = wait_until(cl, cl->t_go + secs, err);
	if (rc)
		return rc;
	if (xp_shape_measure(&cl->g, cl->ops->rr ? -1 : cl->ctl, cl->peer, err))
		return -1;
	if (cl->ops->rr)
		r->warmup_ns = secs;
	else
		r->omit_ns = secs;
	cl->t_go = xp_now_ns();
	r->start_time = (int64_t)time(NULL);
	return 0;
}

/* The server counted the warm-up too.  Every TCP request it answered in it
 * was one of the client's warm-up transactions; for UDP_RR take out the
 * requests sent in it (a few of those may have been lost). */
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

static int send_stop(struct client *cl, uint64_t dgrams, struct xp_err *err)
{
	struct xp_msg m;

	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_STOP;
	m.u.stop.datagrams_sent = dgrams;
	return xp_ctl_send(cl->ctl, &m, CTL_MS, cl->peer, err);
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
		r->direct |= w->direct;
		xp_shape_collect(r, w);
	}
	if (r->local.warning[0])
		snprintf(r->warning, sizeof(r->warning), "%s", r->local.warning);
	r->threads = cl->g.n;
}

/* The server's per-flow results (FLOW), then its RESULT; a DONE sent as
 * the client's timer ended the test is passed over. */
static int recv_result(struct client *cl, struct xp_client_result *r, struct xp_msg *m,
		       struct xp_err *err)
{
	for (;;) {
		if (xp_ctl_recv(cl->ctl, m, CTL_MS + 10000, cl->peer, err))
			return -1;
		if (m->type == XP_MSG_FLOW)
			xp_shape_remote_flow(r, &m->u.flow, cl->run.flows);
		else if (m->type != XP_MSG_DONE || !cl->server_senders)
			break;
	}
	if (m->type == XP_MSG_ERROR)
		return xp_err_set(err, "%s: %s", cl->who, m->u.error.text);
	if (m->type != XP_MSG_RESULT)
		return xp_err_set(err, "%s: expected RESULT, got %s", cl->who,
				  xp_msg_type_name(m->type));
	return 0;
}

/* GO .. duration .. STOP .. RESULT. */
static int run_test(struct client *cl, struct xp_client_result *r, struct xp_err *err)
{
	struct xp_cpu_snap a, b;
	struct xp_msg m;
	int rc;

	if (cl->hooks && cl->hooks->on_ready)
		cl->hooks->on_ready(cl->hooks->ctx);
	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_READY;
	if (xp_ctl_send(cl->ctl, &m, CTL_MS, cl->peer, err) ||
	    xp_ctl_expect(cl->ctl, &m, XP_MSG_GO, CTL_MS, cl->who, err))
		return -1;
	if (cl->o->interval && !(cl->iv = xp_iv_new(cl->g.n, cl->run.flows)))
		return xp_err_set(err, "out of memory for interval reports");
	xp_cpu_snap(&a);
	r->start_time = (int64_t)time(NULL);
	r->go_wall_ns = xp_wall_ns();
	cl->t_go = xp_now_ns();
	xp_group_cmd(&cl->g, XP_CMD_GO);
	rc = warm_up(cl, r, err);
	if (rc < 0)
		return -1;
	if (rc == 0)
		xp_cpu_snap(&a); /* the CPU use of the measured part only */
	if (cl->hooks && cl->hooks->on_start)
		cl->hooks->on_start(cl->hooks->ctx, r);
	rc = rc ? rc : wait_duration(cl, r, err);
	if (rc < 0)
		return -1;
	r->interrupted = rc == 1;
	xp_group_cmd(&cl->g, XP_CMD_STOP);
	if (server_sends(cl) && send_stop(cl, 0, err))
		return -1;
	xp_group_join(&cl->g);
	xp_cpu_snap(&b);
	collect(cl, r, &a, &b);
	if (!server_sends(cl) && send_stop(cl, r->local.c.datagrams_sent, err))
		return -1;
	if (recv_result(cl, r, &m, err))
		return -1;
	r->remote = m.u.result;
	xp_shape_sort(r);
	discount_warmup(r);
	xp_shape_fix_warmup(r);
	xp_shape_fix_omit(r);
	if (!r->warning[0] && r->remote.warning[0])
		snprintf(r->warning, sizeof(r->warning), "server: %s", r->remote.warning);
	return 0;
}

static int setup(struct client *cl, struct xp_err *err)
{
	struct xp_msg m;

	if (send_setup(cl, err) ||
	    xp_ctl_expect(cl->ctl, &m, XP_MSG_SETUP_OK, CTL_MS, cl->who, err))
		return -1;
	cl->run.cookie = m.u.setup_ok.cookie;
	if (cl->run.quota_flows &&
	    (cl->run.done_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0)
		return xp_err_sys(err, errno, "eventfd for -n/-k");
	if (make_workers(cl, err) || open_flows(cl, err) || xp_group_start(&cl->g, err))
		return -1;
	return 0;
}

static void cleanup(struct client *cl)
{
	xp_group_destroy(&cl->g);
	xp_iv_free(cl->iv);
	if (cl->ctl >= 0)
		close(cl->ctl);
	if (cl->run.done_fd >= 0)
		close(cl->run.done_fd);
}

int xp_client_run(const struct xp_opts *o, const char *host, uint16_t port,
		  int sigfd, struct xp_client_result *r, struct xp_err *err)
{
	return xp_client_run_ex(o, host, port, sigfd, NULL, r, err);
}

int xp_client_run_ex(const struct xp_opts *o, const char *host, uint16_t port,
		     int sigfd, const struct xp_client_hooks *hooks,
		     struct xp_client_result *r, struct xp_err *err)
{
	struct client cl;
	int rc;

	memset(&cl, 0, sizeof(cl));
	memset(r, 0, sizeof(*r));
	cl.o = o;
	cl.hooks = hooks;
	cl.ctl = -1;
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
	if (xp_client_path_check(o, err) || connect_control(&cl, host, port, err))
		return -1;
	snprintf(r->server, sizeof(r->server), "%s", cl.peer);
	r->port = port;
	fill_run(&cl);
	rc = setup(&cl, err);
	if (!rc)
		rc = run_test(&cl, r, err);
	cleanup(&cl);
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
}
