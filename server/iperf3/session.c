/* SPDX-License-Identifier: BSD-2-Clause */
/* One iperf3 test on the server, from the client's cookie to IPERF_DONE
 * (server/iperf3/session.h; the conversation is in proto/PROTOCOL.md).
 *
 * The end is where xperf differs from a stock iperf3 server, which closes
 * its streams on TEST_END and counts nothing after: here the senders stop
 * at TEST_END, EXCHANGE_RESULTS goes out, and the receivers go on
 * reading until they hold what the client's results (which come first)
 * say it sent (the bytes of each TCP stream, without --omit; the packet
 * count of each UDP stream), or until quiet.  So the server's received
 * bytes are what the client sent, not what had arrived by TEST_END, and
 * the client's report shows the receiver's truth. */
#include "server/iperf3/session.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/cpu.h"
#include "common/iperf3/ctl.h"
#include "common/log.h"

#define COOKIE_MS 10000
#define STREAMS_MS 10000
#define RESULTS_MS 10000
#define DONE_MS 5000
#define END_GRACE_S 40 /* beyond -t and --omit before the test is abandoned */

struct i3_run {
	struct xp_cpu_snap a, b;
	uint64_t peer_sent;        /* what the client's results say it sent */
	char cpus[16];
};

static void set_phase(struct xp_i3sess *s, int phase)
{
	pthread_mutex_lock(s->mu);
	s->phase = phase;
	pthread_mutex_unlock(s->mu);
}

static int idle_ms(const struct xp_i3sess *s)
{
	uint64_t ms = s->cfg->idle_timeout_ns / XP_NS_PER_MS;

	return ms && ms < 600000 ? (int)ms : 600000;
}

/* Cookie, PARAM_EXCHANGE, the parameters, checked. */
static int params(struct xp_i3sess *s, struct xp_err *err)
{
	uint8_t c[XP_I3_COOKIE_LEN];
	char *json;
	uint32_t len;
	int rc, code, sys;

	if (xp_recv_all(s->ctl, c, sizeof(c), COOKIE_MS, s->peer, err))
		return -1;
	memcpy(s->cookie, c, sizeof(c));
	if (xp_i3_send_state(s->ctl, XP_I3_PARAM_EXCHANGE, s->peer, err) ||
	    xp_i3_recv_json(s->ctl, XP_I3_PARAMS_MAX, idle_ms(s), &json, &len, s->peer, err))
		return -1;
	rc = xp_i3_params_parse(json, len, &s->p, err);
	free(json);
	if (rc) {
		xp_i3_send_error(s->ctl, XP_I3E_INITTEST, EINVAL);
		return -1;
	}
	xp_i3rep_accept(s);
	if (xp_i3_check_params(&s->p, s->cfg, &code, &sys, err)) {
		xp_i3_send_error(s->ctl, code, sys);
		return -1;
	}
	return 0;
}

/* A test before this one may have left its settings on the listener: the
 * accept loop replaces it within 100 ms of that test's streams being in. */
static int listener_clean(struct xp_i3sess *s, struct xp_err *err)
{
	int i, tuned = 1;

	for (i = 0; i < 200 && tuned; i++) {
		pthread_mutex_lock(s->mu);
		tuned = s->lst->tuned;
		pthread_mutex_unlock(s->mu);
		if (tuned)
			usleep(10 * 1000);
	}
	return tuned ? xp_err_set(err, "the listener still holds an earlier iperf3 "
				  "test's socket options after 2 s") : 0;
}

