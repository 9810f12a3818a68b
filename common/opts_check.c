/* SPDX-License-Identifier: BSD-2-Clause */
/* Validation of the options, right after parsing, in one place: sizes,
 * the fast paths, the socket and path options, the report options, and
 * the rule that an option given where it does nothing (on the other side,
 * or for a test it does not apply to) is a usage error. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/netparse.h"
#include "common/cpu.h"
#include "common/opts_int.h"
#include "common/tests.h"
#include "common/units.h"
#include "proto/msg.h"

static int validate_sizes(const struct xp_opts *o, struct xp_err *err)
{
	uint64_t req = xp_opts_req_size(o), rsp = xp_opts_rsp_size(o);

	const struct xp_test *t = xp_test(o->test);

	if (o->rsp_size && !t->rr)
		return xp_err_set(err, "-M applies to RR tests only, not %s",
				  xp_test_name(o->test));
	if (!req)
		return xp_err_set(err, "-m: size must be at least 1");
	if (req < t->min_size)
		return xp_err_set(err, "-m: %s datagrams carry a 64-bit "
				  "sequence number: size must be at least %u, not %llu",
				  t->name, t->min_size, (unsigned long long)req);
	if (t->max_size && (req > t->max_size || rsp > t->max_size))
		return xp_err_set(err, "-m/-M: a UDP datagram holds at most %u "
				  "bytes", t->max_size);
	return 0;
}

static int validate_fast_paths(const struct xp_opts *o, struct xp_err *err)
{
	const struct xp_test *t = xp_test(o->test);
	int tcp_bulk = t->bulk && !t->udp, persistent_rr = t->rr && t->persistent;
	uint64_t k = xp_opts_req_size(o) < xp_opts_rsp_size(o) ? xp_opts_req_size(o)
							      : xp_opts_rsp_size(o);

	if (o->rate && !t->bulk)
		return xp_err_set(err, "-b applies to stream tests, not %s", xp_test_name(o->test));
	if (o->zerocopy && !tcp_bulk)
		return xp_err_set(err, "--zerocopy applies to TCP_STREAM and TCP_MAERTS");
	if (o->no_gso && !(t->udp && t->bulk))
		return xp_err_set(err, "--no-gso applies to UDP_STREAM and UDP_MAERTS");
	if (o->tps && !persistent_rr)
		return xp_err_set(err, "--rate applies to TCP_RR and UDP_RR");
	if (o->tps && o->burst > 1)
		return xp_err_set(err, "--rate and --burst exclude each other");
	if (o->tps && o->tps < o->flows)
		return xp_err_set(err, "--rate %llu: below one transaction per second per flow",
				  (unsigned long long)o->tps);
	if (!o->burst || !o->pace_burst)
		return xp_err_set(err, "--burst and --pace-burst: at least 1");
	if (o->burst > 1 && !persistent_rr)
		return xp_err_set(err, "--burst applies to TCP_RR and UDP_RR (for TCP_CRR use -P)");
	/* UDP_RR ids are the first min(8, -m, -M) bytes: keep them unique
	 * across the outstanding window */
	if (t->udp && t->rr && k < 8 && o->burst > (1ull << (8 * k - 1)))
		return xp_err_set(err, "--burst %llu: with %llu-byte UDP_RR messages at most "
				  "%llu outstanding", (unsigned long long)o->burst,
				  (unsigned long long)k, 1ull << (8 * k - 1));
	return 0;
}

