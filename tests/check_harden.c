/* SPDX-License-Identifier: BSD-2-Clause */
/* The server-hardening pieces that are pure or nearly: the byte fields
 * and the UDP handshake on the wire, every overflow a SETUP could cause,
 * admission and the resource budget, peer text escaped on receipt,
 * the client's checks of a server's figures, rate-limited logging and
 * heartbeats. */
#include <check.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "client/udp_hello.h"
#include "client/verify.h"
#include "common/clock.h"
#include "common/ctl.h"
#include "common/live.h"
#include "common/opts.h"
#include "common/ratelog.h"
#include "proto/hello.h"
#include "proto/msg.h"
#include "server/server_int.h"

static void assert_has(const char *s, const char *part)
{
	ck_assert_msg(strstr(s, part) != NULL, "'%s' not in '%s'", part, s);
}

/* ---- the wire ---- */

START_TEST(test_auth_bytes)
{
	uint8_t buf[128];
	struct xp_msg m, out;
	struct xp_why why;
	size_t n;

	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_AUTH_HELLO; /* all-zero nonce: NUL bytes are fine */
	n = xp_msg_encode(&m, buf, sizeof(buf));
	ck_assert_uint_eq(n, XP_MSG_HDR_LEN + 4 + XP_MSG_AUTH_LEN);
	ck_assert_int_eq(xp_msg_decode(buf, n, &out, &why), 0);
	ck_assert_mem_eq(out.u.auth.nonce, m.u.auth.nonce, XP_MSG_AUTH_LEN);
	/* 31 bytes: the field length is its own, exactly */
	buf[XP_MSG_HDR_LEN + 3] = 31;
	buf[11] = 4 + 31;
	ck_assert_int_eq(xp_msg_decode(buf, n - 1, &out, &why), -1);
	assert_has(why.msg, "has length 31, it takes 32");
	/* HEARTBEAT: empty */
	m.type = XP_MSG_HEARTBEAT;
	ck_assert_uint_eq(xp_msg_encode(&m, buf, sizeof(buf)), XP_MSG_HDR_LEN);
	ck_assert_str_eq(xp_msg_type_name(XP_MSG_AUTH_OK), "AUTH_OK");
}
END_TEST

START_TEST(test_udp_handshake_codec)
{
	uint8_t b[XP_UDP_CONFIRM_LEN], out[XP_UDP_CONFIRM_LEN];
	uint64_t cookie, nonce;
	uint32_t flow;
	size_t len = XP_DATA_HELLO_LEN;

	xp_udp_challenge_encode(b, 7, 0x0102030405060708ull);
	ck_assert_int_eq(xp_udp_challenge_decode(b, XP_UDP_CHALLENGE_LEN, &flow, &nonce), 0);
	ck_assert_uint_eq(flow, 7);
	ck_assert_uint_eq(nonce, 0x0102030405060708ull);
	ck_assert_int_eq(xp_udp_challenge_decode(b, 15, NULL, NULL), -1);
	ck_assert_int_eq(xp_udp_challenge_decode(b, 17, NULL, NULL), -1);
	ck_assert_int_eq(xp_udp_confirm_decode(b, XP_UDP_CHALLENGE_LEN, NULL, NULL, NULL), -1);
	/* the client: a challenge for another flow is ignored; ours makes
	 * the confirm; the confirm's echo ends it */
	xp_data_hello_encode(out, 99, 7);
	xp_udp_challenge_encode(b, 8, 5);
	ck_assert_int_eq(xp_udp_answer(b, XP_UDP_CHALLENGE_LEN, 99, 7, out, &len), 0);
	xp_udp_challenge_encode(b, 7, 5);
	ck_assert_int_eq(xp_udp_answer(b, XP_UDP_CHALLENGE_LEN, 99, 7, out, &len), 2);
	ck_assert_uint_eq(len, XP_UDP_CONFIRM_LEN);
	ck_assert_int_eq(xp_udp_confirm_decode(out, len, &cookie, &flow, &nonce), 0);
	ck_assert_uint_eq(cookie, 99);
	ck_assert_uint_eq(flow, 7);
	ck_assert_uint_eq(nonce, 5);
	memcpy(b, out, sizeof(b));
	ck_assert_int_eq(xp_udp_answer(b, XP_UDP_CONFIRM_LEN, 99, 7, out, &len), 1);
	b[23] ^= 1;
	ck_assert_int_eq(xp_udp_answer(b, XP_UDP_CONFIRM_LEN, 99, 7, out, &len), 0);
	ck_assert_int_eq(xp_udp_answer(b, -1, 99, 7, out, &len), 0);
}
END_TEST

