/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's command line -> struct xp_np_cfg and the struct xp_opts of
 * the run.  The two option tables (global, and test-specific after "--")
 * are in client/netperf/options.c; the parser and the usage text here are
 * driven by them.  Pure: no I/O. */
#include "client/netperf/options.h"

#include <ctype.h>
#include <string.h>
#include <sys/socket.h>

#include "common/cpu.h"
#include "proto/msg.h"

#define UDP_MAX_PAYLOAD 65507

/* ---- parser ---- */

static const struct np_opt *find_opt(const struct np_opt *t, size_t n, char l)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].letter == l)
			return &t[i];
	return NULL;
}

/* One "-xyz" word at argv[*i]; may consume the next word. */
static int parse_word(struct xp_np_cfg *c, const struct np_opt *t, size_t n,
		      int argc, char **argv, int *i, const char *where,
		      struct xp_err *err)
{
	const char *p = argv[*i] + 1;

	for (; *p; p++) {
		const struct np_opt *o = find_opt(t, n, *p);
		const char *arg = NULL, *next = *i + 1 < argc ? argv[*i + 1] : NULL;

		if (!o)
			return xp_err_set(err, "invalid %s option -- '%c'", where, *p);
		if (o->refused)
			return xp_err_set(err, "-%c: %s is not supported by xperf", *p, o->help);
		if (o->kind == A_REQ) {
			if (p[1])
				arg = p + 1;
			else if (next)
				arg = argv[++*i];
			else
				return xp_err_set(err, "option '-%c' needs an argument", *p);
		} else if (o->kind == A_OPT_NUM && !p[1] && next &&
			   isdigit((unsigned char)*next)) {
			arg = argv[++*i];
		} else if (o->kind == A_OPT_SPEC && !p[1] && next && *next != '-') {
			arg = argv[++*i];
		}
		if (o->set && o->set(c, arg, err))
			return -1;
		if (!o->set && o->flag != NO_FLAG)
			*(int *)((char *)c + o->flag) = o->val;
		if (o->kind == A_REQ)
			break;
	}
	return 0;
}

static void join_command_line(struct xp_np_cfg *c, int argc, char **argv)
{
	size_t off = 0;
	int i;

	c->command_line[0] = 0;
	for (i = 0; i < argc && off < sizeof(c->command_line); i++) {
		int n = snprintf(c->command_line + off, sizeof(c->command_line) - off,
				 "%s%s", i ? " " : "", argv[i]);

		if (n < 0)
			break;
		off += (size_t)n;
	}
}

static void cfg_defaults(struct xp_np_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->port = XP_NP_PORT;
	c->test = XP_TCP_STREAM;
	c->length_ns = 10 * 1000000000ull;
	c->local_bind = c->remote_bind = -1;
	c->verbosity = 1;
	c->headers = 1;
	c->iter_min = c->iter_max = 1;
	c->family = AF_UNSPEC;
	c->tos[0] = c->tos[1] = -1;
	c->tos_applied[0] = c->tos_applied[1] = -1;
	c->omni_dir = -1;
}

static int is_rr(int t)
{
	return xp_test(t)->rr;
}

/* What xperf itself would refuse, said in netperf's terms. */
static int validate(const struct xp_np_cfg *c, struct xp_err *err)
{
	uint64_t req = c->req ? c->req : 1, rsp = c->rsp ? c->rsp : 1;
	uint64_t k = req < rsp ? req : rsp;
	const struct xp_test *t = xp_test(c->test);

	if (c->send_size && c->send_size < t->min_size)
		return xp_err_set(err, "-m %llu: xperf's %s datagrams carry a "
				  "64-bit sequence number: at least %u bytes",
				  (unsigned long long)c->send_size, t->name, t->min_size);
	if (t->max_size && (c->send_size > t->max_size ||
			    (t->rr && (req > t->max_size || rsp > t->max_size))))
		return xp_err_set(err, "a UDP datagram holds at most %u bytes",
				  t->max_size);
	if (t->rr && !t->persistent && c->burst)
		return xp_err_set(err, "-b applies to TCP_RR and UDP_RR");
	if (t->udp && t->rr && k < 8 &&
	    (uint64_t)c->burst + 1 > (1ull << (8 * k - 1)))
		return xp_err_set(err, "-b %d: with %llu-byte UDP_RR messages at most "
				  "%llu requests in flight", c->burst,
				  (unsigned long long)k, 1ull << (8 * k - 1));
	return 0;
}

/* A socket buffer netperf was asked for: 0 is the kernel's minimum, which
 * asking for 1 byte gives; xperf's 0 is the kernel's default. */
static uint64_t buf_asked(const struct xp_np_cfg *c, int bit, uint64_t v)
{
	return !(c->bufs_set & bit) ? 0 : v ? v : 1;
}

