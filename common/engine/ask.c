/* SPDX-License-Identifier: BSD-2-Clause */
/* How other threads reach a worker, and how its own files wake it: a
 * request is counted and posted on the worker's eventfd, and a worker
 * blocked in a recv of direct mode (common/engine/direct.c) is woken by
 * a signal; the waits for its answer; the mailbox's place in its epoll
 * set.  The lowest floor of the worker's files: it calls none of them. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/engine/worker_int.h"

#define WAKE_SIG SIGURG /* ignored by default: a stray one is harmless */

static void wake_handler(int sig)
{
	(void)sig; /* only there to make a blocking recv return EINTR */
}

/* The signal disposition is per process: set once, before any worker runs. */
static pthread_once_t wake_once = PTHREAD_ONCE_INIT;

static void wake_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = wake_handler; /* no SA_RESTART: recv must return */
	sigemptyset(&sa.sa_mask);
	sigaction(WAKE_SIG, &sa, NULL);
}

void xp_worker_kick(struct xp_worker *w)
{
	if (w->started && atomic_load(&w->in_direct))
		pthread_kill(w->thr, WAKE_SIG);
}

void xp_direct_prepare(void)
{
	pthread_once(&wake_once, wake_install);
}

void xp_direct_unblock(void)
{
	sigset_t wake;

	sigemptyset(&wake);
	sigaddset(&wake, WAKE_SIG);
	pthread_sigmask(SIG_UNBLOCK, &wake, NULL);
}

int xp_worker_epoll_add(int epfd, int fd, void *ptr)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = ptr };

	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

int xp_worker_mbox_watch(struct xp_worker *w, int on)
{
	if (on)
		return xp_worker_epoll_add(w->epfd, w->mbox[0], &w->tag_mbox);
	return epoll_ctl(w->epfd, EPOLL_CTL_DEL, w->mbox[0], NULL);
}

int xp_worker_measured(struct xp_worker *w, uint32_t unused)
{
	(void)unused;
	return atomic_load_explicit(&w->warmed, memory_order_acquire);
}

int xp_worker_await(struct xp_worker *w, int (*ready)(struct xp_worker *, uint32_t),
		    uint32_t arg, uint64_t deadline)
{
	unsigned n = 0;

	while (!ready(w, arg)) {
		if (xp_now_ns() >= deadline)
			return 0;
		usleep(50);
		if (++n % 200 == 0)
			xp_worker_kick(w);
	}
	return 1;
}

void xp_worker_ask(struct xp_worker *w)
{
	uint64_t one = 1;

	atomic_fetch_add(&w->asks, 1);
	if (write(w->evfd, &one, sizeof(one)) < 0) {
		/* the eventfd counter cannot overflow here */
	}
	xp_worker_kick(w);
}

void xp_worker_measure(struct xp_worker *w)
{
	atomic_store(&w->measure_req, 1);
	xp_worker_ask(w);
}
