/* SPDX-License-Identifier: BSD-2-Clause */
/* Several tests over one control connection (proto/PROTOCOL.md section
 * 13): -t RRUL's parts.  xp_mux_open connects (and authenticates) once,
 * asks MUX for n channels and starts the pump (common/mux.h); each test
 * then takes a channel and runs on it exactly as on a connection of its
 * own (xp_client_hooks.chan). */
#ifndef XP_CLIENT_MUX_H
#define XP_CLIENT_MUX_H

#include "common/err.h"
#include "common/opts.h"
#include "common/sock.h"

/* One channel, taken by a test: it closes both descriptors. */
struct xp_mux_chan {
	int fd;   /* the channel: the test's control messages */
	int sock; /* a copy of the connection's socket (its TCP state) */
};

struct xp_mux;

/* NULL with err ("server 10.0.0.2:5310: ..."), or the connection. */
struct xp_mux *xp_mux_open(const struct xp_opts *o, const char *host, uint16_t port,
			   unsigned n, struct xp_err *err);
/* Channel k (1..n), once.  0, or -1 with err. */
int xp_mux_take(struct xp_mux *m, unsigned k, struct xp_mux_chan *c, struct xp_err *err);
/* Why the connection ended early, if it did ("" if not, or not yet). */
const char *xp_mux_error(struct xp_mux *m);
/* The channels not taken closed, the pump given a moment to carry the
 * last CLOSE frames, then the connection closed. */
void xp_mux_close(struct xp_mux *m);

#endif
