/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's output selectors and the -o (CSV), -k (NAME=value) and -O
 * (columns) printers.  Every selector is one row of the table below: its
 * name, the up-to-four header lines netperf shows (joined by spaces they
 * are the CSV label), how the value is printed, and the field of struct
 * xp_np_vals that holds it; xp_np_vals_fill computes those fields. */
#include "client/netperf.h"

#include <arpa/inet.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "common/hist.h"
#include "proto/msg.h"

enum vfmt { V_INT, V_U64, V_D0, V_D2, V_D3, V_D6, V_STR, V_QSTR, V_UNITS };

struct np_sel {
	const char *name;
	const char *label[4];
	enum vfmt fmt;
	size_t off;
};

#define SEL(n, l0, l1, l2, l3, f, field) \
	{ #n, { l0, l1, l2, l3 }, f, offsetof(struct xp_np_vals, field) }

static const struct np_sel sels[] = {
	SEL(SOCKET_TYPE, "Socket", "Type", "", "", V_STR, socket_type),
	SEL(PROTOCOL, "Protocol", "", "", "", V_STR, protocol),
	SEL(DIRECTION, "Direction", "", "", "", V_STR, direction),
	SEL(ELAPSED_TIME, "Elapsed", "Time", "(sec)", "", V_D2, elapsed),
	SEL(THROUGHPUT, "Throughput", "", "", "", V_D2, thruput),
	SEL(THROUGHPUT_UNITS, "Throughput", "Units", "", "", V_UNITS, units),
	SEL(LSS_SIZE_REQ, "Local", "Send Socket", "Size", "Requested", V_INT, lss_req),
	SEL(LSS_SIZE, "Local", "Send Socket", "Size", "Initial", V_INT, lss),
	SEL(LSS_SIZE_END, "Local", "Send Socket", "Size", "Final", V_INT, lss),
	SEL(LSR_SIZE_REQ, "Local", "Recv Socket", "Size", "Requested", V_INT, lsr_req),
	SEL(LSR_SIZE, "Local", "Recv Socket", "Size", "Initial", V_INT, lsr),
	SEL(LSR_SIZE_END, "Local", "Recv Socket", "Size", "Final", V_INT, lsr),
	SEL(LOCAL_SEND_SIZE, "Local", "Send", "Size", "", V_INT, local_send_size),
	SEL(LOCAL_RECV_SIZE, "Local", "Recv", "Size", "", V_INT, local_recv_size),
	SEL(REQUEST_SIZE, "Request", "Size", "Bytes", "", V_INT, req),
	SEL(RESPONSE_SIZE, "Response", "Size", "Bytes", "", V_INT, rsp),
	SEL(BURST_SIZE, "Initial", "Burst", "Requests", "", V_INT, burst),
	SEL(LOCAL_CPU_UTIL, "Local", "CPU", "Util", "%", V_D2, local_cpu),
	SEL(LOCAL_CPU_PERCENT_USER, "Local", "CPU", "User", "%", V_D2, not_measured),
	SEL(LOCAL_CPU_PERCENT_SYSTEM, "Local", "CPU", "System", "%", V_D2, not_measured),
	SEL(LOCAL_CPU_PERCENT_IOWAIT, "Local", "CPU", "I/O", "%", V_D2, not_measured),
	SEL(LOCAL_CPU_PERCENT_IRQ, "Local", "CPU", "IRQ", "%", V_D2, not_measured),
	SEL(LOCAL_CPU_PERCENT_SWINTR, "Local", "CPU", "swintr", "%", V_D2, not_measured),
	SEL(LOCAL_CPU_METHOD, "Local", "CPU", "Util", "Method", V_STR, local_cpu_method),
	SEL(LOCAL_CPU_COUNT, "Local", "CPU", "Count", "", V_INT, local_ncpus),
	SEL(LOCAL_CPU_BIND, "Local", "CPU", "Bind", "", V_INT, local_bind),
	SEL(LOCAL_SD, "Local", "Service", "Demand", "", V_D3, local_sd),
	SEL(REMOTE_CPU_UTIL, "Remote", "CPU", "Util", "%", V_D2, remote_cpu),
	SEL(REMOTE_CPU_PERCENT_USER, "Remote", "CPU", "User", "%", V_D2, not_measured),
	SEL(REMOTE_CPU_PERCENT_SYSTEM, "Remote", "CPU", "System", "%", V_D2, not_measured),
	SEL(REMOTE_CPU_PERCENT_IOWAIT, "Remote", "CPU", "I/O", "%", V_D2, not_measured),
	SEL(REMOTE_CPU_PERCENT_IRQ, "Remote", "CPU", "IRQ", "%", V_D2, not_measured),
	SEL(REMOTE_CPU_PERCENT_SWINTR, "Remote", "CPU", "swintr", "%", V_D2, not_measured),
	SEL(REMOTE_CPU_METHOD, "Remote", "CPU", "Util", "Method", V_STR, remote_cpu_method),
	SEL(REMOTE_CPU_COUNT, "Remote", "CPU", "Count", "", V_INT, remote_ncpus),
	SEL(REMOTE_CPU_BIND, "Remote", "CPU", "Bind", "", V_INT, remote_bind),
	SEL(REMOTE_SD, "Remote", "Service", "Demand", "", V_D3, remote_sd),
	SEL(SD_UNITS, "Service", "Demand", "Units", "", V_STR, sd_units),
	SEL(CONFIDENCE_LEVEL, "Confidence", "Level", "Percent", "", V_INT, conf_level),
	SEL(CONFIDENCE_INTERVAL, "Confidence", "Width", "Target", "", V_D6, conf_interval),
	SEL(CONFIDENCE_ITERATION, "Confidence", "Iterations", "Run", "", V_INT, conf_iterations),
	SEL(THROUGHPUT_CONFID, "Throughput", "Confidence", "Width (%)", "", V_D3, thruput_confid),
	SEL(LOCAL_CPU_CONFID, "Local", "CPU", "Confidence", "Width (%)", V_D3, local_cpu_confid),
	SEL(REMOTE_CPU_CONFID, "Remote", "CPU", "Confidence", "Width (%)", V_D3, remote_cpu_confid),
	SEL(TRANSACTION_RATE, "Transaction", "Rate", "Tran/s", "", V_D3, trans_rate),
	SEL(RT_LATENCY, "Round", "Trip", "Latency", "usec/tran", V_D3, rt_latency),
	SEL(MIN_LATENCY, "Minimum", "Latency", "Microseconds", "", V_INT, min_lat),
	SEL(MAX_LATENCY, "Maximum", "Latency", "Microseconds", "", V_INT, max_lat),
	SEL(P50_LATENCY, "50th", "Percentile", "Latency", "Microseconds", V_INT, p50_lat),
	SEL(P90_LATENCY, "90th", "Percentile", "Latency", "Microseconds", V_INT, p90_lat),
	SEL(P99_LATENCY, "99th", "Percentile", "Latency", "Microseconds", V_INT, p99_lat),
	SEL(MEAN_LATENCY, "Mean", "Latency", "Microseconds", "", V_D2, mean_lat),
	SEL(STDDEV_LATENCY, "Stddev", "Latency", "Microseconds", "", V_D2, stddev_lat),
	SEL(TRANSPORT_MSS, "Transport", "MSS", "bytes", "", V_INT, mss),
	SEL(LOCAL_TRANSPORT_RETRANS, "Local", "Transport", "Retransmissions", "", V_INT, local_retrans),
	SEL(REMOTE_TRANSPORT_RETRANS, "Remote", "Transport", "Retransmissions", "", V_INT, remote_retrans),
	SEL(LOCAL_SEND_THROUGHPUT, "Local", "Send", "Throughput", "", V_D2, local_send_tput),
	SEL(LOCAL_RECV_THROUGHPUT, "Local", "Recv", "Throughput", "", V_D2, local_recv_tput),
	SEL(REMOTE_SEND_THROUGHPUT, "Remote", "Send", "Throughput", "", V_D2, remote_send_tput),
	SEL(REMOTE_RECV_THROUGHPUT, "Remote", "Recv", "Throughput", "", V_D2, remote_recv_tput),
	SEL(RSS_SIZE_REQ, "Remote", "Send Socket", "Size", "Requested", V_INT, rss_req),
	SEL(RSS_SIZE, "Remote", "Send Socket", "Size", "Initial", V_INT, rss),
	SEL(RSS_SIZE_END, "Remote", "Send Socket", "Size", "Final", V_INT, rss),
	SEL(RSR_SIZE_REQ, "Remote", "Recv Socket", "Size", "Requested", V_INT, rsr_req),
	SEL(RSR_SIZE, "Remote", "Recv Socket", "Size", "Initial", V_INT, rsr),
	SEL(RSR_SIZE_END, "Remote", "Recv Socket", "Size", "Final", V_INT, rsr),
	SEL(REMOTE_SEND_SIZE, "Remote", "Send", "Size", "", V_INT, remote_send_size),
	SEL(REMOTE_RECV_SIZE, "Remote", "Recv", "Size", "", V_INT, remote_recv_size),
	SEL(LOCAL_SEND_CALLS, "Local", "Send", "Calls", "", V_U64, local_send_calls),
	SEL(LOCAL_RECV_CALLS, "Local", "Recv", "Calls", "", V_U64, local_recv_calls),
	SEL(REMOTE_SEND_CALLS, "Remote", "Send", "Calls", "", V_U64, remote_send_calls),
	SEL(REMOTE_RECV_CALLS, "Remote", "Recv", "Calls", "", V_U64, remote_recv_calls),
	SEL(LOCAL_BYTES_PER_SEND, "Local", "Bytes", "Per", "Send", V_D2, local_bytes_per_send),
	SEL(LOCAL_BYTES_PER_RECV, "Local", "Bytes", "Per", "Recv", V_D2, local_bytes_per_recv),
	SEL(REMOTE_BYTES_PER_SEND, "Remote", "Bytes", "Per", "Send", V_D2, remote_bytes_per_send),
	SEL(REMOTE_BYTES_PER_RECV, "Remote", "Bytes", "Per", "Recv", V_D2, remote_bytes_per_recv),
	SEL(LOCAL_BYTES_SENT, "Local", "Bytes", "Sent", "", V_U64, local_bytes_sent),
	SEL(LOCAL_BYTES_RECVD, "Local", "Bytes", "Received", "", V_U64, local_bytes_recvd),
	SEL(LOCAL_BYTES_XFERD, "Local", "Bytes", "Xferred", "", V_D0, local_bytes_xferd),
	SEL(REMOTE_BYTES_SENT, "Remote", "Bytes", "Sent", "", V_U64, remote_bytes_sent),
	SEL(REMOTE_BYTES_RECVD, "Remote", "Bytes", "Received", "", V_U64, remote_bytes_recvd),
	SEL(REMOTE_BYTES_XFERD, "Remote", "Bytes", "Xferred", "", V_D0, remote_bytes_xferd),
	SEL(LOCAL_NODELAY, "Local", "NODELAY", "", "", V_INT, local_nodelay),
	SEL(REMOTE_NODELAY, "Remote", "NODELAY", "", "", V_INT, remote_nodelay),
	SEL(LOCAL_CONG_CONTROL, "Local", "Congestion", "Control", "Algorithm", V_STR, local_cong),
	SEL(REMOTE_CONG_CONTROL, "Remote", "Congestion", "Control", "Algorithm", V_STR, remote_cong),
	SEL(SOURCE_PORT, "Source", "Port", "", "", V_STR, source_port),
	SEL(SOURCE_ADDR, "Source", "Address", "", "", V_STR, source_addr),
	SEL(SOURCE_FAMILY, "Source", "Family", "", "", V_INT, source_family),
	SEL(DEST_PORT, "Destination", "Port", "", "", V_STR, dest_port),
	SEL(DEST_ADDR, "Destination", "Address", "", "", V_STR, dest_addr),
	SEL(DEST_FAMILY, "Destination", "Family", "", "", V_INT, dest_family),
	SEL(RESULT_BRAND, "Result", "Tag", "", "", V_QSTR, brand),
	SEL(UUID, "Test", "UUID", "", "", V_STR, uuid),
	SEL(COMMAND_LINE, "Command", "Line", "", "", V_QSTR, command_line),
};

#define NSELS ((int)(sizeof(sels) / sizeof(sels[0])))

static int is_rr(int t)
{
	return xp_test(t)->rr;
}

int xp_np_selector_count(void)
{
	return NSELS;
}

int xp_np_selector_find(const char *name)
{
	int i;

	for (i = 0; i < NSELS; i++)
		if (!strcasecmp(name, sels[i].name))
			return i;
	return -1;
}

const char *xp_np_selector_name(int id)
{
	return id >= 0 && id < NSELS ? sels[id].name : NULL;
}

void xp_np_list_selectors(FILE *f, int csv)
{
	int i;

	for (i = 0; i < NSELS; i++)
		fprintf(f, "%s%s", i ? (csv ? "," : "\n") : "", sels[i].name);
	fputc('\n', f);
}

/* ---- choosing selectors ---- */

int xp_np_spec_is_list(const char *spec)
{
	return strchr(spec, ',') || strchr(spec, ';') || !strcasecmp(spec, "all") ||
	       xp_np_selector_find(spec) >= 0;
}

static void add_sel(struct xp_np_cfg *c, int block, int id)
{
	if (block < XP_NP_BLOCKS && c->nsel[block] < XP_NP_PER_BLOCK)
		c->sel[block][c->nsel[block]++] = (uint16_t)id;
}

int xp_np_select(struct xp_np_cfg *c, const char *spec)
{
	char name[64];
	int block = 0, known = 0, id;
	size_t n = 0;
	const char *p;

	memset(c->nsel, 0, sizeof(c->nsel));
	if (!strcasecmp(spec, "all")) {
		for (id = 0; id < xp_np_selector_count(); id++)
			add_sel(c, id / XP_NP_PER_BLOCK, id);
		return xp_np_selector_count();
	}
	for (p = spec;; p++) {
		int end = !*p || *p == ',' || *p == ' ' || *p == ';' || *p == '\n' ||
			  *p == '\t' || *p == '\r';

		if (!end) {
			if (n < sizeof(name) - 1)
				name[n++] = *p;
			continue;
		}
		name[n] = 0;
		if (n && (id = xp_np_selector_find(name)) >= 0) {
			add_sel(c, block, id);
			known++;
		}
		n = 0;
		if (*p == ';' || *p == '\n')
			block++;
		if (!*p)
			break;
	}
	return known;
}

void xp_np_select_default(struct xp_np_cfg *c)
{
	static const char cpu[] =
		",LOCAL_CPU_UTIL,LOCAL_CPU_PERCENT_USER,LOCAL_CPU_PERCENT_SYSTEM,"
		"LOCAL_CPU_PERCENT_IOWAIT,LOCAL_CPU_PERCENT_IRQ,LOCAL_CPU_PERCENT_SWINTR,"
		"LOCAL_CPU_METHOD,REMOTE_CPU_UTIL,REMOTE_CPU_PERCENT_USER,"
		"REMOTE_CPU_PERCENT_SYSTEM,REMOTE_CPU_PERCENT_IOWAIT,"
		"REMOTE_CPU_PERCENT_IRQ,REMOTE_CPU_PERCENT_SWINTR,REMOTE_CPU_METHOD,"
		"LOCAL_SD,REMOTE_SD,SD_UNITS";
	static const char tput[] = ",ELAPSED_TIME,THROUGHPUT,THROUGHPUT_UNITS";
	char spec[1024];
	const char *head;

	if (xp_test(c->test)->server_sends)
		head = "RSS_SIZE_END,LSR_SIZE_END,REMOTE_SEND_SIZE";
	else if (is_rr(c->test))
		head = "LSS_SIZE_END,LSR_SIZE_END,RSR_SIZE_END,RSS_SIZE_END,"
		       "REQUEST_SIZE,RESPONSE_SIZE";
	else
		head = "LSS_SIZE_END,RSR_SIZE_END,LOCAL_SEND_SIZE";
	snprintf(spec, sizeof(spec), "%s%s%s", head, tput,
		 c->local_cpu || c->remote_cpu ? cpu : "");
	xp_np_select(c, spec);
}

/* The value as netperf prints it; NULL for a string that is unset. */
static const char *format_value(const struct np_sel *s, const struct xp_np_vals *v,
				char *buf, size_t len)
{
	const void *p = (const char *)v + s->off;
	const char *str = NULL;

	switch (s->fmt) {
	case V_INT: snprintf(buf, len, "%lld", *(const long long *)p); break;
	case V_U64: snprintf(buf, len, "%llu", *(const unsigned long long *)p); break;
	case V_D0: snprintf(buf, len, "%.0f", *(const double *)p); break;
	case V_D2: snprintf(buf, len, "%.2f", *(const double *)p); break;
	case V_D3: snprintf(buf, len, "%.3f", *(const double *)p); break;
	case V_D6: snprintf(buf, len, "%f", *(const double *)p); break;
	case V_STR:
	case V_QSTR:
	case V_UNITS:
		str = *(const char *const *)p;
		if (!str)
			return NULL;
		snprintf(buf, len, s->fmt == V_QSTR ? "\"%s\"" : s->fmt == V_UNITS ?
			 "%s/s" : "%s", str);
		break;
	}
	return buf;
}

/* ---- the printers ---- */

static void print_csv(FILE *f, const struct xp_np_cfg *c, const struct xp_np_vals *v)
{
	char buf[1200];
	int b, i, k, first = 1;

	if (!c->nsel[0])
		return; /* netperf prints nothing without a first selector */
	for (b = 0; c->headers && b < XP_NP_BLOCKS; b++)
		for (i = 0; i < c->nsel[b]; i++, first = 0) {
			const struct np_sel *s = &sels[c->sel[b][i]];

			fputs(first ? "" : ",", f);
			for (k = 0; k < 4 && *s->label[k]; k++)
				fprintf(f, "%s%s", k ? " " : "", s->label[k]);
		}
	if (c->headers)
		fputc('\n', f);
	for (first = 1, b = 0; b < XP_NP_BLOCKS; b++)
		for (i = 0; i < c->nsel[b]; i++, first = 0) {
			const char *val = format_value(&sels[c->sel[b][i]], v, buf, sizeof(buf));

			fprintf(f, "%s%s", first ? "" : ",", val ? val : "");
		}
	fputc('\n', f);
}

static void print_keyval(FILE *f, const struct xp_np_cfg *c, const struct xp_np_vals *v)
{
	char buf[1200];
	int b, i;

	for (b = 0; b < XP_NP_BLOCKS; b++)
		for (i = 0; i < c->nsel[b]; i++) {
			const struct np_sel *s = &sels[c->sel[b][i]];
			const char *val = format_value(s, v, buf, sizeof(buf));

			if (val)
				fprintf(f, "%s=%s\n", s->name, val);
		}
}

/* One -O line: four header lines then the values, each column as wide
 * as its widest header line or its value plus one, then a space. */
static void print_column_block(FILE *f, const struct xp_np_cfg *c, int b,
			       const struct xp_np_vals *v)
{
	char vals[XP_NP_PER_BLOCK][1200];
	int width[XP_NP_PER_BLOCK], i, k;

	for (i = 0; i < c->nsel[b]; i++) {
		const struct np_sel *s = &sels[c->sel[b][i]];
		const char *val = format_value(s, v, vals[i], sizeof(vals[i]));
		int w = val ? (int)strlen(val) + 1 : 0;

		if (!val)
			vals[i][0] = 0;
		for (k = 0; k < 4; k++)
			if ((int)strlen(s->label[k]) > w)
				w = (int)strlen(s->label[k]);
		width[i] = w + 1;
	}
	for (k = 0; c->headers && k < 4; k++) {
		for (i = 0; i < c->nsel[b]; i++)
			fprintf(f, "%-*s", width[i], sels[c->sel[b][i]].label[k]);
		fputc('\n', f);
	}
	for (i = 0; i < c->nsel[b]; i++)
		fprintf(f, "%-*s", width[i], vals[i]);
	fputc('\n', f);
}

static void print_columns(FILE *f, const struct xp_np_cfg *c, const struct xp_np_vals *v)
{
	int b;

	for (b = 0; b < XP_NP_BLOCKS; b++) {
		if (!c->nsel[b])
			continue;
		if (b > 0)
			fputc('\n', f);
		print_column_block(f, c, b, v);
	}
}

void xp_np_print_result(FILE *f, const struct xp_np_run *run)
{
	struct xp_np_vals v;

	xp_np_vals_fill(run, &v);
	switch (run->cfg->mode) {
	case XP_NP_CSV: print_csv(f, run->cfg, &v); break;
	case XP_NP_KEYVAL: print_keyval(f, run->cfg, &v); break;
	case XP_NP_COLUMNS: print_columns(f, run->cfg, &v); break;
	case XP_NP_CLASSIC: xp_np_print_classic(f, run, &v); break;
	}
	fflush(f);
}

/* ---- the banner ---- */

static const char *family_name(int fam)
{
	return fam == AF_INET6 ? "AF_INET6" : fam == AF_INET ? "AF_INET" : "AF_UNSPEC";
}

/* netperf shows an address in parentheses only when it fits in eight
 * bytes with its terminating NUL ("0.0.0.0", "::1"), otherwise "()";
 * scripts have long seen "to 10.0.0.2 () port 0", so xperf does too. */
static const char *short_addr(const char *a)
{
	return a && strlen(a) < 8 ? a : "";
}

/* "MIGRATED TCP STREAM TEST", as netperf names its classic tests. */
static const char *test_title(int test, char *buf, size_t len)
{
	const struct xp_test *t = xp_test(test);
	const char *kind = !t->rr ? (t->server_sends ? "MAERTS" : "STREAM")
			   : t->persistent ? "REQUEST/RESPONSE" : "Connect/Request/Response";

	snprintf(buf, len, "MIGRATED %s %s TEST", t->udp ? "UDP" : "TCP", kind);
	return buf;
}

void xp_np_print_banner(FILE *f, const struct xp_np_cfg *c, const struct xp_np_env *env)
{
	int fam = env->dest_family;
	const char *any = fam == AF_INET6 ? "::0" : "0.0.0.0";
	const char *local = c->local_host ? c->local_host : any;
	const char *local_num = c->local_host ? c->local_host : fam == AF_INET6 ? "::" : any;
	unsigned char tmp[sizeof(struct in6_addr)];
	char title[64];

	if (c->local_host && inet_pton(fam == AF_INET6 ? AF_INET6 : AF_INET,
				       c->local_host, tmp) != 1)
		local_num = "";
	fprintf(f, "%s from %s (%s) port %s %s to %s (%s) port %s %s", test_title(c->test, title, sizeof(title)),
		local, short_addr(local_num), c->data_port[0][0] ? c->data_port[0] : "0",
		family_name(fam), c->host, short_addr(env->dest_numeric),
		c->data_port[1][0] ? c->data_port[1] : "0", family_name(fam));
	if (c->iter_max > 1)
		fprintf(f, " : +/-%.3f%% @ %2d%% conf. %s", c->conf_width / 0.02,
			c->conf_level, c->result_conf_only ? " on result only" : "");
	if (c->nodelay)
		fputs(" : nodelay", f);
	fputs(" : demo", f);
	if (xp_test(c->test)->rr && xp_test(c->test)->persistent)
		fprintf(f, " : first burst %d", c->burst);
	if (c->local_bind >= 0 || c->remote_bind >= 0)
		fputs(" : cpu bind", f);
	fputc('\n', f);
	fflush(f);
}
