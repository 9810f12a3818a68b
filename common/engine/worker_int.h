/* Internal to the worker's files (common/worker.c, flow.c, timers.c and
 * snapshot.c), not for engines or the client/server: the calls the
 * worker's loop makes into the other files.  What engines and the
 * client/server use is in common/engine/worker.h. */
#ifndef XP_WORKER_INT_H
#define XP_WORKER_INT_H

#include "common/engine/worker.h"

/* Post a request already recorded in w (a command, a snapshot, the end
 * of the warm-up): count it, wake the epoll loop and a blocked recv. */
void xp_worker_ask(struct xp_worker *w);
/* Wake every flow whose timer is due by w->now (common/timers.c). */
void xp_run_timers(struct xp_worker *w);
/* Take the snapshot asked for, if one is (common/snapshot.c). */
void xp_take_snapshot(struct xp_worker *w);

#endif
