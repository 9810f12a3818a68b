/* SPDX-License-Identifier: BSD-2-Clause */
/* What the server lets a peer have: the checks of a SETUP (with checked
 * arithmetic on every wire value), the tests and pending connections one
 * address may hold, and the server-wide budget of memory, threads, flows,
 * descriptors and spinning workers that admitted tests reserve. */
#include <limits.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/resource.h>

#include "common/checked.h"
#include "common/clock.h"
#include "common/cpu.h"
#include "common/sockpath.h"
#include "common/units.h"
#include "common/tests.h"
#include "common/engine/engines.h"
#include "server/server_int.h"

#define BUFFER_BUDGET (512ull << 20) /* per test, all workers together */
#define FDS_BASE 24    /* the server's own descriptors, and some slack */
#define FLOW_MEM 1024  /* a flow's state in the worker, roughly */
#define HIST_MEM (64 << 10)

typedef unsigned long long ull;

void xp_ip_key(const struct xp_addr *a, uint8_t key[16])
{
	memset(key, 0, 16);
	if (a->ss.ss_family == AF_INET) {
		key[10] = key[11] = 0xff;
		memcpy(key + 12, &((const struct sockaddr_in *)&a->ss)->sin_addr, 4);
	} else if (a->ss.ss_family == AF_INET6) {
		memcpy(key, &((const struct sockaddr_in6 *)&a->ss)->sin6_addr, 16);
	}
}

int xp_same_ip(const struct xp_addr *a, const struct xp_addr *b)
{
	uint8_t ka[16], kb[16];

	xp_ip_key(a, ka);
	xp_ip_key(b, kb);
	return memcmp(ka, kb, 16) == 0;
}

uint32_t xp_srv_pending_from(const struct xp_server *s, const struct xp_addr *a)
{
	uint32_t i, n = 0;

	for (i = 0; i < s->npend; i++)
		n += (uint32_t)xp_same_ip(&s->pend[i].addr, a);
	return n;
}

uint32_t xp_srv_tests_from(const struct xp_server *s, const struct xp_addr *a)
{
	uint32_t i, n = 0;

	for (i = 0; i < s->nsess; i++)
		n += (uint32_t)xp_same_ip(&s->sess[i]->addr, a);
	return n;
}

static int check_sizes(const struct xp_server_cfg *c, const struct xp_msg_setup *p,
		       struct xp_err *err)
{
	uint64_t big = p->req_size > p->rsp_size ? p->req_size : p->rsp_size, need;
	const struct xp_test *t = xp_test((int)p->test);

	if (p->read_size && (t->udp || !t->bulk))
		return xp_err_set(err, "read size asked for %s", t->name);
	if (p->read_size > big)
		big = p->read_size; /* a receiver's buffer holds a read */
	if (!p->req_size || (t->rr && !p->rsp_size))
		return xp_err_set(err, "message size 0");
	if (big > c->max_msg)
		return xp_err_set(err, "message size %llu exceeds the server's limit %llu "
				  "(--max-msg)", (ull)big, (ull)c->max_msg);
	if (t->max_size && big > t->max_size)
		return xp_err_set(err, "UDP message size %llu exceeds %u", (ull)big, t->max_size);
	if (p->req_size < t->min_size)
		return xp_err_set(err, "%s message size %llu below %u", t->name,
				  (ull)p->req_size, t->min_size);
	if (xp_u64_mul(p->threads, 2 * (big > (256u << 10) ? big : (256u << 10)), &need) ||
	    need > BUFFER_BUDGET)
		return xp_err_set(err, "%llu threads with %llu-byte messages need more than "
				  "%llu MiB of buffers", (ull)p->threads, (ull)big,
				  (ull)(BUFFER_BUDGET >> 20));
	return 0;
}

static int check_numbers(const struct xp_server_cfg *c, const struct xp_msg_setup *p,
			 struct xp_err *err)
{
	uint64_t ns;

