/* SPDX-License-Identifier: BSD-2-Clause */
/* The worker thread itself: its setup and buffers, the commands it takes
 * from the controlling thread (start, stop, warm-up over), the epoll loop,
 * and start/join/mail/destroy.  The flows it
 * runs are in common/engine/flow.c, direct mode (one RR flow on a blocking
 * socket) in direct.c, its timers in timers.c, its interval snapshots in
 * snapshot.c, its own descriptor table in worker_fds.c. */
#include "common/engine/worker.h"
#include "common/engine/sysio.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/time.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/cpu.h"
#include "common/fill.h"
#include "common/engine/engines.h"
#include "common/engine/mailbox.h"
#include "common/engine/owd.h"
#include "proto/msg.h"
#include "common/engine/worker_int.h"

#define EV_BATCH 64
#define TICK_MS 10
#define MIN_BUF (256 * 1024)
#define STREAM_RX_BUF (1024 * 1024) /* a TCP receiver's read: see engine_stream.c */
#define MIN_TXBUF (64 * 1024)
#define MAIL_WAIT_MS 1000 /* a worker slow to take its mail */

/* Tags for the two non-flow descriptors in the epoll set. */


/* A --bidir client's self probes apart by way; -1: out of memory. */
static int self_ways(struct xp_worker *w)
{
	if (!w->run->self_probes || !w->run->bidir || w->run->role != XP_ROLE_CLIENT)
		return 0;
	w->self_way[0] = xp_hist_new();
	w->self_way[1] = xp_hist_new();
	return w->self_way[0] && w->self_way[1] ? 0 : -1;
}

static int alloc_bufs(struct xp_worker *w, struct xp_err *err)
{
	size_t tx = w->run->req > w->run->rsp ? w->run->req : w->run->rsp;
	size_t rx = MIN_BUF;

	if (w->t->udp && w->t->bulk)
		tx = (size_t)w->run->req * XP_UDP_BATCH; /* a GSO or sendmmsg batch */
	if (!w->t->udp && w->t->bulk)
		rx = w->run->read_size > STREAM_RX_BUF ? w->run->read_size : STREAM_RX_BUF;
	w->buflen = tx > rx ? tx : rx;
	w->txlen = tx > MIN_TXBUF ? tx : MIN_TXBUF;
	w->buf = malloc(w->buflen);
	w->txbuf = calloc(1, w->txlen);
	w->hist = xp_hist_new();
	if ((w->run->sched_ns && !(w->raw_hist = xp_hist_new())) || self_ways(w) ||
	    (w->run->stamps &&
	     !(w->owd = xp_owd_new(w->run->stamps & XP_STAMP_KERNEL))))
		return xp_err_set(err, "worker %d: out of memory", w->id);
	if (!w->buf || !w->txbuf || !w->hist)
		return xp_err_set(err, "worker %d: out of memory for %zu-byte buffers",
				  w->id, w->buflen);
	memset(w->buf, 0, w->buflen);
	xp_fill_cycle((uint8_t *)w->txbuf, w->txlen, w->run->fill, w->run->fill_len);
	return 0;
}

int xp_worker_init(struct xp_worker *w, int id, int cpu, struct xp_run *run,
		   struct xp_err *err)
{
	memset(w, 0, sizeof(*w));
	w->wake_late_ns = XP_WAKE_EARLY_NS;
	w->id = id;
	w->cpu = cpu;
	w->ran_cpu = -1;
	w->run = run;
	w->epfd = w->evfd = w->mbox[0] = w->mbox[1] = w->sf_fd = -1;
	w->t = xp_test(run->test);
	w->side = xp_run_test_side(run, run->test);
	if (!w->side)
		return xp_err_set(err, "worker: unknown test %d", run->test);
	w->state = w->side->state;
	w->ticking = w->side->tick != NULL;
	if (run->bidir) { /* the second half of the flows runs the reverse twin */
		const struct xp_side_ops *rev = xp_run_flow_side(run, run->flows - 1);

		if (!rev)
			return xp_err_set(err, "worker: %s has no reverse twin for --bidir",
					  w->t->name);
		w->rev = rev;
		w->state = rev->state > w->state ? rev->state : w->state;
		w->ticking |= rev->tick != NULL;
	}
	w->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (w->epfd < 0)
		return xp_err_sys(err, errno, "worker %d: epoll_create1", id);
	w->evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (w->evfd < 0 || xp_worker_epoll_add(w->epfd, w->evfd, &w->tag_cmd))
		return xp_err_sys(err, errno, "worker %d: eventfd", id);
	if (run->role == XP_ROLE_SERVER) {
		if (xp_mailbox_open(w->mbox) || xp_worker_epoll_add(w->epfd, w->mbox[0], &w->tag_mbox))
			return xp_err_sys(err, errno, "worker %d: mailbox socketpair", id);
	}
	return 0; /* buffers come with the thread (xp_worker_start) */
}