/* ---- a SETUP's numbers: every overflow refused, by name ---- */

static void cfg_default(struct xp_server_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->max_tests = 16;
	c->max_flows = 4096;
	c->max_threads = 64;
	c->max_duration_ns = 1 * XP_NS_PER_SEC;
	c->max_msg = 16 << 20;
}

static void setup_ok(struct xp_msg_setup *p)
{
	memset(p, 0, sizeof(*p));
	p->test = 3; /* TCP_RR */
	p->duration_ms = 500;
	p->req_size = p->rsp_size = 1;
	p->flows = p->threads = 1;
	p->rr_timeout_ms = 200;
}

static void refused(const struct xp_server_cfg *c, const struct xp_msg_setup *p,
		    const char *part)
{
	struct xp_err err = { "" };

	ck_assert_int_eq(xp_srv_check_setup(c, p, &err), -1);
	assert_has(err.msg, part);
}

START_TEST(test_setup_overflows)
{
	struct xp_server_cfg c;
	struct xp_msg_setup p;
	struct xp_err err;

	cfg_default(&c);
	setup_ok(&p);
	ck_assert_int_eq(xp_srv_check_setup(&c, &p, &err), 0);
	/* duration_ms * 10^6 wraps to 953472 ns: under 1 s if unchecked */
	p.duration_ms = 27356521461311266ull;
	refused(&c, &p, "duration_ms 27356521461311266");
	p.duration_ms = UINT64_MAX;
	refused(&c, &p, "duration_ms");
	p.duration_ms = 1001;
	refused(&c, &p, "duration 1001 ms outside 1..1000 ms");
	setup_ok(&p);
	p.rr_timeout_ms = UINT64_MAX; /* times 10^6 in the engine */
	refused(&c, &p, "rr_timeout_ms");
	setup_ok(&p);
	p.heartbeat_ms = UINT64_MAX / 2; /* times 5 for the silence limit */
	refused(&c, &p, "heartbeat_ms");
	setup_ok(&p);
	p.rate_bps = UINT64_MAX;
	refused(&c, &p, "rate_bps");
	setup_ok(&p);
	p.burst = 1ull << 40;
	refused(&c, &p, "burst");
	/* threads x buffers: a server with no limits of its own still
	 * refuses a product that wraps */
	c.max_threads = UINT32_MAX;
	c.max_msg = UINT64_MAX;
	setup_ok(&p);
	p.threads = UINT32_MAX;
	p.req_size = p.rsp_size = 1ull << 62;
	refused(&c, &p, "MiB of buffers");
	setup_ok(&p);
	p.flags = XP_SETUP_F_SPIN;
	refused(&c, &p, "--allow-spin");
	c.allow_spin = 1;
	ck_assert_int_eq(xp_srv_check_setup(&c, &p, &err), 0);
}
END_TEST

/* ---- admission and the budget ---- */

static struct xp_server *fake_server(uint64_t memory)
{
	struct xp_server *s = calloc(1, sizeof(*s));

	ck_assert_ptr_nonnull(s);
	cfg_default(&s->cfg);
	s->cfg.max_tests = 3;
	s->cfg.max_tests_per_addr = 2;
	s->cfg.total_memory = memory;
	s->sess = calloc(4, sizeof(*s->sess));
	xp_srv_budget_init(s);
	return s;
}

static void addr4(struct xp_addr *a, const char *ip)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)&a->ss;

	memset(a, 0, sizeof(*a));
	s4->sin_family = AF_INET;
	s4->sin_port = htons(40000);
	inet_pton(AF_INET, ip, &s4->sin_addr);
	a->len = sizeof(*s4);
}

