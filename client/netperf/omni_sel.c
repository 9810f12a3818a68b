/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's omni output selectors, all 173 in netperf's own order (the
 * order of `-o all`, `-k all` and `-o ?`), each with the four header lines
 * `-O` prints (joined by spaces they are `-o`'s CSV label), how its value
 * is printed, and where the value comes from: a field of struct
 * xp_np_vals (computed in client/netperf/calc.c) or a constant for what
 * netperf itself only ever prints one way ("Deprecated", 0xfffffffe, the
 * 8-byte buffer alignment).  The header texts and formats were taken
 * from captured netperf 2.7.1 runs.  Also here: parsing a selection
 * ("A,B;C", "all", a file's text) and the per-test default lists. */
#include "client/netperf/netperf.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "proto/msg.h"

enum vfmt {
	V_INT,   /* %d (long long field) */
	V_U64,   /* %llu */
	V_D0,    /* %.0f */
	V_D2,    /* %.2f */
	V_D3,    /* %.3f */
	V_D6,    /* %f */
	V_STR,   /* %s; a NULL string is not printed */
	V_QSTR,  /* "%s" */
	V_UNITS, /* %s/s */
	V_HEX2,  /* 0x%.2x of an int: -1 is 0xffffffff */
	V_CONST, /* the text in the table */
};

struct np_sel {
	const char *name;
	const char *hdr[4];
	enum vfmt fmt;
	size_t off;        /* in struct xp_np_vals, unless V_CONST */
	const char *text;  /* V_CONST */
};

#define S(n, h0, h1, h2, h3, f, field) \
	{ #n, { h0, h1, h2, h3 }, f, offsetof(struct xp_np_vals, field), NULL }
#define K(n, h0, h1, h2, h3, t) { #n, { h0, h1, h2, h3 }, V_CONST, 0, t }

static const struct np_sel sels[] = {
	S(SOCKET_TYPE, "Socket", "Type", "", "", V_STR, socket_type),
	S(PROTOCOL, "Protocol", "", "", "", V_STR, protocol),
	S(DIRECTION, "Direction", "", "", "", V_STR, direction),
	S(ELAPSED_TIME, "Elapsed", "Time", "(sec)", "", V_D2, elapsed),
	S(THROUGHPUT, "Throughput", "", "", "", V_D2, thruput),
	S(THROUGHPUT_UNITS, "Throughput", "Units", "", "", V_UNITS, units),
	S(LSS_SIZE_REQ, "Local", "Send Socket", "Size", "Requested", V_INT, lss_req),
	S(LSS_SIZE, "Local", "Send Socket", "Size", "Initial", V_INT, lss),
	S(LSS_SIZE_END, "Local", "Send Socket", "Size", "Final", V_INT, lss),
	S(LSR_SIZE_REQ, "Local", "Recv Socket", "Size", "Requested", V_INT, lsr_req),
	S(LSR_SIZE, "Local", "Recv Socket", "Size", "Initial", V_INT, lsr),
	S(LSR_SIZE_END, "Local", "Recv Socket", "Size", "Final", V_INT, lsr),
	S(RSS_SIZE_REQ, "Remote", "Send Socket", "Size", "Requested", V_INT, rss_req),
	S(RSS_SIZE, "Remote", "Send Socket", "Size", "Initial", V_INT, rss),
	S(RSS_SIZE_END, "Remote", "Send Socket", "Size", "Final", V_INT, rss),
	S(RSR_SIZE_REQ, "Remote", "Recv Socket", "Size", "Requested", V_INT, rsr_req),
	S(RSR_SIZE, "Remote", "Recv Socket", "Size", "Initial", V_INT, rsr),
	S(RSR_SIZE_END, "Remote", "Recv Socket", "Size", "Final", V_INT, rsr),
	S(LOCAL_SEND_SIZE, "Local", "Send", "Size", "", V_INT, local_send_size),
	S(LOCAL_RECV_SIZE, "Local", "Recv", "Size", "", V_INT, local_recv_size),
	S(REMOTE_SEND_SIZE, "Remote", "Send", "Size", "", V_INT, remote_send_size),
	S(REMOTE_RECV_SIZE, "Remote", "Recv", "Size", "", V_INT, remote_recv_size),
	S(REQUEST_SIZE, "Request", "Size", "Bytes", "", V_INT, req),
	S(RESPONSE_SIZE, "Response", "Size", "Bytes", "", V_INT, rsp),
	S(LOCAL_CPU_UTIL, "Local", "CPU", "Util", "%", V_D2, local_cpu),
	S(LOCAL_CPU_PERCENT_USER, "Local", "CPU", "User", "%", V_D2, local_cpu_part),
	S(LOCAL_CPU_PERCENT_SYSTEM, "Local", "CPU", "System", "%", V_D2, local_cpu_part),
	S(LOCAL_CPU_PERCENT_IOWAIT, "Local", "CPU", "I/O", "%", V_D2, local_cpu_part),
	S(LOCAL_CPU_PERCENT_IRQ, "Local", "CPU", "IRQ", "%", V_D2, local_cpu_part),
	S(LOCAL_CPU_PERCENT_SWINTR, "Local", "CPU", "swintr", "%", V_D2, local_cpu_part),
	S(LOCAL_CPU_METHOD, "Local", "CPU", "Util", "Method", V_STR, local_cpu_method),
	S(LOCAL_SD, "Local", "Service", "Demand", "", V_D3, local_sd),
	S(REMOTE_CPU_UTIL, "Remote", "CPU", "Util", "%", V_D2, remote_cpu),
	S(REMOTE_CPU_PERCENT_USER, "Remote", "CPU", "User", "%", V_D2, remote_cpu_part),
	S(REMOTE_CPU_PERCENT_SYSTEM, "Remote", "CPU", "System", "%", V_D2, remote_cpu_part),
	S(REMOTE_CPU_PERCENT_IOWAIT, "Remote", "CPU", "I/O", "%", V_D2, remote_cpu_part),
	S(REMOTE_CPU_PERCENT_IRQ, "Remote", "CPU", "IRQ", "%", V_D2, remote_cpu_part),
	S(REMOTE_CPU_PERCENT_SWINTR, "Remote", "CPU", "swintr", "%", V_D2, remote_cpu_part),
	S(REMOTE_CPU_METHOD, "Remote", "CPU", "Util", "Method", V_STR, remote_cpu_method),
	S(REMOTE_SD, "Remote", "Service", "Demand", "", V_D3, remote_sd),
	S(SD_UNITS, "Service", "Demand", "Units", "", V_STR, sd_units),
	S(CONFIDENCE_LEVEL, "Confidence", "Level", "Percent", "", V_INT, conf_level),
	S(CONFIDENCE_INTERVAL, "Confidence", "Width", "Target", "", V_D6, conf_interval),
	S(CONFIDENCE_ITERATION, "Confidence", "Iterations", "Run", "", V_INT, conf_iterations),
	S(THROUGHPUT_CONFID, "Throughput", "Confidence", "Width (%)", "", V_D3, thruput_confid),
	S(LOCAL_CPU_CONFID, "Local", "CPU", "Confidence", "Width (%)", V_D3, local_cpu_confid),
	S(REMOTE_CPU_CONFID, "Remote", "CPU", "Confidence", "Width (%)", V_D3, remote_cpu_confid),
	S(TRANSACTION_RATE, "Transaction", "Rate", "Tran/s", "", V_D3, trans_rate),
	S(RT_LATENCY, "Round", "Trip", "Latency", "usec/tran", V_D3, rt_latency),
	S(BURST_SIZE, "Initial", "Burst", "Requests", "", V_INT, burst),
	S(LOCAL_TRANSPORT_RETRANS, "Local", "Transport", "Retransmissions", "", V_INT, local_retrans),
	S(REMOTE_TRANSPORT_RETRANS, "Remote", "Transport", "Retransmissions", "", V_INT, remote_retrans),
	S(TRANSPORT_MSS, "Transport", "MSS", "bytes", "", V_INT, mss),
	S(LOCAL_SEND_THROUGHPUT, "Local", "Send", "Throughput", "", V_D2, local_send_tput),
	S(LOCAL_RECV_THROUGHPUT, "Local", "Recv", "Throughput", "", V_D2, local_recv_tput),
	S(REMOTE_SEND_THROUGHPUT, "Remote", "Send", "Throughput", "", V_D2, remote_send_tput),
	S(REMOTE_RECV_THROUGHPUT, "Remote", "Recv", "Throughput", "", V_D2, remote_recv_tput),
	S(LOCAL_CPU_BIND, "Local", "CPU", "Bind", "", V_INT, local_bind),
	S(LOCAL_CPU_COUNT, "Local", "CPU", "Count", "", V_INT, local_ncpus),
	S(LOCAL_CPU_PEAK_UTIL, "Local", "Peak", "Per CPU", "Util %", V_D2, local_peak),
	S(LOCAL_CPU_PEAK_ID, "Local", "Peak", "Per CPU", "ID", V_INT, local_peak_id),
	K(LOCAL_CPU_MODEL, "Local", "CPU", "Model", "", "Deprecated"),
	K(LOCAL_CPU_FREQUENCY, "Local", "CPU", "Frequency", "MHz", "0"),
	S(REMOTE_CPU_BIND, "Remote", "CPU", "Bind", "", V_INT, remote_bind),
	S(REMOTE_CPU_COUNT, "Remote", "CPU", "Count", "", V_INT, remote_ncpus),
	S(REMOTE_CPU_PEAK_UTIL, "Remote", "Peak", "Per CPU", "Util %", V_D2, remote_peak),
	S(REMOTE_CPU_PEAK_ID, "Remote", "Peak", "Per CPU", "ID", V_INT, remote_peak_id),
	K(REMOTE_CPU_MODEL, "Remote", "CPU", "Model", "", "Deprecated"),
	K(REMOTE_CPU_FREQUENCY, "Remote", "CPU", "Frequency", "MHz", "0"),
	S(SOURCE_PORT, "Source", "Port", "", "", V_STR, source_port),
	S(SOURCE_ADDR, "Source", "Address", "", "", V_STR, source_addr),
	S(SOURCE_FAMILY, "Source", "Family", "", "", V_INT, source_family),
	S(DEST_PORT, "Destination", "Port", "", "", V_STR, dest_port),
	S(DEST_ADDR, "Destination", "Address", "", "", V_STR, dest_addr),
	S(DEST_FAMILY, "Destination", "Family", "", "", V_INT, dest_family),
	S(LOCAL_SEND_CALLS, "Local", "Send", "Calls", "", V_U64, local_send_calls),
	S(LOCAL_RECV_CALLS, "Local", "Recv", "Calls", "", V_U64, local_recv_calls),
	S(LOCAL_BYTES_PER_RECV, "Local", "Bytes", "Per", "Recv", V_D2, local_bytes_per_recv),
	S(LOCAL_BYTES_PER_SEND, "Local", "Bytes", "Per", "Send", V_D2, local_bytes_per_send),
	S(LOCAL_BYTES_SENT, "Local", "Bytes", "Sent", "", V_U64, local_bytes_sent),
	S(LOCAL_BYTES_RECVD, "Local", "Bytes", "Received", "", V_U64, local_bytes_recvd),
	S(LOCAL_BYTES_XFERD, "Local", "Bytes", "Xferred", "", V_D0, local_bytes_xferd),
	K(LOCAL_SEND_OFFSET, "Local", "Send", "Offset", "", "0"),
	K(LOCAL_RECV_OFFSET, "Local", "Recv", "Offset", "", "0"),
	K(LOCAL_SEND_ALIGN, "Local", "Send", "Alignment", "", "8"),
	K(LOCAL_RECV_ALIGN, "Local", "Recv", "Alignment", "", "8"),
	S(LOCAL_SEND_WIDTH, "Local", "Send", "Width", "", V_INT, local_send_width),
	S(LOCAL_RECV_WIDTH, "Local", "Recv", "Width", "", V_INT, local_recv_width),
	K(LOCAL_SEND_DIRTY_COUNT, "Local", "Send", "Dirty", "Count", "-1"),
	K(LOCAL_RECV_DIRTY_COUNT, "Local", "Recv", "Dirty", "Count", "-1"),
	K(LOCAL_RECV_CLEAN_COUNT, "Local", "Recv", "Clean", "Count", "-1"),
	S(LOCAL_NODELAY, "Local", "NODELAY", "", "", V_INT, local_nodelay),
	K(LOCAL_CORK, "Local", "Cork", "", "", "0"),
	S(REMOTE_SEND_CALLS, "Remote", "Send", "Calls", "", V_U64, remote_send_calls),
	S(REMOTE_RECV_CALLS, "Remote", "Recv", "Calls", "", V_U64, remote_recv_calls),
	S(REMOTE_BYTES_PER_RECV, "Remote", "Bytes", "Per", "Recv", V_D2, remote_bytes_per_recv),
	S(REMOTE_BYTES_PER_SEND, "Remote", "Bytes", "Per", "Send", V_D2, remote_bytes_per_send),
	S(REMOTE_BYTES_SENT, "Remote", "Bytes", "Sent", "", V_U64, remote_bytes_sent),
	S(REMOTE_BYTES_RECVD, "Remote", "Bytes", "Received", "", V_U64, remote_bytes_recvd),
	S(REMOTE_BYTES_XFERD, "Remote", "Bytes", "Xferred", "", V_D0, remote_bytes_xferd),
	K(REMOTE_SEND_OFFSET, "Remote", "Send", "Offset", "", "0"),
	K(REMOTE_RECV_OFFSET, "Remote", "Recv", "Offset", "", "0"),
	K(REMOTE_SEND_ALIGN, "Remote", "Send", "Alignment", "", "8"),
	K(REMOTE_RECV_ALIGN, "Remote", "Recv", "Alignment", "", "8"),
	S(REMOTE_SEND_WIDTH, "Remote", "Send", "Width", "", V_INT, remote_send_width),
	S(REMOTE_RECV_WIDTH, "Remote", "Recv", "Width", "", V_INT, remote_recv_width),
	K(REMOTE_SEND_DIRTY_COUNT, "Remote", "Send", "Dirty", "Count", "-1"),
	K(REMOTE_RECV_DIRTY_COUNT, "Remote", "Recv", "Dirty", "Count", "-1"),
	K(REMOTE_RECV_CLEAN_COUNT, "Remote", "Recv", "Clean", "Count", "-1"),
	S(REMOTE_NODELAY, "Remote", "NODELAY", "", "", V_INT, remote_nodelay),
	K(REMOTE_CORK, "Remote", "Cork", "", "", "0"),
	K(LOCAL_SYSNAME, "Local", "Sysname", "", "", "Deprecated"),
	K(LOCAL_SYSTEM_MODEL, "Local", "System", "Model", "", "Deprecated"),
	K(LOCAL_RELEASE, "Local", "Release", "", "", "Deprecated"),
	K(LOCAL_VERSION, "Local", "Version", "", "", "Deprecated"),
	K(LOCAL_MACHINE, "Local", "Machine", "", "", "Deprecated"),
	K(REMOTE_SYSNAME, "Remote", "Sysname", "", "", "Deprecated"),
	K(REMOTE_SYSTEM_MODEL, "Remote", "System", "Model", "", "Deprecated"),
	K(REMOTE_RELEASE, "Remote", "Release", "", "", "Deprecated"),
	K(REMOTE_VERSION, "Remote", "Version", "", "", "Deprecated"),
	K(REMOTE_MACHINE, "Remote", "Machine", "", "", "Deprecated"),
	K(LOCAL_INTERFACE_NAME, "Local", "Interface", "Name", "", "Deprecated"),
	K(LOCAL_INTERFACE_VENDOR, "Local", "Interface", "Vendor", "", "0xfffffffe"),
	K(LOCAL_INTERFACE_DEVICE, "Local", "Interface", "Device", "", "0xfffffffe"),
	K(LOCAL_INTERFACE_SUBVENDOR, "Local", "Interface", "Subvendor", "", "0xfffffffe"),
	K(LOCAL_INTERFACE_SUBDEVICE, "Local", "Interface", "Subdevice", "", "0xfffffffe"),
	K(LOCAL_DRIVER_NAME, "Local", "Driver", "Name", "", "Deprecated"),
	K(LOCAL_DRIVER_VERSION, "Local", "Driver", "Version", "", "Deprecated"),
	K(LOCAL_DRIVER_FIRMWARE, "Local", "Driver", "Firmware", "", "Deprecated"),
	K(LOCAL_DRIVER_BUS, "Local", "Driver", "Bus", "", "Deprecated"),
	K(LOCAL_INTERFACE_SLOT, "Local", "Interface", "Slot", "", "Deprecated"),
	K(REMOTE_INTERFACE_NAME, "Remote", "Interface", "Name", "", "Deprecated"),
	K(REMOTE_INTERFACE_VENDOR, "Remote", "Interface", "Vendor", "", "0xfffffffe"),
	K(REMOTE_INTERFACE_DEVICE, "Remote", "Interface", "Device", "", "0xfffffffe"),
	K(REMOTE_INTERFACE_SUBVENDOR, "Remote", "Interface", "Subvendor", "", "0xfffffffe"),
	K(REMOTE_INTERFACE_SUBDEVICE, "Remote", "Interface", "Subdevice", "", "0xfffffffe"),
	K(REMOTE_DRIVER_NAME, "Remote", "Driver", "Name", "", "Deprecated"),
	K(REMOTE_DRIVER_VERSION, "Remote", "Driver", "Version", "", "Deprecated"),
	K(REMOTE_DRIVER_FIRMWARE, "Remote", "Driver", "Firmware", "", "Deprecated"),
	K(REMOTE_DRIVER_BUS, "Remote", "Driver", "Bus", "", "Deprecated"),
	K(REMOTE_INTERFACE_SLOT, "Remote", "Interface", "Slot", "", "Deprecated"),
	K(LOCAL_INTERVAL_USECS, "Local", "Interval", "Usecs", "", "0"),
	K(LOCAL_INTERVAL_BURST, "Local", "Interval", "Burst", "", "0"),
	K(REMOTE_INTERVAL_USECS, "Remote", "Interval", "Usecs", "", "0"),
	K(REMOTE_INTERVAL_BURST, "Remote", "Interval", "Burst", "", "0"),
	K(LOCAL_SECURITY_TYPE_ID, "Local", "OS", "Security", "Type ID", "0"),
	K(LOCAL_SECURITY_TYPE, "Local", "OS", "Security", "Type", "Deprecated"),
	K(LOCAL_SECURITY_ENABLED_NUM, "Local", "OS", "Security", "Enabled Num", "0"),
	K(LOCAL_SECURITY_ENABLED, "Local", "OS", "Security", "Enabled", "Deprecated"),
	K(LOCAL_SECURITY_SPECIFIC, "Local", "OS", "Security", "Specific", "Deprecated"),
	K(REMOTE_SECURITY_TYPE_ID, "Remote", "OS", "Security", "Type", "0"),
	K(REMOTE_SECURITY_TYPE, "Remote", "OS", "Security", "Type", "Deprecated"),
	K(REMOTE_SECURITY_ENABLED_NUM, "Remote", "OS", "Security", "Enabled", "0"),
	K(REMOTE_SECURITY_ENABLED, "Remote", "OS", "Security", "Enabled", "Deprecated"),
	K(REMOTE_SECURITY_SPECIFIC, "Remote", "OS", "Security", "Specific", "Deprecated"),
	S(RESULT_BRAND, "Result", "Tag", "", "", V_QSTR, brand),
	S(UUID, "Test", "UUID", "", "", V_STR, uuid),
	S(MIN_LATENCY, "Minimum", "Latency", "Microseconds", "", V_INT, min_lat),
	S(MAX_LATENCY, "Maximum", "Latency", "Microseconds", "", V_INT, max_lat),
	S(P50_LATENCY, "50th", "Percentile", "Latency", "Microseconds", V_INT, p50_lat),
	S(P90_LATENCY, "90th", "Percentile", "Latency", "Microseconds", V_INT, p90_lat),
	S(P99_LATENCY, "99th", "Percentile", "Latency", "Microseconds", V_INT, p99_lat),
	S(MEAN_LATENCY, "Mean", "Latency", "Microseconds", "", V_D2, mean_lat),
	S(STDDEV_LATENCY, "Stddev", "Latency", "Microseconds", "", V_D2, stddev_lat),
	S(LOCAL_SOCKET_PRIO, "Local", "Socket", "Priority", "", V_INT, local_prio),
	S(REMOTE_SOCKET_PRIO, "Remote", "Socket", "Priority", "", V_INT, remote_prio),
	S(LOCAL_SOCKET_TOS, "Local", "Socket", "TOS", "", V_HEX2, local_tos),
	S(REMOTE_SOCKET_TOS, "Remote", "Socket", "TOS", "", V_HEX2, remote_tos),
	S(LOCAL_CONG_CONTROL, "Local", "Congestion", "Control", "Algorithm", V_STR, local_cong),
	S(REMOTE_CONG_CONTROL, "Remote", "Congestion", "Control", "Algorithm", V_STR, remote_cong),
	S(LOCAL_FILL_FILE, "Local", "Fill", "File", "", V_STR, local_fill),
	S(REMOTE_FILL_FILE, "Remote", "Fill", "File", "", V_STR, remote_fill),
	S(COMMAND_LINE, "Command", "Line", "", "", V_QSTR, command_line),
};

#define NSELS ((int)(sizeof(sels) / sizeof(sels[0])))

/* Where `all` starts each of its four output lines, as netperf groups
 * them: sizes, CPU and confidence, counts, identification. */
static const char *const all_blocks[XP_NP_BLOCKS] = {
	"SOCKET_TYPE", "LOCAL_CPU_UTIL", "LOCAL_SEND_THROUGHPUT", "LOCAL_SYSNAME",
};

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

const char *xp_np_selector_header(int id, int line)
{
	return id >= 0 && id < NSELS && line >= 0 && line < 4 ? sels[id].hdr[line] : "";
}

/* netperf lists its enum's two sentinels as well. */
void xp_np_list_selectors(FILE *f, int csv)
{
	const char *sep = csv ? "," : "\n";
	int i;

	fputs("OUTPUT_NONE", f);
	for (i = 0; i < NSELS; i++)
		fprintf(f, "%s%s", sep, sels[i].name);
	fprintf(f, "%sOUTPUT_END\n", sep);
}

const char *xp_np_format_value(int id, const struct xp_np_vals *v, char *buf, size_t len)
{
	const struct np_sel *s = &sels[id];
	const void *p = (const char *)v + s->off;
	const char *str;

	switch (s->fmt) {
	case V_INT: snprintf(buf, len, "%lld", *(const long long *)p); break;
	case V_U64: snprintf(buf, len, "%llu", *(const unsigned long long *)p); break;
	case V_D0: snprintf(buf, len, "%.0f", *(const double *)p); break;
	case V_D2: snprintf(buf, len, "%.2f", *(const double *)p); break;
	case V_D3: snprintf(buf, len, "%.3f", *(const double *)p); break;
	case V_D6: snprintf(buf, len, "%f", *(const double *)p); break;
	case V_HEX2: snprintf(buf, len, "0x%.2x", (unsigned)*(const long long *)p); break;
	case V_CONST: snprintf(buf, len, "%s", s->text); break;
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

static int select_all(struct xp_np_cfg *c)
{
	int id, b = 0;

	for (id = 0; id < NSELS; id++) {
		if (b + 1 < XP_NP_BLOCKS && !strcmp(sels[id].name, all_blocks[b + 1]))
			b++;
		add_sel(c, b, id);
	}
	return NSELS;
}

int xp_np_select(struct xp_np_cfg *c, const char *spec)
{
	char name[64];
	int block = 0, known = 0, id;
	size_t n = 0;
	const char *p;

	memset(c->nsel, 0, sizeof(c->nsel));
	if (!strcasecmp(spec, "all"))
		return select_all(c);
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
	const struct xp_test *t = xp_test(c->test);
	char spec[1024];
	const char *head;

	if (t->rr)
		head = "LSS_SIZE_END,LSR_SIZE_END,RSR_SIZE_END,RSS_SIZE_END,"
		       "REQUEST_SIZE,RESPONSE_SIZE";
	else if (t->server_sends)
		head = "RSS_SIZE_END,LSR_SIZE_END,REMOTE_SEND_SIZE";
	else
		head = "LSS_SIZE_END,RSR_SIZE_END,LOCAL_SEND_SIZE";
	snprintf(spec, sizeof(spec), "%s%s%s", head, tput,
		 c->local_cpu || c->remote_cpu ? cpu : "");
	xp_np_select(c, spec);
}
