/* SPDX-License-Identifier: BSD-2-Clause */
/* iperf3's text output, before and during the test (client/iperf3/report.h):
 * the connection lines, the interval headers and lines, with iperf3
 * 3.12's columns, widths and units, so that scripts that cut its columns
 * keep working.  The summary is in client/iperf3/text_sum.c.  Pure:
 * writes only to the stream it is given. */
#include "client/iperf3/text_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The time (--timestamps) and the title (-T) a line begins with. */
static void prefix(const struct xp_i3out *o)
{
	if (o->tsfmt) {
		char ts[128];
		time_t now = time(NULL);
		struct tm tm;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral" /* the user's --timestamps format */
		if (localtime_r(&now, &tm) && strftime(ts, sizeof(ts), o->tsfmt, &tm))
			fputs(ts, o->f);
#pragma GCC diagnostic pop
	}
	if (o->title)
		fprintf(o->f, "%s:  ", o->title);
}

/* Every line with its prefix, as iperf3 prints a line at a time. */
static void lines(const struct xp_i3out *o, const char *text)
{
	const char *p, *nl;

	if (!o->tsfmt && !o->title) {
		fputs(text, o->f);
		return;
	}
	for (p = text; *p; p = nl + 1) {
		prefix(o);
		nl = strchr(p, '\n');
		if (!nl) {
			fputs(p, o->f);
			break;
		}
		fwrite(p, 1, (size_t)(nl - p) + 1, o->f);
	}
}

void xp_i3out_printf(const struct xp_i3out *o, const char *fmt, ...)
{
	char buf[1024], *big = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf) && (big = malloc((size_t)n + 1))) {
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	lines(o, big ? big : buf);
	free(big);
}

void xp_i3_unit(char *buf, size_t len, double bytes, char format)
{
	static const char *const bit[] = { "bit", "Kbit", "Mbit", "Gbit", "Tbit" };
	static const char *const byte[] = { "Byte", "KByte", "MByte", "GByte", "TByte" };
	static const char fixed[] = "bkmgt";
	int upper = isupper((unsigned char)format), conv = 0, k;
	double v = upper ? bytes : bytes * 8, base = upper ? 1024 : 1000;
	const char *f = strchr(fixed, tolower((unsigned char)format));

	if (f && *f != 'b') {
		conv = (int)(f - fixed);
	} else if (!f) { /* adaptive: the largest unit that leaves v >= 1 */
		double t = v;

		while (t >= base && conv < 4) {
			t /= base;
			conv++;
		}
	}
	for (k = 0; k < conv; k++)
		v /= base;
	/* four places: #.##, ##.#, ### or #### */
	snprintf(buf, len, v < 9.995 ? "%4.2f %s" : v < 99.95 ? "%4.1f %s" : "%4.0f %s", v,
		 upper ? byte[conv] : bit[conv]);
}

/* "[  5]" or "[SUM]", the role with --bidir, the interval, transfer and
 * bitrate: the columns every line shares. */
void xp_i3t_cols(char *buf, size_t len, const struct xp_i3_report *r, int socket,
		 int sender, double start, double end, uint64_t bytes, double secs)
{
	char id[16], role[12] = "", ub[24], nb[24];

	if (socket >= 0)
		snprintf(id, sizeof(id), "[%3d]", socket);
	else
		snprintf(id, sizeof(id), "[SUM]");
	if (r->bidir)
		snprintf(role, sizeof(role), "[%s-%s]", sender ? "TX" : "RX", r->server ? "S" : "C");
	xp_i3_unit(ub, sizeof(ub), (double)bytes, 'A');
	xp_i3_unit(nb, sizeof(nb), secs > 0 ? (double)bytes / secs : 0, r->format);
	snprintf(buf, len, "%s%s %6.2f-%-6.2f sec  %ss  %ss/sec", id, role, start, end, ub, nb);
}

/* Does this end send on any stream? */
int xp_i3t_sends(const struct xp_i3_report *r)
{
	uint32_t i;

	for (i = 0; i < r->nstreams; i++)
		if (r->st[i].sender)
			return 1;
	return 0;
}