START_TEST(test_admission)
{
	struct xp_server *s = fake_server(100 << 20);
	struct xp_session ss[3];
	struct xp_msg_setup p;
	struct xp_cost c;
	struct xp_addr a, b;
	struct xp_err err;
	int i;

	memset(ss, 0, sizeof(ss));
	addr4(&a, "10.0.0.3");
	addr4(&b, "10.0.0.4");
	setup_ok(&p);
	xp_srv_cost(&p, &c);
	ck_assert_uint_eq(c.threads, 1);
	/* 4 per worker, 1 per flow, the control connection and a data listener */
	ck_assert_uint_eq(c.fds, 4 + 1 + 2);
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(xp_srv_admit(s, &a, &c, &err), 0);
		ss[i].addr = a;
		s->sess[s->nsess++] = &ss[i];
	}
	ck_assert_int_eq(xp_srv_admit(s, &a, &c, &err), -1);
	ck_assert_str_eq(err.msg, "server busy: 2 tests running from 10.0.0.3 (max 2 per address; "
			  "the server's --max-tests-per-addr raises it)");
	ck_assert_int_eq(xp_srv_admit(s, &b, &c, &err), 0);
	ss[2].addr = b;
	s->sess[s->nsess++] = &ss[2];
	ck_assert_int_eq(xp_srv_admit(s, &b, &c, &err), -1);
	ck_assert_str_eq(err.msg, "server busy: 3 tests running (max 3; the server's --max-tests "
			  "raises it)");
	ck_assert_uint_eq(s->used.threads, 3);
	for (i = 0; i < 3; i++)
		xp_srv_release(s, &c);
	ck_assert_uint_eq(s->used.threads, 0);
	ck_assert_uint_eq(s->used.mem, 0);
	/* the budget: 16 threads of 16M messages do not fit in 100M */
	s->nsess = 0;
	p.threads = 16;
	p.req_size = p.rsp_size = 16 << 20;
	xp_srv_cost(&p, &c);
	ck_assert_int_eq(xp_srv_admit(s, &a, &c, &err), -1);
	assert_has(err.msg, "server busy: not enough memory left");
	assert_has(err.msg, "the server's --total-memory raises it");
	free(s->sess);
	free(s);
}
END_TEST

/* The caps a server derives (no --max-tests, no --max-tests-per-addr):
 * the scarcest resource in the budget over what one stream test costs,
 * a quarter of that per address; a cap given is kept. */
static struct xp_server *derived(uint64_t memory, uint32_t threads, uint32_t per)
{
	struct xp_server *s = calloc(1, sizeof(*s));

	ck_assert_ptr_nonnull(s);
	cfg_default(&s->cfg);
	s->cfg.max_tests = 0;
	s->cfg.max_tests_per_addr = per;
	s->cfg.total_memory = memory;
	s->cfg.total_threads = threads;
	xp_srv_budget_init(s);
	xp_srv_caps_init(s);
	return s;
}

START_TEST(test_derived_caps)
{
	struct xp_msg_setup p;
	struct xp_cost c;
	struct xp_server *s;

	memset(&p, 0, sizeof(p));
	p.test = XP_TCP_STREAM;
	p.flows = p.threads = 1;
	p.req_size = p.rsp_size = 128u << 10;
	xp_srv_cost(&p, &c);
	/* memory the scarcest: 40 such tests' worth, 10 per address */
	s = derived(40 * c.mem + c.mem / 2, 0, XP_CAP_DERIVED);
	ck_assert_uint_eq(s->cfg.max_tests, 40);
	ck_assert_uint_eq(s->cfg.max_tests_per_addr, 10);
	free(s);
	/* worker threads the scarcest */
	s = derived(0, 256, XP_CAP_DERIVED);
	ck_assert_uint_le(s->cfg.max_tests, 256);
	ck_assert_uint_eq(s->cfg.max_tests_per_addr, s->cfg.max_tests / 4);
	ck_assert_uint_ge(s->cfg.max_tests_per_addr, 16); /* flent's tcp_nup 16 */
	free(s);
	/* one thread: one test, and that one address may hold it */
	s = derived(0, 1, XP_CAP_DERIVED);
	ck_assert_uint_eq(s->cfg.max_tests, 1);
	ck_assert_uint_eq(s->cfg.max_tests_per_addr, 1);
	free(s);
	/* a --max-tests given: the per-address cap is no more than it */
	s = calloc(1, sizeof(*s));
	ck_assert_ptr_nonnull(s);
	cfg_default(&s->cfg);
	s->cfg.max_tests = 3;
	s->cfg.max_tests_per_addr = XP_CAP_DERIVED;
	xp_srv_budget_init(s);
	xp_srv_caps_init(s);
	ck_assert_uint_eq(s->cfg.max_tests, 3);
	ck_assert_uint_eq(s->cfg.max_tests_per_addr, 3);
	free(s);
	/* a per-address cap given (0: none) is kept */
	s = derived(0, 8, 0);
	ck_assert_uint_eq(s->cfg.max_tests, 8);
	ck_assert_uint_eq(s->cfg.max_tests_per_addr, 0);
	free(s);
}
END_TEST

