/* SPDX-License-Identifier: BSD-2-Clause */
/* The netperf options that become xperf options, where whether they can
 * be honoured depends on the test or on another option: the test's -e
 * (--rr-timeout), -G (--set-mss), -F (--fastopen) and -P (--cport; the
 * remote port must be the control port), the global -F (--fill), the
 * test's -H (the data's target: the control host), and the local end,
 * global and test -L and -p's lport (-B ADDR:PORT).  The test is known
 * only once every option has been read (omni's direction and protocol),
 * so they are recorded while parsing and checked here: each is set where
 * it does what it says, and a usage error that says why where xperf
 * cannot do it.  Pure: no I/O. */
#include "client/netperf/options.h"

#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "proto/msg.h"

static const char *family_name(int f)
{
	return f == AF_INET6 ? "IPv6" : "IPv4";
}

/* A ",family" given with a host: xperf's control and data connections
 * have one address family. */
static int merge_family(struct xp_np_cfg *c, int fam, const char *what,
			struct xp_err *err)
{
	if (fam == AF_UNSPEC)
		return 0;
	if (c->family != AF_UNSPEC && c->family != fam)
		return xp_err_set(err, "%s: %s, but the server's address family is %s (xperf's "
				  "control and data connections use one)", what,
				  family_name(fam), family_name(c->family));
	c->family = fam;
	return 0;
}

/* The test's -H is the data's target; xperf sends data where the control
 * connection goes, so it must name that host (or, without a global -H,
 * becomes it). */
static int merge_target(struct xp_np_cfg *c, struct xp_err *err)
{
	if (c->data_host && c->host && !xp_np_same_host(c->data_host, c->host))
		return xp_err_set(err, "test option -H %s: xperf sends data to the control "
				  "host (-H %s)", c->data_host, c->host);
	if (c->data_host && !c->host)
		c->host = c->data_host;
	return merge_family(c, c->data_family, "test option -H", err);
}

/* The global -L is the control connection's source, the test's -L the
 * data's; xperf's -B binds both to one address. */
static int merge_local(struct xp_np_cfg *c, struct xp_err *err)
{
	int cf = c->ctl_local_family, df = c->data_local_family;

	if (c->ctl_local && c->data_local && !xp_np_same_host(c->ctl_local, c->data_local))
		return xp_err_set(err, "-L %s and test option -L %s: xperf's control and data "
				  "connections leave from one local address", c->ctl_local,
				  c->data_local);
	if (cf != AF_UNSPEC && df != AF_UNSPEC && cf != df)
		return xp_err_set(err, "-L: the global and the test option's address families "
				  "differ; xperf's connections use one");
	c->local_host = c->data_local ? c->data_local : c->ctl_local;
	return merge_family(c, df != AF_UNSPEC ? df : cf, "-L", err);
}

int xp_np_merge_hosts(struct xp_np_cfg *c, struct xp_err *err)
{
	return merge_target(c, err) || merge_local(c, err) ? -1 : 0;
}

/* -e: UDP_RR's receive timeout is xperf's --rr-timeout. */
static int map_timeout(struct xp_np_cfg *c, const struct xp_test *t, struct xp_err *err)
{
	if (!c->rcv_timeout)
		return 0;
	if (!(t->udp && t->rr))
		return xp_err_set(err, "-e %s: the receive timeout applies to UDP_RR (xperf "
				  "--rr-timeout), not %s", c->rcv_timeout, t->name);
	c->opts.rr_timeout = c->rcv_timeout_ns;
	return 0;
}

/* -D, -G and -F: TCP_NODELAY, TCP_MAXSEG before connect, TCP Fast Open. */
static int map_tcp(struct xp_np_cfg *c, const struct xp_test *t, struct xp_err *err)
{
	if (c->nodelay && t->udp)
		return xp_err_set(err, "-D: TCP_NODELAY applies to TCP tests, not %s", t->name);
	if (c->mss && t->udp)
		return xp_err_set(err, "-G %d: TCP_MAXSEG applies to TCP tests, not %s", c->mss,
				  t->name);
	if (c->fastopen && !(t->rr && !t->persistent))
		return xp_err_set(err, "-F: xperf's TCP Fast Open applies to TCP_CRR and "
				  "TCP_CC (the other tests connect once, before they are "
				  "timed), not %s", t->name);
	c->opts.set_mss = (uint64_t)c->mss;
	c->opts.fastopen = c->fastopen;
	return 0;
}

/* -P lport,rport: xperf's data goes to the control port; lport is the
 * data socket's source port (--cport). */
static int map_ports(struct xp_np_cfg *c, const struct xp_test *t, struct xp_err *err)
{
	int rp = c->data_rport, lp = c->data_lport;

	if (rp && rp != c->port)
		return xp_err_set(err, "-P ,%d: xperf sends data to the control port (-p %u), "
				  "not to a port of its own", rp, (unsigned)c->port);
	if (rp && !t->udp && (c->bufs_set & (XP_NP_RSS | XP_NP_RSR)))
		return xp_err_set(err, "-P ,%d: with -S the xperf server takes a TCP test's "
				  "data on a port it picks (its buffers set before the "
				  "handshake)", rp);
	if (!lp)
		return 0;
	if (!t->persistent)
		return xp_err_set(err, "-P %d: a fixed data source port does not apply to %s: "
				  "it opens a connection per transaction, and the port would "
				  "meet the last one's TIME_WAIT", lp, t->name);
	if (!t->udp && lp == c->lport)
		return xp_err_set(err, "-P %d: the control connection leaves from port %d too "
				  "(-p ,%d), and both go to the server's port %u", lp, lp, lp,
				  (unsigned)c->port);
	c->opts.cport = (uint64_t)lp;
	return 0;
}

int xp_np_bind(struct xp_np_cfg *c, int family)
{
	const char *h = c->local_host;

	if ((!h && !c->lport) || (!h && family == AF_UNSPEC))
		return 0;
	if (!h)
		h = family == AF_INET6 ? "::" : "0.0.0.0";
	if (!c->lport)
		snprintf(c->bind_buf, sizeof(c->bind_buf), "%s", h);
	else if (strchr(h, ':'))
		snprintf(c->bind_buf, sizeof(c->bind_buf), "[%s]:%d", h, c->lport);
	else
		snprintf(c->bind_buf, sizeof(c->bind_buf), "%s:%d", h, c->lport);
	c->opts.bind = c->bind_buf;
	return 0;
}

int xp_np_map_test_opts(struct xp_np_cfg *c, struct xp_err *err)
{
	const struct xp_test *t = xp_test(c->test);

	if (map_timeout(c, t, err) || map_tcp(c, t, err) || map_ports(c, t, err))
		return -1;
	/* -F lfill: where the client sends; a receive-only test, as netperf,
	 * only checks that the file opens (client/netperf/main.c) */
	if (c->fill[0] && (t->rr || !t->server_sends))
		c->opts.fill = c->fill;
	return xp_np_bind(c, c->family);
}