/* --sweep, --csv and --plot: what they combine with. */
static int validate_reports(const struct xp_opts *o, struct xp_err *err)
{
	if (o->csv && !o->sweep.n)
		return xp_err_set(err, "--csv goes with --sweep (one row per point)");
	if ((o->hosts || (o->client && strchr(o->client, ','))) &&
	    (o->iterations > 1 || o->sweep.n || o->json_stream || o->interval || o->plot ||
	     o->slo || o->histogram))
		return xp_err_set(err, "several servers (-c A,B or --hosts) report one merged "
				  "table: they do not combine with -I, --sweep, --json-stream, -i, "
				  "--plot, --slo or --histogram");
	if (o->hosts && o->server)
		return xp_err_set(err, "--hosts is a client option");
	if (o->agent && !o->auth_file)
		return xp_err_set(err, "--agent needs --auth-file: an agent acts only for "
				  "controllers that prove they hold the key");
	if (o->from && o->fill)
		return xp_err_set(err, "--fill does not combine with --from: an agent does not "
				  "open files a controller names");
	if (o->from && (!o->client || !o->auth_file || o->hosts || strchr(o->client, ',')))
		return xp_err_set(err, "--from needs -c TARGET (one server) and --auth-file");
	if (o->from && (o->iterations > 1 || o->sweep.n || o->json_stream || o->interval ||
			o->plot || o->slo || o->histogram || o->logfile))
		return xp_err_set(err, "--from reports one merged table: it does not combine "
				  "with -I, --sweep, --json-stream, -i, --plot, --slo, --histogram "
				  "or --logfile");
	if (!o->sweep.n)
		return 0;
	if (o->json_stream || o->interval || o->slo || o->histogram)
		return xp_err_set(err, "--sweep reports one table: it does not combine with "
				  "--json-stream, -i, --slo or --histogram");
	if (o->server)
		return xp_err_set(err, "--sweep is a client option");
	return 0;
}

/* "-t/--test" or "--max-tests", for messages. */
static const char *opt_name(const struct xp_opt_desc *d, char *buf, size_t len)
{
	if (d->sc)
		snprintf(buf, len, "-%c/--%s", d->sc, d->lname);
	else
		snprintf(buf, len, "--%s", d->lname);
	return buf;
}

#define GIVEN(field) xp_opts_given(o, field)

/* An option given where it does nothing is a usage error: the options of
 * a client section with -s, those of the server section without it. */
static int validate_sides(const struct xp_opts *o, struct xp_err *err)
{
	int side = XP_SIDE_ANY, given;
	char n[48];
	size_t i;

	for (i = 0; i < xp_opt_ndescs; i++) {
		given = xp_opt_descs[i].idx >= 0 && o->given[xp_opt_descs[i].idx];
		if (xp_opt_descs[i].kind == XP_K_SECTION)
			side = xp_opt_descs[i].side;
		else if (given && side == XP_SIDE_SERVER && !o->server)
			return xp_err_set(err, "%s is a server option (add -s)",
					  opt_name(&xp_opt_descs[i], n, sizeof(n)));
		else if (given && side == XP_SIDE_CLIENT && o->server)
			return xp_err_set(err, "%s is a client option: the client sends the "
					  "test's parameters to the server (drop -s or the option)",
					  opt_name(&xp_opt_descs[i], n, sizeof(n)));
	}
	if (GIVEN(port) && !o->server && !o->client)
		return xp_err_set(err, "-p applies with -c or -s: without them the embedded "
				  "server takes a free port on loopback");
	return 0;
}

/* Test options that are given for a test they do not apply to. */
static int validate_applies(const struct xp_opts *o, struct xp_err *err)
{
	const struct xp_test *t = xp_test(o->test);

	if (o->server)
		return 0;
	/* --warmup with a stream test: xp_opts_validate_shape */
	if (GIVEN(rr_timeout) && !(t->rr && t->udp))
		return xp_err_set(err, "--rr-timeout applies to UDP_RR, not %s", t->name);
	if (o->fill && t->server_sends && !t->rr && !o->bidir)
		return xp_err_set(err, "--fill: the client sends nothing in %s (the server "
				  "sends, and its bytes are zeros)", t->name);
	if (GIVEN(pace_burst) && !(t->udp && t->bulk && o->rate))
		return xp_err_set(err, "--pace-burst applies to UDP_STREAM with -b");
	if (o->nagle && !(t->bulk && !t->udp))
		return xp_err_set(err, "--nagle applies to TCP_STREAM and TCP_MAERTS (Nagle "
				  "is on in RR tests unless -N)");
	if (o->nodelay && t->udp)
		return xp_err_set(err, "-N/--nodelay applies to TCP tests, not %s", t->name);
	if ((GIVEN(percentiles) || o->histogram) && !t->rr)
		return xp_err_set(err, "--percentiles and --histogram apply to RR tests (%s "
				  "times no round trips)", t->name);
	if (GIVEN(confidence) && o->iterations < 2)
		return xp_err_set(err, "--confidence applies with -I/--iterations 2 or more");
	/* the same for values that mean "off" and are not errors below */
	if (GIVEN(rsp_size) && !t->rr)
		return xp_err_set(err, "-M applies to RR tests only, not %s", t->name);
	if (GIVEN(rcvlowat) && !(t->bulk && !t->udp))
		return xp_err_set(err, "--rcvlowat applies to TCP_STREAM and TCP_MAERTS");
	if (GIVEN(read_size) && !(t->bulk && !t->udp))
		return xp_err_set(err, "--read-size applies to TCP_STREAM and TCP_MAERTS");
	if (GIVEN(burst) && !(t->rr && t->persistent))
		return xp_err_set(err, "--burst applies to TCP_RR and UDP_RR (for TCP_CRR use -P)");
	return 0;
}

