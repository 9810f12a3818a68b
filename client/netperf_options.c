/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's options: the global table and the test-specific one (after
 * "--"), each row naming the letter, its argument and what it does, with
 * the functions that apply them to struct xp_np_cfg.  The parser and the
 * usage text that the tables drive are in client/netperf_args.c.  Pure:
 * no I/O. */
#include "client/netperf_options.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "common/units.h"
#include "proto/msg.h"

#define FN(l, k, fn, meta, help) { l, k, fn, NO_FLAG, 0, meta, help }
#define IGN(l, k, meta, help) { l, k, NULL, NO_FLAG, 0, meta, help }
#define FLAG(l, k, field, v, meta, help) \
	{ l, k, NULL, offsetof(struct xp_np_cfg, field), v, meta, help }

/* ---- argument helpers ---- */

/* "a,b": fills a and b.  With both, a lone value sets both (netperf's
 * break_args); without, a lone value sets only a (break_args_explicit). */
static void split_pair(const char *s, int both, char *a, char *b, size_t len)
{
	const char *comma = strchr(s, ',');
	size_t n = comma ? (size_t)(comma - s) : strlen(s);

	if (n >= len)
		n = len - 1;
	memcpy(a, s, n);
	a[n] = 0;
	if (comma)
		snprintf(b, len, "%s", comma + 1);
	else
		snprintf(b, len, "%s", both ? a : "");
}

int xp_np_parse_size(const char *s, const char *what, uint64_t *out,
		     struct xp_err *err)
{
	char *end;
	unsigned long long v;
	uint64_t mult = 1;

	if (!s || !isdigit((unsigned char)*s))
		return xp_err_set(err, "%s: invalid size '%s'", what, s ? s : "");
	v = strtoull(s, &end, 10);
	switch (*end) {
	case 'K': mult = 1024; end++; break;
	case 'M': mult = 1024 * 1024; end++; break;
	case 'G': mult = 1024 * 1024 * 1024; end++; break;
	case 'k': mult = 1000; end++; break;
	case 'm': mult = 1000 * 1000; end++; break;
	case 'g': mult = 1000 * 1000 * 1000; end++; break;
	default: break;
	}
	if (*end)
		return xp_err_set(err, "%s: invalid size '%s'", what, s);
	if (v > SIZE_MAX_NP / mult)
		return xp_err_set(err, "%s: size '%s' above 1G", what, s);
	*out = v * mult;
	return 0;
}

static int parse_int(const char *s, long lo, long hi, const char *what, int *out,
		     struct xp_err *err)
{
	char *end;
	long v;

	if (!*s)
		return xp_err_set(err, "%s: empty value", what);
	v = strtol(s, &end, 10);
	if (*end || v < lo || v > hi)
		return xp_err_set(err, "%s: '%s' is not a number in [%ld, %ld]", what,
				  s, lo, hi);
	*out = (int)v;
	return 0;
}

/* Both halves of a "x,y" size pair, each optional. */
static int size_pair(const char *arg, int both, const char *what, uint64_t *a,
		     uint64_t *b, struct xp_err *err)
{
	char s1[64], s2[64];

	split_pair(arg, both, s1, s2, sizeof(s1));
	if (*s1 && xp_np_parse_size(s1, what, a, err))
		return -1;
	if (*s2 && xp_np_parse_size(s2, what, b, err))
		return -1;
	return 0;
}

static int parse_family(const char *s)
{
	if (strchr(s, '6'))
		return AF_INET6;
	if (strstr(s, "inet") || strchr(s, '4'))
		return AF_INET;
	return AF_UNSPEC;
}

/* ---- global options ---- */

static int set_host(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	const char *comma = strchr(arg, ',');

	if (!comma) {
		c->host = arg;
		return 0;
	}
	c->family = parse_family(comma + 1);
	if (comma == arg)
		return 0;
	if ((size_t)(comma - arg) >= sizeof(c->host_buf))
		return xp_err_set(err, "-H: host name too long");
	memcpy(c->host_buf, arg, (size_t)(comma - arg));
	c->host_buf[comma - arg] = 0;
	c->host = c->host_buf;
	return 0;
}

static int set_local(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	const char *comma = strchr(arg, ',');

	if (!comma) {
		c->local_host = arg;
		return 0;
	}
	if ((size_t)(comma - arg) >= sizeof(c->local_buf))
		return xp_err_set(err, "-L: name too long");
	memcpy(c->local_buf, arg, (size_t)(comma - arg));
	c->local_buf[comma - arg] = 0;
	c->local_host = comma == arg ? NULL : c->local_buf;
	return 0;
}

