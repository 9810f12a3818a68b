/* SPDX-License-Identifier: BSD-2-Clause */
#include "client/client_path.h"

#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "common/netparse.h"
#include "common/sockpath.h"
#include "common/tests.h"

int xp_client_path_check(const struct xp_opts *o, struct xp_err *err)
{
	if (o->congestion && xp_cc_check(o->congestion, "client", err))
		return -1;
	if (o->fastopen && xp_tfo_check(1, "client", err))
		return -1;
	if (o->mptcp && xp_mptcp_check("client", err))
		return -1;
	return 0;
}

void xp_client_path_sockopts(const struct xp_opts *o, struct xp_sockopts *so)
{
	int tos = xp_opts_tos(o);

	if (o->congestion)
		snprintf(so->cc, sizeof(so->cc), "%s", o->congestion);
	so->tos_set = tos >= 0;
	so->tos = (uint8_t)(tos >= 0 ? tos : 0);
	so->mss = (uint32_t)o->set_mss;
	so->mptcp = o->mptcp;
	so->fastopen = o->fastopen;
	so->flowlabel = (uint32_t)o->flowlabel;
	so->bind_dev = o->bind_dev;
}

/* The server's data sockets get the congestion control and the TOS; the
 * MSS is the client's SYN's to advertise (a server socket accepted with
 * TCP_MAXSEG set later keeps the MSS of its handshake), and the other
 * options are about the sockets the client opens. */
void xp_client_path_setup(const struct xp_opts *o, struct xp_msg_setup *m)
{
	int tos = xp_opts_tos(o);

	if (o->congestion)
		snprintf(m->congestion, sizeof(m->congestion), "%s", o->congestion);
	m->tos = tos >= 0 ? XP_SETUP_TOS_SET | (uint64_t)tos : 0;
	m->sock_flags = (o->fastopen ? XP_SETUP_S_FASTOPEN : 0) |
			(o->sendfile ? XP_SETUP_S_SENDFILE : 0) |
			(o->mptcp ? XP_SETUP_S_MPTCP : 0);
}

int xp_client_local(const struct xp_opts *o, int family, struct xp_addr *local,
		    uint16_t *ctl_port, struct xp_err *err)
{
	char host[XP_HOST_MAX];

	memset(local, 0, sizeof(*local));
	*ctl_port = 0;
	if (!o->bind)
		return 0;
	if (xp_parse_hostport(o->bind, "-B/--bind", host, sizeof(host), ctl_port, err) ||
	    xp_resolve(host, 0, family, local, err))
		return xp_err_set(err, "-B/--bind %s: no IPv%d address (the server's address is "
				  "IPv%d)", o->bind, family == AF_INET6 ? 6 : 4,
				  family == AF_INET6 ? 6 : 4);
	return 0;
}

int xp_client_connect_ms(const struct xp_opts *o)
{
	uint64_t ms = o->connect_timeout / XP_NS_PER_MS;

	return ms ? (int)ms : 1;
}