START_TEST(test_same_ip)
{
	struct xp_addr a, b;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&b.ss;

	addr4(&a, "10.0.0.3");
	memset(&b, 0, sizeof(b));
	s6->sin6_family = AF_INET6;
	inet_pton(AF_INET6, "::ffff:10.0.0.3", &s6->sin6_addr);
	ck_assert(xp_same_ip(&a, &b));
	inet_pton(AF_INET6, "::ffff:10.0.0.4", &s6->sin6_addr);
	ck_assert(!xp_same_ip(&a, &b));
	inet_pton(AF_INET6, "::1", &s6->sin6_addr);
	ck_assert(!xp_same_ip(&a, &b));
}
END_TEST

/* ---- peer text ---- */

START_TEST(test_clean_on_receipt)
{
	struct xp_msg m;

	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_ERROR;
	strcpy(m.u.error.text, "a\r\n2030-01-01 forged\x1b[31m");
	xp_ctl_clean(&m);
	ck_assert_str_eq(m.u.error.text, "a\\r\\n2030-01-01 forged\\x1b[31m");
	/* a long one is cut, with the mark, within its buffer */
	memset(m.u.error.text, '\x07', XP_MSG_STR_MAX);
	m.u.error.text[XP_MSG_STR_MAX] = 0;
	xp_ctl_clean(&m);
	ck_assert_uint_lt(strlen(m.u.error.text), sizeof(m.u.error.text));
	ck_assert_ptr_null(strchr(m.u.error.text, '\x07'));
	m.type = XP_MSG_SETUP;
	strcpy(m.u.setup.cpus, "0\n1");
	xp_ctl_clean(&m);
	ck_assert_str_eq(m.u.setup.cpus, "0\\n1");
}
END_TEST

/* ---- the client's checks ---- */

static void honest(struct xp_client_result *r, struct xp_opts *o)
{
	xp_opts_defaults(o);
	o->test = 1; /* TCP_STREAM */
	memset(r, 0, sizeof(*r));
	r->test = 1;
	r->local.active_ns = r->local.elapsed_ns = XP_NS_PER_SEC;
	r->local.c.bytes_sent = 1ull << 30;
	r->remote.c.bytes_received = 1ull << 30;
	r->remote.elapsed_ns = XP_NS_PER_SEC;
	r->remote.cpu_user_us = 100000;
	r->remote.cpu_sys_us = 500000;
	r->remote.host_busy_ppm = 400000;
	r->remote.ncpus = 4;
	strcpy(r->remote.cpus, "0,3");
}