/* Workers up, CREATE_STREAMS out. */
static int make_side(struct xp_i3sess *s, struct i3_run *r, struct xp_err *err)
{
	struct xp_i3_side_cfg c;

	xp_i3_side_cfg_server(&s->p, s->cfg, r->cpus, sizeof(r->cpus), &c);
	s->udp = c.udp;
	s->side_made = 1;
	if (xp_i3_side_init(&s->side, &c, err) || xp_i3_side_start(&s->side, err) ||
	    (xp_i3rep_streams(s) && xp_err_set(err, "out of memory for the report"))) {
		xp_i3_send_error(s->ctl, XP_I3E_INITTEST, ENOMEM);
		return -1;
	}
	if (listener_clean(s, err)) {
		xp_i3_send_error(s->ctl, XP_I3E_INITTEST, EBUSY);
		return -1;
	}
	pthread_mutex_lock(s->mu);
	xp_i3sess_tune_listener(s);
	s->want = s->side.nst;
	s->phase = XP_I3P_STREAMS;
	pthread_mutex_unlock(s->mu);
	return xp_i3_send_state(s->ctl, XP_I3_CREATE_STREAMS, s->peer, err);
}

/* The client spoke (or closed) when it should not have. */
static int unexpected(struct xp_i3sess *s, const char *when, struct xp_err *err)
{
	char buf[24];
	int st;

	if (xp_i3_recv_state(s->ctl, 1000, &st, s->peer, err))
		return -1;
	if (st == XP_I3_CLIENT_TERMINATE)
		return xp_err_set(err, "the iperf3 client ended the test %s", when);
	return xp_err_set(err, "iperf3 client sent %s %s", xp_i3_state_name(st, buf, sizeof(buf)),
			  when);
}

static int wait_streams(struct xp_i3sess *s, struct xp_err *err)
{
	uint64_t deadline = xp_now_ns() + STREAMS_MS * XP_NS_PER_MS;

	while (xp_i3_side_registered(&s->side) < s->want) {
		struct pollfd p = { .fd = s->ctl, .events = POLLIN };

		if (xp_now_ns() > deadline)
			return xp_err_set(err, "only %u of %u iperf3 streams arrived within %d s",
					  xp_i3_side_registered(&s->side), s->want,
					  STREAMS_MS / 1000);
		if (poll(&p, 1, 1) > 0)
			return unexpected(s, "while its streams were opening", err);
	}
	set_phase(s, XP_I3P_RUNNING);
	return 0;
}

/* From TEST_RUNNING to the client's TEST_END, ending --omit on the way. */
static int wait_end(struct xp_i3sess *s, struct xp_err *err)
{
	uint64_t t0 = xp_now_ns(), omit = s->p.omit > 0 ? (uint64_t)s->p.omit : 0;
	uint64_t t = s->p.time > 0 ? (uint64_t)s->p.time : 0;
	uint64_t omit_at = omit ? t0 + omit * XP_NS_PER_SEC : 0;
	uint64_t limit = t ? t0 + (t + omit + END_GRACE_S) * XP_NS_PER_SEC
			   : t0 + s->cfg->max_duration_ns;
	int st;

	for (;;) {
		struct pollfd p = { .fd = s->ctl, .events = POLLIN };
		uint64_t now = xp_now_ns(), until = omit_at ? omit_at : limit;
		uint64_t iv = omit_at ? 0 : xp_i3rep_next(s);
		int ms;

		until = iv && iv < until ? iv : until;
		ms = until > now ? (int)((until - now) / XP_NS_PER_MS) + 1 : 0;
		if (poll(&p, 1, ms > 1000 ? 1000 : ms) > 0)
			break;
		now = xp_now_ns();
		if (omit_at && now >= omit_at) {
			xp_i3_side_omit_over(&s->side);
			xp_i3rep_omit_over(s);
			omit_at = 0;
		}
		xp_i3rep_tick(s, 0);
		if (now >= limit)
			return xp_err_set(err, "no TEST_END from the iperf3 client within %llu s",
					  (unsigned long long)((limit - t0) / XP_NS_PER_SEC));
	}
	if (xp_i3_recv_state(s->ctl, 1000, &st, s->peer, err))
		return -1;
	if (st == XP_I3_CLIENT_TERMINATE)
		return xp_err_set(err, "the iperf3 client ended the test (CLIENT_TERMINATE)");
	if (st != XP_I3_TEST_END)
		return xp_err_set(err, "iperf3 client sent state %d during the test", st);
	return 0;
}

