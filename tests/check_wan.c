/* SPDX-License-Identifier: BSD-2-Clause */
/* The WAN path's pure parts (lab/wan/): impairment values and their
 * parsing, the delay line's release arithmetic and draws, its byte ring,
 * what it reads of a frame, and its counters' arithmetic. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/wan/frame.h"
#include "lab/wan/impair.h"
#include "lab/wan/line.h"
#include "lab/wan/ring.h"
#include "lab/wan/sched.h"
#include "proto/be.h"
#include "proto/msg.h"

#define MS 1000000ull

static int parse(struct xp_wan *w, struct xp_err *e, struct xp_wan_args a)
{
	e->msg[0] = 0;
	return xp_wan_parse(w, &a, e);
}

START_TEST(values_one_or_two)
{
	struct xp_wan w;
	struct xp_err e;
	struct xp_wan_args a = { 0 };

	ck_assert_int_eq(parse(&w, &e, a), 0);
	ck_assert_int_eq(w.on, 0);
	a.delay = "10";
	a.loss = "1/0.5%";
	a.rate = "100m/0";
	a.jitter = "0.25";
	a.seed = 7;
	ck_assert_int_eq(parse(&w, &e, a), 0);
	ck_assert_int_eq(w.on, 1);
	ck_assert_int_eq(w.with, XP_WAN_AUTO);
	ck_assert_uint_eq(w.seed, 7);
	ck_assert_uint_eq(w.d[XP_WAN_C2S].delay_ns, 10 * MS);
	ck_assert_uint_eq(w.d[XP_WAN_S2C].delay_ns, 10 * MS);
	ck_assert_uint_eq(w.d[XP_WAN_S2C].jitter_ns, 250000);
	ck_assert(w.d[XP_WAN_C2S].loss.pct == 1.0 && w.d[XP_WAN_S2C].loss.pct == 0.5);
	ck_assert_uint_eq(w.d[XP_WAN_C2S].rate_bps, 100000000);
	ck_assert_uint_eq(w.d[XP_WAN_S2C].rate_bps, 0);
	/* 100 Mbit/s over 10.25 ms + 50 ms, plus two 64 KiB frames */
	ck_assert_uint_eq(w.d[XP_WAN_C2S].limit_bytes, 12500000ull * 6025 / 100000 + 131072);
	/* no rate: 10 Gbit/s in flight over 10.25 ms, plus 4 MiB */
	ck_assert_uint_eq(w.d[XP_WAN_S2C].limit_bytes, 12812500ull + (4ull << 20));
	ck_assert_uint_eq(xp_wan_netem_limit(&w.d[XP_WAN_C2S]),
			  (w.d[XP_WAN_C2S].limit_bytes + 1513) / 1514);
	a = (struct xp_wan_args){ .with = "line", .limit = "1M/256K" };
	ck_assert_int_eq(parse(&w, &e, a), 0);
	ck_assert_int_eq(w.on, 1); /* a line with no impairment: the zero-delay path */
	ck_assert_int_eq(w.with, XP_WAN_LINE);
	ck_assert_uint_eq(w.d[XP_WAN_C2S].limit_bytes, 1 << 20);
	ck_assert_uint_eq(w.d[XP_WAN_S2C].limit_bytes, 256 << 10);
}
END_TEST

START_TEST(values_refused)
{
	static const struct { struct xp_wan_args a; const char *msg; } bad[] = {
		{ { .delay = "10/20/30" }, "one value, or two" },
		{ { .delay = "-1" }, "not a number of milliseconds" },
		{ { .delay = "60001" }, "above 60000 ms" },
		{ { .delay = "10/" }, "empty" },
		{ { .loss = "101" }, "above 100 %" },
		{ { .loss = "1x" }, "not a percentage" },
		{ { .reorder = "5" }, "needs a --delay" },
		{ { .delay = "0/10", .reorder = "5" }, "needs a --delay" },
		{ { .rate = "1k" }, "outside 8k" },
		{ { .rate = "10q" }, "unknown unit" },
		{ { .limit = "64K" }, "at least 128K" },
		{ { .with = "tc" }, "auto, netem or line" },
	};
	struct xp_wan w;
	struct xp_err e;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(parse(&w, &e, bad[i].a), -1);
		ck_assert_msg(strstr(e.msg, bad[i].msg), "case %zu: '%s'", i, e.msg);
	}
}
END_TEST

static struct xp_wan_dir dir(uint64_t delay_ms, uint64_t jitter_ms, uint64_t rate)
{
	struct xp_wan_dir d;

	memset(&d, 0, sizeof(d));
	d.delay_ns = delay_ms * MS;
	d.jitter_ns = jitter_ms * MS;
	d.rate_bps = rate;
	return d;
}

/* The rate is a serialization clock: back-to-back 1250-byte frames at
 * 10 Mbit/s leave 1 ms apart, after the delay. */