	if (xp_ms_to_ns_checked(p->duration_ms, "duration_ms", &ns, err))
		return -1;
	if (!p->duration_ms || ns > c->max_duration_ns)
		return xp_err_set(err, "duration %llu ms outside 1..%llu ms (--max-duration)",
				  (ull)p->duration_ms, (ull)(c->max_duration_ns / XP_NS_PER_MS));
	if (!p->flows || p->flows > c->max_flows)
		return xp_err_set(err, "%llu flows outside 1..%u (--max-flows)",
				  (ull)p->flows, c->max_flows);
	if (!p->threads || p->threads > c->max_threads)
		return xp_err_set(err, "%llu threads outside 1..%u (--max-threads)",
				  (ull)p->threads, c->max_threads);
	if (xp_check_range(p->rr_timeout_ms, 0, 60000, "rr_timeout_ms", err) ||
	    xp_check_range(p->heartbeat_ms, 0, 60000, "heartbeat_ms", err) ||
	    xp_check_range(p->busy_poll_us, 0, 1000000, "busy_poll_us", err) ||
	    xp_check_range(p->burst, 0, 1024, "burst", err) ||
	    xp_check_range(p->pace_burst, 0, 1024, "pace_burst", err) ||
	    xp_check_range(p->rate_bps, 0, 1000000000000ull, "rate_bps", err) ||
	    xp_check_range(p->omit_ms, 0, 86400000, "omit_ms", err) ||
	    xp_check_range(p->interval_ms, 0, 3600000, "interval_ms", err) ||
	    xp_check_range(p->interval_origin_ms, 0, 86400000, "interval_origin_ms", err))
		return -1;
	if (p->sndbuf > (1u << 30) || p->rcvbuf > (1u << 30) || p->rcvlowat > (1u << 30))
		return xp_err_set(err, "socket buffer or receive low-water mark above 1 GiB");
	return 0;
}

/* The socket and path fields: well formed, and what this host offers. */
static int check_path(const struct xp_server_cfg *c, const struct xp_msg_setup *p,
		      struct xp_err *err)
{
	const struct xp_test *t = xp_test((int)p->test);

	if (p->tos & ~(uint64_t)(XP_SETUP_TOS_SET | 0xff))
		return xp_err_set(err, "TOS field 0x%llx out of range", (ull)p->tos);
	if (p->sock_flags & ~(uint64_t)XP_SETUP_S_ALL)
		return xp_err_set(err, "unknown socket flags 0x%llx", (ull)p->sock_flags);
	if ((p->sock_flags & XP_SETUP_S_SENDFILE) && (t->udp || !t->bulk))
		return xp_err_set(err, "sendfile asked for %s", t->name);
	if (p->congestion[0] && xp_cc_check(p->congestion, "server", err))
		return -1;
	if ((p->sock_flags & XP_SETUP_S_FASTOPEN) && xp_tfo_check(2, "server", err))
		return -1;
	if ((p->sock_flags & XP_SETUP_S_FASTOPEN) && !c->listen_fastopen)
		return xp_err_set(err, "server: its listening socket refused TCP_FASTOPEN");
	if ((p->sock_flags & XP_SETUP_S_MPTCP) && !c->listen_mptcp)
		return xp_err_set(err, "server: it listens with plain TCP, so MPTCP clients fall "
				  "back to TCP (no MPTCP in its kernel, or net.mptcp.enabled was "
				  "0 when it started)");
	return 0;
}

int xp_srv_check_setup(const struct xp_server_cfg *c, const struct xp_msg_setup *p,
		       struct xp_err *err)
{
	const struct xp_test *t;