static int peer_results(struct xp_i3sess *s, struct i3_run *r, struct xp_err *err)
{
	char *json;
	uint32_t len, i;
	int rc;

	if (xp_i3_recv_json(s->ctl, XP_I3_CLIENT_RESULTS_MAX, RESULTS_MS, &json, &len, s->peer, err))
		return -1;
	rc = xp_i3_results_parse(json, len, s->res, err);
	free(json);
	if (rc)
		return -1;
	xp_i3rep_theirs(s, s->res);
	for (i = 0; i < s->res->nstreams; i++) {
		int64_t pos = xp_i3_stream_pos(s->res->streams[i].id);

		if (pos < 0 || pos >= (int64_t)s->side.nst)
			return xp_err_set(err, "iperf3 client's results name stream %lld, which "
					  "it did not open", (long long)s->res->streams[i].id);
		if (!s->side.st[pos].sender)
			r->peer_sent += s->res->streams[i].bytes;
	}
	return 0;
}

/* --get-server-output without -J on the server: a few lines of text. */
static void output_text(const struct xp_i3sess *s, const struct xp_i3_results *res,
			char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "xperf server (iperf3 compatible), %s, "
				      "%u stream%s\n", s->udp ? "UDP" : "TCP", res->nstreams,
				      res->nstreams == 1 ? "" : "s");
	uint32_t i;

	for (i = 0; i < res->nstreams && off < len; i++) {
		const struct xp_i3_stream_res *r = &res->streams[i];
		double bps = r->end_time > 0 ? (double)r->bytes * 8 / r->end_time : 0;

		off += (size_t)snprintf(buf + off, len - off,
					"[%3lld] %s %llu bytes in %.2f s = %.0f bits/s\n",
					(long long)r->id, s->side.st[i].sender ? "sent" : "received",
					(unsigned long long)r->bytes, r->end_time, bps);
	}
}

static void my_results(struct xp_i3sess *s, struct i3_run *r, struct xp_side_result *sum,
		       char *text, size_t tlen)
{
	struct xp_i3_results *res = s->res;
	double wall;
	uint32_t pos;

	memset(res, 0, sizeof(*res));
	xp_i3_side_sum(&s->side, sum);
	xp_cpu_fill(sum, &r->a, &r->b);
	wall = sum->cpu_wall_us ? (double)sum->cpu_wall_us : 1;
	res->cpu_user = 100.0 * (double)sum->cpu_user_us / wall;
	res->cpu_system = 100.0 * (double)sum->cpu_sys_us / wall;
	res->cpu_total = res->cpu_user + res->cpu_system;
	res->sender_has_retransmits = !s->side.nflows[XP_I3_TX] ? -1 : s->udp ? 0 : 1;
	xp_i3_side_streams(&s->side, res);
	for (pos = 0; pos < s->side.nst && !res->congestion_used[0]; pos++)
		snprintf(res->congestion_used, sizeof(res->congestion_used), "%s",
			 s->side.st[pos].congestion);
	if (s->p.get_server_output) {
		output_text(s, res, text, tlen);
		res->server_output_text = text;
	}
}

static int send_results(struct xp_i3sess *s, struct xp_err *err)
{
	struct xp_json j;
	int rc;

	xp_json_init(&j, 0);
	xp_i3_results_write(&j, NULL, s->res);
	rc = xp_i3_send_json(s->ctl, &j, s->peer, err);
	xp_json_free(&j);
	return rc;
}

static void log_end(const struct xp_i3sess *s, const struct i3_run *r,
		    const struct xp_side_result *sum)
{
	if (sum->warning[0])
		xp_log(s->cfg->log, "%s: iperf3 test: %s", s->peer, sum->warning);
	if (!s->cfg->verbose)
		return;
	xp_log(s->cfg->log, "%s: iperf3 %s test done: %u stream%s, received %llu bytes "
	       "(the client sent %llu), sent %llu", s->peer, s->udp ? "UDP" : "TCP",
	       s->side.nst, s->side.nst == 1 ? "" : "s",
	       (unsigned long long)sum->c.bytes_received, (unsigned long long)r->peer_sent,
	       (unsigned long long)sum->c.bytes_sent);
}