static int set_port(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	char p[64], lp[64];
	int v;

	split_pair(arg, 0, p, lp, sizeof(p));
	if (*p && parse_int(p, 1, 65535, "-p", &v, err))
		return -1;
	if (*p)
		c->port = (uint16_t)v;
	return 0; /* the local port (lp) is not used: xperf picks its own */
}

static int set_test(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	(void)err;
	return xp_np_set_test_name(c, arg);
}

/* -l 0 runs until SIGINT or SIGALRM, at most the longest test an xperf
 * server accepts by default. */
static int set_length(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	if (*arg == '-')
		return xp_err_set(err, "-l %s: tests of a byte or transaction count "
				  "(negative -l) are not supported; give seconds", arg);
	c->until_signal = strspn(arg, "0.") == strlen(arg);
	if (c->until_signal) {
		c->length_ns = XP_NP_MAX_SECS * 1000000000ull;
		return 0;
	}
	return xp_parse_secs(arg, XP_NP_MAX_SECS, "-l", &c->length_ns, err);
}

/* netperf takes any letter: x is transactions, an unknown one KBytes. */
static int set_fmt(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	if (strlen(arg) != 1 || !strchr("GMKgmkBbx", *arg))
		return xp_err_set(err, "-f %s: units are G, M, K (bytes), g, m, k or "
				  "b (bits), B (bytes), x (transactions)", arg);
	c->fmt = *arg;
	return 0;
}

static int set_demo(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	return xp_np_parse_demo(c, arg, err);
}

/* -Y loc[,rem] and -y loc[,rem]: a lone value sets both ends. */
static int set_tos(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	char l[64], r[64];

	(void)err;
	split_pair(arg, 1, l, r, sizeof(l));
	if (*l)
		c->tos[0] = xp_np_parse_tos(l);
	if (*r)
		c->tos[1] = xp_np_parse_tos(r);
	return 0;
}

static int set_prio(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	char l[64], r[64];

	split_pair(arg, 1, l, r, sizeof(l));
	if ((*l && parse_int(l, -1, 7, "-y", &c->prio[0], err)) ||
	    (*r && parse_int(r, -1, 7, "-y", &c->prio[1], err)))
		return -1;
	return 0;
}

/* -F lfill[,rfill]: netperf's remote name travels in 32 bytes. */
static int set_fill(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	char l[256], r[256];

	split_pair(arg, 0, l, r, sizeof(l));
	if (strlen(r) > 31)
		return xp_err_set(err, "Remote fill file name must be less than 32 "
				  "characters");
	snprintf(c->fill[0], sizeof(c->fill[0]), "%s", l);
	snprintf(c->fill[1], sizeof(c->fill[1]), "%s", r);
	return 0;
}

static int set_bind(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	char l[64], r[64];

	split_pair(arg, 1, l, r, sizeof(l));
	if (*l && parse_int(l, 0, XP_CPUS_MAX - 1, "-T", &c->local_bind, err))
		return -1;
	if (*r && parse_int(r, 0, XP_CPUS_MAX - 1, "-T", &c->remote_bind, err))
		return -1;
	return 0;
}

static int set_verbose(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	return parse_int(arg, 0, 100, "-v", &c->verbosity, err);
}

static int set_headers(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	return parse_int(arg, 0, 1000000, "-P", &c->headers, err);
}

static int set_brand(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	(void)err;
	c->brand = arg;
	return 0;
}

/* -i max,min: netperf clamps both to [3, 30] and max >= min. */
static int set_iter(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	char a[64], b[64];

	split_pair(arg, 1, a, b, sizeof(a));
	if (*a && parse_int(a, 0, 1000, "-i", &c->iter_max, err))
		return -1;
	if (*b && parse_int(b, 0, 1000, "-i", &c->iter_min, err))
		return -1;
	if (c->iter_max < c->iter_min)
		c->iter_max = c->iter_min;
	c->iter_max = c->iter_max < 3 ? 3 : c->iter_max > 30 ? 30 : c->iter_max;
	c->iter_min = c->iter_min < 3 ? 3 : c->iter_min > 30 ? 30 : c->iter_min;
	if (!c->conf_level)
		c->conf_level = 99;
	if (c->conf_width == 0)
		c->conf_width = 0.05;
	return 0;
}