START_TEST(sched_rate_clock)
{
	struct xp_wan_dir c = dir(5, 0, 10000000);
	struct xp_wan_draws d = { 0, 0, 0, 0 };
	struct xp_wan_sched s;
	struct xp_wan_when w;
	int i;

	xp_wan_sched_init(&s, &c, 1, 0);
	ck_assert_uint_eq(xp_wan_tx_ns(1250, 10000000), 1000000);
	ck_assert_uint_eq(xp_wan_tx_ns(1250, 0), 0);
	for (i = 0; i < 4; i++) {
		xp_wan_when(&s, &d, 100 * MS, 1250, i > 0, &w);
		ck_assert_uint_eq(w.release_ns, 100 * MS + (uint64_t)(i + 1) * MS + 5 * MS);
	}
	/* an idle link: serialization starts on arrival */
	xp_wan_when(&s, &d, 200 * MS, 1250, 0, &w);
	ck_assert_uint_eq(w.release_ns, 206 * MS);
	/* a duplicate is serialized after its original */
	d.dup = 1;
	xp_wan_when(&s, &d, 300 * MS, 1250, 0, &w);
	ck_assert_uint_eq(w.release_ns, 306 * MS);
	ck_assert_uint_eq(w.dup_release_ns, 307 * MS);
	d.dup = 0;
	xp_wan_when(&s, &d, 300 * MS, 1250, 1, &w);
	ck_assert_uint_eq(w.release_ns, 308 * MS);
}
END_TEST

/* Jitter never reorders by itself; a frame sent ahead skips the delay and
 * overtakes only when delayed frames are pending. */
START_TEST(sched_fifo_and_ahead)
{
	struct xp_wan_dir c = dir(10, 8, 0);
	struct xp_wan_draws d = { 0, 0, 0, 0 };
	struct xp_wan_sched s;
	struct xp_wan_when w;
	uint64_t last = 0;
	int i;

	xp_wan_sched_init(&s, &c, 1, 0);
	for (i = 0; i < 1000; i++) {
		xp_wan_draw(&s, &d);
		ck_assert(d.jitter_ns >= -8 * (int64_t)MS && d.jitter_ns <= 8 * (int64_t)MS);
		d.lost = d.dup = d.ahead = 0;
		xp_wan_when(&s, &d, (uint64_t)i * 100000, 100, 1, &w);
		ck_assert_uint_ge(w.release_ns, last);
		ck_assert_uint_ge(w.release_ns, (uint64_t)i * 100000 + 2 * MS);
		last = w.release_ns;
	}
	d = (struct xp_wan_draws){ 0, 0, 1, 0 };
	xp_wan_when(&s, &d, 100 * MS, 100, 1, &w);
	ck_assert_uint_eq(w.release_ns, 100 * MS);
	ck_assert_int_eq(w.overtakes, 1);
	xp_wan_when(&s, &d, 200 * MS, 100, 0, &w);
	ck_assert_int_eq(w.overtakes, 0);
}
END_TEST

/* The draws: the seed alone fixes them, and they hit their rates. */
START_TEST(sched_draws)
{
	struct xp_wan_dir c = dir(10, 0, 0);
	struct xp_wan_sched a, b;
	struct xp_wan_draws x, y;
	int i, lost = 0, dup = 0, ahead = 0, same = 1;

	c.loss.thr = xp_wan_pct_thr(1);
	c.duplicate.thr = xp_wan_pct_thr(0.5);
	c.reorder.thr = xp_wan_pct_thr(25);
	ck_assert_uint_eq(xp_wan_pct_thr(0), 0);
	ck_assert_uint_eq(xp_wan_pct_thr(100), UINT64_MAX);
	xp_wan_sched_init(&a, &c, 42, 0);
	xp_wan_sched_init(&b, &c, 42, 0);
	for (i = 0; i < 200000; i++) {
		xp_wan_draw(&a, &x);
		xp_wan_draw(&b, &y);
		same &= x.lost == y.lost && x.dup == y.dup && x.ahead == y.ahead &&
			x.jitter_ns == y.jitter_ns;
		lost += x.lost;
		dup += x.dup;
		ahead += x.ahead;
	}
	ck_assert(same);
	ck_assert_int_gt(lost, 1800);
	ck_assert_int_lt(lost, 2200);
	ck_assert_int_gt(dup, 850);
	ck_assert_int_lt(dup, 1150);
	ck_assert_int_gt(ahead, 49000);
	ck_assert_int_lt(ahead, 51000);
	/* another seed, or the other direction: another sequence */
	xp_wan_sched_init(&a, &c, 42, 0);
	xp_wan_sched_init(&b, &c, 43, 0);
	for (i = 0, same = 0; i < 1000; i++) {
		xp_wan_draw(&a, &x);
		xp_wan_draw(&b, &y);
		same += x.ahead == y.ahead;
	}
	ck_assert_int_lt(same, 900);
	xp_wan_sched_init(&b, &c, 42, 1);
	xp_wan_sched_init(&a, &c, 42, 0);
	for (i = 0, same = 0; i < 1000; i++) {
		xp_wan_draw(&a, &x);
		xp_wan_draw(&b, &y);
		same += x.ahead == y.ahead;
	}
	ck_assert_int_lt(same, 900);
}
END_TEST

