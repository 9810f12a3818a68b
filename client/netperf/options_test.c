/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's test-specific options (after "--"): the table, each row naming
 * the letter, its argument and what it does, with the functions that
 * apply them to struct xp_np_cfg.  Those that become xperf options whose
 * use depends on the test (-e, -G, -F, -P, -H, -L) are only recorded
 * here; client/netperf/map.c checks them against the test and sets them.
 * An option xperf cannot honour is refused (a usage error that says so).
 * Pure: no I/O. */
#include "client/netperf/options.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "common/units.h"
#include "proto/msg.h"

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

	if (xp_np_size_pair(arg, 0, "-m", &c->send_size, &rs, err))
		return -1;
	if (rs)
		c->remote_send_size = rs;
	imply(c, arg, XP_NP_DIR_SEND, XP_NP_DIR_RECV);
	return 0;
}

static int set_recv(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	imply(c, arg, XP_NP_DIR_SEND, XP_NP_DIR_RECV);
	return xp_np_size_pair(arg, 0, "-M", &c->remote_recv_size, &c->local_recv_size, err);
}

static int set_rr(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	c->implied_dir |= XP_NP_DIR_SEND | XP_NP_DIR_RECV;
	return xp_np_size_pair(arg, 1, "-r", &c->req, &c->rsp, err);
}

/* -s/-S send[,recv]: 0 is a request too (the kernel's minimum). */
static int sock_pair(struct xp_np_cfg *c, const char *arg, const char *what, uint64_t *snd,
		     uint64_t *rcv, int bits, struct xp_err *err)
{
	char s1[64], s2[64];

	xp_np_split_pair(arg, 1, s1, s2, sizeof(s1));
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
	return xp_np_parse_int(arg, 0, 1023, "-b", &c->burst, err);
}

static int set_cong(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	char l[64], r[64];

	(void)err;
	xp_np_split_pair(arg, 1, l, r, sizeof(l));
	if (*l)
		snprintf(c->cong_buf[0], sizeof(c->cong_buf[0]), "%.31s", l);
	if (*r)
		snprintf(c->cong_buf[1], sizeof(c->cong_buf[1]), "%.31s", r);
	return 0;
}

/* -P lport[,rport]: the data connection's ports (0: any). */
static int set_data_ports(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	char l[64], r[64];

	xp_np_split_pair(arg, 1, l, r, sizeof(l));
	if ((*l && xp_np_parse_int(l, 0, 65535, "-P", &c->data_lport, err)) ||
	    (*r && xp_np_parse_int(r, 0, 65535, "-P", &c->data_rport, err)))
		return -1;
	if (*l)
		snprintf(c->data_port[0], sizeof(c->data_port[0]), "%d", c->data_lport);
	if (*r)
		snprintf(c->data_port[1], sizeof(c->data_port[1]), "%d", c->data_rport);
	return 0;
}

/* -H host[,family]: the data connection's target. */
static int set_data_host(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	const char *h;
	int fam;

	if (xp_np_host_family(arg, "-H", c->data_host_buf, sizeof(c->data_host_buf), &h,
			      &fam, err))
		return -1;
	if (h)
		c->data_host = h;
	if (fam != AF_UNSPEC)
		c->data_family = fam;
	return 0;
}

/* -L host[,family]: the data connection's source. */
static int set_data_local(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	const char *h;
	int fam;

	if (xp_np_host_family(arg, "-L", c->data_local_buf, sizeof(c->data_local_buf), &h,
			      &fam, err))
		return -1;
	if (h)
		c->data_local = h;
	if (fam != AF_UNSPEC)
		c->data_local_family = fam;
	return 0;
}

/* -e secs: netperf's receive timeout (SO_RCVTIMEO) for UDP_RR.  netperf
 * takes whole seconds (atoi); 0 or less there means no timeout, which
 * xperf's UDP_RR does not have. */
static int set_rcv_timeout(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	c->rcv_timeout = arg;
	if (*arg == '-' || strspn(arg, "0.") == strlen(arg))
		return xp_err_set(err, "-e %s: xperf's UDP_RR always times out a request "
				  "without a response (xperf --rr-timeout): give 1 to 60 "
				  "seconds", arg);
	return xp_parse_secs(arg, 60, "-e", &c->rcv_timeout_ns, err);
}

/* -G mss: TCP_MAXSEG on the client's data socket (xperf --set-mss). */
static int set_mss(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (!*arg || *end || v < 88 || v > 32767)
		return xp_err_set(err, "-G %s: xperf sets TCP_MAXSEG (--set-mss) to 88 to "
				  "32767 bytes", arg);
	c->mss = (int)v;
	return 0;
}

