/* SPDX-License-Identifier: BSD-2-Clause */
/* One test on the server: its control connection, handled by a thread of
 * its own, and its worker threads.  The accept loop (server.c) owns the
 * registry of sessions and routes data connections to a session's workers
 * once `ready` is set; the session thread tells the accept loop it has
 * ended by writing its pointer to done_fd, and the accept loop then
 * unregisters it, joins it and destroys it, so no data connection can be
 * routed to a session that is being torn down. */
#ifndef XP_SESSION_H
#define XP_SESSION_H

#include <pthread.h>
#include <stdatomic.h>

#include "common/engine/group.h"
#include "proto/msg.h"
#include "server/server.h"

struct xp_session {
	uint64_t cookie;
	int ctl_fd;
	char peer[80];
	const struct xp_server_cfg *cfg;
	int done_fd;
	pthread_t thr;
	_Atomic int ready;
	struct xp_msg_setup setup;
	struct xp_run run;
	struct xp_group group; /* the test's workers on this side */
	uint8_t *seen; /* accept loop only: persistent flows already routed */
	int ok;        /* the test completed and RESULT was sent */
};

int xp_session_start(struct xp_session *s, struct xp_err *err);
/* The test shape's part of SETUP (server/session_shape.c): --bidir,
 * -n/-k, --omit.  0, or -1 with err. */
int xp_session_check_shape(const struct xp_msg_setup *p, struct xp_err *err);
/* After GO: wait for STOP, taking MEASURE (--omit over: the workers and
 * the CPU snapshot `a` start again) and sending DONE once the server's
 * -n/-k senders are done.  0 at STOP, or -1 with err. */
struct xp_cpu_snap;
int xp_session_wait_stop(struct xp_session *s, struct xp_cpu_snap *a, struct xp_err *err);
/* After the thread has ended: join, destroy workers, close, free. */
void xp_session_destroy(struct xp_session *s);
/* Accept loop: abort a running session (server shutting down). */
void xp_session_abort(struct xp_session *s);

#endif