static void take_mail(struct xp_worker *w)
{
	int fd, rc;
	uint32_t idx;

	while ((rc = xp_mailbox_recv(w->mbox[0], &fd, &idx)) != 0) {
		struct xp_flow *f = rc > 0 ? xp_flow_alloc(w, fd, idx) : NULL;
		struct xp_err err;

		if (!f) {
			if (rc > 0)
				close(fd);
			w->c.errors++;
			if (rc < 0 && errno != EPROTO)
				return;
			continue;
		}
		/* an option the client asked for and this end could not apply
		 * is an error the report shows, not a silent default */
		if (xp_apply_sockopts(f->fd, w->t->sock_type, &w->run->so, &err)) {
			w->c.errors++;
			if (!w->errmsg[0])
				snprintf(w->errmsg, sizeof(w->errmsg), "%s", err.msg);
		}
		xp_flow_note(w, f->fd);
		f->side->add(f);
		if (w->t->persistent)
			atomic_fetch_add(&w->run->registered, 1);
	}
}

static void dispatch(struct xp_worker *w, struct epoll_event *ev, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		void *p = ev[i].data.ptr;

		if (p == &w->tag_cmd)
			xp_worker_on_cmd(w);
		else if (p == &w->tag_mbox)
			take_mail(w);
		else
			((struct xp_flow *)p)->on_io(p, ev[i].events);
	}
}

/* How long epoll may sleep: not at all when spinning, until the next
 * timer when flows are paced, a tick when timeouts need checking. */
static int wait_ns(struct xp_worker *w, int slow, struct timespec *ts)
{
	uint64_t ns = slow ? TICK_MS * XP_NS_PER_MS : UINT64_MAX;

	if (w->run->spin)
		ns = 0;
	if (w->ntimers) {
		uint64_t now = xp_now_ns(), when = w->timers[0].when;
		uint64_t d = when > now ? when - now : 0;

		ns = d < ns ? d : ns;
	}
	if (ns == UINT64_MAX)
		return -1;
	ts->tv_sec = (time_t)(ns / XP_NS_PER_SEC);
	ts->tv_nsec = (long)(ns % XP_NS_PER_SEC);
	return 0;
}

static int wait_events(struct xp_worker *w, struct epoll_event *ev, int slow)
{
	struct timespec ts;
	int forever = wait_ns(w, slow, &ts);
	int n;

	if (forever)
		return xp_epoll_wait(w->epfd, ev, EV_BATCH, -1);
	n = xp_epoll_wait_ts(w->epfd, ev, EV_BATCH, &ts);
	if (n < 0 && errno == ENOSYS) /* kernel before 5.11: ms resolution */
		n = xp_epoll_wait(w->epfd, ev, EV_BATCH,
				  (int)(ts.tv_sec * 1000 + (ts.tv_nsec + 999999) / 1000000));
	return n;
}

/* A sleep a precise timer due at `due` was to end has ended (no event
 * came first): how late, into the worker's estimate (worker.h). */
static void learn_wake(struct xp_worker *w, uint64_t due)
{
	uint64_t now = xp_now_ns();

	if (now >= due) /* not a tick's or a rounded timeout's earlier end */
		w->wake_late_ns = xp_wake_late_update(w->wake_late_ns, now - due);
}

static void loop(struct xp_worker *w)
{
	struct epoll_event ev[EV_BATCH];
	uint64_t next_tick = 0;

	while (!xp_worker_finished(w)) {
		int slow = w->stopping || (w->ticking && w->going);
		uint64_t due = w->ntimers && w->timers[0].precise ? w->timers[0].when : 0;
		int n = wait_events(w, ev, slow);

		if (n == 0 && due)
			learn_wake(w, due);
		if (n < 0 && errno != EINTR)
			break;
		if (n > 0)
			dispatch(w, ev, n);
		if (xp_direct_ok(w))
			xp_direct_loop(w);
		if (w->ntimers) {
			w->now = xp_now_ns();
			xp_run_timers(w);
		}
		if (!slow)
			continue;
		/* handlers refresh w->now per transaction; read it here only
		 * when nothing happened or while draining */
		if (n <= 0 || w->stopping)
			w->now = xp_now_ns();
		if (w->now >= next_tick) {
			xp_worker_tick(w);
			next_tick = w->now + TICK_MS * XP_NS_PER_MS;
		}
	}
}

