/* SPDX-License-Identifier: BSD-2-Clause */
/* iperf3 3.x's options, as the front end takes them (client/iperf3/fe.h):
 * one table of names, arguments, the side they belong to, what each
 * does to struct xp_i3fe_cfg and its help line (the usage text,
 * client/iperf3/args.c).  Ranges and messages follow iperf3's.  Pure. */
#include "client/iperf3/fe_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "common/netparse.h"

#define CFG(field) offsetof(struct xp_i3fe_cfg, field)
#define NOT_IMPL "an option you are trying to set is not implemented yet"

int xp_i3fe_num(const char *s, double kilo, const char *what, double *out, struct xp_err *err)
{
	static const char suffix[] = "kmgt";
	const char *p;
	char *end;
	double v, mul = 1;

	if (!s || (!isdigit((unsigned char)s[0]) && s[0] != '.'))
		return xp_err_set(err, "invalid value '%s' for %s", s ? s : "", what);
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v))
		return xp_err_set(err, "invalid value '%s' for %s", s, what);
	if (*end && (p = strchr(suffix, tolower((unsigned char)*end))) && !end[1]) {
		int k;

		for (k = 0; k <= p - suffix; k++)
			mul *= kilo;
	} else if (*end) {
		return xp_err_set(err, "invalid value '%s' for %s", s, what);
	}
	*out = v * mul;
	return 0;
}

/* A whole number in [lo, hi] (iperf3 reads them with atoi). */
static int whole(const char *s, long lo, long hi, const char *what, long *out,
		 struct xp_err *err)
{
	char *end;
	long v;

