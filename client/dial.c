/* SPDX-License-Identifier: BSD-2-Clause */
/* The client's control connection (client/dial.h). */
#include "client/dial.h"

#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "client/auth.h"
#include "client/client_path.h"

static int family(const struct xp_opts *o)
{
	return o->ipv4 ? AF_INET : o->ipv6 ? AF_INET6 : AF_UNSPEC;
}

int xp_client_dial_names(const struct xp_opts *o, const char *host, uint16_t port,
			 struct xp_dial *d, struct xp_err *err)
{
	memset(d, 0, sizeof(*d));
	d->fd = -1;
	if (xp_resolve(host, port, family(o), &d->addr, err))
		return -1;
	xp_addr_str(&d->addr, d->peer, sizeof(d->peer));
	snprintf(d->who, sizeof(d->who), "server %s", d->peer);
	return xp_client_local(o, d->addr.ss.ss_family, &d->local, &d->lport, err);
}

int xp_client_dial(const struct xp_opts *o, const char *host, uint16_t port, int connect_ms,
		   const struct xp_auth_key *key, int auth_ms, struct xp_dial *d,
		   struct xp_err *err)
{
	struct xp_sockopts so;

	if (xp_client_dial_names(o, host, port, d, err))
		return -1;
	memset(&so, 0, sizeof(so));
	so.local = d->local;
	so.bind_dev = o->bind_dev;
	d->fd = xp_connect_tcp_port(&d->addr, &so, d->lport, connect_ms, err);
	if (d->fd < 0)
		return -1;
	return key ? xp_client_auth(d->fd, key, d->who, auth_ms, err) : 0;
}
