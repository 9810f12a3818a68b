/* SPDX-License-Identifier: BSD-2-Clause */
/* A test against a stock iperf3 server (client/iperf3/client.h): the
 * conversation on the control connection.  Opening the streams and
 * turning the results into xperf's are in client/iperf3/client_streams.c.
 *
 * The end is arranged so that both ends count the same bytes: a stock
 * server stops counting at TEST_END and closes its streams, so the
 * client's senders first stop and wait until the server has acknowledged
 * every byte (and a moment more for it to read them) before TEST_END;
 * its receivers go on reading after TEST_END until the server's close
 * (TCP) or a quiet socket (UDP), so they count all the server sent. */
#include "client/iperf3/client_int.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "client/client_path.h"
#include "common/clock.h"
#include "common/iperf3/ctl.h"

#define CONNECT_MS 5000
#define CTL_MS 15000
#define RESULTS_MS 15000
#define PROGRESS_MS 5 /* -n/-k with -R: how often the received count is read */
#define READ_GRACE_MS 20 /* after the last byte was acknowledged: the
			   * server reads it before TEST_END arrives */

int xp_i3c_expect(struct xp_i3c *cl, int want, int timeout_ms, struct xp_err *err)
{
	char a[24], b[24];
	int st;

	if (xp_i3_recv_state(cl->ctl, timeout_ms, &st, cl->peer, err))
		return -1;
	if (st == want)
		return 0;
	if (st == XP_I3_ACCESS_DENIED)
		return xp_err_set(err, "%s is busy running a test (ACCESS_DENIED)", cl->peer);
	if (st == XP_I3_SERVER_ERROR)
		return xp_i3_recv_error(cl->ctl, cl->peer, err);
	if (st == XP_I3_SERVER_TERMINATE)
		return xp_err_set(err, "%s was stopped (SERVER_TERMINATE)", cl->peer);
	return xp_err_set(err, "%s: expected iperf3's %s, got %s", cl->peer,
			  xp_i3_state_name(want, a, sizeof(a)), xp_i3_state_name(st, b, sizeof(b)));
}

static int hello(struct xp_i3c *cl, const char *host, uint16_t port, struct xp_err *err)
{
	const struct xp_opts *o = cl->o;
	uint8_t rnd[XP_I3_COOKIE_CHARS];
	struct xp_sockopts so = { .nodelay = 1 };
	socklen_t len = sizeof(cl->out->ctl_mss);

	if (xp_resolve(host, port, o->ipv4 ? AF_INET : o->ipv6 ? AF_INET6 : AF_UNSPEC,
		       &cl->addr, err) ||
	    xp_client_local(o, cl->addr.ss.ss_family, &cl->local, &cl->ctl_port, err))
		return -1;
	xp_addr_str(&cl->addr, cl->addr_str, sizeof(cl->addr_str));
	snprintf(cl->peer, sizeof(cl->peer), "iperf3 server %s", cl->addr_str);
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return xp_err_sys(err, errno, "getrandom for the iperf3 cookie");
	xp_i3_cookie_make(cl->out->cookie, rnd);
	so.local = cl->local;
	so.bind_dev = o->bind_dev;
	cl->ctl = xp_connect_tcp_port(&cl->addr, &so, cl->ctl_port, o->connect_timeout ?
				      xp_client_connect_ms(o) : CONNECT_MS, err);
	if (cl->ctl < 0)
		return -1;
	getsockopt(cl->ctl, IPPROTO_TCP, TCP_MAXSEG, &cl->out->ctl_mss, &len);
	if (xp_send_all(cl->ctl, cl->out->cookie, XP_I3_COOKIE_LEN, CTL_MS, cl->peer, err) ||
	    xp_i3c_expect(cl, XP_I3_PARAM_EXCHANGE, CTL_MS, err))
		return -1;
	return 0;
}

