/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's global options: the table, each row naming the letter, its
 * argument and what it does, with the functions that apply them to struct
 * xp_np_cfg (the value syntax: client/netperf/values.c).  The parser and the usage
 * text that the tables drive are in client/netperf/args.c.  An option
 * xperf cannot honour is refused (a usage error that says so), never
 * accepted and dropped.  Pure: no I/O. */
#include "client/netperf/options.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "common/units.h"
#include "proto/msg.h"



/* ---- global options ---- */

/* -H host[,family]: the server (control and data, xperf's -c). */
static int set_host(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	const char *h;
	int fam;

	if (xp_np_host_family(arg, "-H", c->host_buf, sizeof(c->host_buf), &h, &fam, err))
		return -1;
	if (h)
		c->host = h;
	if (fam != AF_UNSPEC)
		c->family = fam;
	return 0;
}

/* -L host[,family]: where the control connection leaves from (and the
 * data's too without a test -L, as in netperf). */
static int set_local(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	const char *h;
	int fam;

	if (xp_np_host_family(arg, "-L", c->local_buf, sizeof(c->local_buf), &h, &fam, err))
		return -1;
	if (h)
		c->ctl_local = h;
	if (fam != AF_UNSPEC)
		c->ctl_local_family = fam;
	return 0;
}