/* -I level,width: level 95 or 99, width in percent of the mean. */
static int set_conf(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	char a[64], b[64], *end;
	double w;

	/* a lone value is the level only (netperf would also take it as the
	 * width: -I 99 would ask for +/-49.5%) */
	split_pair(arg, 0, a, b, sizeof(a));
	if (*a && parse_int(a, 0, 100, "-I", &c->conf_level, err))
		return -1;
	if (c->conf_level != 95 && c->conf_level != 99)
		return xp_err_set(err, "-I %s: the confidence level is 95 or 99", arg);
	if (*b) {
		w = strtod(b, &end);
		if (*end || w <= 0 || w >= 100)
			return xp_err_set(err, "-I %s: width '%s' is not a percentage",
					  arg, b);
		c->conf_width = w / 100;
	}
	if (c->iter_min == 1)
		c->iter_min = 3;
	if (c->iter_max == 1)
		c->iter_max = 10;
	if (c->conf_width == 0)
		c->conf_width = 0.05;
	return 0;
}

static int set_ncpus(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	return parse_int(arg, 1, 1 << 20, "-n", &c->ncpus, err);
}

static int set_wait(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	int v = 0;

	if (parse_int(arg, 0, 3600, "-s", &v, err))
		return -1;
	c->wait_secs = (unsigned)v;
	return 0;
}

static int no_control(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	(void)c, (void)arg;
	return xp_err_set(err, "-N: xperf always needs its control connection");
}

const struct np_opt xp_np_global_opts[] = {
	IGN('a', A_REQ, "send,recv", "local buffer alignment (ignored)"),
	IGN('A', A_REQ, "send,recv", "remote buffer alignment (ignored)"),
	IGN('b', A_REQ, "n", "interval burst (ignored)"),
	FN('B', A_REQ, set_brand, "brand", "string added to the result line with -P 0"),
	FLAG('c', A_OPT_NUM, local_cpu, 1, "[rate]", "report local CPU use and service demand"),
	FLAG('C', A_OPT_NUM, remote_cpu, 1, "[rate]", "report remote CPU use and service demand"),
	IGN('d', A_NONE, NULL, "debug output (ignored)"),
	FN('D', A_REQ, set_demo, "[-]secs[,units]", "interim results every secs seconds"),
	FN('f', A_REQ, set_fmt, "G|M|K|g|m|k|x", "throughput units (bytes: G M K B; bits: g m k b)"),
	FN('F', A_REQ, set_fill, "lfill[,rfill]", "fill files (checked and reported; xperf sends its own bytes)"),
	FLAG('h', A_NONE, action, XP_NP_HELP, NULL, "this text"),
	FN('H', A_REQ, set_host, "host[,family]", "the xperf server (default localhost)"),
	FN('i', A_REQ, set_iter, "max,min", "iterations for the confidence interval (3..30)"),
	FN('I', A_REQ, set_conf, "lvl[,width]", "confidence level 95|99 and width in % (99,5)"),
	IGN('j', A_NONE, NULL, "keep timing statistics (always kept)"),
	IGN('k', A_REQ, "dirty,clean", "dirty buffer counts (ignored)"),
	IGN('K', A_REQ, "dirty,clean", "remote dirty buffer counts (ignored)"),
	FN('l', A_REQ, set_length, "secs", "test length in seconds (default 10)"),
	FN('L', A_REQ, set_local, "host[,family]", "local address (shown in the banner only)"),
	FN('n', A_REQ, set_ncpus, "ncpu", "local CPU count for service demand"),
	FN('N', A_NONE, no_control, NULL, "no control connection (not supported)"),
	IGN('o', A_REQ, "send,recv", "local buffer offsets (ignored)"),
	IGN('O', A_REQ, "send,recv", "remote buffer offsets (ignored)"),
	FN('p', A_REQ, set_port, "port[,lport]", "server port (default 12865); lport ignored"),
	FN('P', A_REQ, set_headers, "0|1", "banner and headers off/on (default 1)"),
	FLAG('r', A_NONE, result_conf_only, 1, NULL, "confidence on the result only, not CPU"),
	FN('s', A_REQ, set_wait, "secs", "wait before the test"),
	IGN('S', A_NONE, NULL, "SO_KEEPALIVE (ignored)"),
	FN('t', A_REQ, set_test, "test",
	   "TCP_STREAM (default), TCP_MAERTS, TCP_RR, TCP_CRR, UDP_STREAM, UDP_RR, "
	   "omni, TCP_SENDFILE, TCP_CC, LOC_CPU, REM_CPU, uuid"),
	FN('T', A_REQ, set_bind, "lcpu[,rcpu]", "bind the local/remote workers to CPUs"),
	FN('v', A_REQ, set_verbose, "level", "0: the number only; 1: the table (default)"),
	FLAG('V', A_NONE, action, XP_NP_VERSION, NULL, "print the version"),
	IGN('w', A_REQ, "time", "interval wait (ignored)"),
	IGN('W', A_REQ, "send,recv", "buffer ring widths (ignored)"),
	FN('y', A_REQ, set_prio, "local,remote", "socket priority (reported, not set)"),
	FN('Y', A_REQ, set_tos, "local,remote", "IP TOS byte or DSCP name (xperf --tos, both ends)"),
	IGN('Z', A_REQ, "passphrase", "passphrase (ignored)"),
	FLAG('4', A_NONE, family, AF_INET, NULL, "IPv4"),
	FLAG('6', A_NONE, family, AF_INET6, NULL, "IPv6"),
};
const size_t xp_np_nglobal =
	sizeof(xp_np_global_opts) / sizeof(xp_np_global_opts[0]);

