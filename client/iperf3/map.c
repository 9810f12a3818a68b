/* SPDX-License-Identifier: BSD-2-Clause */
/* The parsed iperf3 command line (client/iperf3/fe.h) as xperf runs it:
 * the options of xperf's table that carry the same meaning, and the
 * iperf3 client's configuration for the rest.  Pure. */
#include "client/iperf3/fe.h"

#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "common/tests.h"

/* What both ends take: the port, the address family, -B, -A, -V. */
static int common_opts(const struct xp_i3fe_cfg *c, struct xp_i3fe_run *r, struct xp_err *err)
{
	struct xp_opts *o = &r->o;

	o->port = c->port;
	o->ipv4 = c->family == AF_INET;
	o->ipv6 = c->family == AF_INET6;
	o->verbose = c->verbose;
	if (c->has_bind) {
		/* an IPv6 address takes brackets before xperf's :PORT */
		snprintf(r->bind, sizeof(r->bind), strchr(c->bind_addr, ':') ? "[%s]" : "%s",
			 c->bind_addr);
		o->bind = r->bind;
	}
	if (c->bind_dev[0])
		o->bind_dev = c->bind_dev;
	if (c->affinity >= 0) {
		snprintf(r->cpus, sizeof(r->cpus), "%d", c->affinity);
		o->cpus = r->cpus;
	}
	if (c->has_bind && c->bind_addr[0] == '[')
		return xp_err_set(err, "-B %s: give the address without brackets", c->bind_addr);
	return 0;
}

static void server_opts(const struct xp_i3fe_cfg *c, struct xp_opts *o)
{
	o->server = 1;
	o->daemon = c->daemon;
	o->one_off = c->one_off;
	o->pidfile = c->pidfile;
	o->logfile = c->logfile;
	if (c->idle_timeout)
		o->idle_timeout = (uint64_t)c->idle_timeout * XP_NS_PER_SEC;
}

/* -t, -n, -k: iperf3's -t 0 (or -n/-k alone) runs until the end
 * condition, bounded here by iperf3's longest test. */
static void length(const struct xp_i3fe_cfg *c, struct xp_opts *o)
{
	uint32_t t = c->time_s ? c->time_s : XP_I3FE_MAX_TIME;

	o->length = (uint64_t)t * XP_NS_PER_SEC;
}

static void client_opts(const struct xp_i3fe_cfg *c, struct xp_i3fe_run *r)
{
	struct xp_opts *o = &r->o;

	o->client = c->host;
	o->test = c->udp ? XP_UDP_STREAM : XP_TCP_STREAM;
	length(c, o);
	o->msg_size = c->len;
	o->flows = c->parallel;
	o->rate = c->rate;
	o->window = c->window;
	o->nodelay = c->nodelay;
	o->nagle = !c->nodelay; /* iperf3 leaves Nagle on unless -N */
	o->congestion = c->congestion;
	o->set_mss = c->mss;
	if (c->tos >= 0) {
		snprintf(r->tos, sizeof(r->tos), "%d", c->tos);
		o->tos = r->tos;
	}
	o->flowlabel = c->flowlabel;
	o->cport = c->cport;
	o->zerocopy = c->zerocopy;
	if (c->connect_timeout_ms)
		o->connect_timeout = (uint64_t)c->connect_timeout_ms * XP_NS_PER_MS;
	o->interval = (uint64_t)(c->interval * 1e9 + 0.5);
	o->json = c->json;
	o->json_stream = c->json_stream;
	o->timestamps = c->timestamps;
	o->logfile = c->logfile;
	o->reverse = c->reverse;
	o->bidir = c->bidir;
	o->omit = (uint64_t)c->omit * XP_NS_PER_SEC;
	o->bytes = c->bytes;
	o->count = c->blocks;
}

static void i3_cfg(const struct xp_i3fe_cfg *c, struct xp_i3fe_run *r)
{
	struct xp_i3_client_cfg *i = &r->i3;

	memset(i, 0, sizeof(*i));
	i->o = &r->o;
	i->udp = c->udp;
	i->reverse = c->reverse;
	i->bidir = c->bidir;
	i->udp64 = c->udp64;
	i->omit_s = c->omit;
	i->num = c->bytes;
	i->blockcount = c->blocks;
	i->server_affinity = c->server_affinity;
	i->burst = c->burst;
	i->fqrate = c->fqrate;
	i->pacing_timer = c->pacing_timer;
	i->get_server_output = c->get_server_output;
	i->repeating_payload = c->repeating_payload;
	i->dont_fragment = c->dont_fragment;
	i->zerocopy = c->zerocopy;
	i->extra_data = c->extra_data;
}

int xp_i3fe_to_run(const struct xp_i3fe_cfg *c, struct xp_i3fe_run *r, struct xp_err *err)
{
	memset(r, 0, sizeof(*r));
	xp_opts_defaults(&r->o);
	if (common_opts(c, r, err))
		return -1;
	if (c->server) {
		server_opts(c, &r->o);
		return 0;
	}
	client_opts(c, r);
	i3_cfg(c, r);
	if (c->bytes && c->blocks)
		return xp_err_set(err, "only one test end condition (-t, -n, -k) may be specified");
	return 0;
}
