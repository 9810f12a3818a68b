/* SPDX-License-Identifier: BSD-2-Clause */
/* A session between GO and STOP, where the test's shape asks for more
 * than waiting: MEASURE (--omit is over: the server's workers count again
 * from now, and its CPU use with them) and, with -n/-k, DONE once the
 * server's senders have sent all of their shares; and heartbeats both
 * ways all along (common/live.h), so a client that froze or was cut off
 * is given up after a few seconds. */
#include "server/session.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/cpu.h"
#include "common/ctl.h"
#include "common/live.h"
#include "common/tests.h"

#define STOP_GRACE_MS 30000
#define MEASURE_WAIT_NS XP_NS_PER_SEC

int xp_session_check_shape(const struct xp_msg_setup *p, struct xp_err *err)
{
	const struct xp_test *t = xp_test((int)p->test);

	if (p->bidir > 1)
		return xp_err_set(err, "bidir %llu: 0 or 1", (unsigned long long)p->bidir);
	if (p->bidir && (!xp_test_reverse(t->id) || t->server_sends))
		return xp_err_set(err, "--bidir: %s has no reverse twin to add", t->name);
	if (p->bidir && p->flows % 2)
		return xp_err_set(err, "--bidir: %llu flows is not two halves",
				  (unsigned long long)p->flows);
	if (p->omit_ms && !t->bulk)
		return xp_err_set(err, "--omit: %s is not a stream test", t->name);
	if (p->omit_ms && p->quota)
		return xp_err_set(err, "--omit and -n/-k exclude each other");
	return 0;
}

static void measure(struct xp_session *s)
{
	uint64_t deadline = xp_now_ns() + MEASURE_WAIT_NS;
	int i;

	for (i = 0; i < s->group.n; i++)
		xp_worker_measure(&s->group.w[i]);
	for (i = 0; i < s->group.n; i++)
		xp_worker_await(&s->group.w[i], xp_worker_measured, 0, deadline);
	xp_session_iv_rebase(s); /* their counters start again from 0 */
}

static int send_done(struct xp_session *s, struct xp_err *err)
{
	struct xp_msg m;
	uint64_t v;

	if (read(s->run.done_fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return xp_err_sys(err, errno, "read the -n/-k done event");
	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_DONE;
	return xp_ctl_send(s->ctl_fd, &m, 5000, "client", err);
}

/* One control message: 1 for STOP, 0 for MEASURE or a heartbeat, -1
 * otherwise. */
static int on_message(struct xp_session *s, struct xp_cpu_snap *a, struct xp_live *live,
		      struct xp_err *err)
{
	struct xp_msg m;
	int rc = xp_live_recv(live, &m, err);

	if (rc <= 0)
		return rc;
	if (m.type == XP_MSG_STOP)
		return 1;
	if (m.type == XP_MSG_MEASURE && s->setup.omit_ms) {
		measure(s);
		xp_cpu_snap(a);
		return 0;
	}
	if (m.type == XP_MSG_ERROR)
		return xp_err_set(err, "client: %s", m.u.error.text);
	return xp_err_set(err, "client: expected STOP, got %s", xp_msg_type_name(m.type));
}

int xp_session_wait_stop(struct xp_session *s, struct xp_cpu_snap *a, struct xp_live *live,
			 struct xp_err *err)
{
	/* both checked at admission (server/limits.c): no overflow */
	uint64_t wait = (s->setup.duration_ms + s->setup.omit_ms + STOP_GRACE_MS) * XP_NS_PER_MS;
	uint64_t deadline = xp_now_ns() + wait;
	struct pollfd p[2] = { { .fd = s->ctl_fd, .events = POLLIN },
			       { .fd = s->run.done_fd, .events = POLLIN } };
	nfds_t n = s->run.quota_flows && s->run.done_fd >= 0 ? 2 : 1;
	int rc = 0;

	while (rc == 0) {
		uint64_t now = xp_now_ns(), due;
		int ms = now < deadline ? (int)((deadline - now) / XP_NS_PER_MS) + 1 : 0;
		int k;

		xp_session_iv_tick(s, now);
		if ((due = xp_session_iv_due(s)) < deadline) /* the next -i boundary */
			ms = now < due ? (int)((due - now + XP_NS_PER_MS - 1) / XP_NS_PER_MS) : 0;

		if (now >= deadline)
			return xp_err_set(err, "client: no STOP within %llu ms of GO",
					  (unsigned long long)(wait / XP_NS_PER_MS));
		k = poll(p, n, xp_live_sleep_ms(live, ms > 1000 ? 1000 : ms));
		if (k < 0 && errno != EINTR)
			return xp_err_sys(err, errno, "poll the control connection");
		if (k > 0 && n == 2 && (p[1].revents & POLLIN)) {
			if (send_done(s, err))
				return -1;
			n = 1; /* once */
		}
		if (k > 0 && p[0].revents)
			rc = on_message(s, a, live, err);
		if (rc == 0 && xp_live_tick(live, err))
			return -1;
	}
	return rc < 0 ? -1 : 0;
}
