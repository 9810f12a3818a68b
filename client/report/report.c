/* SPDX-License-Identifier: BSD-2-Clause */
#include "client/report/report.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "client/report/mode_reason.h"
#include "client/report/hist.h"
#include "client/report/dir.h"
#include "client/report/flows.h"
#include "client/report/owd.h"
#include "client/report/interval.h"
#include "client/report/side.h"
#include "common/json.h"
#include "client/report/slo.h"
#include "client/report/slo_eval.h"
#include "client/verify.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0"
#endif

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

static double per_sec(uint64_t n, uint64_t ns)
{
	return ns ? (double)n / secs(ns) : 0.0;
}

static int is_udp(int t)
{
	return xp_test(t)->udp;
}

static int is_rr(int t)
{
	return xp_test(t)->rr;
}

/* What a stream test's receivers got, both ways. */
static uint64_t received_bytes(const struct xp_client_result *r)
{
	struct xp_dir d[2];
	uint64_t sum = 0;
	int i, n = xp_report_dirs(r, d);

	for (i = 0; i < n; i++)
		sum += d[i].received;
	return sum;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static double remote_proc_pct(const struct xp_client_result *r)
{
	return pct(r->remote.cpu_user_us + r->remote.cpu_sys_us, r->local.active_ns / 1000);
}

/* Service demand as netperf defines it: the host's busy CPU time during
 * the test (busy fraction x CPUs x elapsed) per KB moved (stream tests, KB
 * = 1024 bytes received) or per transaction (RR).  -1 when unknown
 * (printed n/a, null in JSON). */
static double service_demand(const struct xp_client_result *r, int remote)
{
	uint64_t ppm = remote ? r->remote.host_busy_ppm : r->local.host_busy_ppm;
	double ncpus = remote ? (double)r->remote.ncpus : (double)sysconf(_SC_NPROCESSORS_ONLN);
	double busy_us = (double)ppm / 1e6 * ncpus * (double)r->local.active_ns / 1e3;
	double units;

	units = is_rr(r->test) ? (double)r->local.c.transactions
			       : (double)received_bytes(r) / 1024;
	return units > 0 && ncpus > 0 ? busy_us / units : -1;
}

/* "n/a" when unknown, never a negative figure. */
static const char *sd_str(char *buf, const struct xp_client_result *r, int remote)
{
	double v = service_demand(r, remote);

	snprintf(buf, 24, v < 0 ? "n/a" : "%.3f", v);
	return buf;
}

static void json_sd(struct xp_json *j, const char *key, double v)
{
	if (v < 0)
		xp_json_null(j, key);
	else
		xp_json_dbl(j, key, v);
}

/* UDP_RR: requests out, answered, timed out. */
static void human_udp_rr(FILE *f, const struct xp_client_result *r)
{
	uint64_t sent = r->local.c.datagrams_sent, lost = r->local.c.lost;

	fprintf(f, "  requests sent %llu, answered %llu, timed out (lost) %llu "
		"(%.3f%%)\n", (unsigned long long)sent,
		(unsigned long long)r->local.c.transactions, (unsigned long long)lost,
		pct(lost, sent));
}

static void human_latency(FILE *f, const char *what, const struct xp_opts *o,
			  const struct xp_hist *h)
{
	double ps[64];
	int i, n = o->percentiles ? xp_parse_percentiles(o->percentiles, ps, 64, NULL) : 0;

	fprintf(f, "  %s (us): min %.2f mean %.2f stddev %.2f", what,
		(double)xp_hist_min(h) / 1e3, xp_hist_mean(h) / 1e3, xp_hist_stddev(h) / 1e3);
	for (i = 0; i < n; i++)
		fprintf(f, " p%g %.2f", ps[i], xp_hist_percentile(h, ps[i]) / 1e3);
	fprintf(f, " max %.2f\n", (double)xp_hist_max(h) / 1e3);
}

static void human_rr(FILE *f, const struct xp_opts *o, const struct xp_client_result *r)
{
	fprintf(f, "  client   %llu transactions in %.2f s = %.2f trans/s%s\n",
		(unsigned long long)r->local.c.transactions, secs(r->local.active_ns),
		per_sec(r->local.c.transactions, r->local.active_ns),
		r->raw_hist ? " (fixed schedule)" : "");
	fprintf(f, "  server   %llu transactions served\n",
		(unsigned long long)r->remote.c.transactions);
	if (r->warmup_ns)
		fprintf(f, "  warm-up  %.2f s before, %llu transactions (counted nowhere)\n",
			secs(r->warmup_ns), (unsigned long long)r->warm.transactions);
	human_latency(f, r->raw_hist ? "round-trip latency from intended send" :
		      "round-trip latency", o, r->hist);
	if (r->raw_hist)
		human_latency(f, "round-trip latency from actual send", o, r->raw_hist);
}

/* --read-size: what each receiver's read asks for. */
static const char *read_note(const struct xp_opts *o, char *buf, size_t len)
{
	if (!o->read_size)
		return "";
	snprintf(buf, len, ", at most %llu B per read", (unsigned long long)o->read_size);
	return buf;
}

/* How the client's workers waited (the reason: client/report/mode_reason.h). */
static const char *worker_mode(const struct xp_opts *o, const struct xp_client_result *r)
{
	return o->spin ? "spin" : r->direct ? "direct" : "epoll";
}

/* TCP stream tests: how many receiving flows had SO_RCVLOWAT, and why. */
static const char *lowat_note(const struct xp_opts *o, const struct xp_client_result *r,
			      char *buf, size_t len)
{
	uint64_t n = r->local.c.lowat_flows + r->remote.c.lowat_flows;
	uint64_t probed = r->local.c.lowat_probed + r->remote.c.lowat_probed;

	if (!xp_test(r->test)->bulk || is_udp(r->test))
		return "";
	if (o->rcvlowat == 1)
		return ", SO_RCVLOWAT off";
	if (!o->rcvlowat)
		snprintf(buf, len, ", SO_RCVLOWAT (auto) on %llu of %llu receiving flows%s",
			 (unsigned long long)n, (unsigned long long)o->flows,
			 probed ? ", chosen by timing two marks" : "");
	else
		snprintf(buf, len, ", SO_RCVLOWAT %llu on %llu of %llu receiving flows",
			 (unsigned long long)o->rcvlowat, (unsigned long long)n,
			 (unsigned long long)o->flows);
	return buf;
}

void xp_report_human(FILE *f, const struct xp_opts *o, const struct xp_client_result *r)
{
	char note[128], sd[2][24];

	fprintf(f, "xperf %s %s to %s: %llu flow%s%s, %d thread%s each side, %.2f s%s\n",
		PACKAGE_VERSION, xp_test_name(r->test), r->server,
		(unsigned long long)o->flows, o->flows == 1 ? "" : "s",
		r->bidir ? " each way" : "", r->threads,
		r->threads == 1 ? "" : "s", secs(r->local.active_ns),
		r->interrupted ? " (interrupted)" : "");
	if (is_rr(r->test))
		fprintf(f, "  request %llu B, response %llu B%s\n", (unsigned long long)r->req,
			(unsigned long long)r->rsp, xp_opts_nodelay(o) ? ", TCP_NODELAY" : "");
	else
		fprintf(f, "  %llu B per send%s%s\n", (unsigned long long)r->req,
			is_udp(r->test) ? "" : xp_opts_nodelay(o) ? ", TCP_NODELAY" : ", Nagle on",
			read_note(o, note, sizeof(note)));
	xp_report_human_shape(f, o, r);
	if (is_rr(r->test))
		human_rr(f, o, r);
	else
		xp_report_human_dirs(f, o, r);
	xp_report_human_flows(f, r);
	xp_report_owd_human(f, o, r);
	if (is_udp(r->test) && is_rr(r->test))
		human_udp_rr(f, r);
	fprintf(f, "  cpu      client %.1f%% of a CPU (host %.1f%%), server %.1f%% (host "
		"%.1f%%); worker CPUs client [%s] server [%s]\n", xp_side_proc_percent(&r->local),
		(double)r->local.host_busy_ppm / 1e4, remote_proc_pct(r),
		(double)r->remote.host_busy_ppm / 1e4, r->local.cpus, r->remote.cpus);
	fprintf(f, "  service demand client %s, server %s %s\n", sd_str(sd[0], r, 0),
		sd_str(sd[1], r, 1), is_rr(r->test) ? "us/transaction" : "us/KB");
	if (xp_test(r->test)->tcp_info)
		fprintf(f, "  tcp      retransmits client %llu, server %llu; rtt %.0f/%.0f us "
			"(client/server mean); cwnd %llu-%llu; mss %llu\n",
			(unsigned long long)r->local.tcp.retrans,
			(unsigned long long)r->remote.tcp.retrans, xp_tcp_rtt_us_mean(&r->local.tcp),
			xp_tcp_rtt_us_mean(&r->remote.tcp), (unsigned long long)r->local.tcp.cwnd_min,
			(unsigned long long)r->local.tcp.cwnd_max,
			(unsigned long long)r->local.tcp.mss);
	xp_report_path_human(f, o, r);
	fprintf(f, "  mode     %s (%s)%s%s%s%s; peak RSS client %.1f MiB, server %.1f MiB\n",
		worker_mode(o, r), xp_mode_reason(o, r->test, r->direct),
		(r->local.offloads & XP_OFFLOAD_GSO) ? ", UDP GSO" : "",
		(r->remote.offloads & XP_OFFLOAD_GRO) ? ", UDP GRO" : "",
		o->busy_poll ? ", SO_BUSY_POLL" : "", lowat_note(o, r, note, sizeof(note)),
		(double)r->local.max_rss_kb / 1024, (double)r->remote.max_rss_kb / 1024);
	if (o->zerocopy)
		fprintf(f, "  zerocopy sends completed client %llu (copied %llu), server %llu "
			"(copied %llu)\n", (unsigned long long)r->local.c.zc_completions,
			(unsigned long long)r->local.c.zc_copied,
			(unsigned long long)r->remote.c.zc_completions,
			(unsigned long long)r->remote.c.zc_copied);
	if (r->local.c.errors || r->remote.c.errors)
		fprintf(f, "  errors   client %llu, server %llu%s%s\n",
			(unsigned long long)r->local.c.errors, (unsigned long long)r->remote.c.errors,
			r->warning[0] ? "; first: " : "", r->warning);
	xp_verify_print(f, r);
}

/* r is NULL when the test never started (errors). */
void xp_report_json_start(struct xp_json *j, const struct xp_opts *o,
			  const struct xp_client_result *r, const char *key)
{
	xp_json_obj_open(j, key);
	xp_json_str_val(j, "version", "xperf " PACKAGE_VERSION);
	xp_json_u64(j, "protocol_version", XP_PROTO_VERSION);
	xp_json_i64(j, "timestamp_s", r ? r->start_time : (int64_t)time(NULL));
	if (r)
		xp_json_u64(j, "go_wall_ns", r->go_wall_ns);
	xp_json_obj_open(j, "test_start");
	xp_json_str_val(j, "test", xp_test_name(o->test));
	xp_json_str_val(j, "protocol", is_udp(o->test) ? "UDP" : "TCP");
	xp_json_str_val(j, "host", o->client ? o->client : "(embedded loopback server)");
	xp_json_u64(j, "port", r ? r->port : o->port);
	xp_json_str_val(j, "mode", o->spin ? "spin" : "epoll");
	xp_json_u64(j, "busy_poll_us", o->busy_poll);
	xp_json_u64(j, "burst", o->burst);
	xp_json_u64(j, "rate_bps", o->rate);
	xp_json_u64(j, "pace_burst", o->pace_burst);
	xp_json_u64(j, "rcvlowat_bytes", o->rcvlowat);
	xp_json_u64(j, "read_size_bytes", o->read_size);
	xp_json_dbl(j, "warmup_s", secs(xp_opts_warmup_ns(o)));
	xp_json_bool(j, "reverse", o->reverse);
	xp_json_bool(j, "bidir", o->bidir);
	xp_json_dbl(j, "omit_s", secs(o->omit));
	xp_json_u64(j, "bytes", o->bytes);
	xp_json_u64(j, "count", o->count);
	xp_json_bool(j, "gso", is_udp(o->test) && xp_test(o->test)->bulk && !o->no_gso);
	xp_json_bool(j, "zerocopy", o->zerocopy);
	xp_json_dbl(j, "duration_s", secs(xp_opts_duration_ns(o)));
	xp_json_u64(j, "msg_size_bytes", xp_opts_req_size(o));
	xp_json_u64(j, "rsp_size_bytes", xp_opts_rsp_size(o));
	xp_json_u64(j, "num_streams", o->flows);
	xp_json_u64(j, "threads", o->threads);
	xp_json_bool(j, "nodelay", xp_opts_nodelay(o));
	xp_json_u64(j, "window_bytes", o->window);
	xp_json_u64(j, "sndbuf_bytes", o->sndbuf);
	xp_json_u64(j, "rcvbuf_bytes", o->rcvbuf);
	xp_json_u64(j, "remote_sndbuf_bytes", o->remote_sndbuf);
	xp_json_u64(j, "remote_rcvbuf_bytes", o->remote_rcvbuf);
	xp_json_str_val(j, "cpus", o->cpus ? o->cpus : "");
	xp_json_str_val(j, "remote_cpus", o->remote_cpus ? o->remote_cpus : "");
	xp_json_dbl(j, "rr_timeout_s", secs(o->rr_timeout));
	xp_json_str_val(j, "family", o->ipv4 ? "ipv4" : o->ipv6 ? "ipv6" : "any");
	xp_report_path_json_start(j, o);
	xp_json_obj_close(j);
	xp_json_obj_close(j);
}

/* The percentiles to report: the four every script may rely on, plus any
 * others --percentiles asks for.  Returns the count. */
static int report_pcts(const struct xp_opts *o, double *p, int cap)
{
	static const double always[] = { 50, 90, 99, 99.9 };
	double extra[64];
	int n = 0, i, k, m = o->percentiles ? xp_parse_percentiles(o->percentiles, extra, 64, NULL) : 0;

	for (i = 0; i < 4; i++)
		p[n++] = always[i];
	for (i = 0; i < m && n < cap; i++) {
		for (k = 0; k < n && p[k] != extra[i]; k++)
			;
		if (k == n)
			p[n++] = extra[i];
	}
	return n;
}

/* "p99.9" -> "p99_9" */
static void pct_key(double p, char *buf, size_t len)
{
	char *c;

	snprintf(buf, len, "p%g", p);
	for (c = buf; *c; c++)
		if (*c == '.')
			*c = '_';
}

static void json_latency(struct xp_json *j, const char *key, const struct xp_opts *o,
			 const struct xp_hist *h)
{
	double ps[68];
	char k[32];
	int i, n = report_pcts(o, ps, 68);

	xp_json_obj_open(j, key);
	xp_json_dbl(j, "min", (double)xp_hist_min(h) / 1e3);
	xp_json_dbl(j, "mean", xp_hist_mean(h) / 1e3);
	xp_json_dbl(j, "stddev", xp_hist_stddev(h) / 1e3);
	for (i = 0; i < n; i++) {
		pct_key(ps[i], k, sizeof(k));
		xp_json_dbl(j, k, xp_hist_percentile(h, ps[i]) / 1e3);
	}
	xp_json_dbl(j, "max", (double)xp_hist_max(h) / 1e3);
	xp_json_obj_close(j);
}

static void json_rr(struct xp_json *j, const struct xp_opts *o, const struct xp_client_result *r)
{
	xp_json_obj_open(j, "rr");
	xp_json_u64(j, "transactions", r->local.c.transactions);
	xp_json_dbl(j, "transactions_per_second", per_sec(r->local.c.transactions, r->local.active_ns));
	xp_json_u64(j, "server_transactions", r->remote.c.transactions);
	xp_json_u64(j, "after_stop_transactions", r->local.c.late_transactions);
	xp_json_dbl(j, "warmup_s", secs(r->warmup_ns));
	xp_json_u64(j, "warmup_transactions", r->warm.transactions);
	xp_json_str_val(j, "latency_kind", "round_trip");
	json_latency(j, "latency_us", o, r->hist);
	xp_json_hist(j, "histogram", r->hist);
	if (r->raw_hist) {
		xp_json_dbl(j, "target_transactions_per_second", (double)o->tps);
		json_latency(j, "uncorrected_latency_us", o, r->raw_hist);
		xp_json_hist(j, "uncorrected_histogram", r->raw_hist);
	}
	xp_json_obj_close(j);
}

/* UDP_RR: requests sent, answered, timed out. */
static void json_udp_rr(struct xp_json *j, const struct xp_client_result *r)
{
	struct xp_dir d = {
		.dgrams_sent = r->local.c.datagrams_sent,
		.dgrams_received = r->local.c.datagrams_received,
		.lost = r->local.c.lost,
		.out_of_order = r->remote.c.out_of_order,
		.duplicates = r->remote.c.duplicates,
	};

	xp_report_json_udp(j, "udp", &d, 0);
}

static void json_side(struct xp_json *j, const char *key, const struct xp_side_result *r)
{
	const struct xp_counters *c = &r->c;

	xp_json_obj_open(j, key);
	xp_json_u64(j, "bytes_sent", c->bytes_sent);
	xp_json_u64(j, "bytes_received", c->bytes_received);
	xp_json_u64(j, "datagrams_sent", c->datagrams_sent);
	xp_json_u64(j, "datagrams_received", c->datagrams_received);
	xp_json_u64(j, "transactions", c->transactions);
	xp_json_u64(j, "errors", c->errors);
	xp_json_u64(j, "retransmits", r->tcp.retrans);
	xp_json_u64(j, "omitted_bytes_sent", r->omitted_bytes_sent);
	xp_json_u64(j, "omitted_bytes_received", r->omitted_bytes_received);
	xp_json_u64(j, "cpu_user_us", r->cpu_user_us);
	xp_json_u64(j, "cpu_system_us", r->cpu_sys_us);
	xp_report_json_cpus(j, "worker_cpus", r->cpus);
	xp_json_u64(j, "max_rss_kb", r->max_rss_kb);
	xp_json_bool(j, "udp_gso", (r->offloads & XP_OFFLOAD_GSO) != 0);
	xp_json_bool(j, "udp_gro", (r->offloads & XP_OFFLOAD_GRO) != 0);
	xp_json_u64(j, "rcvlowat_flows", c->lowat_flows);
	xp_json_u64(j, "rcvlowat_probed_flows", c->lowat_probed);
	xp_json_u64(j, "send_calls", c->send_calls);
	xp_json_u64(j, "recv_calls", c->recv_calls);
	xp_json_obj_open(j, "zerocopy");
	xp_json_u64(j, "completions", c->zc_completions);
	xp_json_u64(j, "copied", c->zc_copied);
	xp_json_obj_close(j);
	xp_report_side_json(j, r);
	xp_json_obj_close(j);
}

static void json_tcp_totals(struct xp_json *j, const char *key, const struct xp_tcp_totals *t)
{
	xp_json_obj_open(j, key);
	xp_json_u64(j, "flows", t->flows);
	xp_json_u64(j, "retransmits", t->retrans);
	xp_json_dbl(j, "rtt_us_mean", xp_tcp_rtt_us_mean(t));
	xp_json_dbl(j, "rttvar_us_mean", xp_tcp_rttvar_us_mean(t));
	xp_json_u64(j, "rtt_us_min", t->rtt_us_min);
	xp_json_u64(j, "rtt_us_max", t->rtt_us_max);
	xp_json_u64(j, "cwnd_min_segments", t->cwnd_min);
	xp_json_u64(j, "cwnd_max_segments", t->cwnd_max);
	xp_json_u64(j, "mss_bytes", t->mss);
	xp_json_u64(j, "advmss_bytes", t->advmss);
	xp_json_u64(j, "delivery_rate_bps", t->delivery_rate_bps);
}

static void json_tcp_flows(struct xp_json *j, const struct xp_flow_result *fl, uint32_t n)
{
	uint32_t i;

	xp_json_arr_open(j, "per_flow");
	for (i = 0; i < n; i++) {
		const struct xp_flow_result *f = &fl[i];

		if (!(f->flags & XP_FLOW_F_TCP_INFO))
			continue;
		xp_json_obj_open(j, NULL);
		xp_json_u64(j, "flow", f->flow);
		xp_json_u64(j, "retransmits", f->retrans);
		xp_json_u64(j, "rtt_us", f->rtt_us);
		xp_json_u64(j, "rttvar_us", f->rttvar_us);
		xp_json_u64(j, "cwnd_segments", f->cwnd);
		xp_json_u64(j, "mss_bytes", f->mss);
		xp_json_u64(j, "advmss_bytes", f->advmss);
		xp_json_u64(j, "delivery_rate_bps", f->delivery_rate_bps);
		xp_json_obj_close(j);
	}
	xp_json_arr_close(j);
}

static void json_tcp(struct xp_json *j, const struct xp_client_result *r)
{
	xp_json_obj_open(j, "tcp_info");
	json_tcp_totals(j, "local", &r->local.tcp);
	json_tcp_flows(j, r->flows, r->nflows);
	xp_json_obj_close(j);
	json_tcp_totals(j, "remote", &r->remote.tcp);
	json_tcp_flows(j, r->remote_flows, r->nremote_flows);
	xp_json_obj_close(j);
	xp_json_obj_close(j);
}

void xp_report_json_intervals(struct xp_json *j, const struct xp_client_result *r)
{
	uint32_t i;

	if (!r->nintervals)
		return;
	xp_json_arr_open(j, "intervals");
	for (i = 0; i < r->nintervals; i++)
		xp_json_interval(j, NULL, &r->intervals[i], r->test);
	xp_json_arr_close(j);
}

void xp_report_json_end(struct xp_json *j, const struct xp_opts *o,
			const struct xp_client_result *r, const struct xp_slo *slo,
			const char *key)
{
	uint64_t retrans = r->local.tcp.retrans + r->remote.tcp.retrans;

	xp_json_obj_open(j, key);
	if (is_rr(r->test)) {
		xp_report_json_sum(j, "sum_sent", r->local.c.bytes_sent, r->local.active_ns,
			 is_udp(r->test) ? NULL : &retrans);
		xp_report_json_sum(j, "sum_received", r->remote.c.bytes_received, r->local.active_ns, NULL);
		json_rr(j, o, r);
	} else {
		xp_report_json_dirs(j, r);
	}
	if (is_udp(r->test) && is_rr(r->test))
		json_udp_rr(j, r);
	if (!is_udp(r->test))
		json_tcp(j, r);
	xp_report_owd_json(j, o, r);
	xp_json_obj_open(j, "cpu_utilization_percent");
	xp_json_dbl(j, "host_total", (double)r->local.host_busy_ppm / 1e4);
	xp_json_dbl(j, "remote_total", (double)r->remote.host_busy_ppm / 1e4);
	xp_json_dbl(j, "local_process", xp_side_proc_percent(&r->local));
	xp_json_dbl(j, "remote_process", remote_proc_pct(r));
	xp_json_obj_close(j);
	xp_json_obj_open(j, "service_demand");
	json_sd(j, is_rr(r->test) ? "local_us_per_transaction" : "local_us_per_kb",
		service_demand(r, 0));
	json_sd(j, is_rr(r->test) ? "remote_us_per_transaction" : "remote_us_per_kb",
		service_demand(r, 1));
	xp_json_obj_close(j);
	json_side(j, "client", &r->local);
	json_side(j, "server", &r->remote);
	xp_report_path_json_end(j, r);
	xp_report_json_streams(j, r);
	if (slo && slo->n)
		xp_json_slo(j, slo, r);
	xp_json_str_val(j, "worker_mode", worker_mode(o, r));
	xp_json_str_val(j, "worker_mode_reason", xp_mode_reason(o, r->test, r->direct));
	xp_json_bool(j, "interrupted", r->interrupted);
	if (r->warning[0])
		xp_json_str_val(j, "warning", r->warning);
	xp_verify_json(j, r);
	xp_json_obj_close(j);
}

static int emit(FILE *f, struct xp_json *j)
{
	int rc = j->oom ? -1 : 0;

	if (!rc)
		fputs(xp_json_str(j), f);
	else
		fputs("{\"error\": \"out of memory formatting JSON\"}\n", f);
	fflush(f);
	xp_json_free(j);
	return rc;
}

int xp_report_json(FILE *f, const struct xp_opts *o, const struct xp_client_result *r)
{
	return xp_report_json_slo(f, o, r, NULL);
}

int xp_report_json_slo(FILE *f, const struct xp_opts *o, const struct xp_client_result *r,
		       const struct xp_slo *slo)
{
	struct xp_json j;

	xp_json_init(&j, 1);
	xp_json_obj_open(&j, NULL);
	xp_report_json_start(&j, o, r, "start");
	xp_report_json_intervals(&j, r);
	xp_report_json_end(&j, o, r, slo, "end");
	xp_json_obj_close(&j);
	return emit(f, &j);
}

void xp_report_json_error(FILE *f, const struct xp_opts *o, const char *msg)
{
	struct xp_json j;

	xp_json_init(&j, 1);
	xp_json_obj_open(&j, NULL);
	if (o)
		xp_report_json_start(&j, o, NULL, "start");
	xp_json_str_val(&j, "error", msg);
	xp_json_obj_close(&j);
	emit(f, &j);
}
