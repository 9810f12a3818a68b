/* SPDX-License-Identifier: BSD-2-Clause */
/* A worker's direct mode (see below); the signal that wakes a worker
 * blocked in it is in common/engine/ask.c. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "common/clock.h"
#include "common/engine/worker_int.h"

/* Direct mode: a worker with one flow and nothing else to watch skips
 * epoll and lets the flow's recv (or a bulk sender's send) block, as the
 * leanest blocking loop would, saving an epoll_wait per wake-up (measured
 * on a TCP_STREAM receiver across CPUs: one epoll_wait per recvfrom
 * before).  Commands and
 * snapshot requests are seen between transactions, and a worker blocked
 * on a silent peer is woken by a signal (xp_worker_kick), not by a
 * receive timeout: SO_RCVTIMEO arms and cancels a kernel timer on every
 * blocking wait, which cost 1.5% of the same-CPU TCP_RR rate here (a
 * 10 ms timeout cost 2-3%).  Only a UDP_RR client keeps one, as its
 * --rr-timeout: that is how it sees a lost request.  Leaving restores
 * the non-blocking socket and its epoll entry. */
/* A window fixed small enough that TCP need not scale it (-w 64K at most,
 * on either buffer of this end).  Such a stream is bound by the round trip
 * of the receiver's window updates, and every wake-up sits on that trip:
 * a blocking loop makes one system call per wake-up where epoll makes two.
 * Over loopback across CPUs a lone flow moved 1.4-2.5x more with -w 8K to
 * 64K (netperf's rate; epoll stayed at 0.6-0.8 of it).  With the kernel's
 * own buffers (autotuned, scaled windows) blocking moved 10-25% less than
 * epoll, here and over veth, and with -w 256K or more the two were level:
 * so only bounded windows. */
#define DIRECT_WINDOW_MAX (64u << 10)

int xp_window_bounded(uint64_t sndbuf, uint64_t rcvbuf)
{
	return (sndbuf && sndbuf <= DIRECT_WINDOW_MAX) || (rcvbuf && rcvbuf <= DIRECT_WINDOW_MAX);
}

/* A bulk flow with a direct step and a bounded window: not when paced (its
 * sleeps are timers) nor with MSG_ZEROCOPY (its completions come through
 * epoll). */
static int bulk_direct_ok(const struct xp_worker *w, const struct xp_flow *f)
{
	return f->side->direct && !w->run->rate_bps && !w->run->zerocopy &&
	       xp_window_bounded(w->run->so.sndbuf, w->run->so.rcvbuf);
}

#define DIRECT_TICK_NS (10 * XP_NS_PER_MS) /* as worker.c's TICK_MS */

int xp_direct_ok(const struct xp_worker *w)
{
	const struct xp_run *r = w->run;

	if (!w->going || w->stopping || w->nlive != 1 || r->spin || w->ntimers)
		return 0;
	if (w->t->bulk)
		return bulk_direct_ok(w, w->live[0]);
	return w->t->rr && !(w->live[0]->events & EPOLLOUT) && /* a send waits for room */
	       w->t->persistent && r->burst == 1 && !r->sched_ns;
}

void xp_direct_loop(struct xp_worker *w)
{
	struct xp_flow *f = w->live[0];
	/* UDP has no end of stream to wake a server at the end, and a client
	 * must see its request time out: it waits at most a tick (as epoll's
	 * loop does) before it looks at the time, not --rr-timeout itself: a
	 * receive timeout rounded down to the kernel's tick would let a
	 * request outlive its timeout by as much again */
	int timed = w->t->udp && w->run->role == XP_ROLE_CLIENT;
	uint64_t wait = w->run->rr_timeout_ns < DIRECT_TICK_NS ? w->run->rr_timeout_ns
								 : DIRECT_TICK_NS;
	struct timeval tv = { (time_t)(wait / XP_NS_PER_SEC),
			      (suseconds_t)(wait % XP_NS_PER_SEC / 1000) };
	int fd = f->fd;
	uint32_t events = f->events;

	/* out of the epoll set too: its callback would run on every packet */
	if ((timed && setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) ||
	    xp_flow_watch(f, 0))
		return;
	if (xp_set_nonblock(fd, 0)) {
		if (xp_flow_watch(f, events))
			xp_flow_fail(f, errno);
		return;
	}
	w->direct = 1;
	/* from here a request comes with a kick; one that came before is seen
	 * by the first look at w->asks below (both sides order their store
	 * before their load) */
	atomic_store(&w->in_direct, 1);
	while (w->nlive == 1 && w->live[0] == f && !xp_worker_finished(w)) {
		uint64_t before = w->c.transactions;

		if (atomic_load(&w->asks) != w->asks_seen)
			xp_worker_on_cmd(w);
		if (w->stopping)
			break;
		if (f->side->direct)
			f->side->direct(f);
		else
			f->on_io(f, EPOLLIN);
		if (f->fd == fd && (f->events & EPOLLOUT))
			break; /* the socket is full: epoll says when it has room */
		if (w->c.transactions == before && w->ticking && f->fd >= 0) {
			w->now = xp_now_ns();
			xp_worker_tick(w);
		}
	}
	atomic_store(&w->in_direct, 0);
	if (f->fd == fd) {
		xp_set_nonblock(fd, 1);
		tv.tv_sec = tv.tv_usec = 0;
		if (timed)
			setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		if (xp_flow_watch(f, f->events ? f->events : events))
			xp_flow_fail(f, errno);
	}
}