/* ---- test-specific options ---- */

/* -m, -M and -r also say which way omni's data goes when -d does not:
 * a local send size or a remote receive size means the client sends. */
static void imply(struct xp_np_cfg *c, const char *arg, int first, int second)
{
	const char *comma = strchr(arg, ',');

	if (comma != arg)
		c->implied_dir |= first;
	if (comma && comma[1])
		c->implied_dir |= second;
}

static int set_send(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	uint64_t rs = 0;

	if (size_pair(arg, 0, "-m", &c->send_size, &rs, err))
		return -1;
	if (rs)
		c->remote_send_size = rs;
	imply(c, arg, XP_NP_DIR_SEND, XP_NP_DIR_RECV);
	return 0;
}

static int set_recv(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	imply(c, arg, XP_NP_DIR_SEND, XP_NP_DIR_RECV);
	return size_pair(arg, 0, "-M", &c->remote_recv_size, &c->local_recv_size, err);
}

static int set_rr(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	c->implied_dir |= XP_NP_DIR_SEND | XP_NP_DIR_RECV;
	return size_pair(arg, 1, "-r", &c->req, &c->rsp, err);
}

/* -s/-S send[,recv]: 0 is a request too (the kernel's minimum). */
static int sock_pair(struct xp_np_cfg *c, const char *arg, const char *what, uint64_t *snd,
		     uint64_t *rcv, int bits, struct xp_err *err)
{
	char s1[64], s2[64];

	split_pair(arg, 1, s1, s2, sizeof(s1));
	if (*s1 && xp_np_parse_size(s1, what, snd, err))
		return -1;
	if (*s2 && xp_np_parse_size(s2, what, rcv, err))
		return -1;
	c->bufs_set |= (*s1 ? bits & (XP_NP_LSS | XP_NP_RSS) : 0) |
		       (*s2 ? bits & (XP_NP_LSR | XP_NP_RSR) : 0);
	return 0;
}

static int set_lsock(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	return sock_pair(c, arg, "-s", &c->lss, &c->lsr, XP_NP_LSS | XP_NP_LSR, err);
}

static int set_rsock(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	return sock_pair(c, arg, "-S", &c->rss, &c->rsr, XP_NP_RSS | XP_NP_RSR, err);
}

static int set_dir(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	return xp_np_parse_direction(arg, &c->omni_dir, err);
}

static int set_proto(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	return xp_np_parse_protocol(arg, &c->omni_udp, err);
}

static int set_burst(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	return parse_int(arg, 0, 1023, "-b", &c->burst, err);
}

static int set_cong(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	char l[64], r[64];

	(void)err;
	split_pair(arg, 1, l, r, sizeof(l));
	if (*l)
		snprintf(c->cong_buf[0], sizeof(c->cong_buf[0]), "%.31s", l);
	if (*r)
		snprintf(c->cong_buf[1], sizeof(c->cong_buf[1]), "%.31s", r);
	return 0;
}

static int set_data_ports(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	char l[64], r[64];
	int lp = 0, rp = 0;

	split_pair(arg, 1, l, r, sizeof(l));
	if ((*l && parse_int(l, 0, 65535, "-P", &lp, err)) ||
	    (*r && parse_int(r, 0, 65535, "-P", &rp, err)))
		return -1;
	if (*l)
		snprintf(c->data_port[0], sizeof(c->data_port[0]), "%d", lp);
	if (*r)
		snprintf(c->data_port[1], sizeof(c->data_port[1]), "%d", rp);
	return 0;
}

static int set_uuid(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	(void)err;
	c->uuid = arg;
	return 0;
}

static int set_output(struct xp_np_cfg *c, enum xp_np_mode mode, const char *arg)
{
	c->mode = mode;
	c->sel_spec = arg;
	if (arg && !strcmp(arg, "?"))
		c->action = mode == XP_NP_COLUMNS ? XP_NP_LIST_COLUMNS : XP_NP_LIST_CSV;
	return 0;
}

