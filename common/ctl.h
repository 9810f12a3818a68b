/* SPDX-License-Identifier: BSD-2-Clause */
/* Control-channel I/O: one whole message at a time, with a deadline, on a
 * blocking or non-blocking socket.  The codec itself is in proto/. */
#ifndef XP_CTL_H
#define XP_CTL_H

#include "common/err.h"
#include "proto/msg.h"

int xp_ctl_send(int fd, const struct xp_msg *m, int timeout_ms,
		const char *peer, struct xp_err *err);

/* netperf's control messages are 656 bytes and its netserver answers as
 * soon as it has read that many.  A client's first message padded to that
 * size (xp_ctl_send_min) therefore gets an answer at once from a
 * netserver, which xp_ctl_recv recognises, instead of silence. */
#define XP_CTL_NETPERF_LEN 656

/* xp_ctl_send, padded (XP_MSG_TAG_PAD) to at least min_len bytes. */
int xp_ctl_send_min(int fd, const struct xp_msg *m, size_t min_len, int timeout_ms,
		    const char *peer, struct xp_err *err);

/* Receive one message.  A peer of another protocol version yields -1
 * with a message naming both versions (its ERROR text included if it
 * sent one); a netperf netserver's reply, -1 saying so.  An XP_MSG_ERROR of our version is returned as a message;
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