static int send_params(struct xp_i3c *cl, struct xp_err *err)
{
	struct xp_json j;
	int rc;

	xp_i3c_params(cl, &cl->p);
	xp_json_init(&j, 0);
	xp_i3_params_write(&j, &cl->p);
	rc = xp_i3_send_json(cl->ctl, &j, cl->peer, err);
	xp_json_free(&j);
	return rc;
}

/* -n/-k with -R: 1 once the receivers hold what the client waits for. */
static int received_all(struct xp_i3c *cl)
{
	struct xp_interval iv;
	uint64_t got;

	if (!cl->prog || xp_iv_take(cl->prog, cl->side.g[XP_I3_RX].w, cl->side.g[XP_I3_RX].n,
				     cl->t_go, &iv))
		return 0;
	cl->prog_got += cl->side.udp ? iv.datagrams_received : iv.bytes_received;
	got = cl->prog_got;
	xp_interval_free(&iv);
	return got >= cl->rx_quota;
}

/* Sleep until `until`, ending early for a signal (1), the end of -n/-k
 * (2) or a word from the server (-1: only an error or a stop can come
 * now). */
static int wait_until(struct xp_i3c *cl, uint64_t until, struct xp_err *err)
{
	struct pollfd p[3] = { { .fd = cl->ctl, .events = POLLIN },
			       { .fd = cl->sigfd, .events = POLLIN },
			       { .fd = cl->done_fd, .events = POLLIN } };
	uint64_t now;

	while ((now = xp_now_ns()) < until) {
		int ms = (int)((until - now + XP_NS_PER_MS - 1) / XP_NS_PER_MS);
		int n;

		if (cl->rx_quota && received_all(cl))
			return 2;
		ms = ms > 1000 ? 1000 : ms;
		n = poll(p, 3, cl->rx_quota && ms > PROGRESS_MS ? PROGRESS_MS : ms);
		if (n > 0 && (p[1].revents & POLLIN))
			return 1;
		if (n > 0 && (p[2].revents & POLLIN))
			return 2;
		if (n > 0 && p[0].revents) {
			/* state 0 does not exist: whatever came is named */
			if (xp_i3c_expect(cl, 0, 1000, err) == 0)
				xp_err_set(err, "%s sent state 0 during the test", cl->peer);
			return -1;
		}
	}
	return 0;
}

/* -i: one interval report from each group, added together. */
/* Each flow's bytes in the intervals so far; after -n/-k ended the test
 * (done: the senders' eventfd was read, so their records are written),
 * a flow that finished is in no snapshot: its last bytes come from its
 * record. */
static void flow_bytes(struct xp_i3c *cl, struct xp_interval *iv, int done)
{
	uint32_t pos;

	for (pos = 0; cl->iv_bytes && pos < cl->side.nst && pos < iv->nflows; pos++) {
		const struct xp_i3_stream *st = &cl->side.st[pos];
		struct xp_flow_iv *f = &iv->flows[pos];

		if (done && st->done && !f->bytes && st->bytes > cl->iv_bytes[pos]) {
			f->bytes = st->bytes - cl->iv_bytes[pos];
			if (st->sender)
				iv->bytes_sent += f->bytes;
			else
				iv->bytes_received += f->bytes;
		}
		cl->iv_bytes[pos] += f->bytes;
	}
}

static void take_interval(struct xp_i3c *cl, struct xp_client_result *r, int done)
{
	struct xp_interval iv, part, *n;
	int dir, have = 0;

	for (dir = 0; dir < 2; dir++) {
		if (!cl->iv[dir] || xp_iv_take(cl->iv[dir], cl->side.g[dir].w, cl->side.g[dir].n,
					       cl->t_go, have ? &part : &iv))
			continue;
		if (have++)
			xp_i3c_iv_add(&iv, &part);
	}
	if (!have)
		return;
	flow_bytes(cl, &iv, done);
	n = xp_interval_append(&r->intervals, &r->nintervals, &iv);
	if (n && cl->c->hooks && cl->c->hooks->on_interval)
		cl->c->hooks->on_interval(cl->c->hooks->ctx, r, n);
}

