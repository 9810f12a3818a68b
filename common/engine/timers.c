/* SPDX-License-Identifier: BSD-2-Clause */
/* A worker's timers: flows asleep until a time of their own (paced
 * streams, RR on a --rate schedule) wait in a per-worker min-heap, and the
 * worker's loop wakes them when it is due (xp_run_timers).  Also the
 * pacing and schedule arithmetic that puts flows to sleep. */
#include "common/engine/worker.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/epoll.h>

#include "common/clock.h"
#include "common/engine/pace.h"
#include "common/engine/worker_int.h"

uint64_t xp_flow_next_slot(const struct xp_flow *f, uint64_t prev)
{
	const struct xp_worker *w = f->w;
	uint64_t per = w->run->sched_ns;

	if (!prev)
		return w->t_go + per * f->idx / (w->run->flows ? w->run->flows : 1);
	return prev + per;
}

/* Timers: a binary min-heap ordered by wake time. */
static void heap_swap(struct xp_timer *t, uint32_t a, uint32_t b)
{
	struct xp_timer x = t[a];

	t[a] = t[b];
	t[b] = x;
}

static void heap_push(struct xp_worker *w, struct xp_timer t)
{
	uint32_t i;

	if (w->ntimers == w->captimers) {
		uint32_t cap = w->captimers ? 2 * w->captimers : 16;
		struct xp_timer *n = realloc(w->timers, cap * sizeof(*n));

		if (!n)
			return; /* the flow stays asleep: counted below as an error */
		w->timers = n;
		w->captimers = cap;
	}
	i = w->ntimers++;
	w->timers[i] = t;
	while (i && w->timers[(i - 1) / 2].when > w->timers[i].when) {
		heap_swap(w->timers, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static struct xp_timer heap_pop(struct xp_worker *w)
{
	struct xp_timer top = w->timers[0];
	uint32_t i = 0;

	w->timers[0] = w->timers[--w->ntimers];
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < w->ntimers && w->timers[l].when < w->timers[m].when)
			m = l;
		if (r < w->ntimers && w->timers[r].when < w->timers[m].when)
			m = r;
		if (m == i)
			return top;
		heap_swap(w->timers, i, m);
		i = m;
	}
}

static void sleep_timer(struct xp_flow *f, uint64_t when, int precise)
{
	struct xp_timer t = { when, f, precise };
	uint32_t before = f->w->ntimers;

	/* a flow left watching EPOLLOUT only wakes early, and sleeps again */
	if ((f->events & EPOLLOUT) && xp_flow_watch(f, f->events & ~(uint32_t)EPOLLOUT))
		xp_flow_warn(f, "epoll_ctl", errno);
	heap_push(f->w, t);
	if (f->w->ntimers == before)
		f->w->c.errors++;
}

void xp_flow_sleep_until(struct xp_flow *f, uint64_t when)
{
	sleep_timer(f, when, 0);
}

uint64_t xp_wake_late_update(uint64_t est, uint64_t late)
{
	return late > est ? est + (late - est) / 4 : est - (est - late) / 64;
}

void xp_flow_sleep_precise(struct xp_flow *f, uint64_t when)
{
	uint64_t early = f->w->wake_late_ns + XP_WAKE_MARGIN_NS;

	early = early < XP_WAKE_EARLY_MIN_NS ? XP_WAKE_EARLY_MIN_NS
	      : early > XP_WAKE_EARLY_MAX_NS ? XP_WAKE_EARLY_MAX_NS : early;
	sleep_timer(f, when > early ? when - early : when, 1);
}

void xp_spin_until(uint64_t when)
{
	while (xp_now_ns() < when)
		;
}

#define PACE_SPIN_NS 20000ull

int xp_flow_pace(struct xp_flow *f, uint64_t bytes)
{
	uint64_t rate = f->w->run->rate_bps, now;

	if (!rate)
		return 1;
	now = xp_now_ns();
	if (!f->next_send)
		f->next_send = now + xp_pace_ns(bytes, rate) / 2;
	while (f->next_send > now) {
		if (f->next_send - now > PACE_SPIN_NS) {
			xp_flow_sleep_until(f, f->next_send);
			return 0;
		}
		now = xp_now_ns();
	}
	return 1;
}

/* Wake every flow whose time has come.  A flow finished while asleep is
 * skipped: sleeping flows (paced streams, RR on a --rate schedule) are
 * client flows or persistent server flows, whose memory is not reused
 * after GO. */
void xp_run_timers(struct xp_worker *w)
{
	while (w->ntimers && w->timers[0].when <= w->now) {
		struct xp_timer t = heap_pop(w);

		if (t.f->fd >= 0)
			t.f->on_io(t.f, EPOLLOUT);
	}
}
