/* SPDX-License-Identifier: BSD-2-Clause */
/* SO_RCVLOWAT makes the socket wake its reader only once that many bytes
 * wait (or at end of stream).  Receivers read 1 MiB at a time (worker.c),
 * so with the mark each wake-up moves up to the mark's worth.
 *
 * --rcvlowat 0 (auto) decides per flow, at run time:
 * - Sender and receiver on one CPU (the kernel processes the flow's packets
 *   on the receiving worker's own CPU, SO_INCOMING_CPU, on each of the
 *   first LOWAT_SAMPLES reads): a mark.  A reader woken per packet takes
 *   the CPU from the sender every time (19 against 47 Gbit/s on the first
 *   machine).  How large depends on the machine's cache: the data should
 *   still be there when the reader copies it out.  1 MiB was best on the
 *   AMD machine (1 MiB L2 a core: 512K 42, 1M 47 Gbit/s); on the Intel one
 *   256K and 512K moved 15-20% more than 1M.  So a lone flow on its worker
 *   (with the kernel's receive buffer) probes 1M against 256K, keeping
 *   256K only if it moved 5% more; several flows on a worker take 1M.
 * - Across CPUs, a lone flow on its worker: a probe of none against 256K
 *   (4K in a receive buffer the user fixed, a quarter of it if less).
 *   Whether fewer wake-ups pay there depends on the machine: with 512K
 *   the first machine (AMD) lost 15%, the Intel one gained 20-35% with
 *   256K (loopback and veth, both directions; its cross-CPU wake-ups are
 *   dear).  With a fixed buffer it is the message size that decides: a
 *   reader woken for every 1-byte segment held its sender to 2 Mbit/s
 *   (-w 64K -m 1; 15-20 with a 16K mark, as much with 1K), while with
 *   64K messages the mark moved nothing.  The buffer stays as the user
 *   set it: the kernel grows a receive buffer for a mark only when none
 *   was set.
 * - A flow whose round trip is over LONG_RTT_US (a WAN path): none.  Its
 *   reader is woken per window, not per packet, and a mark costs it the
 *   window: when the kernel grows the receive buffer for a mark it also
 *   clamps the window to the mark (tcp_set_rcvlowat), and the clamp stays
 *   after the mark is dropped.  Through a 100 Mbit/s, 100 ms path the
 *   probe's flows moved 84-90 Mbit/s, flows without a mark 99.
 * - Otherwise (several flows on a worker, paced flows): none.
 * A probe times PROBE_SLOTS slots of SLOT_NS with each of its two marks,
 * in the order ABBA BAAB (a rising rate at the start favours neither), and
 * keeps the second only if its slots moved 5% more. */
#include <errno.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "common/engine/rcvlowat.h"
#include "common/sockpath.h"

#define SAME_CPU_RCVLOWAT (1u << 20)
#define PROBE_RCVLOWAT (256u << 10)
#define LOWAT_SAMPLES 8
#define PROBE_SLOTS 8
#define SLOT_NS (50 * XP_NS_PER_MS)
#define LONG_RTT_US 1000

static const uint8_t with_mark[PROBE_SLOTS] = { 0, 1, 1, 0, 1, 0, 0, 1 };

static int set_mark(struct xp_flow *f, uint64_t v)
{
	int val = (int)v;

	if (setsockopt(f->fd, SOL_SOCKET, SO_RCVLOWAT, &val, sizeof(val)) == 0)
		return 0;
	xp_flow_warn(f, "setsockopt SO_RCVLOWAT", errno);
	return -1;
}

/* An automatic mark is never above --read-size: one read empties it. */
static int set_auto(struct xp_flow *f, uint64_t v)
{
	uint64_t rs = f->w->run->read_size;

	return set_mark(f, rs && rs < v ? rs : v);
}

void xp_lowat_fixed(struct xp_flow *f)
{
	if (f->w->run->rcvlowat > 1 && set_mark(f, f->w->run->rcvlowat) == 0)
		f->w->c.lowat_flows++;
}

