/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/opts.h"

#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/netparse.h"
#include "common/units.h"
#include "common/tests.h"
#include "proto/msg.h"

enum xp_opt_kind { XP_K_FLAG, XP_K_STR, XP_K_SIZE, XP_K_UINT, XP_K_SECS, XP_K_SECS0,
		   XP_K_TEST, XP_K_RATE, XP_K_OSTR, XP_K_SECTION };

/* Where a section's options apply (XP_SECTION_FOR in opts.def). */
enum { ANY = 0, CLIENT, SERVER };

struct xp_opt_desc {
	char sc;
	const char *lname;
	enum xp_opt_kind kind;
	const char *meta;
	const char *def;
	uint64_t max;
	const char *help;
	size_t off;
	int side; /* sections: ANY, CLIENT or SERVER */
};

static const struct xp_opt_desc descs[] = {
#define XP_SECTION(title) \
	{ 0, NULL, XP_K_SECTION, NULL, NULL, 0, title, 0, ANY },
#define XP_SECTION_FOR(title, side) \
	{ 0, NULL, XP_K_SECTION, NULL, NULL, 0, title, 0, side },
#define XP_OPT(field, sc, lname, kind, meta, def, max, help) \
	{ sc, lname, XP_K_##kind, meta, def, max, help, \
	  offsetof(struct xp_opts, field), ANY },
#include "common/opts.def"
#undef XP_OPT
#undef XP_SECTION
#undef XP_SECTION_FOR
};

#define NDESCS (sizeof(descs) / sizeof(descs[0]))
#define LONG_ONLY_BASE 256

/* Store one value into the field the descriptor names. */
static int set_value(struct xp_opts *o, const struct xp_opt_desc *d,
		     const char *arg, struct xp_err *err)
{
	char what[48];
	void *p = (char *)o + d->off;
	uint64_t v;
	int t;

	snprintf(what, sizeof(what), "--%s", d->lname);
	switch (d->kind) {
	case XP_K_FLAG:
		*(int *)p = 1;
		return 0;
	case XP_K_OSTR:
		if (!arg) {
			*(const char **)p = ""; /* given without a value */
			return 0;
		}
		/* fall through */
	case XP_K_STR:
		if (!arg || !*arg)
			return xp_err_set(err, "%s: empty argument", what);
		*(const char **)p = arg;
		return 0;
	case XP_K_SIZE:
		if (xp_parse_size(arg, d->max, what, &v, err))
			return -1;
		*(uint64_t *)p = v;
		return 0;
	case XP_K_UINT:
		if (xp_parse_uint(arg, 0, d->max, what, &v, err))
			return -1;
		*(uint64_t *)p = v;
		return 0;
	case XP_K_SECS0: /* 0 (also 0.0) allowed */
		if (arg[0] == '0' && (arg[1] == '\0' ||
				      (arg[1] == '.' && arg[2 + strspn(arg + 2, "0")] == '\0'))) {
			*(uint64_t *)p = 0;
			return 0;
		}
		/* fall through */
	case XP_K_SECS:
		if (xp_parse_secs(arg, (double)d->max, what, &v, err))
			return -1;
		*(uint64_t *)p = v;
		return 0;
	case XP_K_RATE:
		if (xp_parse_rate(arg, d->max, what, &v, err))
			return -1;
		*(uint64_t *)p = v;
		return 0;
	case XP_K_TEST:
		t = xp_test_parse(arg);
		if (!t)
			return xp_err_set(err, "%s: unknown test '%s' (TCP_STREAM, "
					  "TCP_MAERTS, TCP_RR, TCP_CRR, UDP_STREAM, UDP_RR)",
					  what, arg);
		*(int *)p = t;
		return 0;
	case XP_K_SECTION:
		break;
	}
	return xp_err_set(err, "%s: internal: bad option kind", what);
}

void xp_opts_defaults(struct xp_opts *o)
{
	struct xp_err err;
	size_t i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < NDESCS; i++)
		if (descs[i].def && set_value(o, &descs[i], descs[i].def, &err))
			abort(); /* a bad default is a build bug, caught by tests */
}

static void build_getopt(struct option *lo, char *shorts)
{
	size_t i, n = 0, s = 0;

	for (i = 0; i < NDESCS; i++) {
		const struct xp_opt_desc *d = &descs[i];

		if (d->kind == XP_K_SECTION)
			continue;
		lo[n].name = d->lname;
		lo[n].has_arg = d->kind == XP_K_FLAG   ? no_argument
				: d->kind == XP_K_OSTR ? optional_argument
						       : required_argument;
		lo[n].flag = NULL;
		lo[n].val = d->sc ? d->sc : (int)(LONG_ONLY_BASE + i);
		n++;
		if (d->sc) {
			shorts[s++] = d->sc;
			if (d->kind != XP_K_FLAG)
				shorts[s++] = ':';
		}
	}
	memset(&lo[n], 0, sizeof(lo[n]));
	shorts[s] = 0;
}

