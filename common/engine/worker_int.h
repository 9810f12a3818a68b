/* SPDX-License-Identifier: BSD-2-Clause */
/* Internal to the worker's files (common/worker.c, flow.c, timers.c and
 * snapshot.c), not for engines or the client/server: the calls the
 * worker's loop makes into the other files.  What engines and the
 * client/server use is in common/engine/worker.h. */
#ifndef XP_WORKER_INT_H
#define XP_WORKER_INT_H

#include "common/engine/worker.h"

/* epoll_ctl ADD of fd for input, with ptr as its tag (common/engine/ask.c). */
int xp_worker_epoll_add(int epfd, int fd, void *ptr);
/* Post a request already recorded in w (a command, a snapshot, the end
 * of the warm-up): count it, wake the epoll loop and a blocked recv. */
void xp_worker_ask(struct xp_worker *w);
/* Wake every flow whose timer is due by w->now (common/timers.c). */
void xp_run_timers(struct xp_worker *w);
/* Take the snapshot asked for, if one is (common/snapshot.c). */
void xp_take_snapshot(struct xp_worker *w);

/* The worker's loop, for direct mode (common/engine/direct.c). */
void xp_worker_on_cmd(struct xp_worker *w);   /* look at the commands posted */
void xp_worker_tick(struct xp_worker *w);     /* every flow's tick callback */
int xp_worker_finished(const struct xp_worker *w);
/* Direct mode: a worker with one request/response flow blocks in its recv
 * instead of epoll (common/engine/direct.c). */
int xp_direct_ok(const struct xp_worker *w);
void xp_direct_loop(struct xp_worker *w);
/* Once per process, before any worker runs: the wake-up signal's handler. */
void xp_direct_prepare(void);
/* In each worker thread: let the wake-up signal in. */
void xp_direct_unblock(void);

/* The worker's descriptor table (common/engine/worker_fds.c): the states
 * of w->fds_state, the thread's first step, and a server's request seen
 * in xp_worker_on_cmd. */
enum { FDS_STARTING, FDS_PRIVATE, FDS_SHARED, FDS_ASKED, FDS_BUSY };
void xp_worker_fds_start(struct xp_worker *w);
void xp_worker_fds_asked(struct xp_worker *w);
/* Watch the mailbox in the epoll set (on) or stop.  0 or -1 (errno). */
int xp_worker_mbox_watch(struct xp_worker *w, int on);

#endif
