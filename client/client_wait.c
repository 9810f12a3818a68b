/* SPDX-License-Identifier: BSD-2-Clause */
/* The client's waits while a test runs (client/client_int.h): the
 * warm-up, the duration with its interval reports, -n/-k's end, the
 * server's words meanwhile (heartbeats, DONE, an error), our heartbeats,
 * the deadline, and the workers' end. */
#include "client/client_int.h"

#include <poll.h>
#include <stdlib.h>
#include <time.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "client/shape.h"
#include "common/clock.h"
#include "common/ctl.h"

int xp_cl_ms_left(const struct client *cl, int cap)
{
	uint64_t now = xp_now_ns();
	/* rounded up: a wait that ends by the deadline ends at it, not a
	 * fraction of a millisecond before, so that its failure is told as
	 * the deadline's (client.c: past_deadline) */
	uint64_t left = cl->deadline > now ? (cl->deadline - now + XP_NS_PER_MS - 1) / XP_NS_PER_MS
					   : 0;

	return left < (uint64_t)cap ? (int)(left ? left : 1) : cap;
}

/* -n/-k: every sender of both ends has sent its share (or ended). */
static int senders_done(const struct client *cl)
{
	if (!cl->run.quota)
		return 0;
	return atomic_load(&cl->run.quota_done) >= cl->run.quota_flows &&
	       (!cl->server_senders || cl->server_done);
}

/* The server spoke: a heartbeat is noted and DONE (-n/-k) taken note of;
 * anything else can only be an error or a close.  0 or -1. */
static int server_spoke(struct client *cl, struct xp_err *err)
{
	struct xp_msg m;
	int rc = xp_live_recv(&cl->live, &m, err);

	if (rc <= 0)
		return rc;
	if (m.type == XP_MSG_DONE && cl->server_senders) {
		cl->server_done = 1;
		return 0;
	}
	return xp_err_set(err, "server %s ended the test: %s", cl->peer,
			  m.type == XP_MSG_ERROR ? m.u.error.text : xp_msg_type_name(m.type));
}

/* Sleep until `until`, waking early if the server speaks, a signal
 * arrives or the -n/-k senders are done; heartbeats go out meanwhile.
 * 0: reached; 1: interrupted by a signal; 2: senders done; -1: server
 * error, silence or the deadline. */
static int wait_until(struct client *cl, uint64_t until, struct xp_err *err)
{
	struct pollfd p[3] = { { .fd = cl->ctl, .events = POLLIN },
			       { .fd = cl->sigfd, .events = POLLIN },
			       { .fd = cl->run.done_fd, .events = POLLIN } };
	uint64_t now, v;

	while ((now = xp_now_ns()) < until) {
		int ms = (int)((until - now + XP_NS_PER_MS - 1) / XP_NS_PER_MS);
		int n;

		if (now >= cl->deadline)
			return xp_err_set(err, "%s: test still running at its deadline", cl->who);
		if (senders_done(cl))
			return 2;
		n = poll(p, 3, xp_live_sleep_ms(&cl->live, xp_cl_ms_left(cl, ms > 1000 ? 1000 : ms)));
		if (n > 0 && (p[1].revents & POLLIN))
			return 1;
		if (n > 0 && (p[2].revents & POLLIN) && read(p[2].fd, &v, sizeof(v)) < 0)
			p[2].fd = -1; /* cannot happen: the counter is there to read */
		if ((n > 0 && p[0].revents && server_spoke(cl, err)) ||
		    xp_live_tick(&cl->live, err))
			return -1;
	}
	return 0;
}

/* The workers' end.  Before STOP the server waits for it, and gives up on
 * a client that sends nothing: heartbeats go on meanwhile.  The server's
 * own heartbeats stay in the socket, but bytes arriving show it lives: a
 * server silent too long, or the deadline, aborts the workers. */
void xp_cl_join_workers(struct client *cl, int beating)
{
	struct xp_err ignored;
	int queued = 0, q;

	if (ioctl(cl->ctl, FIONREAD, &queued))
		queued = 0;
	while (!xp_group_join_until(&cl->g, xp_now_ns() + 200 * XP_NS_PER_MS)) {
		uint64_t now = xp_now_ns();

		if (beating && xp_live_tick(&cl->live, &ignored)) {
			/* the server's silence is judged below */
		}
		if (ioctl(cl->ctl, FIONREAD, &q) == 0 && q != queued) {
			queued = q;
			cl->live.last_rx = now;
		}
		if (now >= cl->deadline || xp_live_peer_dead(&cl->live, now))
			xp_group_cmd(&cl->g, XP_CMD_ABORT);
	}
}

static void take_interval(struct client *cl, struct xp_client_result *r)
{
	struct xp_interval iv, *n;

	if (xp_iv_take(cl->iv, cl->g.w, cl->g.n, cl->t_go, &iv))
		return;
	iv.bidir = r->bidir;
	n = xp_interval_append(&r->intervals, &r->nintervals, &iv);
	if (n && cl->hooks && cl->hooks->on_interval)
		cl->hooks->on_interval(cl->hooks->ctx, r, n);
}

/* The test duration, with an interval report at each boundary and for a
 * last part longer than a tenth of an interval. */
int xp_cl_wait_duration(struct client *cl, struct xp_client_result *r,
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
int xp_cl_warm_up(struct client *cl, struct xp_client_result *r, struct xp_err *err)
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