/* -p port[,lport]: the server's port, and the control connection's own. */
static int set_port(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	char p[64], lp[64];
	int v;

	xp_np_split_pair(arg, 0, p, lp, sizeof(p));
	if (*p && xp_np_parse_int(p, 1, 65535, "-p", &v, err))
		return -1;
	if (*p)
		c->port = (uint16_t)v;
	if (*lp && xp_np_parse_int(lp, 0, 65535, "-p", &c->lport, err))
		return -1;
	return 0;
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

/* -Y loc[,rem]: a lone value sets both ends. */
static int set_tos(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	char l[64], r[64];

	(void)err;
	xp_np_split_pair(arg, 1, l, r, sizeof(l));
	if (*l)
		c->tos[0] = xp_np_parse_tos(l);
	if (*r)
		c->tos[1] = xp_np_parse_tos(r);
	return 0;
}

/* -F lfill[,rfill]: netperf fills its send buffers from lfill (here
 * xperf's --fill, where the client sends: client/netperf/map.c) and asks
 * netserver to fill its own from rfill, a file on the server. */
static int set_fill(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	char l[256], r[256];

	xp_np_split_pair(arg, 0, l, r, sizeof(l));
	if (*r)
		return xp_err_set(err, "-F %s: a remote fill file is not supported by xperf "
				  "(xperf's server does not open files a client names; it "
				  "sends zeros)", arg);
	snprintf(c->fill, sizeof(c->fill), "%s", l);
	return 0;
}

/* -Z: netperf's passphrase, sent in the clear to netserver. */
static int set_passphrase(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	(void)c, (void)arg;
	return xp_err_set(err, "-Z: netperf's passphrase is not supported by xperf (xperf "
			  "authenticates with a pre-shared key: xperf -c ... --auth-file "
			  "FILE, and the server's --auth-file)");
}

static int set_bind(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	char l[64], r[64];

	xp_np_split_pair(arg, 1, l, r, sizeof(l));
	if (*l && xp_np_parse_int(l, 0, XP_CPUS_MAX - 1, "-T", &c->local_bind, err))
		return -1;
	if (*r && xp_np_parse_int(r, 0, XP_CPUS_MAX - 1, "-T", &c->remote_bind, err))
		return -1;
	return 0;
}

static int set_verbose(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	return xp_np_parse_int(arg, 0, 100, "-v", &c->verbosity, err);
}

static int set_headers(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	return xp_np_parse_int(arg, 0, 1000000, "-P", &c->headers, err);
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

	xp_np_split_pair(arg, 1, a, b, sizeof(a));
	if (*a && xp_np_parse_int(a, 0, 1000, "-i", &c->iter_max, err))
		return -1;
	if (*b && xp_np_parse_int(b, 0, 1000, "-i", &c->iter_min, err))
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
	xp_np_split_pair(arg, 0, a, b, sizeof(a));
	if (*a && xp_np_parse_int(a, 0, 100, "-I", &c->conf_level, err))
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
	return xp_np_parse_int(arg, 1, 1 << 20, "-n", &c->ncpus, err);
}

static int set_wait(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	int v = 0;

	if (xp_np_parse_int(arg, 0, 3600, "-s", &v, err))
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
	NOSUP('a', A_REQ, "send,recv", "local buffer alignment"),
	NOSUP('A', A_REQ, "send,recv", "remote buffer alignment"),
	NOSUP('b', A_REQ, "n", "the burst size of paced sends"),
	FN('B', A_REQ, set_brand, "brand", "string added to the result line with -P 0"),
	FLAG('c', A_OPT_NUM, local_cpu, 1, "[rate]", "report local CPU use and service demand"),
	FLAG('C', A_OPT_NUM, remote_cpu, 1, "[rate]", "report remote CPU use and service demand"),
	NOSUP('d', A_NONE, NULL, "netperf's debug output"),
	FN('D', A_REQ, set_demo, "[-]secs[,units]", "interim results every secs seconds"),
	FN('f', A_REQ, set_fmt, "G|M|K|g|m|k|x", "throughput units (bytes: G M K B; bits: g m k b)"),
	FN('F', A_REQ, set_fill, "lfill", "fill the data sent from this file (xperf --fill)"),
	FLAG('h', A_NONE, action, XP_NP_HELP, NULL, "this text"),
	FN('H', A_REQ, set_host, "host[,family]", "the xperf server (default localhost)"),
	FN('i', A_REQ, set_iter, "max,min", "iterations for the confidence interval (3..30)"),
	FN('I', A_REQ, set_conf, "lvl[,width]", "confidence level 95|99 and width in % (99,5)"),
	IGN('j', A_NONE, NULL, "keep timing statistics (xperf always keeps them)"),
	NOSUP('k', A_REQ, "dirty,clean", "dirtying the local buffers"),
	NOSUP('K', A_REQ, "dirty,clean", "dirtying the remote buffers"),
	FN('l', A_REQ, set_length, "secs", "test length in seconds (default 10)"),
	FN('L', A_REQ, set_local, "host[,family]", "local address of the control and data "
	   "connections (xperf -B)"),
	FN('n', A_REQ, set_ncpus, "ncpu", "local CPU count for service demand"),
	FN('N', A_NONE, no_control, NULL, "no control connection (not supported)"),
	NOSUP('o', A_REQ, "send,recv", "local buffer offsets"),
	NOSUP('O', A_REQ, "send,recv", "remote buffer offsets"),
	FN('p', A_REQ, set_port, "port[,lport]", "server port (default 12865); the control "
	   "connection's source port"),
	FN('P', A_REQ, set_headers, "0|1", "banner and headers off/on (default 1)"),
	FLAG('r', A_NONE, result_conf_only, 1, NULL, "confidence on the result only, not CPU"),
	FN('s', A_REQ, set_wait, "secs", "wait before the test"),
	NOSUP('S', A_NONE, NULL, "SO_KEEPALIVE"),
	FN('t', A_REQ, set_test, "test",
	   "TCP_STREAM (default), TCP_MAERTS, TCP_RR, TCP_CRR, UDP_STREAM, UDP_RR, "
	   "omni, TCP_SENDFILE, TCP_CC, LOC_CPU, REM_CPU, uuid"),
	FN('T', A_REQ, set_bind, "lcpu[,rcpu]", "bind the local/remote workers to CPUs"),
	FN('v', A_REQ, set_verbose, "level", "0: the number only; 1: the table (default)"),
	FLAG('V', A_NONE, action, XP_NP_VERSION, NULL, "print the version"),
	NOSUP('w', A_REQ, "time", "the wait between paced bursts"),
	NOSUP('W', A_REQ, "send,recv", "buffer ring widths"),
	NOSUP('y', A_REQ, "local,remote", "socket priority (SO_PRIORITY)"),
	FN('Y', A_REQ, set_tos, "local,remote", "IP TOS byte or DSCP name (xperf --tos, both ends)"),
	FN('Z', A_REQ, set_passphrase, "passphrase", "netperf's passphrase (not supported: "
	   "xperf's --auth-file)"),
	FLAG('4', A_NONE, family, AF_INET, NULL, "IPv4"),
	FLAG('6', A_NONE, family, AF_INET6, NULL, "IPv6"),
};
const size_t xp_np_nglobal =
	sizeof(xp_np_global_opts) / sizeof(xp_np_global_opts[0]);