/* --omit, then the measured seconds with interval reports. */
static int wait_test(struct xp_i3c *cl, struct xp_client_result *r, struct xp_err *err)
{
	uint64_t iv = cl->o->interval, until, next, last;
	int rc, dir;

	if (cl->c->omit_s) {
		uint64_t q = cl->rx_quota;

		cl->rx_quota = 0; /* counted after --omit */
		rc = wait_until(cl, cl->t_go + cl->c->omit_s * XP_NS_PER_SEC, err);
		cl->rx_quota = q;
		if (rc)
			return rc;
		xp_i3_side_omit_over(&cl->side);
		cl->t_go = xp_now_ns();
		xp_cpu_snap(&cl->a);
	}
	if (cl->rx_quota && !(cl->prog = xp_iv_new(cl->side.g[XP_I3_RX].n, cl->side.nst)))
		return xp_err_set(err, "out of memory");
	for (dir = 0; iv && dir < 2; dir++)
		if (cl->side.g[dir].n)
			cl->iv[dir] = xp_iv_new(cl->side.g[dir].n, cl->side.nst);
	cl->iv_bytes = iv ? calloc(cl->side.nst ? cl->side.nst : 1, sizeof(*cl->iv_bytes)) : NULL;
	until = cl->t_go + cl->o->length;
	next = iv ? cl->t_go + iv : until;
	last = cl->t_go;
	for (;;) {
		rc = wait_until(cl, next < until ? next : until, err);
		if (rc || next >= until || !iv)
			break;
		take_interval(cl, r, 0);
		last = next;
		next += iv;
	}
	if (rc >= 0 && iv && xp_now_ns() > last)
		take_interval(cl, r, rc == 2); /* the hooks may leave a short one out */
	return rc;
}

/* The copies of the sockets (TCP_INFO for the hooks) close before the
 * streams stop: a stream kept open by one would send no FIN when its
 * worker closes it, and a stock server reading a whole block would wait. */
static void close_copies(struct xp_i3c *cl)
{
	uint32_t i;

	for (i = 0; i < XP_I3_STREAMS_MAX; i++)
		if (cl->out->streams[i].fd >= 0) {
			close(cl->out->streams[i].fd);
			cl->out->streams[i].fd = -1;
		}
}

/* Senders stopped and drained, TEST_END, receivers to the end. */
static int end_test(struct xp_i3c *cl, struct xp_err *err)
{
	close_copies(cl);
	xp_i3_side_stop(&cl->side, XP_I3_TX);
	if (cl->side.nflows[XP_I3_TX])
		usleep(READ_GRACE_MS * 1000);
	xp_cpu_snap(&cl->b);
	if (xp_i3_send_state(cl->ctl, XP_I3_TEST_END, cl->peer, err))
		return -1;
	cl->side.run[XP_I3_RX].t_end_ref = xp_now_ns();
	xp_i3_side_stop(&cl->side, XP_I3_RX);
	return 0;
}

static int exchange(struct xp_i3c *cl, struct xp_err *err)
{
	struct xp_json j;
	char *json;
	uint32_t len;
	int rc;

	if (xp_i3c_expect(cl, XP_I3_EXCHANGE_RESULTS, RESULTS_MS, err))
		return -1;
	xp_i3c_local_results(cl, &cl->out->local);
	xp_json_init(&j, 0);
	xp_i3_results_write(&j, NULL, &cl->out->local);
	rc = xp_i3_send_json(cl->ctl, &j, cl->peer, err);
	xp_json_free(&j);
	if (rc || xp_i3_recv_json(cl->ctl, XP_I3_RESULTS_MAX, RESULTS_MS, &json, &len,
				  cl->peer, err))
		return -1;
	rc = xp_i3_results_parse(json, len, &cl->out->remote, err);
	free(cl->out->remote_json);
	cl->out->remote_json = json;
	if (rc || xp_i3c_expect(cl, XP_I3_DISPLAY_RESULTS, RESULTS_MS, err))
		return -1;
	return xp_i3_send_state(cl->ctl, XP_I3_IPERF_DONE, cl->peer, err);
}

