/* SPDX-License-Identifier: BSD-2-Clause */
/* A worker's own descriptor table (common/engine/fdtable.h): a copy of the
 * process's keeping only what the worker uses, so that its system calls on
 * its sockets skip the file reference counting a shared table costs.
 *
 * Whoever gave the worker its sockets closes its own copies once the
 * worker holds them in its table, so that the worker's close really closes
 * a socket:
 * - a client worker goes private as its thread starts, with the sockets it
 *   was given (xp_worker_start closes the copies);
 * - a server worker takes its sockets by number through its mailbox, so it
 *   goes private only when asked (xp_worker_own_fds), once every flow of a
 *   persistent test has arrived; the session's thread then closes the
 *   copies.  A socket mailed after that stays in the mailbox and is closed
 *   with it.  TCP_CRR and the iperf3 server keep the shared table. */
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/engine/fdtable.h"
#include "common/engine/worker_int.h"

/* What the worker keeps: its epoll set, eventfd, the run's -n/-k eventfd,
 * its --sendfile file, its flows, and (client) nothing else.  A private
 * server worker drops its mailbox.  *n: how many; NULL if out of memory. */
static int *keep_list(const struct xp_worker *w, size_t *n)
{
	int *keep = malloc((w->nlive + 4) * sizeof(*keep));
	uint32_t i;

	*n = 0;
	if (!keep)
		return NULL;
	keep[(*n)++] = w->epfd;
	keep[(*n)++] = w->evfd;
	if (w->run->done_fd >= 0) /* -n/-k: written when the senders are done */
		keep[(*n)++] = w->run->done_fd;
	if (w->sf_fd >= 0)
		keep[(*n)++] = w->sf_fd;
	for (i = 0; i < w->nlive; i++)
		if (w->live[i]->fd >= 0)
			keep[(*n)++] = w->live[i]->fd;
	return keep;
}

/* Go private; the flows' descriptors go to w->handed for whoever closes
 * the shared copies.  FDS_PRIVATE or FDS_SHARED (nothing changed). */
static int go_private(struct xp_worker *w)
{
	size_t n, i, k = 0;
	int *keep = keep_list(w, &n);

	if (!keep)
		return FDS_SHARED;
	if (w->mbox[0] >= 0 && xp_worker_mbox_watch(w, 0)) {
		free(keep);
		return FDS_SHARED;
	}
	if (xp_fdtable_private(keep, n)) {
		if (w->mbox[0] >= 0)
			xp_worker_mbox_watch(w, 1);
		free(keep);
		return FDS_SHARED;
	}
	for (i = 0; i < w->nlive; i++)
		if (w->live[i]->fd >= 0)
			keep[k++] = w->live[i]->fd;
	w->handed = keep;
	w->nhanded = (uint32_t)k;
	return FDS_PRIVATE;
}

void xp_worker_fds_start(struct xp_worker *w)
{
	int state = FDS_SHARED;

	if (w->run->role != XP_ROLE_SERVER) {
		state = go_private(w);
		free(w->handed); /* xp_worker_start has its own list */
		w->handed = NULL;
	}
	atomic_store(&w->fds_state, state);
}

void xp_worker_fds_asked(struct xp_worker *w)
{
	int asked = FDS_ASKED;

	if (atomic_compare_exchange_strong(&w->fds_state, &asked, FDS_BUSY))
		atomic_store(&w->fds_state, go_private(w));
}

/* The worker looks at its commands within microseconds before the test
 * starts (it waits in epoll); one that does not answer in a second is
 * left sharing the table. */
#define OWN_WAIT_US 1000000

void xp_worker_own_fds(struct xp_worker *w)
{
	int shared = FDS_SHARED, asked = FDS_ASKED, state;
	uint32_t waited = 0, i;

	if (!w->started || !atomic_compare_exchange_strong(&w->fds_state, &shared, FDS_ASKED))
		return;
	xp_worker_ask(w);
	while ((state = atomic_load(&w->fds_state)) == FDS_ASKED || state == FDS_BUSY) {
		if (state == FDS_ASKED && waited >= OWN_WAIT_US &&
		    atomic_compare_exchange_strong(&w->fds_state, &asked, FDS_SHARED))
			return;
		asked = FDS_ASKED;
		usleep(20);
		waited += 20;
	}
	if (state != FDS_PRIVATE)
		return;
	for (i = 0; i < w->nhanded; i++)
		close(w->handed[i]); /* the worker's copies live on */
	free(w->handed);
	w->handed = NULL;
	w->nhanded = 0;
}