/* cfg -> the xperf options of the run (send size filled later). */
static int build_opts(struct xp_np_cfg *c, struct xp_err *err)
{
	struct xp_opts *o = &c->opts;
	const struct xp_test *t = xp_test(c->test);
	int stream = t->bulk && !t->udp;

	xp_opts_defaults(o);
	o->client = c->host;
	o->port = c->port;
	o->test = c->test;
	o->length = c->length_ns;
	o->warmup = 0; /* netperf measures from the first transaction */
	o->ipv4 = c->family == AF_INET;
	o->ipv6 = c->family == AF_INET6;
	if (is_rr(c->test)) {
		o->msg_size = c->req ? c->req : 1;
		o->rsp_size = c->rsp ? c->rsp : 1;
	}
	o->sndbuf = buf_asked(c, XP_NP_LSS, c->lss);
	o->rcvbuf = buf_asked(c, XP_NP_LSR, c->lsr);
	o->remote_sndbuf = buf_asked(c, XP_NP_RSS, c->rss);
	o->remote_rcvbuf = buf_asked(c, XP_NP_RSR, c->rsr);
	o->interval = c->demo ? c->demo_ns : 0;
	o->nodelay = c->nodelay;
	o->nagle = stream && !c->nodelay; /* netperf leaves Nagle on */
	if (t->rr && t->persistent)
		o->burst = (uint64_t)c->burst + 1;
	/* netperf and netserver run where the scheduler puts them unless -T
	 * binds them; so do the workers of both ends here */
	o->cpus = o->remote_cpus = XP_CPUS_NONE;
	if (c->local_bind >= 0) {
		snprintf(c->cpus_buf[0], sizeof(c->cpus_buf[0]), "%d", c->local_bind);
		o->cpus = c->cpus_buf[0];
	}
	if (c->remote_bind >= 0) {
		snprintf(c->cpus_buf[1], sizeof(c->cpus_buf[1]), "%d", c->remote_bind);
		o->remote_cpus = c->cpus_buf[1];
	}
	return xp_np_map_sockopts(c, err) || xp_np_map_test_opts(c, err) ? -1 : 0;
}

int xp_np_parse(struct xp_np_cfg *c, int argc, char **argv, struct xp_err *err)
{
	int i, in_test = 0;

	cfg_defaults(c);
	join_command_line(c, argc, argv);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--") && !in_test) {
			in_test = 1;
			continue;
		}
		if (a[0] != '-' || !a[1])
			return xp_err_set(err, "unexpected argument '%s'", a);
		if (parse_word(c, in_test ? xp_np_test_opts : xp_np_global_opts,
			       in_test ? xp_np_ntest : xp_np_nglobal, argc, argv, &i,
			       in_test ? "test" : "global", err))
			return -1;
	}
	if (xp_np_merge_hosts(c, err))
		return -1;
	if (!c->host)
		c->host = c->family == AF_INET6 ? "::1" : "localhost";
	if (c->action != XP_NP_RUN && c->action != XP_NP_CPU_RATE)
		return 0;
	if (xp_np_resolve_test(c, err) || validate(c, err) || build_opts(c, err))
		return -1;
	if (c->sel_spec && xp_np_spec_is_list(c->sel_spec))
		xp_np_select(c, c->sel_spec);
	else if (!c->sel_spec)
		xp_np_select_default(c);
	return 0;
}

void xp_np_fill_defaults(struct xp_np_cfg *c, uint64_t lss, uint64_t rss)
{
	uint64_t cap = xp_test(c->test)->max_size ? xp_test(c->test)->max_size : SIZE_MAX_NP;
	uint64_t m;

	if (is_rr(c->test))
		return;
	if (xp_test(c->test)->server_sends)
		m = c->remote_send_size ? c->remote_send_size : rss;
	else
		m = c->send_size ? c->send_size : lss;
	if (!m)
		m = 4096; /* netperf's choice when the buffer size is unknown */
	c->opts.msg_size = m > cap ? cap : m;
}

void xp_np_fill_read_size(struct xp_np_cfg *c, uint64_t lsr, uint64_t rsr)
{
	const struct xp_test *t = xp_test(c->test);
	uint64_t m;

	if (!t->bulk || t->udp)
		return;
	(void)lsr, (void)rsr; /* netperf's default; xperf's 1 MiB reads kept */
	m = t->server_sends ? c->local_recv_size : c->remote_recv_size;
	c->opts.read_size = m;
}

/* ---- usage ---- */

static void usage_table(FILE *f, const struct np_opt *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char left[40];

		snprintf(left, sizeof(left), "-%c %s", t[i].letter,
			 t[i].meta ? t[i].meta : "");
		fprintf(f, "    %-18s %s%s\n", left, t[i].help,
			t[i].refused ? ": not supported" : "");
	}
}

void xp_np_test_usage(FILE *f, const char *prog)
{
	fprintf(f, "\nUsage: %s [global options] -- [test options]\n\n"
		   "Test options (after --), for every test:\n", prog);
	usage_table(f, xp_np_test_opts, xp_np_ntest);
}

void xp_np_usage(FILE *f, const char *prog)
{
	fprintf(f, "\nUsage: %s [global options] -- [test options]\n"
		   "netperf's command line, run by xperf against an `xperf -s` "
		   "server.\n\nGlobal options:\n", prog);
	usage_table(f, xp_np_global_opts, xp_np_nglobal);
	fprintf(f, "\nTest options (after --):\n");
	usage_table(f, xp_np_test_opts, xp_np_ntest);
	fprintf(f, "\nSizes take K/M/G (x1024) or k/m/g (x1000).  For \"a,b\" "
		   "options a lone value sets\nboth, except -H -L -p -m -M which "
		   "set only the first.  Exit status: 0 success,\n1 usage, 255 "
		   "run failure.  See xperf(1), NETPERF COMPATIBILITY.\n");
}