static int set_csv(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	(void)err;
	return set_output(c, XP_NP_CSV, arg);
}

static int set_keyval(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	(void)err;
	return set_output(c, XP_NP_KEYVAL, arg);
}

static int set_columns(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	(void)err;
	return set_output(c, XP_NP_COLUMNS, arg);
}

const struct np_opt xp_np_test_opts[] = {
	IGN('a', A_NONE, NULL, "TCP_DEFER_ACCEPT (ignored)"),
	FN('b', A_REQ, set_burst, "n", "RR: n more requests in flight (xperf --burst n+1)"),
	IGN('B', A_NONE, NULL, "IP_PKTINFO (ignored)"),
	FLAG('c', A_NONE, omni_conn, 1, NULL, "omni: a connection test (TCP_CRR; with -d 0 TCP_CC)"),
	IGN('C', A_NONE, NULL, "TCP_CORK (ignored)"),
	FN('d', A_REQ, set_dir, "dir", "omni direction: send, recv, rr, or netperf's bits 2|4"),
	FLAG('D', A_NONE, nodelay, 1, NULL, "TCP_NODELAY on both ends"),
	IGN('e', A_REQ, "secs", "receive timeout (ignored: xperf's UDP_RR counts lost requests)"),
	IGN('f', A_NONE, NULL, "IP_MTU_DISCOVER (ignored)"),
	IGN('F', A_NONE, NULL, "TCP fast open (ignored)"),
	IGN('g', A_NONE, NULL, "SO_DEBUG (ignored)"),
	IGN('G', A_REQ, "mss", "TCP_MAXSEG (ignored)"),
	FLAG('h', A_NONE, action, XP_NP_TEST_HELP, NULL, "this text"),
	IGN('H', A_REQ, "host[,fam]", "data connection target (ignored: the -H host)"),
	IGN('i', A_REQ, "n", "check interval (ignored, as netperf does)"),
	IGN('I', A_NONE, NULL, "use write() (ignored)"),
	IGN('j', A_REQ, "n", "parallel connections (ignored)"),
	FN('k', A_OPT_SPEC, set_keyval, "[sel]", "NAME=value lines for the selectors ('?' lists them)"),
	FN('K', A_REQ, set_cong, "loc[,rem]", "congestion control (xperf -C, both ends)"),
	IGN('l', A_REQ, "ttl", "multicast TTL (ignored)"),
	IGN('L', A_REQ, "host[,fam]", "data connection source (ignored)"),
	FN('m', A_REQ, set_send, "loc[,rem]", "send size, local and remote (TCP_MAERTS)"),
	FN('M', A_REQ, set_recv, "rem[,loc]", "receive sizes (reported, not used)"),
	IGN('n', A_NONE, NULL, "connected UDP locally (always)"),
	IGN('N', A_NONE, NULL, "connected UDP remotely (always)"),
	FN('o', A_OPT_SPEC, set_csv, "[sel]", "CSV: a header line of labels, a line of values"),
	FN('O', A_OPT_SPEC, set_columns, "[sel]", "columns with four header lines"),
	IGN('p', A_REQ, "min[,max]", "TCP_CRR port range (ignored)"),
	FN('P', A_REQ, set_data_ports, "loc[,rem]", "data ports (banner only; xperf uses -p)"),
	IGN('q', A_REQ, "rate", "pacing rate (ignored)"),
	FN('r', A_REQ, set_rr, "req[,rsp]", "RR request and response sizes (default 1,1)"),
	IGN('R', A_REQ, "0|1", "allow routing (ignored)"),
	FN('s', A_REQ, set_lsock, "send[,recv]", "local socket buffers"),
	FN('S', A_REQ, set_rsock, "send[,recv]", "remote socket buffers"),
	FN('t', A_REQ, set_proto, "stream|dgram", "omni socket type (dgram: UDP)"),
	FN('T', A_REQ, set_proto, "tcp|udp", "omni protocol"),
	FN('u', A_REQ, set_uuid, "uuid", "the UUID selector's value"),
	IGN('U', A_NONE, NULL, "retry failed connects (ignored)"),
	IGN('V', A_NONE, NULL, "copy avoidance (ignored)"),
	IGN('w', A_REQ, "n", "interval wait (ignored)"),
	IGN('W', A_REQ, "n", "send width (ignored)"),
	FLAG('4', A_NONE, family, AF_INET, NULL, "IPv4"),
	FLAG('6', A_NONE, family, AF_INET6, NULL, "IPv6"),
};
const size_t xp_np_ntest =
	sizeof(xp_np_test_opts) / sizeof(xp_np_test_opts[0]);
