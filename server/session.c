/* SPDX-License-Identifier: BSD-2-Clause */
#include "server/session.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/cpu.h"
#include "common/ctl.h"
#include "common/log.h"
#include "common/sockpath.h"
#include "common/units.h"
#include "common/engine/pace.h"

#define REGISTER_WAIT_MS 10000
#define BUFFER_BUDGET (512ull << 20) /* per test, all workers together */

static int idle_ms(const struct xp_session *s)
{
	return (int)(s->cfg->idle_timeout_ns / XP_NS_PER_MS);
}

static int check_sizes(const struct xp_session *s, const struct xp_msg_setup *p,
		       struct xp_err *err)
{
	uint64_t big = p->req_size > p->rsp_size ? p->req_size : p->rsp_size;
	const struct xp_test *t = xp_test((int)p->test);

	if (!p->req_size || (t->rr && !p->rsp_size))
		return xp_err_set(err, "message size 0");
	if (big > s->cfg->max_msg)
		return xp_err_set(err, "message size %llu exceeds the server's limit %llu "
				  "(--max-msg)", (unsigned long long)big,
				  (unsigned long long)s->cfg->max_msg);
	if (t->max_size && big > t->max_size)
		return xp_err_set(err, "UDP message size %llu exceeds %u",
				  (unsigned long long)big, t->max_size);
	if (p->req_size < t->min_size)
		return xp_err_set(err, "%s message size %llu below %u", t->name,
				  (unsigned long long)p->req_size, t->min_size);
	if (p->threads * 2 * (big > (256u << 10) ? big : (256u << 10)) > BUFFER_BUDGET)
		return xp_err_set(err, "%llu threads with %llu-byte messages need more "
				  "than %llu MiB of buffers", (unsigned long long)p->threads,
				  (unsigned long long)big,
				  (unsigned long long)(BUFFER_BUDGET >> 20));
	return 0;
}

/* The socket and path fields: well formed, and what this host offers. */
static int check_path(const struct xp_session *s, const struct xp_msg_setup *p,
		      struct xp_err *err)
{
	const struct xp_test *t = xp_test((int)p->test);

	if (p->tos & ~(uint64_t)(XP_SETUP_TOS_SET | 0xff))
		return xp_err_set(err, "TOS field 0x%llx out of range", (unsigned long long)p->tos);
	if (p->sock_flags & ~(uint64_t)XP_SETUP_S_ALL)
		return xp_err_set(err, "unknown socket flags 0x%llx",
				  (unsigned long long)p->sock_flags);
	if ((p->sock_flags & XP_SETUP_S_SENDFILE) && (t->udp || !t->bulk))
		return xp_err_set(err, "sendfile asked for %s", t->name);
	if (p->congestion[0] && xp_cc_check(p->congestion, "server", err))
		return -1;
	if ((p->sock_flags & XP_SETUP_S_FASTOPEN) && xp_tfo_check(2, "server", err))
		return -1;
	if ((p->sock_flags & XP_SETUP_S_FASTOPEN) && !s->cfg->listen_fastopen)
		return xp_err_set(err, "server: its listening socket refused TCP_FASTOPEN");
	if ((p->sock_flags & XP_SETUP_S_MPTCP) && !s->cfg->listen_mptcp)
		return xp_err_set(err, "server: it listens with plain TCP, so MPTCP clients fall "
				  "back to TCP (no MPTCP in its kernel, or net.mptcp.enabled was "
				  "0 when it started)");
	return 0;
}

static int check_setup(const struct xp_session *s, const struct xp_msg_setup *p,
		       struct xp_err *err)
{
	const struct xp_server_cfg *c = s->cfg;

	if (p->test > INT_MAX || !xp_test_find((int)p->test))
		return xp_err_set(err, "unknown test type %llu", (unsigned long long)p->test);
	if (!p->duration_ms || p->duration_ms * XP_NS_PER_MS > c->max_duration_ns)
		return xp_err_set(err, "duration %llu ms outside 1..%llu ms (--max-duration)",
				  (unsigned long long)p->duration_ms,
				  (unsigned long long)(c->max_duration_ns / XP_NS_PER_MS));
	if (!p->flows || p->flows > c->max_flows)
		return xp_err_set(err, "%llu flows outside 1..%u (--max-flows)",
				  (unsigned long long)p->flows, c->max_flows);
	if (!p->threads || p->threads > c->max_threads)
		return xp_err_set(err, "%llu threads outside 1..%u (--max-threads)",
				  (unsigned long long)p->threads, c->max_threads);
	if (p->flags & ~(uint64_t)XP_SETUP_F_ALL)
		return xp_err_set(err, "unknown option flags 0x%llx",
				  (unsigned long long)p->flags);
	if (p->busy_poll_us > 1000000 || p->burst > 1024 || p->pace_burst > 1024)
		return xp_err_set(err, "busy-poll, burst or pace-burst out of range");
	if (xp_test((int)p->test)->udp && xp_test((int)p->test)->rr && !p->rr_timeout_ms)
		return xp_err_set(err, "UDP_RR timeout 0");
	if (xp_session_check_shape(p, err))
		return -1;
	if (p->sndbuf > (1u << 30) || p->rcvbuf > (1u << 30) || p->rcvlowat > (1u << 30))
		return xp_err_set(err, "socket buffer or receive low-water mark above 1 GiB");
	return check_sizes(s, p, err) || check_path(s, p, err) ? -1 : 0;
}

