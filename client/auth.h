/* SPDX-License-Identifier: BSD-2-Clause */
/* The client's side of the optional authentication (common/auth.h) and
 * the server's refusals that concern it. */
#ifndef XP_CLIENT_AUTH_H
#define XP_CLIENT_AUTH_H

#include "common/auth.h"
#include "common/err.h"
#include "proto/msg.h"

/* On a fresh control connection, before SETUP: AUTH_HELLO, the server's
 * challenge, our MAC, and the server's MAC checked (mutual).  who names
 * the server in errors ("server 10.0.0.2:5310").  0, or -1 with one clear
 * reason: the key is wrong, the server has none, or the server could not
 * prove it holds the key. */
int xp_client_auth(int fd, const struct xp_auth_key *key, const char *who,
		   int timeout_ms, struct xp_err *err);

/* xp_ctl_expect for the answer to SETUP, which may be the refusal of a
 * server that wants authentication: "server 10.0.0.2:5310 requires
 * authentication (--auth-file)". */
int xp_client_expect(int fd, struct xp_msg *m, int type, int timeout_ms,
		     const char *who, struct xp_err *err);

#endif