/* The interval header (TCP: Retr and Cwnd where this end sends; UDP:
 * datagrams sent, or jitter and loss where it receives). */
static void iv_header(const struct xp_i3out *o, const struct xp_i3_report *r)
{
	const char *id = r->bidir ? "[ ID][Role]" : "[ ID]";
	int sends = xp_i3t_sends(r);
	/* printed after the results: iperf3's sender_has_retransmits by then */
	int retr = r->ended ? r->sender_has_retransmits == 1 : sends;

	if (!r->udp)
		xp_i3out_printf(o, "%s Interval           Transfer     Bitrate%s\n", id,
				retr ? "         Retr  Cwnd" : "");
	else if (sends && !r->bidir)
		xp_i3out_printf(o, "%s Interval           Transfer     Bitrate         "
				"Total Datagrams\n", id);
	else
		xp_i3out_printf(o, "%s Interval           Transfer     Bitrate         "
				"Jitter    Lost/Total Datagrams\n", id);
}

static void verbose_start(const struct xp_i3out *o, const struct xp_i3_report *r);

void xp_i3t_connecting(const struct xp_i3out *o, const struct xp_i3_report *r)
{
	if (r->verbose) {
		char t[64], v[96];
		time_t s = (time_t)r->timesecs;
		struct tm tm;

		xp_i3r_version(v, sizeof(v));
		xp_i3out_printf(o, "%s\n%s\n", v, r->system_info);
		if (!r->server)
			xp_i3out_printf(o, "Control connection MSS %u\n", r->ctl_mss);
		if (!r->server && r->blksize_auto)
			xp_i3out_printf(o, "Setting UDP block size to %u\n", r->blksize);
		if (gmtime_r(&s, &tm) && strftime(t, sizeof(t), "%a, %d %b %Y %H:%M:%S %Z", &tm))
			xp_i3out_printf(o, "Time: %s\n", t);
	}
	if (r->server)
		return;
	xp_i3out_printf(o, "Connecting to host %s, port %u\n", r->host, r->port);
	if (r->reverse)
		xp_i3out_printf(o, "Reverse mode, remote host %s is sending\n", r->host);
	if (r->verbose)
		verbose_start(o, r);
}

void xp_i3t_accepted(const struct xp_i3out *o, const struct xp_i3_report *r)
{
	xp_i3out_printf(o, "Accepted connection from %s, port %u\n", r->peer_host, r->peer_port);
	if (r->verbose)
		verbose_start(o, r);
}

static void verbose_start(const struct xp_i3out *o, const struct xp_i3_report *r)
{
	xp_i3out_printf(o, "      Cookie: %s\n", r->cookie);
	/* a server knows no MSS of its own control connection: iperf3's 0 */
	if (!r->udp && r->mss)
		xp_i3out_printf(o, "      TCP MSS: %u\n", r->mss);
	else if (!r->udp)
		xp_i3out_printf(o, "      TCP MSS: %u (default)\n", r->ctl_mss);
	if (r->target_bitrate)
		xp_i3out_printf(o, "      Target Bitrate: %llu\n",
				(unsigned long long)r->target_bitrate);
}

void xp_i3t_connected(const struct xp_i3out *o, const struct xp_i3_report *r)
{
	const char *proto = r->udp ? "UDP" : "TCP";
	uint32_t i;

	for (i = 0; i < r->nstreams; i++)
		xp_i3out_printf(o, "[%3d] local %s port %u connected to %s port %u\n",
				r->st[i].socket, r->st[i].local_host, r->st[i].local_port,
				r->st[i].remote_host, r->st[i].remote_port);
	if (!r->verbose)
		return;
	if (r->bytes)
		xp_i3out_printf(o, "Starting Test: protocol: %s, %u streams, %u byte blocks, "
				"omitting %u seconds, %llu bytes to send, tos %d\n", proto,
				r->parallel, r->blksize, r->omit, (unsigned long long)r->bytes,
				r->tos > 0 ? r->tos : 0);
	else if (r->blocks)
		xp_i3out_printf(o, "Starting Test: protocol: %s, %u streams, %u byte blocks, "
				"omitting %u seconds, %llu blocks to send, tos %d\n", proto,
				r->parallel, r->blksize, r->omit, (unsigned long long)r->blocks,
				r->tos > 0 ? r->tos : 0);
	else
		xp_i3out_printf(o, "Starting Test: protocol: %s, %u streams, %u byte blocks, "
				"omitting %u seconds, %u second test, tos %d\n", proto,
				r->parallel, r->blksize, r->omit, r->duration,
				r->tos > 0 ? r->tos : 0);
}

