/* SPDX-License-Identifier: BSD-2-Clause */
#include "client/report/side.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "common/netparse.h"
#include "common/tests.h"

/* Append to a line being built; the line stays NUL-terminated. */
__attribute__((format(printf, 3, 4)))
static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

static const char *or_unknown(const char *s)
{
	return s[0] ? s : "?";
}

/* Congestion control, TOS and MSS per side. */
static void path_line(FILE *f, const struct xp_opts *o, const struct xp_client_result *r)
{
	const struct xp_test *t = xp_test(r->test);
	int tos = xp_opts_tos(o);
	char line[512] = "";

	if (!t->udp)
		add(line, sizeof(line), "; congestion client %s, server %s",
		    or_unknown(r->local.congestion), or_unknown(r->remote.congestion));
	if (tos >= 0)
		add(line, sizeof(line), "; tos 0x%02x (DSCP %d) both ends", tos, tos >> 2);
	if (t->tcp_info)
		add(line, sizeof(line), "; mss client %llu (advmss %llu), server %llu "
		    "(advmss %llu)", (unsigned long long)r->local.tcp.mss,
		    (unsigned long long)r->local.tcp.advmss, (unsigned long long)r->remote.tcp.mss,
		    (unsigned long long)r->remote.tcp.advmss);
	else if (o->set_mss)
		add(line, sizeof(line), "; SYN mss %llu asked (TCP_CRR reads no TCP_INFO)",
		    (unsigned long long)o->set_mss);
	if (line[0])
		fprintf(f, "  path     %s\n", line + 2);
}

/* MPTCP, Fast Open, sendfile and where the client's sockets leave from. */
static void sockets_line(FILE *f, const struct xp_opts *o, const struct xp_client_result *r)
{
	char line[512] = "";

	if (o->mptcp)
		add(line, sizeof(line), "; MPTCP connections client %llu, server %llu",
		    (unsigned long long)r->local.c.mptcp_flows,
		    (unsigned long long)r->remote.c.mptcp_flows);
	if (o->fastopen) /* the counts include the warm-up's connections */
		add(line, sizeof(line), "; Fast Open: SYN carried data on %llu of %llu "
		    "connections (client), %llu (server), warm-up included",
		    (unsigned long long)r->local.c.fastopen_syn_data,
		    (unsigned long long)(r->local.c.transactions + r->warm.transactions),
		    (unsigned long long)r->remote.c.fastopen_syn_data);
	if (o->sendfile)
		add(line, sizeof(line), "; sendfile(2) sends (%s)",
		    xp_test(r->test)->server_sends ? "server" : "client");
	if (o->bind)
		add(line, sizeof(line), "; client bound to %s", o->bind);
	if (o->cport)
		add(line, sizeof(line), "; data source ports %llu-%llu",
		    (unsigned long long)o->cport, (unsigned long long)(o->cport + o->flows - 1));
	if (o->bind_dev)
		add(line, sizeof(line), "; client device %s", o->bind_dev);
	if (o->flowlabel)
		add(line, sizeof(line), "; flow label 0x%05llx", (unsigned long long)o->flowlabel);
	if (line[0])
		fprintf(f, "  sockets  %s\n", line + 2);
}

/* The socket buffers asked for and what each end's kernel granted (netperf
 * prints the granted sizes in its tables; Linux doubles a size set). */
static void buffers_line(FILE *f, const struct xp_opts *o, const struct xp_client_result *r)
{
	const struct xp_counters *l = &r->local.c, *s = &r->remote.c;

	if (!o->window && !o->sndbuf && !o->rcvbuf && !o->remote_sndbuf && !o->remote_rcvbuf)
		return;
	fprintf(f, "  buffers  granted SO_SNDBUF/SO_RCVBUF: client %llu/%llu, server %llu/%llu bytes\n",
		(unsigned long long)l->sndbuf_bytes, (unsigned long long)l->rcvbuf_bytes,
		(unsigned long long)s->sndbuf_bytes, (unsigned long long)s->rcvbuf_bytes);
}

void xp_report_path_human(FILE *f, const struct xp_opts *o, const struct xp_client_result *r)
{
	path_line(f, o, r);
	sockets_line(f, o, r);
	buffers_line(f, o, r);
}

void xp_report_path_json_start(struct xp_json *j, const struct xp_opts *o)
{
	int tos = xp_opts_tos(o);

	xp_json_str_val(j, "congestion", o->congestion ? o->congestion : "");
	xp_json_u64(j, "set_mss", o->set_mss);
	if (tos >= 0)
		xp_json_u64(j, "tos", (uint64_t)tos);
	else
		xp_json_null(j, "tos");
	xp_json_u64(j, "flowlabel", o->flowlabel);
	xp_json_str_val(j, "bind", o->bind ? o->bind : "");
	xp_json_u64(j, "cport", o->cport);
	xp_json_str_val(j, "bind_dev", o->bind_dev ? o->bind_dev : "");
	xp_json_bool(j, "fastopen", o->fastopen);
	xp_json_bool(j, "mptcp", o->mptcp);
	xp_json_bool(j, "sendfile", o->sendfile);
	xp_json_dbl(j, "connect_timeout_s", (double)o->connect_timeout / 1e9);
}

void xp_report_json_cpus(struct xp_json *j, const char *key, const char *list)
{
	const char *p = list;

	xp_json_arr_open(j, key);
	while (p && *p) {
		char *end;
		long v = strtol(p, &end, 10);

		if (*p == '?') { /* an id the server could not have (client/verify.c) */
			xp_json_null(j, NULL);
			end = (char *)p + 1;
		} else if (end == p) {
			break;
		} else {
			xp_json_i64(j, NULL, v);
		}
		p = *end == ',' ? end + 1 : end;
	}
	xp_json_arr_close(j);
}

void xp_report_side_json(struct xp_json *j, const struct xp_side_result *s)
{
	xp_json_str_val(j, "congestion", s->congestion);
	xp_json_u64(j, "mptcp_flows", s->c.mptcp_flows);
	xp_json_u64(j, "fastopen_syn_data", s->c.fastopen_syn_data);
	xp_json_u64(j, "sndbuf_granted_bytes", s->c.sndbuf_bytes);
	xp_json_u64(j, "rcvbuf_granted_bytes", s->c.rcvbuf_bytes);
}

void xp_report_path_json_end(struct xp_json *j, const struct xp_client_result *r)
{
	const struct xp_test *t = xp_test(r->test);
	const struct xp_side_result *snd = t->server_sends ? &r->remote : &r->local;
	const struct xp_side_result *rcv = t->server_sends ? &r->local : &r->remote;

	if (t->udp || t->rr)
		return;
	xp_json_str_val(j, "sender_tcp_congestion", snd->congestion);
	xp_json_str_val(j, "receiver_tcp_congestion", rcv->congestion);
}

const char *xp_report_rate(char *buf, size_t len, int width, const struct xp_opts *o,
			   double bits_per_s)
{
	return xp_format_rate(buf, len, width, bits_per_s,
			      o && o->format ? o->format[0] : 'g');
}

void xp_report_timestamp(FILE *f, const struct xp_opts *o)
{
	const char *fmt = o ? xp_opts_timestamp_format(o) : NULL;
	char buf[256];
	struct tm tm;
	time_t now;

	if (!fmt)
		return;
	now = time(NULL);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral" /* the user's --timestamps format */
	if (localtime_r(&now, &tm) && strftime(buf, sizeof(buf), fmt, &tm))
		fputs(buf, f);
#pragma GCC diagnostic pop
}