/* -R 0|1: netperf sets SO_DONTROUTE with 0. */
static int set_routing(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	int v;

	(void)c;
	if (xp_np_parse_int(arg, -1000000, 1000000, "-R", &v, err))
		return -1;
	if (!v)
		return xp_err_set(err, "-R 0: SO_DONTROUTE (data only to directly attached "
				  "hosts) is not supported by xperf; -R 1, routing allowed, "
				  "is what xperf does");
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
	NOSUP('a', A_NONE, NULL, "TCP_DEFER_ACCEPT"),
	FN('b', A_REQ, set_burst, "n", "RR: n more requests in flight (xperf --burst n+1)"),
	NOSUP('B', A_NONE, NULL, "IP_PKTINFO"),
	FLAG('c', A_NONE, omni_conn, 1, NULL, "omni: a connection test (TCP_CRR; with -d 0 TCP_CC)"),
	NOSUP('C', A_NONE, NULL, "TCP_CORK"),
	FN('d', A_REQ, set_dir, "dir", "omni direction: send, recv, rr, or netperf's bits 2|4"),
	FLAG('D', A_NONE, nodelay, 1, NULL, "TCP_NODELAY on both ends"),
	FN('e', A_REQ, set_rcv_timeout, "secs", "UDP_RR: a request unanswered this long is "
	   "lost (xperf --rr-timeout)"),
	NOSUP('f', A_NONE, NULL, "IP_MTU_DISCOVER"),
	FLAG('F', A_NONE, fastopen, 1, NULL, "TCP_CRR, TCP_CC: TCP Fast Open (xperf --fastopen)"),
	NOSUP('g', A_NONE, NULL, "SO_DEBUG"),
	FN('G', A_REQ, set_mss, "mss", "TCP: TCP_MAXSEG on the client's data socket "
	   "(xperf --set-mss)"),
	FLAG('h', A_NONE, action, XP_NP_TEST_HELP, NULL, "this text"),
	FN('H', A_REQ, set_data_host, "host[,fam]", "data target: must be the -H host (xperf "
	   "sends all there)"),
	IGN('i', A_REQ, "n", "check interval (netperf ignores it too)"),
	NOSUP('I', A_NONE, NULL, "write() instead of send()"),
	NOSUP('j', A_REQ, "n", "parallel connections"),
	FN('k', A_OPT_SPEC, set_keyval, "[sel]", "NAME=value lines for the selectors ('?' lists them)"),
	FN('K', A_REQ, set_cong, "loc[,rem]", "congestion control (xperf -C, both ends)"),
	NOSUP('l', A_REQ, "ttl", "multicast TTL"),
	FN('L', A_REQ, set_data_local, "host[,fam]", "data source address (xperf -B, as the "
	   "control's)"),
	FN('m', A_REQ, set_send, "loc[,rem]", "send size, local and remote (TCP_MAERTS)"),
	FN('M', A_REQ, set_recv, "rem[,loc]", "receive sizes (TCP streams: bytes per read, xperf --read-size); omni: "
	   "imply the direction"),
	IGN('n', A_NONE, NULL, "connected UDP locally (xperf's always is)"),
	IGN('N', A_NONE, NULL, "connected UDP remotely (xperf's always is)"),
	FN('o', A_OPT_SPEC, set_csv, "[sel]", "CSV: a header line of labels, a line of values"),
	FN('O', A_OPT_SPEC, set_columns, "[sel]", "columns with four header lines"),
	NOSUP('p', A_REQ, "min[,max]", "a TCP_CRR client port range"),
	FN('P', A_REQ, set_data_ports, "loc[,rem]", "data ports: loc the source (xperf "
	   "--cport), rem the -p port"),
	NOSUP('q', A_REQ, "rate", "a pacing rate (SO_MAX_PACING_RATE)"),
	FN('r', A_REQ, set_rr, "req[,rsp]", "RR request and response sizes (default 1,1)"),
	FN('R', A_REQ, set_routing, "1", "routing allowed (always; 0, SO_DONTROUTE, is "
	   "not supported)"),
	FN('s', A_REQ, set_lsock, "send[,recv]", "local socket buffers"),
	FN('S', A_REQ, set_rsock, "send[,recv]", "remote socket buffers"),
	FN('t', A_REQ, set_proto, "stream|dgram", "omni socket type (dgram: UDP)"),
	FN('T', A_REQ, set_proto, "tcp|udp", "omni protocol"),
	FN('u', A_REQ, set_uuid, "uuid", "the UUID selector's value"),
	NOSUP('U', A_NONE, NULL, "retrying failed connects"),
	NOSUP('V', A_NONE, NULL, "copy avoidance"),
	NOSUP('w', A_REQ, "n", "the wait between paced bursts"),
	NOSUP('W', A_REQ, "n", "a send ring width"),
	FLAG('4', A_NONE, family, AF_INET, NULL, "IPv4"),
	FLAG('6', A_NONE, family, AF_INET6, NULL, "IPv6"),
};
const size_t xp_np_ntest =
	sizeof(xp_np_test_opts) / sizeof(xp_np_test_opts[0]);