static struct xp_wan_rec *push(struct xp_wan_ring *r, int q, uint32_t len, uint64_t rel,
			       uint8_t fill)
{
	uint8_t *p = xp_wan_ring_space(r, len);
	struct xp_wan_rec *rec;

	ck_assert_ptr_nonnull(p);
	memset(p, fill, len);
	rec = xp_wan_ring_push(r, q, len);
	rec->release_ns = rel;
	return rec;
}

/* Two FIFOs through one ring: the earlier head goes first, space comes
 * back from the oldest record, and the ring wraps. */
START_TEST(ring_two_fifos)
{
	struct xp_wan_ring r;
	int i, q;

	ck_assert_int_eq(xp_wan_ring_init(&r, 4096), 0);
	ck_assert_int_eq(xp_wan_ring_next_q(&r), -1);
	push(&r, XP_WAN_Q_DELAYED, 100, 30, 1);
	push(&r, XP_WAN_Q_DELAYED, 100, 40, 2);
	push(&r, XP_WAN_Q_AHEAD, 100, 10, 3);
	ck_assert_uint_eq(r.held, 3);
	ck_assert_uint_eq(r.held_bytes, 300);
	q = xp_wan_ring_next_q(&r);
	ck_assert_int_eq(q, XP_WAN_Q_AHEAD);
	ck_assert_uint_eq(xp_wan_rec_data(xp_wan_ring_first(&r, q))[0], 3);
	xp_wan_ring_pop(&r, q);
	/* the sent-ahead record's space waits for the two before it */
	ck_assert_uint_eq(r.used, 3 * ((sizeof(struct xp_wan_rec) + 100 + 7) & ~7ul));
	ck_assert_uint_eq(xp_wan_rec_data(xp_wan_ring_first(&r, xp_wan_ring_next_q(&r)))[0], 1);
	xp_wan_ring_pop(&r, XP_WAN_Q_DELAYED);
	xp_wan_ring_pop(&r, XP_WAN_Q_DELAYED);
	ck_assert_uint_eq(r.used, 0);
	ck_assert_uint_eq(r.held, 0);
	/* round and round: 1000 frames of 700 bytes through 4 KiB */
	for (i = 0; i < 1000; i++) {
		struct xp_wan_rec *rec = push(&r, XP_WAN_Q_DELAYED, 700, (uint64_t)i, (uint8_t)i);

		ck_assert_uint_eq(xp_wan_rec_data(rec)[699], (uint8_t)i);
		if (i >= 2) {
			ck_assert_uint_eq(xp_wan_ring_first(&r, 0)->release_ns, (uint64_t)i - 2);
			ck_assert_uint_eq(xp_wan_rec_data(xp_wan_ring_first(&r, 0))[0],
					  (uint8_t)(i - 2));
			xp_wan_ring_pop(&r, 0);
		}
	}
	/* full: no room for a frame that does not fit */
	ck_assert_ptr_null(xp_wan_ring_space(&r, 4096));
	xp_wan_ring_free(&r);
}
END_TEST

/* A frame as the packet socket gives it: virtio-net header, Ethernet,
 * IPv4, UDP or TCP; gso_size > 0 makes it a GSO frame. */
static size_t frame(uint8_t *buf, int udp, uint16_t gso_size, size_t payload,
		    const uint8_t *data)
{
	size_t l4 = udp ? 8 : 20, n = XP_WAN_VNET_LEN + 14 + 20 + l4 + payload;
	uint8_t *e = buf + XP_WAN_VNET_LEN, *ip = e + 14, *h = ip + 20;

	memset(buf, 0, n);
	buf[1] = gso_size ? (udp ? 5 : 1) : 0;  /* VIRTIO_NET_HDR_GSO_UDP_L4, _TCPV4 */
	memcpy(buf + 4, &gso_size, 2);
	xp_put16(e + 12, 0x0800);
	ip[0] = 0x45;
	xp_put16(ip + 2, (uint16_t)(20 + l4 + payload));
	ip[9] = udp ? 17 : 6;
	xp_put32(ip + 12, 0x0ae70001);
	xp_put32(ip + 16, 0x0ae70002);
	xp_put16(h, 40000);
	xp_put16(h + 2, 5201);
	if (udp)
		xp_put16(h + 4, (uint16_t)(8 + (gso_size ? gso_size : payload)));
	else
		h[12] = 5 << 4;
	if (data)
		memcpy(h + l4, data, payload);
	return n;
}

