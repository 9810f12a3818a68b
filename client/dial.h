/* SPDX-License-Identifier: BSD-2-Clause */
/* The client's control connection: resolved, from -B's address and port
 * and through --bind-dev's device (as the data flows), connected, and
 * authenticated with the key when there is one.  One test's connection
 * (client/client.c) or a MUX connection's (client/mux.c). */
#ifndef XP_CLIENT_DIAL_H
#define XP_CLIENT_DIAL_H

#include "common/auth.h"
#include "common/opts.h"
#include "common/sock.h"

struct xp_dial {
	struct xp_addr addr;  /* the server's */
	struct xp_addr local; /* -B's, for the data flows (len 0: none) */
	uint16_t lport;       /* -B's port: the control connection's (0: any) */
	char peer[96];        /* "10.0.0.2:5310" */
	char who[112];        /* "server 10.0.0.2:5310", for errors */
	int fd;               /* the connection, or -1 */
};

/* The addresses and names alone (d->fd -1): for a connection made
 * elsewhere (a MUX channel). */
int xp_client_dial_names(const struct xp_opts *o, const char *host, uint16_t port,
			 struct xp_dial *d, struct xp_err *err);
/* 0, or -1 with err (d->fd -1, or the connection still to close). */
int xp_client_dial(const struct xp_opts *o, const char *host, uint16_t port, int connect_ms,
		   const struct xp_auth_key *key, int auth_ms, struct xp_dial *d,
		   struct xp_err *err);

#endif
