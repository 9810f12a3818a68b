/* SPDX-License-Identifier: BSD-2-Clause */
/* The MUX pump (proto/mux.h): one thread that carries several tests'
 * control conversations over one TCP control connection.  Each channel is
 * a local stream socket (one end of a socketpair) whose other end the
 * test's code reads and writes exactly as it would a control connection
 * of its own; the pump frames what it reads from a channel and unframes
 * what the connection brings.  The client opens its channels before the
 * pump starts; the server's pump asks open() for a channel when the
 * client's first frame on it arrives.  Closing a channel's end (or a
 * CLOSE frame from the peer) ends that channel alone; the connection
 * ending ends them all. */
#ifndef XP_COMMON_MUX_H
#define XP_COMMON_MUX_H

#include <stdint.h>

#include "common/err.h"
#include "proto/mux.h"

struct xp_mux_pump {
	int tcp;                 /* the control connection */
	uint32_t n;              /* channels 1..n */
	int fd[XP_MUX_CHANNELS_MAX + 1];     /* our end of each: -1 not open, or closed */
	uint8_t used[XP_MUX_CHANNELS_MAX + 1]; /* opened once (never again) */
	/* the server: the peer's first frame on channel chan; its local end,
	 * or -1 (no room: the channel is closed at once).  NULL: the peer
	 * opens no channels (the client) */
	int (*open)(void *ctx, uint16_t chan);
	void *ctx;
	uint64_t idle_ns;        /* no channel open this long: the end (0: never) */
	const char *peer;        /* "client 10.0.0.1:41234", for errors */
	struct xp_err err;       /* why it ended, when not cleanly */
	uint8_t *in;             /* from the connection: frames */
	size_t in_len;
	uint8_t *cin;            /* from each channel: XP_MUX_FRAME_MAX each, a head's room first */
	size_t cin_len[XP_MUX_CHANNELS_MAX + 1];
};

/* Channels' ends all -1 and the buffers allocated.  0, or -1 (out of memory). */
int xp_mux_pump_init(struct xp_mux_pump *p, int tcp, uint32_t n, const char *peer,
		     struct xp_err *err);
/* Carry frames until the connection ends, or every channel has been
 * opened and closed again, or idle_ns with none open.  0: a clean end;
 * -1: p->err says why (the peer's ERROR on channel 0, a bad frame, a
 * send that failed).  Channel ends still open are closed on return. */
int xp_mux_pump_run(struct xp_mux_pump *p);
/* The server: ERROR (code, text) on channel 0, best effort. */
void xp_mux_pump_error(struct xp_mux_pump *p, int code, const char *text);
void xp_mux_pump_free(struct xp_mux_pump *p);

#endif