START_TEST(test_verify)
{
	struct xp_client_result r;
	struct xp_opts o;

	honest(&r, &o);
	ck_assert_int_eq(xp_verify_result(&o, &r), 0);
	r.remote.c.bytes_received = r.local.c.bytes_sent + 1;
	ck_assert_int_eq(xp_verify_result(&o, &r), 1);
	assert_has(r.warnings[0], "server received");
	honest(&r, &o);
	r.remote.cpu_user_us = 1ull << 62;
	r.remote.c.errors = UINT64_MAX;
	r.remote.host_busy_ppm = UINT64_MAX;
	ck_assert_int_eq(xp_verify_result(&o, &r), 3);
	honest(&r, &o);
	r.remote.cpu_user_us = r.remote.cpu_sys_us = UINT64_MAX; /* the sum wraps */
	ck_assert_int_eq(xp_verify_result(&o, &r), 1);
	honest(&r, &o);
	strcpy(r.remote.cpus, "99999,-1,2");
	ck_assert_int_eq(xp_verify_result(&o, &r), 1);
	ck_assert_str_eq(r.remote.cpus, "?,?,2");
	ck_assert_ptr_null(strchr(r.warnings[0], '-'));
	honest(&r, &o);
	strcpy(r.remote.cpus, "1,-0,+2, 3"); /* found by fuzz_peer_msg */
	ck_assert_int_eq(xp_verify_result(&o, &r), 1);
	ck_assert_str_eq(r.remote.cpus, "1,?,?,?");
	honest(&r, &o);
	r.remote.c.bytes_received = 1ull << 62; /* in 1 ns */
	r.local.c.bytes_sent = 1ull << 62;
	r.remote.elapsed_ns = 1;
	ck_assert_int_ge(xp_verify_result(&o, &r), 1);
	assert_has(r.warnings[0], "more than any link carries");
}
END_TEST

/* ---- rate-limited log lines ---- */

START_TEST(test_ratelog)
{
	struct xp_ratelog rl;
	char buf[4096];
	FILE *f = tmpfile();
	size_t n;
	int i;

	ck_assert_ptr_nonnull(f);
	memset(&rl, 0, sizeof(rl));
	for (i = 0; i < 1000; i++)
		xp_ratelog(f, &rl, "event %d", i);
	ck_assert_uint_eq(rl.held, 999);
	xp_ratelog_flush(f, &rl); /* too soon: nothing */
	rl.last_ns -= 2 * XP_NS_PER_SEC;
	xp_ratelog_flush(f, &rl);
	ck_assert_uint_eq(rl.held, 0);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	assert_has(buf, "event 0\n");
	assert_has(buf, "999 more in the last");
	assert_has(buf, "like: event 999\n");
	ck_assert_ptr_null(strstr(buf, "event 1\n"));
}
END_TEST

/* ---- heartbeats ---- */

START_TEST(test_live)
{
	struct xp_live l;
	struct xp_msg m;
	struct xp_err err;
	int sv[2];

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	xp_live_init(&l, sv[0], "server x", 1000, 1000);
	ck_assert_int_eq(xp_live_tick(&l, &err), 0); /* not due yet */
	l.next_tx = 0;
	ck_assert_int_eq(xp_live_tick(&l, &err), 0);
	ck_assert_int_eq(xp_ctl_recv(sv[1], &m, 1000, "peer", &err), 0);
	ck_assert_uint_eq(m.type, XP_MSG_HEARTBEAT);
	/* the peer's heartbeat is noted, and ignored */
	ck_assert_int_eq(xp_ctl_send(sv[1], &m, 1000, "peer", &err), 0);
	l.last_rx = 0;
	ck_assert_int_eq(xp_live_recv(&l, &m, &err), 0);
	ck_assert_uint_gt(l.last_rx, 0);
	/* silence */
	l.last_rx = xp_now_ns() - 6 * XP_NS_PER_SEC;
	ck_assert_int_eq(xp_live_tick(&l, &err), -1);
	assert_has(err.msg, "server x silent for 6 s (no heartbeat)");
	/* a peer that announced none is never silent */
	xp_live_init(&l, sv[0], "server x", 0, 0);
	l.last_rx = 0;
	ck_assert_int_eq(xp_live_tick(&l, &err), 0);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

static Suite *harden_suite(void)
{
	Suite *s = suite_create("harden");
	TCase *tc = tcase_create("harden");

	tcase_add_test(tc, test_auth_bytes);
	tcase_add_test(tc, test_udp_handshake_codec);
	tcase_add_test(tc, test_setup_overflows);
	tcase_add_test(tc, test_admission);
	tcase_add_test(tc, test_derived_caps);
	tcase_add_test(tc, test_same_ip);
	tcase_add_test(tc, test_clean_on_receipt);
	tcase_add_test(tc, test_verify);
	tcase_add_test(tc, test_ratelog);
	tcase_add_test(tc, test_live);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(harden_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