/* -C, --set-mss, --fastopen, --mptcp, --sendfile: TCP and which tests. */
static int validate_tcp_opts(const struct xp_opts *o, struct xp_err *err)
{
	const struct xp_test *t = xp_test(o->test);
	int tcp_bulk = t->bulk && !t->udp;

	if (o->congestion && t->udp)
		return xp_err_set(err, "-C/--congestion applies to TCP tests, not %s", t->name);
	if (o->congestion && strlen(o->congestion) >= XP_CC_NAME_MAX)
		return xp_err_set(err, "-C/--congestion: '%s': a name has at most %d "
				  "characters", o->congestion, XP_CC_NAME_MAX - 1);
	if (GIVEN(set_mss) && t->udp)
		return xp_err_set(err, "--set-mss applies to TCP tests, not %s", t->name);
	if (GIVEN(set_mss) && o->set_mss < 88)
		return xp_err_set(err, "--set-mss %llu: the kernel takes 88-32767",
				  (unsigned long long)o->set_mss);
	if (o->fastopen && !(t->rr && !t->persistent))
		return xp_err_set(err, "--fastopen applies to TCP_CRR (the other tests connect "
				  "once, before the measurement)");
	if (o->mptcp && t->udp)
		return xp_err_set(err, "--mptcp applies to TCP tests, not %s", t->name);
	if (o->mptcp && (o->zerocopy || o->busy_poll || (o->rate && tcp_bulk)))
		return xp_err_set(err, "--mptcp excludes -Z, --busy-poll and -b: MPTCP sockets "
				  "refuse SO_ZEROCOPY, SO_BUSY_POLL and SO_MAX_PACING_RATE");
	if (o->sendfile && !tcp_bulk)
		return xp_err_set(err, "--sendfile applies to TCP_STREAM and TCP_MAERTS");
	if (o->sendfile && o->zerocopy)
		return xp_err_set(err, "--sendfile and -Z/--zerocopy exclude each other");
	return 0;
}

/* --tos, --dscp, --flowlabel, --bind, --cport, --bind-dev. */
static int validate_path(const struct xp_opts *o, struct xp_err *err)
{
	const struct xp_test *t = xp_test(o->test);
	char host[XP_HOST_MAX];
	uint64_t nflows = xp_opts_flows_total(o); /* --bidir: twice -P */
	uint16_t bport = 0;
	int v;

	if (o->tos && o->dscp)
		return xp_err_set(err, "--tos and --dscp exclude each other");
	if ((o->tos && xp_parse_tos(o->tos, "--tos", &v, err)) ||
	    (o->dscp && xp_parse_dscp(o->dscp, "--dscp", &v, err)))
		return -1;
	if (GIVEN(flowlabel) && !o->flowlabel)
		return xp_err_set(err, "--flowlabel: 1-1048575");
	if (o->flowlabel && !o->ipv6 && !(o->client && strchr(o->client, ':')))
		return xp_err_set(err, "--flowlabel is IPv6 only: add -6 (or give -c an IPv6 "
				  "address)");
	if (o->bind && xp_parse_hostport(o->bind, "-B/--bind", host, sizeof(host), &bport,
					 err))
		return -1;
	if (o->bind && o->server && (bport || o->bind[0] == '['))
		return xp_err_set(err, "-B/--bind on the server is an address, without brackets "
				  "or port (the port is -p)");
	if (GIVEN(cport) && !o->cport)
		return xp_err_set(err, "--cport: 1-65535");
	if (o->cport && !t->persistent)
		return xp_err_set(err, "--cport does not apply to %s: it opens a connection per "
				  "transaction, and a fixed port would meet the last one's "
				  "TIME_WAIT", t->name);
	if (o->cport && o->cport + nflows - 1 > 65535)
		return xp_err_set(err, "--cport %llu with %llu flows: ports above 65535",
				  (unsigned long long)o->cport, (unsigned long long)nflows);
	if (!t->udp && o->cport && bport >= o->cport && bport < o->cport + nflows)
		return xp_err_set(err, "-B/--bind port %u is one of the --cport data ports",
				  bport);
	if (o->bind_dev && strlen(o->bind_dev) >= 16)
		return xp_err_set(err, "--bind-dev: '%s': an interface name has at most 15 "
				  "characters", o->bind_dev);
	return 0;
}