static void *worker_main(void *arg)
{
	struct xp_worker *w = arg;
	struct xp_err err;
	uint32_t i;

	xp_direct_unblock();
	xp_worker_fds_start(w);
	if (w->cpu >= 0 && xp_cpu_pin_self(w->cpu, &err))
		snprintf(w->errmsg, sizeof(w->errmsg), "%s", err.msg);
	w->ran_cpu = sched_getcpu(); /* again at the end: where it last ran */
	w->now = xp_now_ns();
	for (i = w->nlive; i-- > 0;)
		if (i < w->nlive)
			w->live[i]->side->add(w->live[i]);
	loop(w);
	w->ran_cpu = sched_getcpu();
	if (!w->t_end)
		w->t_end = w->stopping ? w->t_stop : w->now;
	if (w->nlive && w->stopping && atomic_load(&w->cmd) != XP_CMD_ABORT) {
		w->c.errors += w->nlive; /* what they had under way is not counted */
		if (!w->errmsg[0])
			snprintf(w->errmsg, sizeof(w->errmsg),
				 "flow %u%s: peer silent for %.1f s after the end of the test, "
				 "closed", w->live[0]->idx, w->nlive > 1 ? " and others" : "",
				 (double)(w->drain_deadline - w->t_stop) / XP_NS_PER_SEC);
	}
	while (w->nlive)
		xp_flow_finish(w->live[w->nlive - 1]);
	return NULL;
}

int xp_worker_start(struct xp_worker *w, struct xp_err *err)
{
	int *fds;
	uint32_t i, n = 0;
	int rc;

	if (!w->buf && alloc_bufs(w, err))
		return -1;
	fds = malloc((w->nlive + 1) * sizeof(*fds));
	if (!fds)
		return xp_err_set(err, "worker %d: out of memory", w->id);
	for (i = 0; i < w->nlive; i++)
		if (w->live[i]->fd >= 0)
			fds[n++] = w->live[i]->fd;
	xp_direct_prepare();
	atomic_store(&w->fds_state, FDS_STARTING);
	rc = pthread_create(&w->thr, NULL, worker_main, w);
	if (rc) {
		free(fds);
		return xp_err_sys(err, rc, "start worker thread %d", w->id);
	}
	w->started = 1;
	while (atomic_load(&w->fds_state) == FDS_STARTING)
		usleep(20); /* a copy of the table and a close_range: microseconds */
	if (atomic_load(&w->fds_state) == FDS_PRIVATE)
		for (i = 0; i < n; i++)
			close(fds[i]); /* the worker's copies live on */
	free(fds);
	return 0;
}

void xp_worker_cmd(struct xp_worker *w, int cmd)
{
	atomic_store(&w->cmd, cmd);
	xp_worker_ask(w);
}

/* Kicks every 10 ms while waiting, in case a kick was lost (see above). */
int xp_worker_join_until(struct xp_worker *w, uint64_t deadline)
{
	struct timespec t;

	if (!w->started)
		return 1;
	for (;;) {
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_nsec += 10 * XP_NS_PER_MS;
		if (t.tv_nsec >= (long)XP_NS_PER_SEC) {
			t.tv_sec++;
			t.tv_nsec -= (long)XP_NS_PER_SEC;
		}
		if (pthread_timedjoin_np(w->thr, NULL, &t) != ETIMEDOUT)
			break;
		xp_worker_kick(w);
		if (xp_now_ns() >= deadline)
			return 0;
	}
	w->started = 0;
	return 1;
}

void xp_worker_join(struct xp_worker *w)
{
	xp_worker_join_until(w, UINT64_MAX);
}

int xp_worker_mail(struct xp_worker *w, int fd, uint32_t idx)
{
	return xp_mailbox_send(w->mbox[1], fd, idx, MAIL_WAIT_MS);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void xp_worker_destroy(struct xp_worker *w)
{
	struct xp_flow *f;
	int fd;
	uint32_t idx;

	if (w->mbox[0] >= 0)
		while (xp_mailbox_recv(w->mbox[0], &fd, &idx) > 0)
			close(fd);
	while (w->nlive)
		xp_flow_finish(w->live[w->nlive - 1]);
	while ((f = w->free_flows)) {
		w->free_flows = f->next_free;
		free(f);
	}
	free(w->live);
	free(w->handed);
	free(w->fres);
	free(w->snap.flows);
	xp_hist_free(w->snap.hist);
	xp_hist_free(w->snap.fwd);
	xp_hist_free(w->snap.ret);
	free(w->timers);
	xp_udp_worker_free(w);
	free(w->buf);
	free(w->txbuf);
	xp_hist_free(w->hist);
	xp_hist_free(w->raw_hist);
	w->raw_hist = NULL;
	for (int i = 0; i < 2; i++) {
		xp_hist_free(w->self_way[i]);
		w->self_way[i] = NULL;
	}
	xp_owd_free(w->owd);
	w->owd = NULL;
	close_fd(&w->epfd);
	close_fd(&w->evfd);
	close_fd(&w->mbox[0]);
	close_fd(&w->mbox[1]);
	close_fd(&w->sf_fd);
	w->live = NULL;
	w->buf = w->txbuf = NULL;
	w->hist = NULL;
}
