/* SPDX-License-Identifier: BSD-2-Clause */
/* What a worker does between its events, in either loop (epoll in
 * worker.c, blocking in direct.c): the commands posted to it (GO, the end
 * of the warm-up, STOP, a snapshot, its own descriptor table), its flows'
 * ticks, and whether it is done. */
#include <errno.h>
#include <stdatomic.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/engine/engines.h"
#include "common/engine/owd.h"
#include "common/engine/worker_int.h"

static uint64_t drain_ns(const struct xp_worker *w)
{
	/* a UDP server has no end of stream: it waits out the client's timeout */
	if (w->t->udp && w->t->rr)
		return w->run->rr_timeout_ns + 100 * XP_NS_PER_MS;
	return 5 * XP_NS_PER_SEC;
}

/* UDP bulk receivers count by the datagrams' own mark (--omit), not by
 * time: the end of the warm-up leaves what they counted alone. */
static int counts_by_mark(const struct xp_worker *w, const struct xp_flow *f)
{
	return w->t->udp && w->t->bulk && (!f || !f->side->sends);
}

static void begin_measure(struct xp_worker *w)
{
	struct xp_counters *c = &w->c, *m = &w->warm;
	uint32_t i;

#define MOVE(x) (m->x += c->x, c->x = 0)
	MOVE(bytes_sent);
	MOVE(datagrams_sent);
	MOVE(lost);
	MOVE(transactions);
	MOVE(self_probes_sent);
	MOVE(self_probes_down_sent);
	if (!counts_by_mark(w, NULL)) {
		MOVE(bytes_received);
		MOVE(datagrams_received);
		MOVE(out_of_order);
		MOVE(duplicates);
	}
#undef MOVE
	xp_hist_reset(w->hist);
	if (w->raw_hist)
		xp_hist_reset(w->raw_hist);
	for (i = 0; i < 2; i++)
		if (w->self_way[i])
			xp_hist_reset(w->self_way[i]);
	xp_owd_reset(w->owd);
	for (i = 0; i < w->nlive; i++) {
		struct xp_flow *f = w->live[i];

		if (!counts_by_mark(w, f)) {
			f->omitted += f->bytes;
			f->bytes = f->dgrams = 0;
		}
		f->omitted_trans = f->trans;
		f->trans = 0;
		if (f->side->measure)
			f->side->measure(f);
	}
	w->t_go = w->now;
	atomic_store_explicit(&w->warmed, 1, memory_order_release);
}

void xp_worker_on_cmd(struct xp_worker *w)
{
	uint64_t v;
	int cmd;
	uint32_t i;

	w->asks_seen = atomic_load(&w->asks); /* what is asked later is seen next time */
	if (read(w->evfd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return;
	xp_worker_fds_asked(w);
	xp_take_snapshot(w);
	cmd = atomic_load(&w->cmd);
	w->now = xp_now_ns();
	if (cmd >= XP_CMD_GO && !w->going) {
		w->going = 1;
		w->t_go = w->now;
		for (i = w->nlive; i-- > 0;)
			if (i < w->nlive && w->live[i]->side->go)
				w->live[i]->side->go(w->live[i]);
	}
	if (w->going && !w->warmed && atomic_load(&w->measure_req))
		begin_measure(w);
	if (cmd >= XP_CMD_STOP && !w->stopping) {
		w->stopping = 1;
		w->t_stop = w->now;
		w->drain_deadline = w->now + drain_ns(w);
		/* backwards: a flow finished by stop() is replaced by the last */
		for (i = w->nlive; i-- > 0;)
			if (i < w->nlive && w->live[i]->side->stop)
				w->live[i]->side->stop(w->live[i]);
	}
}

void xp_worker_tick(struct xp_worker *w)
{
	uint32_t i;

	if (!w->ticking)
		return;
	for (i = w->nlive; i-- > 0;)
		if (i < w->nlive && w->live[i]->side->tick)
			w->live[i]->side->tick(w->live[i]);
}

int xp_worker_finished(const struct xp_worker *w)
{
	if (atomic_load_explicit(&w->cmd, memory_order_relaxed) == XP_CMD_ABORT)
		return 1;
	return w->stopping && (w->nlive == 0 || w->now >= w->drain_deadline);
}