START_TEST(frames_read)
{
	static uint8_t buf[XP_WAN_VNET_LEN + 70000];
	uint8_t hello[XP_DATA_HELLO_LEN] = { 0 };
	struct xp_wan_frame f, g;
	size_t n;

	n = frame(buf, 1, 0, 1000, NULL);
	xp_wan_frame_read(buf, n, &f);
	ck_assert_uint_eq(f.segs, 1);
	ck_assert_uint_eq(f.udp, 1);
	ck_assert_uint_eq(f.wire, 14 + 20 + 8 + 1000);
	ck_assert_uint_ne(f.flow_hash, 0);
	/* a UDP GSO frame of 8 datagrams of 1000 bytes and a short last one */
	n = frame(buf, 1, 1000, 7500, NULL);
	xp_wan_frame_read(buf, n, &g);
	ck_assert_uint_eq(g.segs, 8);
	ck_assert_uint_eq(g.udp, 8);
	ck_assert_uint_eq(g.wire, 7 * (14 + 20 + 8) + (14 + 20 + 8 + 7500));
	ck_assert_uint_eq(g.flow_hash, f.flow_hash);
	/* a 64 KiB TSO frame: 45 segments of 1448 */
	n = frame(buf, 0, 1448, 65160, NULL);
	xp_wan_frame_read(buf, n, &f);
	ck_assert_uint_eq(f.segs, 45);
	ck_assert_uint_eq(f.udp, 0);
	ck_assert_uint_ne(f.flow_hash, g.flow_hash);
	/* the handshake's hello is not a test datagram */
	xp_put32(hello, XP_DATA_MAGIC);
	n = frame(buf, 1, 0, sizeof(hello), hello);
	xp_wan_frame_read(buf, n, &f);
	ck_assert_uint_eq(f.udp, 0);
	/* ARP: one frame, no flow */
	memset(buf, 0, 64);
	xp_put16(buf + XP_WAN_VNET_LEN + 12, 0x0806);
	xp_wan_frame_read(buf, XP_WAN_VNET_LEN + 42, &f);
	ck_assert(f.segs == 1 && f.flow_hash == 0 && f.udp == 0 && f.wire == 42);
}
END_TEST

/* Late: released after a later arrival of the same flow; other flows
 * and copies do not make a frame late. */
START_TEST(flows_late)
{
	struct xp_wan_flows *t = calloc(1, sizeof(*t));
	uint32_t a = xp_wan_flow_slot(t, 11), b = xp_wan_flow_slot(t, 11 + XP_WAN_FLOWS);

	ck_assert_uint_ne(a, b); /* same home slot, told apart by probing */
	ck_assert_uint_eq(xp_wan_flow_slot(t, 11), a);
	ck_assert_int_eq(xp_wan_flow_release(t, a, 0), 0);
	ck_assert_int_eq(xp_wan_flow_release(t, a, 3), 0); /* 3 went ahead */
	ck_assert_int_eq(xp_wan_flow_release(t, b, 1), 0); /* another flow */
	ck_assert_int_eq(xp_wan_flow_release(t, a, 1), 1);
	ck_assert_int_eq(xp_wan_flow_release(t, a, 2), 1);
	ck_assert_int_eq(xp_wan_flow_release(t, a, 4), 0);
	free(t);
}
END_TEST

START_TEST(stats_delta)
{
	struct xp_wan_stats a, b, d, sum;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&sum, 0, sizeof(sum));
	a.d[0].frames = 10;
	b.d[0].frames = 4;
	a.d[1].queue_max_bytes = 500;
	b.d[1].queue_max_bytes = 900;
	xp_wan_stats_delta(&d, &a, &b);
	ck_assert_uint_eq(d.d[0].frames, 6);
	ck_assert_uint_eq(d.d[1].queue_max_bytes, 500); /* a mark, not a count */
	xp_wan_stats_add(&sum, &d);
	d.d[1].queue_max_bytes = 200;
	xp_wan_stats_add(&sum, &d);
	ck_assert_uint_eq(sum.d[0].frames, 12);
	ck_assert_uint_eq(sum.d[1].queue_max_bytes, 500);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("wan");
	TCase *t = tcase_create("pure");
	SRunner *r;
	int failed;

	tcase_add_test(t, values_one_or_two);
	tcase_add_test(t, values_refused);
	tcase_add_test(t, sched_rate_clock);
	tcase_add_test(t, sched_fifo_and_ahead);
	tcase_add_test(t, sched_draws);
	tcase_add_test(t, ring_two_fifos);
	tcase_add_test(t, frames_read);
	tcase_add_test(t, flows_late);
	tcase_add_test(t, stats_delta);
	suite_add_tcase(s, t);
	r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
