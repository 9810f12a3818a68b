/* SPDX-License-Identifier: BSD-2-Clause */
/* iperf3's control connection, as I/O: state bytes and length-prefixed
 * JSON messages with deadlines, on a blocking or non-blocking socket
 * (the byte formats are in proto/iperf3.h).  Every function returns 0,
 * or -1 with err naming `peer`. */
#ifndef XP_IPERF3_CTL_H
#define XP_IPERF3_CTL_H

#include <stdint.h>

#include "common/err.h"
#include "common/json.h"

int xp_i3_send_state(int fd, int state, const char *peer, struct xp_err *err);
/* One state byte (as the signed value) within timeout_ms. */
int xp_i3_recv_state(int fd, int timeout_ms, int *state, const char *peer,
		     struct xp_err *err);
/* The document in j (compact, its final newline left out), after its
 * length. */
int xp_i3_send_json(int fd, const struct xp_json *j, const char *peer, struct xp_err *err);
/* A length (1..max) and that many bytes into *text (malloc'ed, NUL
 * added; free it), within timeout_ms for the whole message. */
int xp_i3_recv_json(int fd, uint32_t max, int timeout_ms, char **text, uint32_t *len,
		    const char *peer, struct xp_err *err);
/* SERVER_ERROR with iperf3's error number and an errno (best effort). */
void xp_i3_send_error(int fd, int i3_errno, int sys_errno);
/* After a SERVER_ERROR byte: its two words, as "iperf3 error N" text
 * in err (always -1). */
int xp_i3_recv_error(int fd, const char *peer, struct xp_err *err);

#endif