static const struct xp_opt_desc *find_desc(int val)
{
	size_t i;

	if (val >= LONG_ONLY_BASE && (size_t)(val - LONG_ONLY_BASE) < NDESCS)
		return &descs[val - LONG_ONLY_BASE];
	for (i = 0; i < NDESCS; i++)
		if (descs[i].kind != XP_K_SECTION && descs[i].sc == val)
			return &descs[i];
	return NULL;
}

static int bad_option(int argc, char **argv, struct xp_err *err)
{
	const char *arg = optind - 1 < argc ? argv[optind - 1] : "?";

	if (optopt)
		return xp_err_set(err, "unknown option '-%c'", optopt);
	return xp_err_set(err, "unknown option '%s'", arg);
}

static int validate(struct xp_opts *o, const unsigned char *given, unsigned flags,
		    struct xp_err *err);

int xp_opts_parse(struct xp_opts *o, int argc, char **argv,
		  struct xp_err *err)
{
	return xp_opts_parse_flags(o, argc, argv, 0, err);
}

int xp_opts_parse_flags(struct xp_opts *o, int argc, char **argv, unsigned flags,
			struct xp_err *err)
{
	struct option lo[NDESCS + 1];
	char shorts[2 * NDESCS + 2];
	unsigned char given[NDESCS] = { 0 };
	int c;

	xp_opts_defaults(o);
	build_getopt(lo, shorts + 1);
	shorts[0] = ':'; /* report a missing argument as ':' */
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const struct xp_opt_desc *d;

		if (c == '?')
			return bad_option(argc, argv, err);
		if (c == ':')
			return xp_err_set(err, "option '%s' needs an argument",
					  argv[optind - 1]);
		d = find_desc(c);
		if (!d)
			return xp_err_set(err, "internal: option %d", c);
		if (set_value(o, d, optarg, err))
			return -1;
		given[d - descs] = 1;
	}
	if (optind < argc)
		return xp_err_set(err, "unexpected argument '%s'", argv[optind]);
	return validate(o, given, flags, err);
}

uint64_t xp_opts_req_size(const struct xp_opts *o)
{
	return o->msg_size ? o->msg_size : xp_test(o->test)->default_size;
}

uint64_t xp_opts_rsp_size(const struct xp_opts *o)
{
	if (!xp_test(o->test)->rr)
		return 0;
	return o->rsp_size ? o->rsp_size : xp_opts_req_size(o);
}

int xp_opts_nodelay(const struct xp_opts *o)
{
	const struct xp_test *t = xp_test(o->test);

	return o->nodelay || (t->bulk && !t->udp && !o->nagle);
}

/* Whether this side (remote: the server) sends a TCP bulk test's data. */
int xp_opts_tcp_sender(const struct xp_opts *o, int remote)
{
	const struct xp_test *t = xp_test(o->test);

	return t->bulk && !t->udp && t->server_sends == !!remote;
}

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
	if (o->rcvlowat && !tcp_bulk)
		return xp_err_set(err, "--rcvlowat applies to TCP_STREAM and TCP_MAERTS");
	if (o->no_gso && !(t->udp && t->bulk))
		return xp_err_set(err, "--no-gso applies to UDP_STREAM");
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

/* "-t/--test" or "--max-tests", for messages. */
static const char *opt_name(const struct xp_opt_desc *d, char *buf, size_t len)
{
	if (d->sc)
		snprintf(buf, len, "-%c/--%s", d->sc, d->lname);
	else
		snprintf(buf, len, "--%s", d->lname);
	return buf;
}

/* Whether the option stored at `off` was on the command line. */
static int was_given(const unsigned char *given, size_t off)
{
	size_t i;

	for (i = 0; i < NDESCS; i++)
		if (descs[i].kind != XP_K_SECTION && descs[i].off == off)
			return given[i];
	return 0;
}

#define GIVEN(field) was_given(given, offsetof(struct xp_opts, field))

/* An option given where it does nothing is a usage error: the options of
 * a client section with -s, those of the server section without it. */
static int validate_sides(const struct xp_opts *o, const unsigned char *given,
			  struct xp_err *err)
{
	int side = ANY;
	char n[48];
	size_t i;

	for (i = 0; i < NDESCS; i++) {
		if (descs[i].kind == XP_K_SECTION)
			side = descs[i].side;
		else if (given[i] && side == SERVER && !o->server)
			return xp_err_set(err, "%s is a server option (add -s)",
					  opt_name(&descs[i], n, sizeof(n)));
		else if (given[i] && side == CLIENT && o->server)
			return xp_err_set(err, "%s is a client option: the client sends the "
					  "test's parameters to the server (drop -s or the option)",
					  opt_name(&descs[i], n, sizeof(n)));
	}
	if (GIVEN(port) && !o->server && !o->client)
		return xp_err_set(err, "-p applies with -c or -s: without them the embedded "
				  "server takes a free port on loopback");
	return 0;
}