int xp_lowat_keep(const uint64_t bytes[2], const uint64_t ns[2])
{
	if (!ns[0] || !ns[1])
		return 0;
	return (double)bytes[1] * (double)ns[0] >= 1.05 * (double)bytes[0] * (double)ns[1];
}

static int probe_ok(const struct xp_worker *w, int cross)
{
	return w->nlive == 1 && (cross || !w->run->so.rcvbuf);
}

/* The mark a probe tries against none or 1M: 256K with the kernel's
 * receive buffer; with one the user fixed, 4K or a quarter of it if less.
 * A large mark in a fixed buffer trades wake-ups for a window that drains
 * in bursts: -m 64 into -w 64K moved 180-206 Mbit/s with 1K, 134-205
 * with 4K, 54-94 with 16K, 104-151 with none; 1-byte sends gained as
 * much from 1K as from 16K. */
#define FIXED_BUF_RCVLOWAT (4u << 10)
static uint32_t probe_mark(const struct xp_worker *w)
{
	uint64_t q = w->run->so.rcvbuf / 4;

	if (!w->run->so.rcvbuf)
		return PROBE_RCVLOWAT;
	return q < FIXED_BUF_RCVLOWAT ? (uint32_t)(q ? q : 1) : FIXED_BUF_RCVLOWAT;
}

static void slot_start(struct xp_flow *f, struct xp_lowat *l, uint64_t now)
{
	l->t0 = now;
	l->b0 = f->bytes;
	if (set_auto(f, l->mark[with_mark[l->slot - 1]]))
		l->slot = 0; /* warned: the kernel's default stays */
}

/* Time mark m0 against m1 (1: none, the kernel's default). */
static void probe_start(struct xp_flow *f, struct xp_lowat *l, uint32_t m0, uint32_t m1)
{
	f->w->c.lowat_probed++;
	l->mark[0] = m0;
	l->mark[1] = m1;
	l->slot = 1;
	slot_start(f, l, xp_now_ns());
}

static void probe_step(struct xp_flow *f, struct xp_lowat *l)
{
	uint64_t now = xp_now_ns();
	int s = with_mark[l->slot - 1];
	uint32_t v;

	if (now - l->t0 < SLOT_NS)
		return;
	l->ns[s] += now - l->t0;
	l->bytes[s] += f->bytes - l->b0;
	if (l->slot < PROBE_SLOTS) {
		l->slot++;
		slot_start(f, l, now);
		return;
	}
	l->slot = 0;
	v = l->mark[xp_lowat_keep(l->bytes, l->ns)];
	if (v <= 1)
		set_mark(f, 1);
	else if (set_auto(f, v) == 0)
		f->w->c.lowat_flows++;
}

static void sample(struct xp_flow *f, struct xp_lowat *l)
{
	struct xp_worker *w = f->w;
	int cpu = -1;
	socklen_t len = sizeof(cpu);

	if (w->run->rcvlowat || w->run->rate_bps ||
	    (l->phase == 0 && xp_sock_srtt_us(f->fd) > LONG_RTT_US)) {
		l->phase = LOWAT_SAMPLES;
		return;
	}
	if (getsockopt(f->fd, SOL_SOCKET, SO_INCOMING_CPU, &cpu, &len) || cpu < 0 ||
	    cpu != w->ran_cpu)
		l->cross = 1;
	if (++l->phase < LOWAT_SAMPLES)
		return;
	if (!probe_ok(w, l->cross)) {
		if (!l->cross && set_auto(f, SAME_CPU_RCVLOWAT) == 0)
			w->c.lowat_flows++;
	} else {
		probe_start(f, l, l->cross ? 1 : SAME_CPU_RCVLOWAT, probe_mark(w));
	}
}

void xp_lowat_step(struct xp_flow *f, struct xp_lowat *l)
{
	if (l->slot)
		probe_step(f, l);
	else if (l->phase < LOWAT_SAMPLES && f->bytes)
		sample(f, l);
}