	errno = 0;
	v = s ? strtol(s, &end, 10) : 0;
	if (!s || end == s || *end || errno)
		return xp_err_set(err, "invalid value '%s' for %s", s ? s : "", what);
	if (v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* HOST or HOST%DEV into host, and DEV into bind_dev. */
static int host_dev(struct xp_i3fe_cfg *c, const char *v, char *host, size_t len,
		    struct xp_err *err)
{
	const char *pct = strchr(v, '%');
	size_t n = pct ? (size_t)(pct - v) : strlen(v);

	if (!n || n >= len)
		return xp_err_set(err, "invalid host '%s'", v);
	memcpy(host, v, n);
	host[n] = 0;
	/* an IPv6 link-local address keeps its %scope */
	if (pct && !(n > 5 && !strncmp(v, "fe80:", 5)))
		snprintf(c->bind_dev, sizeof(c->bind_dev), "%s", pct + 1);
	else if (pct)
		snprintf(host, len, "%s", v);
	return 0;
}

static int set_port(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	long p;

	if (whole(v, 1, 65535, "-p", &p, err))
		return err->msg[0] ? -1 : xp_err_set(err, "port number must be between 1 and "
						     "65535 inclusive");
	c->port = (uint16_t)p;
	return 0;
}

static int set_cport(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	uint16_t keep = c->port;
	int rc = set_port(c, v, err);

	c->cport = c->port;
	c->port = keep;
	return rc;
}

static int set_format(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	if (!v || !v[0] || v[1] || !strchr("kmgtKMGT", v[0]))
		return xp_err_set(err, "bad format specifier (valid formats are in the set "
				  "[kmgtKMGT])");
	c->format = v[0];
	return 0;
}

static int set_interval(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	double d;

	if (xp_i3fe_num(v, 1000, "-i", &d, err))
		return -1;
	if (d != 0 && (d < 0.1 || d > 60))
		return xp_err_set(err, "invalid report interval (min = 0.1, max = 60 seconds)");
	c->interval = d;
	return 0;
}

static int set_server(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	(void)v;
	if (c->has_host)
		return xp_err_set(err, "cannot be both server and client");
	c->server = 1;
	return 0;
}

static int set_client(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	if (c->server)
		return xp_err_set(err, "cannot be both server and client");
	c->has_host = 1;
	return host_dev(c, v, c->host, sizeof(c->host), err);
}

static int set_bind(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	c->has_bind = 1;
	return host_dev(c, v, c->bind_addr, sizeof(c->bind_addr), err);
}

static int set_bind_dev(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	if (!v[0] || strlen(v) >= sizeof(c->bind_dev))
		return xp_err_set(err, "invalid device '%s'", v);
	snprintf(c->bind_dev, sizeof(c->bind_dev), "%s", v);
	return 0;
}

static int set_rate(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	char buf[64];
	const char *slash = strchr(v, '/');
	double d;
	long b;

	if (strlen(v) >= sizeof(buf))
		return xp_err_set(err, "invalid value '%s' for -b", v);
	snprintf(buf, sizeof(buf), "%s", v);
	if (slash) {
		buf[slash - v] = 0;
		if (whole(slash + 1, 1, XP_I3FE_MAX_BURST, "-b", &b, err))
			return err->msg[0] ? -1 : xp_err_set(err, "invalid burst count (maximum "
							     "= %d)", XP_I3FE_MAX_BURST);
		c->burst = (uint32_t)b;
	}
	if (xp_i3fe_num(buf, 1000, "-b", &d, err))
		return -1;
	if (d >= 1e18)
		return xp_err_set(err, "invalid value '%s' for -b", v);
	c->rate = (uint64_t)d;
	c->rate_given = 1;
	return 0;
}

static int set_fqrate(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	double d;

	if (xp_i3fe_num(v, 1000, "--fq-rate", &d, err))
		return -1;
	if (d >= 1e18)
		return xp_err_set(err, "invalid value '%s' for --fq-rate", v);
	c->fqrate = (uint64_t)d;
	return 0;
}

static int set_time(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	long t;

	if (whole(v, 0, XP_I3FE_MAX_TIME, "-t", &t, err))
		return err->msg[0] ? -1 : xp_err_set(err, "test duration too long (maximum = "
						     "%d seconds)", XP_I3FE_MAX_TIME);
	c->time_s = (uint32_t)t;
	c->time_given = 1;
	return 0;
}

static int set_count(uint64_t *out, const char *v, const char *what, struct xp_err *err)
{
	double d;

	if (xp_i3fe_num(v, 1024, what, &d, err))
		return -1;
	if (d >= 18446744073709551616.0)
		return xp_err_set(err, "invalid value '%s' for %s", v, what);
	*out = (uint64_t)d;
	return 0;
}

static int set_bytes(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	return set_count(&c->bytes, v, "-n", err);
}

static int set_blocks(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	return set_count(&c->blocks, v, "-k", err);
}

static int set_len(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	double d;

	if (xp_i3fe_num(v, 1024, "-l", &d, err))
		return -1;
	if (d > XP_I3FE_MAX_BLOCK)
		return xp_err_set(err, "block size too large (maximum = %u bytes)",
				  XP_I3FE_MAX_BLOCK);
	c->len = (uint32_t)d;
	return 0;
}

static int set_parallel(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	long n;

	if (whole(v, 1, 128, "-P", &n, err))
		return err->msg[0] ? -1 : xp_err_set(err, "number of parallel streams too large "
						     "(maximum = 128)");
	c->parallel = (uint32_t)n;
	return 0;
}

static int set_reverse(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	(void)v;
	if (c->bidir)
		return xp_err_set(err, "cannot be both reverse and bidirectional");
	c->reverse = 1;
	return 0;
}

static int set_bidir(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	(void)v;
	if (c->reverse)
		return xp_err_set(err, "cannot be both reverse and bidirectional");
	c->bidir = 1;
	return 0;
}

static int set_window(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	double d;

	if (xp_i3fe_num(v, 1024, "-w", &d, err))
		return -1;
	if (d > XP_I3FE_MAX_BUF)
		return xp_err_set(err, "socket buffer size too large (maximum = %u bytes)",
				  XP_I3FE_MAX_BUF);
	c->window = (uint64_t)d;
	return 0;
}

static int set_mss(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	long m;

	if (whole(v, 0, XP_I3FE_MAX_MSS, "-M", &m, err))
		return err->msg[0] ? -1 : xp_err_set(err, "TCP MSS too large (maximum = %d "
						     "bytes)", XP_I3FE_MAX_MSS);
	c->mss = (uint32_t)m;
	return 0;
}

static int set_tos(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	char *end;
	long t;

	errno = 0;
	t = strtol(v, &end, 0); /* decimal, 0x hex or 0 octal, as iperf3 */
	if (end == v || *end || errno || t < 0 || t > 255)
		return xp_err_set(err, "bad TOS value (must be between 0 and 255 inclusive)");
	c->tos = (int)t;
	return 0;
}

static int set_dscp(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	int d;

	if (xp_parse_dscp(v, "--dscp", &d, err))
		return xp_err_set(err, "bad TOS value (must be between 0 and 255 inclusive)");
	c->tos = d << 2;
	return 0;
}

static int set_flowlabel(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	char *end;
	long l;

	errno = 0;
	l = strtol(v, &end, 0);
	if (end == v || *end || errno || l < 1 || l > 0xfffff)
		return xp_err_set(err, "unable to set IPv6 flow label");
	c->flowlabel = (uint32_t)l;
	return 0;
}

static int set_omit(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	long o;

	if (whole(v, 0, 60, "-O", &o, err))
		return xp_err_set(err, "bogus value for --omit");
	c->omit = (uint32_t)o;
	return 0;
}

static int set_affinity(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	char *end;
	long a = strtol(v, &end, 10), b = -1;

	if (end == v || a < 0 || a > 1024 || (*end && *end != ','))
		return xp_err_set(err, "unable to set CPU affinity");
	if (*end == ',') {
		const char *m = end + 1;

		b = strtol(m, &end, 10);
		if (end == m || *end || b < 0 || b > 1024)
			return xp_err_set(err, "unable to set CPU affinity");
	}
	c->affinity = (int)a;
	c->server_affinity = (int)b;
	return 0;
}

static int set_ms(uint32_t *out, const char *v, long lo, const char *what, const char *msg,
		  struct xp_err *err)
{
	long ms;

	if (whole(v, lo, (long)XP_I3FE_MAX_TIME * 1000, what, &ms, err))
		return xp_err_set(err, "%s", msg);
	*out = (uint32_t)ms;
	return 0;
}

static int set_connect_timeout(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	return set_ms(&c->connect_timeout_ms, v, 1, "--connect-timeout",
		      "invalid value for --connect-timeout", err);
}

static int set_rcv_timeout(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	return set_ms(&c->rcv_timeout_ms, v, 500, "--rcv-timeout",
		      "receive timeout value is incorrect or not in range", err);
}

static int set_idle_timeout(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	long s;

	if (whole(v, 1, XP_I3FE_MAX_TIME, "--idle-timeout", &s, err))
		return xp_err_set(err, "idle timeout parameter is not positive or larger than "
				  "allowed limit");
	c->idle_timeout = (uint32_t)s;
	return 0;
}

static int set_pacing_timer(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	double d;

	if (xp_i3fe_num(v, 1000, "--pacing-timer", &d, err))
		return -1;
	c->pacing_timer = d > 1e9 ? 1000000000u : (uint32_t)d;
	return 0;
}

static int set_debug(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	(void)v;
	(void)err;
	c->debug = 1;
	return 0;
}

static int set_timestamps(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	(void)err;
	c->timestamps = v ? v : "%c ";
	return 0;
}

static int no_sctp(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	(void)c;
	(void)v;
	return xp_err_set(err, "no SCTP support available");
}

static int not_impl(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	(void)c;
	(void)v;
	return xp_err_set(err, NOT_IMPL);
}

static int help(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	(void)v;
	(void)err;
	if (!c->action)
		c->action = XP_I3FE_HELP;
	return 0;
}

static int version(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	(void)v;
	(void)err;
	if (!c->action)
		c->action = XP_I3FE_VERSION_ACT;
	return 0;
}

/* The simple ones: a flag, or a string kept as given. */
#define FLAG_SETTER(name, field)                                                       \
	static int name(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)        \
	{                                                                              \
		(void)v;                                                               \
		(void)err;                                                             \
		c->field = 1;                                                          \
		return 0;                                                              \
	}
#define STR_SETTER(name, field)                                                        \
	static int name(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)        \
	{                                                                              \
		(void)err;                                                             \
		c->field = v;                                                          \
		return 0;                                                              \
	}
FLAG_SETTER(set_daemon, daemon)
FLAG_SETTER(set_one_off, one_off)
FLAG_SETTER(set_verbose, verbose)
FLAG_SETTER(set_json, json)
FLAG_SETTER(set_json_stream, json_stream)
FLAG_SETTER(set_udp, udp)
FLAG_SETTER(set_nodelay, nodelay)
FLAG_SETTER(set_zerocopy, zerocopy)
FLAG_SETTER(set_forceflush, forceflush)
FLAG_SETTER(set_server_output, get_server_output)
FLAG_SETTER(set_udp64, udp64)
FLAG_SETTER(set_repeating, repeating_payload)
FLAG_SETTER(set_dont_fragment, dont_fragment)
STR_SETTER(set_logfile, logfile)
STR_SETTER(set_pidfile, pidfile)
STR_SETTER(set_title, title)
STR_SETTER(set_extra_data, extra_data)
STR_SETTER(set_congestion, congestion)

static int set_v4(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	(void)v;
	(void)err;
	c->family = AF_INET;
	return 0;
}

static int set_v6(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	(void)v;
	(void)err;
	c->family = AF_INET6;
	return 0;
}

static int no_fq_pacing(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err)
{
	(void)v;
	(void)err;
	c->fqrate = 0;
	return 0;
}

#define N XP_I3A_NONE
#define R XP_I3A_REQ
#define O XP_I3A_OPT
#define A XP_I3S_ANY
#define C XP_I3S_CLIENT
#define S XP_I3S_SERVER
const struct xp_i3fe_opt xp_i3fe_opts[] = {
	/* server or client */
	{ "port", 'p', R, A, set_port, "#", "server port to listen on or connect to (5201)" },
	{ "format", 'f', R, A, set_format, "[kmgtKMGT]", "report rates in Kbits, Mbits, Gbits, Tbits (lower case) or KBytes ... TBytes (upper case)" },
	{ "interval", 'i', R, A, set_interval, "#", "seconds between periodic reports (1; 0: none)" },
	{ "pidfile", 'I', R, A, set_pidfile, "file", "write the process id to file" },
	{ "file", 'F', R, A, not_impl, "name", "xmit/recv a file: not implemented by xperf" },
	{ "affinity", 'A', R, A, set_affinity, "n[,m]", "this end's CPU n; the server's CPU m (client)" },
	{ "bind", 'B', R, A, set_bind, "<host>[%<dev>]", "bind to the address <host> (and the device <dev>)" },
	{ "bind-dev", 0, R, A, set_bind_dev, "<dev>", "bind to the network device <dev> (SO_BINDTODEVICE)" },
	{ "verbose", 'V', N, A, set_verbose, NULL, "more detailed output" },
	{ "json", 'J', N, A, set_json, NULL, "output in JSON format" },
	{ "json-stream", 0, N, A, set_json_stream, NULL, "output in line-delimited JSON format (iperf3 3.17's)" },
	{ "logfile", 0, R, A, set_logfile, "f", "send output to the log file f" },
	{ "forceflush", 0, N, A, set_forceflush, NULL, "flush the output at every interval" },
	{ "timestamps", 0, O, A, set_timestamps, "<=format>", "begin each output line with the time (strftime(3) format, \"%c \")" },
	{ "rcv-timeout", 0, R, A, set_rcv_timeout, "#", "idle timeout for receiving data, ms (120000)" },
	{ "snd-timeout", 0, R, A, not_impl, "#", "timeout for unacknowledged TCP data: not implemented by xperf" },
	{ "debug", 'd', O, A, set_debug, "[=#]", "debugging output (xperf prints none)" },
	{ "version", 'v', N, A, version, NULL, "show the version and quit" },
	{ "help", 'h', N, A, help, NULL, "show this message and quit" },
	/* server */
	{ "server", 's', N, S, set_server, NULL, "run in server mode (an xperf server)" },
	{ "daemon", 'D', N, S, set_daemon, NULL, "run the server as a daemon" },
	{ "one-off", '1', N, S, set_one_off, NULL, "serve one iperf3 client, then exit" },
	{ "server-bitrate-limit", 0, R, S, not_impl, "#[KMG][/#]", "server's total bit rate limit: not implemented by xperf" },
	{ "idle-timeout", 0, R, S, set_idle_timeout, "#", "close an idle control connection after # seconds" },
	{ "rsa-private-key-path", 0, R, S, not_impl, "path", "iperf3's authentication: not implemented by xperf" },
	{ "authorized-users-path", 0, R, S, not_impl, "path", "iperf3's authentication: not implemented by xperf" },
	{ "time-skew-threshold", 0, R, S, not_impl, "#", "iperf3's authentication: not implemented by xperf" },
	/* client */
	{ "client", 'c', R, C, set_client, "<host>[%<dev>]", "run in client mode, connecting to <host>" },
	{ "sctp", 0, N, C, no_sctp, NULL, "use SCTP: not available in xperf" },
	{ "xbind", 'X', R, C, no_sctp, "<name>", "bind SCTP association to links: not available" },
	{ "nstreams", 0, R, C, no_sctp, "#", "number of SCTP streams: not available" },
	{ "udp", 'u', N, C, set_udp, NULL, "use UDP rather than TCP" },
	{ "connect-timeout", 0, R, C, set_connect_timeout, "#", "timeout for the control connection, ms" },
	{ "bitrate", 'b', R, C, set_rate, "#[KMG][/#]", "target bitrate in bits/sec per stream, 0 for unlimited (1 Mbit/sec for UDP, unlimited for TCP); /# packets per burst" },
	{ "bandwidth", 0, R, C, set_rate, "#[KMG][/#]", NULL },
	{ "pacing-timer", 0, R, C, set_pacing_timer, "#[KMG]", "pacing timer, microseconds (sent to the server)" },
	{ "fq-rate", 0, R, C, set_fqrate, "#[KMG]", "fair-queuing socket pacing, bits/sec (SO_MAX_PACING_RATE)" },
	{ "no-fq-socket-pacing", 0, N, C, no_fq_pacing, NULL, NULL },
	{ "time", 't', R, C, set_time, "#", "time in seconds to transmit for (10)" },
	{ "bytes", 'n', R, C, set_bytes, "#[KMG]", "number of bytes to transmit (instead of -t)" },
	{ "blockcount", 'k', R, C, set_blocks, "#[KMG]", "number of blocks (packets) to transmit (instead of -t or -n)" },
	{ "length", 'l', R, C, set_len, "#[KMG]", "length of buffer to read or write (128 KB for TCP; UDP: the path MSS, or 1460)" },
	{ "cport", 0, R, C, set_cport, "<port>", "the client's data ports: <port>, <port>+1 ..." },
	{ "parallel", 'P', R, C, set_parallel, "#", "number of parallel client streams to run" },
	{ "reverse", 'R', N, C, set_reverse, NULL, "reverse mode (the server sends, the client receives)" },
	{ "bidir", 0, N, C, set_bidir, NULL, "bidirectional mode: client and server send and receive" },
	{ "window", 'w', R, C, set_window, "#[KMG]", "send and receive socket buffer sizes" },
	{ "congestion", 'C', R, C, set_congestion, "<algo>", "TCP congestion control algorithm" },
	{ "linux-congestion", 0, R, C, set_congestion, "<algo>", NULL },
	{ "set-mss", 'M', R, C, set_mss, "#", "TCP maximum segment size (MTU - 40 bytes)" },
	{ "no-delay", 'N', N, C, set_nodelay, NULL, "set TCP no delay, disabling Nagle's algorithm" },
	{ "version4", '4', N, A, set_v4, NULL, "only use IPv4" },
	{ "version6", '6', N, A, set_v6, NULL, "only use IPv6" },
	{ "tos", 'S', R, C, set_tos, "N", "the IP type of service, 0-255 (decimal, 0 octal, 0x hex)" },
	{ "dscp", 0, R, C, set_dscp, "N|val", "the IP DSCP value, 0-63 or a name (EF, AF11 ...)" },
	{ "flowlabel", 'L', R, C, set_flowlabel, "N", "the IPv6 flow label" },
	{ "zerocopy", 'Z', N, C, set_zerocopy, NULL, "use a 'zero copy' method of sending data" },
	{ "omit", 'O', R, C, set_omit, "N", "omit the first N seconds of the test" },
	{ "title", 'T', R, C, set_title, "str", "prefix every output line with this string" },
	{ "extra-data", 0, R, C, set_extra_data, "str", "a string to include in the JSON output" },
	{ "get-server-output", 0, N, C, set_server_output, NULL, "get the server's results" },
	{ "udp-counters-64bit", 0, N, A, set_udp64, NULL, "use 64-bit counters in UDP test packets" },
	{ "repeating-payload", 0, N, C, set_repeating, NULL, "ask for a repeating payload pattern" },
	{ "dont-fragment", 0, N, C, set_dont_fragment, NULL, "set IPv4 Don't Fragment" },
	{ "username", 0, R, C, not_impl, "<name>", "iperf3's authentication: not implemented by xperf" },
	{ "rsa-public-key-path", 0, R, C, not_impl, "path", "iperf3's authentication: not implemented by xperf" },
	{ "mptcp", 'm', N, C, not_impl, NULL, "MPTCP: not implemented by xperf's iperf3 client" },
};
const size_t xp_i3fe_nopts = sizeof(xp_i3fe_opts) / sizeof(xp_i3fe_opts[0]);