/* TEST_END came: senders off, results both ways, receivers drained. */
static int finish(struct xp_i3sess *s, struct i3_run *r, struct xp_err *err)
{
	struct xp_side_result sum;
	char text[4096];
	int st;

	xp_i3rep_tick(s, 1);
	xp_i3rep_release(s);
	s->side.run[XP_I3_RX].t_end_ref = xp_now_ns();
	xp_i3_side_stop(&s->side, XP_I3_TX);
	xp_cpu_snap(&r->b);
	if (xp_i3_send_state(s->ctl, XP_I3_EXCHANGE_RESULTS, s->peer, err) ||
	    peer_results(s, r, err))
		return -1;
	xp_i3_side_targets(&s->side, s->res, s->p.omit <= 0);
	xp_i3_side_stop(&s->side, XP_I3_RX);
	my_results(s, r, &sum, text, sizeof(text));
	if (send_results(s, err) ||
	    xp_i3_send_state(s->ctl, XP_I3_DISPLAY_RESULTS, s->peer, err))
		return -1;
	/* IPERF_DONE, or the client just closes */
	if (xp_i3_recv_state(s->ctl, DONE_MS, &st, s->peer, err) == 0 && st != XP_I3_IPERF_DONE)
		xp_log(s->cfg->log, "%s: iperf3 client ended with state %d", s->peer, st);
	log_end(s, r, &sum);
	/* after IPERF_DONE: a front end may stop the server now (-1) */
	xp_i3rep_end(s, NULL);
	return 0;
}

static int converse(struct xp_i3sess *s, struct xp_err *err)
{
	struct i3_run r;

	memset(&r, 0, sizeof(r));
	if (params(s, err) || make_side(s, &r, err) || wait_streams(s, err))
		return -1;
	xp_i3rep_start(s);
	if (xp_i3_send_state(s->ctl, XP_I3_TEST_START, s->peer, err) ||
	    xp_i3_send_state(s->ctl, XP_I3_TEST_RUNNING, s->peer, err))
		return -1;
	xp_cpu_snap(&r.a);
	xp_i3_side_go(&s->side);
	if (wait_end(s, err))
		return -1;
	return finish(s, &r, err);
}

static void *sess_main(void *arg)
{
	struct xp_i3sess *s = arg;
	struct xp_err err = { "" };

	if (converse(s, &err)) {
		xp_log(s->cfg->log, "%s: iperf3 test: %s; abandoned", s->peer,
		       atomic_load(&s->aborted) ? "the server is stopping" : err.msg);
		xp_i3rep_end(s, atomic_load(&s->aborted) ? "the server is stopping" : err.msg);
	}
	set_phase(s, XP_I3P_DONE);
	if (s->side_made)
		xp_i3_side_destroy(&s->side);
	shutdown(s->ctl, SHUT_RDWR);
	atomic_store(&s->done, 1);
	return NULL;
}

int xp_i3sess_start(struct xp_i3sess *s, struct xp_err *err)
{
	int rc = pthread_create(&s->thr, NULL, sess_main, s);

	if (rc)
		return xp_err_sys(err, rc, "start iperf3 session thread for %s", s->peer);
	if (s->cfg->verbose)
		xp_log(s->cfg->log, "%s: iperf3 client", s->peer);
	return 0;
}

void xp_i3sess_abort(struct xp_i3sess *s)
{
	uint8_t b = XP_I3_SERVER_TERMINATE;

	atomic_store(&s->aborted, 1);
	/* as iperf3's server does when it is stopped: the client prints
	 * "the server has terminated" (a byte cannot be cut in two) */
	if (send(s->ctl, &b, 1, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
		/* the client learns it from the close */
	}
	shutdown(s->ctl, SHUT_RDWR);
}

void xp_i3sess_free(struct xp_i3sess *s)
{
	pthread_join(s->thr, NULL);
	close(s->ctl);
	xp_i3rep_free(s);
	free(s->res);
	free(s);
}
