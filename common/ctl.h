/* SPDX-License-Identifier: BSD-2-Clause */
/* Control-channel I/O: one whole message at a time, with a deadline, on a
 * blocking or non-blocking socket.  The codec itself is in proto/. */
#ifndef XP_CTL_H
#define XP_CTL_H

#include "common/err.h"
#include "proto/msg.h"

int xp_ctl_send(int fd, const struct xp_msg *m, int timeout_ms,
		const char *peer, struct xp_err *err);

/* Receive one message.  A peer of another protocol version yields -1
 * with a message naming both versions (its ERROR text included if it
 * sent one).  An XP_MSG_ERROR of our version is returned as a message;
 * the caller decides. */
int xp_ctl_recv(int fd, struct xp_msg *m, int timeout_ms, const char *peer,
		struct xp_err *err);

/* Escape the control characters of every string field a peer sent in m
 * (common/sanitize.h); xp_ctl_recv does it to every message it returns. */
void xp_ctl_clean(struct xp_msg *m);

/* Send an XP_MSG_ERROR carrying text (best effort, short timeout). */
void xp_ctl_send_error(int fd, int code, const char *text);

/* Receive a message that must be of `type`: the peer's ERROR and any
 * other type are errors naming `peer` ("server 10.0.0.2:5310: ...").
 * HEARTBEAT messages are skipped; the wait is timeout_ms in all. */
int xp_ctl_expect(int fd, struct xp_msg *m, int type, int timeout_ms, const char *peer,
		  struct xp_err *err);

#endif