	if (p->test > INT_MAX || !xp_test_find((int)p->test))
		return xp_err_set(err, "unknown test type %llu", (ull)p->test);
	t = xp_test((int)p->test);
	if (p->flags & ~(uint64_t)XP_SETUP_F_ALL)
		return xp_err_set(err, "unknown option flags 0x%llx", (ull)p->flags);
	if ((p->flags & XP_SETUP_F_SPIN) && !c->allow_spin)
		return xp_err_set(err, "--spin refused: this server does not let clients "
				  "spin its CPUs (start it with --allow-spin)");
	if ((p->flags & XP_SETUP_F_SELF_PROBES) &&
	    (t->udp || !t->bulk || (p->flags & XP_SETUP_F_ZEROCOPY) ||
	     (p->sock_flags & XP_SETUP_S_SENDFILE)))
		return xp_err_set(err, "self probes ride TCP bulk flows sent by send(2) only "
				  "(not %s, --zerocopy or --sendfile)", t->name);
	if (check_numbers(c, p, err) || xp_session_check_shape(p, err) ||
	    xp_session_check_stamps(p, err))
		return -1;
	if (t->udp && t->rr && !p->rr_timeout_ms)
		return xp_err_set(err, "UDP_RR timeout 0");
	return check_sizes(c, p, err) || check_path(c, p, err) ? -1 : 0;
}

/* a * b + c, or UINT64_MAX when it does not fit (never admitted) */
static uint64_t mul_add(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t r;

	return xp_u64_mul(a, b, &r) || xp_u64_add(r, c, &r) ? UINT64_MAX : r;
}

/* A worker's buffers as common/engine/worker.c sizes them, and its
 * histograms. */
static uint64_t worker_mem(const struct xp_msg_setup *p)
{
	const struct xp_test *t = xp_test((int)p->test);
	uint64_t tx = p->req_size > p->rsp_size ? p->req_size : p->rsp_size;
	uint64_t rx = 256u << 10;

	if (t->udp && t->bulk)
		tx = mul_add(p->req_size, XP_UDP_BATCH, 0);
	if (!t->udp && t->bulk && p->read_size > (1u << 20))
		rx = p->read_size;
	else if (!t->udp && t->bulk)
		rx = 1u << 20;
	return mul_add(tx > rx ? tx : rx, 1, mul_add(tx > (64u << 10) ? tx : (64u << 10),
						     1, 2 * HIST_MEM));
}

void xp_srv_cost(const struct xp_msg_setup *p, struct xp_cost *c)
{
	memset(c, 0, sizeof(*c));
	c->threads = p->threads;
	c->flows = p->flows;
	c->mem = mul_add(p->threads, worker_mem(p), mul_add(p->flows, FLOW_MEM, 0));
	/* each worker: epoll, eventfd and a mailbox pipe; each flow a socket;
	 * the control connection, and a TCP test's own data listener */
	c->fds = mul_add(p->threads, 4, mul_add(p->flows, 1, 2));
	c->spin = p->flags & XP_SETUP_F_SPIN ? p->threads : 0;
}

static const char *const what[] = { "memory", "flows", "descriptors", "threads",
				    "spinning workers" };
/* ... and what raises each */
static const char *const raise_by[] = { "--total-memory", "--total-flows",
					"ulimit -n (RLIMIT_NOFILE)", "--total-threads",
					"--allow-spin on more CPUs" };

static uint64_t *ref(struct xp_cost *c, int i)
{
	uint64_t *f[] = { &c->mem, &c->flows, &c->fds, &c->threads, &c->spin };

	return f[i];
}

static uint64_t get(const struct xp_cost *c, int i)
{
	const uint64_t v[] = { c->mem, c->flows, c->fds, c->threads, c->spin };

	return v[i];
}

/* The budget part of admission: every kind of resource must fit. */
static int fits(struct xp_server *s, const struct xp_cost *want, struct xp_err *err)
{
	int i;

	for (i = 0; i < 5; i++) {
		uint64_t need = get(want, i), used = get(&s->used, i);
		uint64_t max = get(&s->max, i), total;

		if (xp_u64_add(used, need, &total) || total > max)
			return xp_err_set(err, "server busy: not enough %s left for this test "
					  "(it needs %llu, %llu of %llu free; the server's %s "
					  "raises it)", what[i], (ull)need,
					  (ull)(max > used ? max - used : 0), (ull)max,
					  raise_by[i]);
	}
	return 0;
}