/* --timestamps and -f change the human report's interval lines and rates. */
static int validate_report(const struct xp_opts *o, struct xp_err *err)
{
	int human = !o->json && !o->json_stream;

	if (o->timestamps && (!o->interval || !human))
		return xp_err_set(err, "--timestamps prefixes the human interval lines: give -i "
				  "(and no --json or --json-stream)");
	if (o->timestamps && strlen(o->timestamps) > 64)
		return xp_err_set(err, "--timestamps: format longer than 64 characters");
	if (o->format && (strlen(o->format) != 1 || !xp_rate_format_ok(o->format[0])))
		return xp_err_set(err, "-f/--format: '%s': one of k, m, g, t (bits) or K, M, G, T "
				  "(bytes)", o->format);
	if (o->format && (xp_test(o->test)->rr || !human))
		return xp_err_set(err, "-f/--format applies to the human report of stream "
				  "tests (RR tests report transactions; JSON gives bits/s)");
	if (o->format && (o->hosts || (o->client && strchr(o->client, ','))))
		return xp_err_set(err, "-f/--format applies to one server's report; several "
				  "servers print the merged table of xperf merge");
	return 0;
}

int xp_opts_validate(struct xp_opts *o, unsigned flags, struct xp_err *err)
{
	int cpus[XP_CPUS_MAX];

	if (o->help || o->version)
		return 0;
	if (o->test != XP_RRUL && xp_opts_validate_shape(o, err))
		return -1;
	if (o->server && o->client)
		return xp_err_set(err, "-s and -c exclude each other");
	if (o->nagle && o->nodelay)
		return xp_err_set(err, "--nagle and --nodelay exclude each other");
	if (o->ipv4 && o->ipv6)
		return xp_err_set(err, "-4 and -6 exclude each other");
	if (!o->flows)
		return xp_err_set(err, "-P: at least one flow");
	if (!o->threads)
		return xp_err_set(err, "-T: at least one thread");
	if (o->cpus && strcmp(o->cpus, XP_CPUS_NONE) &&
	    xp_parse_cpus(o->cpus, cpus, XP_CPUS_MAX, "--cpus", err) < 0)
		return -1;
	if (o->remote_cpus && strcmp(o->remote_cpus, XP_CPUS_NONE) &&
	    xp_parse_cpus(o->remote_cpus, cpus, XP_CPUS_MAX, "--remote-cpus", err) < 0)
		return -1;
	if (o->remote_cpus && strlen(o->remote_cpus) > XP_MSG_STR_MAX)
		return xp_err_set(err, "--remote-cpus: list longer than %d characters",
				  XP_MSG_STR_MAX);
	if (!o->server && o->port == 0 && o->client)
		return xp_err_set(err, "-p: port 0 is not a server port");
	if (o->test == XP_RRUL && !o->server)
		return validate_sides(o, err) || xp_opts_validate_mixed(o, err) ||
		       xp_opts_validate_owd(o, err) ? -1 : 0;
	if (xp_opts_validate_mixed(o, err) || validate_sides(o, err) || (!(flags & XP_OPTS_MATRIX) && validate_applies(o, err)) ||
	    validate_tcp_opts(o, err) || validate_path(o, err) ||
	    validate_report(o, err) || validate_fast_paths(o, err) || validate_reports(o, err) ||
	    xp_opts_validate_owd(o, err))
		return -1;
	return validate_sizes(o, err);
}