static void fill_run(struct xp_session *s)
{
	const struct xp_msg_setup *p = &s->setup;
	struct xp_run *r = &s->run;

	r->test = (int)p->test;
	r->role = XP_ROLE_SERVER;
	r->req = (uint32_t)p->req_size;
	r->rsp = (uint32_t)p->rsp_size;
	r->so.nodelay = (int)p->nodelay;
	r->so.sndbuf = p->sndbuf;
	r->so.rcvbuf = p->rcvbuf;
	r->rr_timeout_ns = p->rr_timeout_ms * XP_NS_PER_MS;
	r->cookie = s->cookie;
	r->flows = (uint32_t)p->flows;
	r->threads = (uint32_t)p->threads;
	r->spin = (p->flags & XP_SETUP_F_SPIN) != 0;
	r->gso = !(p->flags & XP_SETUP_F_NO_GSO);
	r->zerocopy = (p->flags & XP_SETUP_F_ZEROCOPY) != 0;
	r->burst = p->burst ? (uint32_t)p->burst : 1;
	r->rate_bps = p->rate_bps;
	r->rcvlowat = p->rcvlowat;
	r->pace_burst = p->pace_burst ? (uint32_t)p->pace_burst : 8;
	r->so.busy_poll_us = p->busy_poll_us;
	if (xp_test(r->test)->bulk && !xp_test(r->test)->udp &&
	    (xp_test(r->test)->server_sends || p->bidir))
		r->so.pacing_Bps = xp_pacing_Bps(p->rate_bps);
	memcpy(r->so.cc, p->congestion, sizeof(r->so.cc));
	r->so.tos_set = (p->tos & XP_SETUP_TOS_SET) != 0;
	r->so.tos = (uint8_t)(p->tos & 0xff);
	r->fastopen = (p->sock_flags & XP_SETUP_S_FASTOPEN) != 0;
	/* whichever of its flows the server sends on (TCP_MAERTS, --bidir) */
	r->sendfile = (p->sock_flags & XP_SETUP_S_SENDFILE) != 0;
	r->note_mptcp = (p->sock_flags & XP_SETUP_S_MPTCP) != 0;
	r->bidir = (uint8_t)p->bidir;
	r->omit = p->omit_ms != 0;
	r->quota = p->quota;
	r->quota_flows = xp_run_quota_flows(r, XP_ROLE_SERVER);
	r->done_fd = -1;
}