int xp_srv_admit(struct xp_server *s, const struct xp_addr *a, const struct xp_cost *c,
		 struct xp_err *err)
{
	uint32_t mine = xp_srv_tests_from(s, a), per = s->cfg.max_tests_per_addr;
	char ip[80];
	int i;

	if (s->nsess >= s->cfg.max_tests)
		return xp_err_set(err, "server busy: %u tests running (max %u; the server's "
				  "--max-tests raises it)", s->nsess, s->cfg.max_tests);
	if (per && mine >= per) {
		xp_addr_str(a, ip, sizeof(ip));
		*strrchr(ip, ':') = 0; /* the address, not the port */
		return xp_err_set(err, "server busy: %u tests running from %s (max %u per "
				  "address; the server's --max-tests-per-addr raises it)", mine,
				  ip, per);
	}
	if (fits(s, c, err))
		return -1;
	for (i = 0; i < 5; i++)
		*ref(&s->used, i) += get(c, i);
	return 0;
}

void xp_srv_release(struct xp_server *s, const struct xp_cost *c)
{
	int i;

	for (i = 0; i < 5; i++) {
		uint64_t *u = ref(&s->used, i), v = get(c, i);

		*u = *u > v ? *u - v : 0;
	}
}

static uint64_t or_unlimited(uint64_t v)
{
	return v ? v : UINT64_MAX;
}

void xp_srv_budget_init(struct xp_server *s)
{
	struct rlimit rl = { 0, 0 };
	int cpus[XP_CPUS_MAX], n = xp_cpu_allowed(cpus, XP_CPUS_MAX);
	uint64_t fds = 1024, pend;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		fds = rl.rlim_cur;
	else if (rl.rlim_cur == RLIM_INFINITY)
		fds = 1u << 20;
	/* a quarter of the descriptors at most for connections not yet tests */
	pend = fds / 4 < XP_PENDING_MAX ? fds / 4 : XP_PENDING_MAX;
	s->maxpend = (uint32_t)(pend > 4 ? pend : 4);
	memset(&s->used, 0, sizeof(s->used));
	s->max.mem = or_unlimited(s->cfg.total_memory);
	s->max.threads = or_unlimited(s->cfg.total_threads);
	s->max.flows = or_unlimited(s->cfg.total_flows);
	s->max.fds = fds > FDS_BASE + s->maxpend ? fds - FDS_BASE - s->maxpend : 0;
	s->max.spin = s->cfg.allow_spin ? (uint64_t)(n > 0 ? n : 1) : 0;
}

/* How many of the smallest tests real clients open at once (one TCP
 * stream, one flow, one worker, 128K sends: what flent's netperf series and
 * an iperf3 client each are) the budget affords, at most XP_TESTS_MAX. */
static uint32_t affordable_tests(const struct xp_server *s)
{
	struct xp_msg_setup p;
	struct xp_cost c;
	uint64_t n = XP_TESTS_MAX;
	int i;

	memset(&p, 0, sizeof(p));
	p.test = XP_TCP_STREAM;
	p.flows = p.threads = 1;
	p.req_size = p.rsp_size = 128u << 10;
	xp_srv_cost(&p, &c);
	for (i = 0; i < 5; i++)
		if (get(&c, i) && get(&s->max, i) / get(&c, i) < n)
			n = get(&s->max, i) / get(&c, i);
	return n ? (uint32_t)n : 1;
}

void xp_srv_caps_init(struct xp_server *s)
{
	uint32_t n = affordable_tests(s), q = n / 4 ? n / 4 : 1;

	if (!s->cfg.max_tests)
		s->cfg.max_tests = n;
	if (s->cfg.max_tests_per_addr == XP_CAP_DERIVED)
		s->cfg.max_tests_per_addr = q < s->cfg.max_tests ? q : s->cfg.max_tests;
}