static int run(struct xp_i3c *cl, struct xp_client_result *r, struct xp_err *err)
{
	int rc;

	if (send_params(cl, err) || xp_i3c_expect(cl, XP_I3_CREATE_STREAMS, CTL_MS, err) ||
	    xp_i3c_open_streams(cl, err) || xp_i3_side_start(&cl->side, err) ||
	    xp_i3c_expect(cl, XP_I3_TEST_START, CTL_MS, err) ||
	    xp_i3c_expect(cl, XP_I3_TEST_RUNNING, CTL_MS, err))
		return -1;
	r->start_time = (int64_t)time(NULL);
	if (cl->c->hooks && cl->c->hooks->on_start)
		cl->c->hooks->on_start(cl->c->hooks->ctx, r);
	xp_cpu_snap(&cl->a);
	cl->t_go = xp_now_ns();
	xp_i3_side_go(&cl->side);
	rc = wait_test(cl, r, err);
	if (rc < 0)
		return -1;
	r->interrupted = rc == 1;
	if (end_test(cl, err) || exchange(cl, err))
		return -1;
	xp_i3c_fill(cl, r);
	return 0;
}

static void cleanup(struct xp_i3c *cl)
{
	int dir;

	if (cl->side_made)
		xp_i3_side_destroy(&cl->side);
	for (dir = 0; dir < 2; dir++)
		xp_iv_free(cl->iv[dir]);
	xp_iv_free(cl->prog);
	free(cl->iv_bytes);
	close_copies(cl);
	if (cl->done_fd >= 0)
		close(cl->done_fd);
	if (cl->ctl >= 0)
		close(cl->ctl);
}

/* -n/-k: the senders' eventfd, or what the receivers wait for (-R). */
static int quota_setup(struct xp_i3c *cl, struct xp_err *err)
{
	cl->done_fd = -1;
	if (!cl->c->num && !cl->c->blockcount)
		return 0;
	if (cl->c->reverse) {
		cl->rx_quota = xp_i3c_quota(cl);
		return 0;
	}
	cl->done_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	return cl->done_fd < 0 ? xp_err_sys(err, errno, "eventfd") : 0;
}

int xp_i3_client_run(const struct xp_i3_client_cfg *c, const char *host, uint16_t port,
		     int sigfd, struct xp_client_result *r, struct xp_i3_client_out *out,
		     struct xp_err *err)
{
	struct xp_i3c cl;
	uint32_t i;
	int rc;

	memset(&cl, 0, sizeof(cl));
	memset(r, 0, sizeof(*r));
	cl.c = c;
	cl.o = c->o;
	cl.ctl = -1;
	cl.sigfd = sigfd;
	cl.out = out ? out : malloc(sizeof(*cl.out));
	r->hist = xp_hist_new();
	if (!cl.out || !r->hist) {
		if (!out)
			free(cl.out);
		return xp_err_set(err, "out of memory");
	}
	memset(cl.out, 0, sizeof(*cl.out));
	for (i = 0; i < XP_I3_STREAMS_MAX; i++)
		cl.out->streams[i].fd = -1;
	cl.done_fd = -1;
	xp_i3c_result_start(&cl, r, port);
	rc = quota_setup(&cl, err);
	if (!rc)
		rc = hello(&cl, host, port, err);
	if (!rc && c->hooks && c->hooks->on_ready)
		c->hooks->on_ready(c->hooks->ctx);
	if (!rc) {
		r->req = xp_i3c_len(&cl); /* UDP: may follow the control MSS */
		snprintf(r->server, sizeof(r->server), "%s", cl.addr_str);
		rc = run(&cl, r, err);
	}
	cleanup(&cl);
	if (!out)
		free(cl.out);
	return rc;
}