/* Test options that are given for a test they do not apply to. */
static int validate_applies(const struct xp_opts *o, const unsigned char *given,
			    struct xp_err *err)
{
	const struct xp_test *t = xp_test(o->test);

	if (o->server)
		return 0;
	if (GIVEN(warmup) && !t->rr)
		return xp_err_set(err, "--warmup applies to RR tests, not %s", t->name);
	if (GIVEN(rr_timeout) && !(t->rr && t->udp))
		return xp_err_set(err, "--rr-timeout applies to UDP_RR, not %s", t->name);
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
	if (GIVEN(burst) && !(t->rr && t->persistent))
		return xp_err_set(err, "--burst applies to TCP_RR and UDP_RR (for TCP_CRR use -P)");
	return 0;
}

/* -C, --set-mss, --fastopen, --mptcp, --sendfile: TCP and which tests. */
static int validate_tcp_opts(const struct xp_opts *o, const unsigned char *given,
			     struct xp_err *err)
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
static int validate_path(const struct xp_opts *o, const unsigned char *given,
			 struct xp_err *err)
{
	const struct xp_test *t = xp_test(o->test);
	char host[XP_HOST_MAX];
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
	if (o->cport && o->cport + o->flows - 1 > 65535)
		return xp_err_set(err, "--cport %llu with -P %llu: ports above 65535",
				  (unsigned long long)o->cport, (unsigned long long)o->flows);
	if (!t->udp && o->cport && bport >= o->cport && bport < o->cport + o->flows)
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
	return 0;
}

static int validate(struct xp_opts *o, const unsigned char *given, unsigned flags,
		    struct xp_err *err)
{
	int cpus[XP_CPUS_MAX];

	if (o->help || o->version)
		return 0;
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
	if (o->cpus && xp_parse_cpus(o->cpus, cpus, XP_CPUS_MAX, "--cpus", err) < 0)
		return -1;
	if (o->remote_cpus &&
	    xp_parse_cpus(o->remote_cpus, cpus, XP_CPUS_MAX, "--remote-cpus", err) < 0)
		return -1;
	if (o->remote_cpus && strlen(o->remote_cpus) > XP_MSG_STR_MAX)
		return xp_err_set(err, "--remote-cpus: list longer than %d characters",
				  XP_MSG_STR_MAX);
	if (!o->server && o->port == 0 && o->client)
		return xp_err_set(err, "-p: port 0 is not a server port");
	if (validate_sides(o, given, err) ||
	    (!(flags & XP_OPTS_MATRIX) && validate_applies(o, given, err)) ||
	    validate_tcp_opts(o, given, err) || validate_path(o, given, err) ||
	    validate_report(o, err) || validate_fast_paths(o, err))
		return -1;
	return validate_sizes(o, err);
}

int xp_opts_tos(const struct xp_opts *o)
{
	int v = -1;

	if (o->tos && xp_parse_tos(o->tos, "--tos", &v, NULL))
		return -1;
	if (o->dscp && !xp_parse_dscp(o->dscp, "--dscp", &v, NULL))
		v <<= 2;
	return v;
}

const char *xp_opts_timestamp_format(const struct xp_opts *o)
{
	if (!o->timestamps)
		return NULL;
	return o->timestamps[0] ? o->timestamps : "%c ";
}

static void usage_line(FILE *f, const struct xp_opt_desc *d)
{
	char left[64];
	int n;

	if (d->sc)
		n = snprintf(left, sizeof(left), "  -%c, --%s", d->sc, d->lname);
	else
		n = snprintf(left, sizeof(left), "      --%s", d->lname);
	if (d->meta && n > 0 && (size_t)n < sizeof(left))
		snprintf(left + n, sizeof(left) - (size_t)n,
			 d->kind == XP_K_OSTR ? "[=%s]" : " %s", d->meta);
	fprintf(f, "%-28s %s", left, d->help);
	if (d->def && strcmp(d->def, "0"))
		fprintf(f, " [%s]", d->def);
	fputc('\n', f);
}

void xp_opts_usage(FILE *f, const char *prog)
{
	size_t i;

	fprintf(f, "usage: %s -s [server options]\n"
		   "       %s -c HOST -t TEST [test options]\n"
		   "       %s -t TEST [test options]   (server in this process, on loopback)\n",
		prog, prog, prog);
	for (i = 0; i < NDESCS; i++) {
		if (descs[i].kind == XP_K_SECTION)
			fprintf(f, "\n%s:\n", descs[i].help);
		else
			usage_line(f, &descs[i]);
	}
	fprintf(f, "\nSizes take K, M, G suffixes (x1024).  Exit status: 0 success, "
		   "1 connection or test failure, 2 usage error, 3 an --slo bound missed.\n");
}

void xp_opts_list(FILE *f)
{
	size_t i;

	for (i = 0; i < NDESCS; i++) {
		if (descs[i].kind == XP_K_SECTION)
			continue;
		if (descs[i].sc)
			fprintf(f, "-%c|", descs[i].sc);
		fprintf(f, "--%s\n", descs[i].lname);
	}
}