/* One stream's interval line. */
static void iv_stream(const struct xp_i3out *o, const struct xp_i3_report *r,
		      const struct xp_i3r_interval *iv, uint32_t i)
{
	const struct xp_i3r_ivs *s = &iv->st[i];
	const char *om = iv->omitted ? "(omitted)" : "";
	char cols[160], cw[24];
	int sender = r->st[i].sender;

	xp_i3t_cols(cols, sizeof(cols), r, r->st[i].socket, sender, iv->start, iv->end,
		    s->bytes, iv->end - iv->start);
	if (!r->udp && sender) {
		xp_i3_unit(cw, sizeof(cw), (double)s->snd_cwnd, 'A');
		xp_i3out_printf(o, "%s  %3lld   %ss       %s\n", cols, (long long)s->retransmits, cw,
				om);
	} else if (!r->udp) {
		xp_i3out_printf(o, "%s                  %s\n", cols, om);
	} else if (sender) {
		xp_i3out_printf(o, "%s %s %lld  %s\n", cols, r->bidir ? "          " : "",
				(long long)s->packets, om);
	} else {
		xp_i3out_printf(o, "%s  %5.3f ms  %lld/%lld (%.2g%%)  %s\n", cols, s->jitter_ms,
				(long long)s->lost, (long long)s->packets,
				s->packets > 0 ? 100.0 * (double)s->lost / (double)s->packets : 0.0,
				om);
	}
}

/* The [SUM] line of the streams one way. */
static void iv_sum(const struct xp_i3out *o, const struct xp_i3_report *r,
		   const struct xp_i3r_interval *iv, int sender)
{
	struct xp_i3r_ivs t;
	const char *om = iv->omitted ? "(omitted)" : "";
	char cols[160];

	xp_i3t_iv_total(r, iv, sender, &t);
	xp_i3t_cols(cols, sizeof(cols), r, -1, sender, iv->start, iv->end, t.bytes,
		    iv->end - iv->start);
	if (!r->udp && sender)
		xp_i3out_printf(o, "%s  %3lld             %s\n", cols, (long long)t.retransmits, om);
	else if (!r->udp)
		xp_i3out_printf(o, "%s                  %s\n", cols, om);
	else if (sender)
		xp_i3out_printf(o, "%s %s %lld  %s\n", cols, r->bidir ? "          " : "",
				(long long)t.packets, om);
	else
		xp_i3out_printf(o, "%s  %5.3f ms  %lld/%lld (%.2g%%)  %s\n", cols, t.jitter_ms,
				(long long)t.lost, (long long)t.packets,
				t.packets > 0 ? 100.0 * (double)t.lost / (double)t.packets : 0.0, om);
}

void xp_i3t_interval(const struct xp_i3out *o, const struct xp_i3_report *r, uint32_t k)
{
	const struct xp_i3r_interval *iv = &r->iv[k];
	int pass, first = 1;

	for (pass = 0; pass < 2; pass++) {
		int sender = xp_i3t_pass_sender(r, pass);
		uint32_t i, n = 0;

		if (sender < 0)
			continue;
		for (i = 0; i < r->nstreams; i++) {
			if (r->st[i].sender != sender)
				continue;
			if (first && k == 0)
				iv_header(o, r);
			else if (first && r->parallel > 1)
				xp_i3out_printf(o, "%s", XP_I3T_SEPARATOR);
			first = 0;
			iv_stream(o, r, iv, i);
			n++;
		}
		if (n && r->parallel > 1)
			iv_sum(o, r, iv, sender);
	}
	if (o->flush)
		fflush(o->f);
}
