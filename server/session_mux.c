/* SPDX-License-Identifier: BSD-2-Clause */
/* A MUX connection on the server (proto/PROTOCOL.md section 13): its
 * thread answers MUX_OK and runs the pump (common/mux.h).  The client's
 * first frame on a channel makes a socketpair: one end stays with the
 * pump, the other goes to the accept loop (its adopt pipe, read by
 * server/accept.c) as a control connection that
 * has authenticated, so the channel's SETUP is checked and admitted as
 * any test's, and the test runs in a session of its own, unchanged. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/ctl.h"
#include "common/log.h"
#include "common/mux.h"
#include "server/session.h"

static int open_chan(void *ctx, uint16_t chan)
{
	struct xp_session *s = ctx;
	struct xp_adopt a = { .chan = chan, .addr = s->addr };
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sv))
		return -1;
	a.fd = sv[1];
	a.sock = fcntl(s->ctl_fd, F_DUPFD_CLOEXEC, 0);
	snprintf(a.peer, sizeof(a.peer), "%.64s ch %u", s->peer, (unsigned)chan);
	/* smaller than PIPE_BUF: written whole or not at all */
	_Static_assert(sizeof(a) <= 4096, "one write to the adopt pipe");
	if (a.sock < 0 || write(s->adopt_fd, &a, sizeof(a)) != (ssize_t)sizeof(a)) {
		if (a.sock >= 0)
			close(a.sock);
		close(sv[0]);
		close(sv[1]);
		xp_log(s->cfg->log, "%s: MUX channel %u: cannot hand it over (%s)", s->peer,
		       (unsigned)chan, a.sock < 0 ? "no descriptor" : "accept loop");
		return -1;
	}
	return sv[0];
}

void xp_session_mux(struct xp_session *s)
{
	struct xp_mux_pump p;
	struct xp_err err = { "" };
	struct xp_msg m = { .type = XP_MSG_MUX_OK };
	char who[96];

	snprintf(who, sizeof(who), "client %s", s->peer);
	m.u.mux.channels = s->mux_channels;
	if (xp_ctl_send(s->ctl_fd, &m, 5000, who, &err) ||
	    xp_mux_pump_init(&p, s->ctl_fd, s->mux_channels, who, &err)) {
		xp_log(s->cfg->log, "%s: MUX: %s", s->peer, err.msg);
		return;
	}
	p.open = open_chan;
	p.ctx = s;
	p.idle_ns = s->cfg->idle_timeout_ns;
	if (xp_mux_pump_run(&p)) {
		xp_mux_pump_error(&p, XP_ERRC_FAILED, p.err.msg);
		xp_log(s->cfg->log, "%s: MUX ended: %s", s->peer, p.err.msg);
		return;
	}
	s->ok = 1;
}