static int make_workers(struct xp_session *s, struct xp_err *err)
{
	const char *cpus = s->setup.cpus[0] ? s->setup.cpus : s->cfg->cpus;

	fill_run(s);
	if (s->run.quota_flows &&
	    (s->run.done_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0)
		return xp_err_sys(err, errno, "eventfd for -n/-k");
	if (xp_group_create(&s->group, &s->run, (int)s->setup.threads, cpus, "remote CPUs",
			    err))
		return -1;
	return xp_group_start(&s->group, err);
}

static int wait_registered(struct xp_session *s, struct xp_err *err)
{
	uint32_t want = xp_test(s->run.test)->persistent ? s->run.flows : 0;
	uint64_t deadline = xp_now_ns() + REGISTER_WAIT_MS * XP_NS_PER_MS;

	while (atomic_load(&s->run.registered) < want) {
		if (xp_now_ns() > deadline)
			return xp_err_set(err, "only %u of %u data flows arrived within %d s",
					  atomic_load(&s->run.registered), want,
					  REGISTER_WAIT_MS / 1000);
		usleep(1000);
	}
	return 0;
}

static void fill_result(struct xp_session *s, const struct xp_cpu_snap *a,
			const struct xp_cpu_snap *b, struct xp_side_result *r)
{
	xp_group_sum(&s->group, r);
	xp_cpu_fill(r, a, b);
}

static int send_msg(struct xp_session *s, struct xp_msg *m, struct xp_err *err)
{
	return xp_ctl_send(s->ctl_fd, m, 5000, "client", err);
}

/* Every persistent server flow's result (counters, TCP_INFO), one FLOW
 * message each, before RESULT. */
static int send_flows(struct xp_session *s, struct xp_err *err)
{
	struct xp_msg m;
	uint32_t k;
	int i;

	for (i = 0; i < s->group.n; i++) {
		for (k = 0; k < s->group.w[i].nfres; k++) {
			memset(&m, 0, sizeof(m));
			m.type = XP_MSG_FLOW;
			m.u.flow = s->group.w[i].fres[k];
			if (send_msg(s, &m, err))
				return -1;
		}
	}
	return 0;
}

/* Setup: parameters in, workers up, SETUP_OK out, flows in. */
static int setup(struct xp_session *s, struct xp_err *err)
{
	struct xp_msg m;

	if (xp_ctl_expect(s->ctl_fd, &m, XP_MSG_SETUP, idle_ms(s), "client", err))
		return -1;
	s->setup = m.u.setup;
	if (check_setup(s, &s->setup, err) || make_workers(s, err))
		return -2;
	atomic_store(&s->ready, 1);
	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_SETUP_OK;
	m.u.setup_ok.cookie = s->cookie;
	m.u.setup_ok.threads = (uint64_t)s->group.n;
	xp_group_cpus(&s->group, 0, m.u.setup_ok.cpus, sizeof(m.u.setup_ok.cpus));
	if (send_msg(s, &m, err) || xp_ctl_expect(s->ctl_fd, &m, XP_MSG_READY, idle_ms(s), "client", err))
		return -1;
	return wait_registered(s, err) ? -2 : 0;
}

static int run(struct xp_session *s, struct xp_err *err)
{
	struct xp_cpu_snap a, b;
	struct xp_msg m;
	int rc = setup(s, err);

	if (rc)
		return rc;
	xp_cpu_snap(&a);
	/* GO leaves before the workers start, so a server that sends is not
	 * ahead of it in a queue on the path (a shaped link held GO behind a
	 * second of UDP_MAERTS data); the client's data can only come after */
	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_GO;
	if (send_msg(s, &m, err))
		return -1;
	xp_group_cmd(&s->group, XP_CMD_GO);
	if (xp_session_wait_stop(s, &a, err))
		return -1;
	xp_group_cmd(&s->group, XP_CMD_STOP);
	xp_group_join(&s->group);
	xp_cpu_snap(&b);
	if (send_flows(s, err))
		return -1;
	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_RESULT;
	fill_result(s, &a, &b, &m.u.result);
	if (send_msg(s, &m, err))
		return -1;
	if (m.u.result.warning[0])
		xp_log(s->cfg->log, "%s: %s: %s", s->peer, xp_test_name(s->run.test),
		       m.u.result.warning);
	if (s->cfg->verbose)
		xp_log(s->cfg->log, "%s: %s done: %llu flows, %llu bytes received, "
		       "%llu transactions", s->peer, xp_test_name(s->run.test),
		       (unsigned long long)s->setup.flows,
		       (unsigned long long)m.u.result.c.bytes_received,
		       (unsigned long long)m.u.result.c.transactions);
	return 0;
}

static void *session_main(void *arg)
{
	struct xp_session *s = arg;
	struct xp_err err = { "" };
	int rc = run(s, &err);

	s->ok = rc == 0;
	if (rc) {
		/* best effort: a client still listening learns why */
		xp_ctl_send_error(s->ctl_fd, rc == -2 ? 2 : 1, err.msg);
		xp_log(s->cfg->log, "%s: %s; test abandoned", s->peer, err.msg);
		xp_group_cmd(&s->group, XP_CMD_ABORT);
	}
	xp_group_join(&s->group);
	if (write(s->done_fd, &s, sizeof(s)) != (ssize_t)sizeof(s))
		xp_log(s->cfg->log, "%s: internal: cannot signal session end", s->peer);
	return NULL;
}

int xp_session_start(struct xp_session *s, struct xp_err *err)
{
	int rc = pthread_create(&s->thr, NULL, session_main, s);

	if (rc)
		return xp_err_sys(err, rc, "start session thread for %s", s->peer);
	return 0;
}

void xp_session_abort(struct xp_session *s)
{
	shutdown(s->ctl_fd, SHUT_RDWR); /* the session's recv fails at once */
}

void xp_session_destroy(struct xp_session *s)
{
	pthread_join(s->thr, NULL);
	xp_group_destroy(&s->group);
	if (s->run.quota_flows && s->run.done_fd >= 0)
		close(s->run.done_fd);
	free(s->seen);
	close(s->ctl_fd);
	free(s);
}
