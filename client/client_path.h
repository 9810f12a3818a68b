/* SPDX-License-Identifier: BSD-2-Clause */
/* The client's socket- and path-level options (-C, --set-mss, --tos,
 * --dscp, --flowlabel, -B, --cport, --bind-dev, --fastopen, --mptcp,
 * --sendfile, --connect-timeout): what this kernel must offer before the
 * test starts, what the client's sockets get, and what SETUP tells the
 * server. */
#ifndef XP_CLIENT_PATH_H
#define XP_CLIENT_PATH_H

#include "common/err.h"
#include "common/opts.h"
#include "common/sock.h"
#include "proto/msg.h"

/* This host has what o asks for (the congestion control, TCP Fast Open
 * for clients, MPTCP).  0, or -1 with a message naming what is missing. */
int xp_client_path_check(const struct xp_opts *o, struct xp_err *err);

/* The path options of the client's data sockets into so (its other
 * fields untouched); so->local is left for xp_client_local. */
void xp_client_path_sockopts(const struct xp_opts *o, struct xp_sockopts *so);

/* The socket and path fields of SETUP (tags 30..). */
void xp_client_path_setup(const struct xp_opts *o, struct xp_msg_setup *m);

/* -B/--bind resolved for a server of this family into *local (len 0:
 * none), and its port (0: none) for the control connection. */
int xp_client_local(const struct xp_opts *o, int family, struct xp_addr *local,
		    uint16_t *ctl_port, struct xp_err *err);

/* --connect-timeout in milliseconds. */
int xp_client_connect_ms(const struct xp_opts *o);

#endif
