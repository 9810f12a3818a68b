/* SPDX-License-Identifier: BSD-2-Clause */
/* The one-way delay and kernel timestamp options (--one-way,
 * --kernel-timestamps): the tests they apply to and the message sizes
 * their stamps need (proto/msg.h XP_STAMP_*). */
#include <string.h>

#include "common/opts_int.h"
#include "common/tests.h"
#include "proto/msg.h"

typedef unsigned long long ull;

static int owd_sizes(const struct xp_opts *o, const struct xp_test *t, struct xp_err *err)
{
	uint64_t req = xp_opts_req_size(o), rsp = xp_opts_rsp_size(o);

	if (t->rr && t->udp && (req < 8 || rsp < 8 + XP_STAMP_RSP_LEN))
		return xp_err_set(err, "--one-way: a UDP_RR request carries an 8-byte id and its "
				  "response the id and the server's receive and send times: -m at "
				  "least 8 and -M (or -m without -M) at least %u, not %llu/%llu",
				  8 + XP_STAMP_RSP_LEN, (ull)req, (ull)rsp);
	if (t->rr && rsp < XP_STAMP_RSP_LEN)
		return xp_err_set(err, "--one-way: a %s response carries the server's receive "
				  "and send times (%u bytes): -M (or -m without -M) at least %u, "
				  "not %llu", t->name, XP_STAMP_RSP_LEN, XP_STAMP_RSP_LEN,
				  (ull)rsp);
	if (t->bulk && req < XP_UDP_STAMP_LEN)
		return xp_err_set(err, "--one-way: a %s datagram carries its send time after "
				  "its sequence number: -m at least %u, not %llu", t->name,
				  XP_UDP_STAMP_LEN, (ull)req);
	return 0;
}

static int validate_kts(const struct xp_opts *o, const struct xp_test *t, struct xp_err *err)
{
	if (!t->rr || !t->persistent)
		return xp_err_set(err, "--kernel-timestamps applies to TCP_RR and UDP_RR, not %s",
				  t->name);
	if (t->udp && (xp_opts_req_size(o) < 8 || xp_opts_rsp_size(o) < XP_STAMP_UKRSP))
		return xp_err_set(err, "--kernel-timestamps: a UDP_RR response carries the id "
				  "and the server's stamps: -m at least 8 and -M (or -m without "
				  "-M) at least %u, not %llu/%llu", XP_STAMP_UKRSP,
				  (ull)xp_opts_req_size(o), (ull)xp_opts_rsp_size(o));
	if (o->burst > 1 || o->tps)
		return xp_err_set(err, "--kernel-timestamps times one request outstanding per "
				  "flow: not with --burst or --rate");
	if (o->hosts || o->from || (o->client && strchr(o->client, ',')))
		return xp_err_set(err, "--kernel-timestamps applies to one server (not --hosts, "
				  "--from or -c A,B)");
	if (xp_opts_rsp_size(o) < XP_STAMP_KRSP_LEN)
		return xp_err_set(err, "--kernel-timestamps: a TCP_RR response carries the "
				  "server's stamps (%u bytes): -M (or -m without -M) at least %u, "
				  "not %llu", XP_STAMP_KRSP_LEN, XP_STAMP_KRSP_LEN,
				  (ull)xp_opts_rsp_size(o));
	return 0;
}

int xp_opts_validate_owd(const struct xp_opts *o, struct xp_err *err)
{
	const struct xp_test *t = xp_test(o->test);

	if (o->kernel_ts && !o->server && validate_kts(o, t, err))
		return -1;
	if (!o->one_way || o->server)
		return 0;
	if (o->hosts || o->from || (o->client && strchr(o->client, ',')))
		return xp_err_set(err, "--one-way applies to one server (not --hosts, --from "
				  "or -c A,B)");
	if (o->test == XP_RRUL) /* its probes: sizes made to fit (client/mixed/run.c) */
		return 0;
	if (!((t->rr && t->persistent) || t->udp))
		return xp_err_set(err, "--one-way applies to TCP_RR, UDP_RR, UDP_STREAM and "
				  "UDP_MAERTS, not %s", t->name);
	if (o->bidir)
		return xp_err_set(err, "--one-way does not combine with --bidir");
	if ((o->tps && !t->rr) || (o->burst > 1 && !t->udp))
		return xp_err_set(err, "--one-way does not combine with --rate in UDP bulk "
				  "tests (-b paces them), nor in TCP_RR with --burst (one "
				  "request outstanding)");
	return owd_sizes(o, t, err);
}
