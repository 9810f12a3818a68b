/* SPDX-License-Identifier: BSD-2-Clause */
/* The numbers netperf derives from a run: throughput in the -f units,
 * CPU utilisation, service demand, and the confidence loop of -i/-I.
 *
 * Service demand follows netperf's definition: the CPU time the whole
 * host spent per unit of work, i.e. busy fraction x CPU count x elapsed
 * microseconds / units, where a unit is a transaction when throughput
 * is in transactions and a KB (1024 bytes) of data the client sent and
 * received otherwise.  The busy fraction is host-wide (/proc/stat), as
 * netperf's on Linux. */
#include "client/netperf/netperf.h"

#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

#include "client/report/stats.h"
#include "proto/msg.h"

const char *xp_np_units(char fmt)
{
	switch (fmt) {
	case 'x': return "Trans";
	case 'B': return "Bytes";
	case 'K': return "KBytes";
	case 'M': return "MBytes";
	case 'G': return "GBytes";
	case 'b': return "10^0bits";
	case 'k': return "10^3bits";
	case 'g': return "10^9bits";
	default: return "10^6bits";
	}
}

double xp_np_rate(char fmt, double bytes, double secs)
{
	double div;

	if (secs <= 0)
		return 0;
	switch (fmt) {
	case 'B': div = 1; break;
	case 'K': div = 1024; break;
	case 'M': div = 1024.0 * 1024; break;
	case 'G': div = 1024.0 * 1024 * 1024; break;
	case 'b': div = 1 / 8.0; break;
	case 'k': div = 1e3 / 8; break;
	case 'g': div = 1e9 / 8; break;
	default: div = 1e6 / 8; break;
	}
	return bytes / div / secs;
}

static int is_rr(int t)
{
	return xp_test(t)->rr;
}

static double ns_s(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* The test's length on the client's clock, as netperf's elapsed time is
 * its own loop's: the -l asked for, or up to the signal that ended it.
 * (The workers' own GO-to-STOP time can run longer on a loaded host,
 * where a worker sees STOP late.) */
double xp_np_elapsed(const struct xp_np_cfg *cfg, const struct xp_client_result *r)
{
	if (r->interrupted || !cfg->opts.length)
		return ns_s(r->local.active_ns);
	return ns_s(cfg->opts.length);
}

/* Stream tests: what the receiver got (netperf: the remote's bytes over
 * the sender's elapsed time). */
static double stream_rate(char fmt, const struct xp_client_result *r, double el)
{
	if (xp_test(r->test)->server_sends)
		return xp_np_rate(fmt, (double)r->local.c.bytes_received, el);
	return xp_np_rate(fmt, (double)r->remote.c.bytes_received, el);
}

static double service_demand(double cpu_pct, int ncpus, double units, double secs)
{
	if (cpu_pct < 0 || units <= 0 || secs <= 0)
		return -1;
	return cpu_pct / 100 * ncpus * secs * 1e6 / units;
}

void xp_np_measure(const struct xp_np_cfg *cfg, const struct xp_np_env *env,
		   const struct xp_client_result *r, struct xp_np_measure *m)
{
	double el = xp_np_elapsed(cfg, r);
	double xfer = (double)(r->local.c.bytes_sent + r->local.c.bytes_received);
	/* TCP_CC's table shows transactions whatever -f says */
	int trans = cfg->fmt == 'x' || cfg->kind == XP_NP_K_CC;
	double units = trans ? (double)r->local.c.transactions : xfer / 1024;

	m->elapsed_s = el;
	if (trans)
		m->thruput = el > 0 ? (double)r->local.c.transactions / el : 0;
	else if (is_rr(r->test))
		m->thruput = xp_np_rate(cfg->fmt, xfer, el);
	else
		m->thruput = stream_rate(cfg->fmt, r, el);
	m->local_cpu = cfg->local_cpu ? (double)r->local.host_busy_ppm / 1e4 : -1;
	m->remote_cpu = cfg->remote_cpu ? (double)r->remote.host_busy_ppm / 1e4 : -1;
	m->local_sd = service_demand(m->local_cpu, env->ncpus_local, units, el);
	m->remote_sd = service_demand(m->remote_cpu, env->ncpus_remote, units, el);
}

/* Mean of one field over n measures, and the full width of its
 * confidence interval in percent of the mean (netperf reports the width
 * 2 x t x s/sqrt(n), not the half-width). */
static double field(const struct xp_np_measure *m, int n, size_t off, int level,
		    double *width_pct)
{
	double v[64];
	struct xp_stats st;
	int i;

	if (n > 64)
		n = 64;
	for (i = 0; i < n; i++)
		v[i] = *(const double *)((const char *)&m[i] + off);
	*width_pct = 0;
	if (xp_stats_compute(v, (size_t)n, level == 95 ? 95 : 99, &st))
		return v[n - 1];
	if (n > 1 && st.mean > 0)
		*width_pct = 2 * st.ci_half / st.mean * 100;
	return st.mean;
}

#define OFF(f) offsetof(struct xp_np_measure, f)

int xp_np_summarize(const struct xp_np_cfg *cfg, const struct xp_np_measure *m,
		    int n, struct xp_np_summary *s)
{
	double w = cfg->conf_width * 100, unused;
	int lvl = cfg->conf_level, ok;

	s->iterations = n;
	s->mean.elapsed_s = field(m, n, OFF(elapsed_s), lvl, &unused);
	s->mean.thruput = field(m, n, OFF(thruput), lvl, &s->thruput_confid);
	s->mean.local_cpu = field(m, n, OFF(local_cpu), lvl, &s->local_cpu_confid);
	s->mean.remote_cpu = field(m, n, OFF(remote_cpu), lvl, &s->remote_cpu_confid);
	s->mean.local_sd = field(m, n, OFF(local_sd), lvl, &unused);
	s->mean.remote_sd = field(m, n, OFF(remote_sd), lvl, &unused);
	if (cfg->iter_max <= 1) {
		s->confident = 1;
		return 0;
	}
	ok = n > 1 && s->thruput_confid <= w;
	if (!cfg->result_conf_only)
		ok = ok && s->local_cpu_confid <= w && s->remote_cpu_confid <= w;
	s->confident = ok;
	return n < cfg->iter_min || (!ok && n < cfg->iter_max);
}

/* ---- the value of every selector ---- */

static uint64_t div_ceil(uint64_t a, uint64_t b)
{
	return b ? (a + b - 1) / b : 0;
}

static long long size_or(uint64_t req, uint64_t dflt)
{
	return (long long)(req ? req : dflt);
}

static long long asked(const struct xp_np_cfg *c, int bit, uint64_t v)
{
	return c->bufs_set & bit ? (long long)v : -1;
}

/* Message sizes as netperf reports them: the sender's send size and the
 * receiver's receive size, 0 and -1 for the directions not used, and on
 * request/response tests 0 locally and the message sizes remotely. */
static void fill_sizes(const struct xp_np_run *run, struct xp_np_vals *v)
{
	const struct xp_np_cfg *c = run->cfg;
	const struct xp_np_env *e = run->env;
	const struct xp_test *t = xp_test(c->test);
	long long msg = (long long)c->opts.msg_size;

	v->lss_req = asked(c, XP_NP_LSS, c->lss);
	v->lsr_req = asked(c, XP_NP_LSR, c->lsr);
	v->rss_req = asked(c, XP_NP_RSS, c->rss);
	v->rsr_req = asked(c, XP_NP_RSR, c->rsr);
	v->lss = (long long)e->lss;
	v->lsr = (long long)e->lsr;
	v->rss = (long long)e->rss;
	v->rsr = (long long)e->rsr;
	v->req = v->rsp = -1;
	v->local_send_size = v->local_recv_size = 0;
	if (t->rr) {
		v->local_send_size = (long long)c->send_size;
		v->local_recv_size = (long long)c->local_recv_size;
		v->req = v->remote_recv_size = (long long)run->r->req;
		v->rsp = v->remote_send_size = (long long)run->r->rsp;
	} else if (t->server_sends) {
		v->remote_send_size = msg;
		v->remote_recv_size = -1;
		v->local_recv_size = size_or(c->local_recv_size, e->lsr);
	} else {
		v->local_send_size = msg;
		v->remote_send_size = -1;
		v->remote_recv_size = size_or(c->remote_recv_size, e->rsr);
	}
	v->burst = c->burst;
	/* netperf's buffer rings: one buffer for request/response, two for
	 * a stream's sender and receiver (what netperf reports by default) */
	v->local_send_width = t->rr ? 1 : t->server_sends ? 0 : 2;
	v->local_recv_width = t->rr ? 1 : t->server_sends ? 2 : 0;
	v->remote_send_width = v->remote_recv_width = t->rr ? 1 : 2;
}

/* A TCP stream's calls as the side counted them; from a server that does
 * not count them (before send_calls/recv_calls), bytes over the size. */
static long long calls(uint64_t counted, uint64_t bytes, long long size)
{
	return counted || !bytes ? (long long)counted : (long long)div_ceil(bytes, (uint64_t)size);
}

/* netperf counts system calls: TCP streams' as each side counted them;
 * for UDP and RR one per datagram, request or response. */
static void fill_calls(const struct xp_np_run *run, struct xp_np_vals *v)
{
	const struct xp_client_result *r = run->r;
	const struct xp_test *t = xp_test(r->test);

	v->local_errors = (long long)r->local.c.errors;
	if (t->rr) {
		v->local_send_calls = t->udp ? r->local.c.datagrams_sent : r->local.c.transactions;
		v->local_recv_calls = r->local.c.transactions;
		v->remote_send_calls = v->remote_recv_calls = r->remote.c.transactions;
	} else if (t->udp && t->server_sends) {
		v->remote_send_calls = r->remote.c.datagrams_sent;
		v->local_recv_calls = r->local.c.datagrams_received;
	} else if (t->udp) {
		v->local_send_calls = r->local.c.datagrams_sent;
		v->remote_recv_calls = r->remote.c.datagrams_received;
	} else if (!t->server_sends) {
		v->local_send_calls = calls(r->local.c.send_calls, r->local.c.bytes_sent,
					    v->local_send_size);
		v->remote_recv_calls = calls(r->remote.c.recv_calls, r->remote.c.bytes_received,
					     v->remote_recv_size);
	} else {
		v->remote_send_calls = calls(r->remote.c.send_calls, r->remote.c.bytes_sent,
					     v->remote_send_size);
		v->local_recv_calls = calls(r->local.c.recv_calls, r->local.c.bytes_received,
					    v->local_recv_size);
	}
}

static double per(double a, unsigned long long b)
{
	return b ? a / (double)b : 0;
}

static void fill_bytes(const struct xp_np_run *run, struct xp_np_vals *v)
{
	const struct xp_client_result *r = run->r;
	char fmt = run->cfg->fmt == 'x' ? 'm' : run->cfg->fmt;
	double el = xp_np_elapsed(run->cfg, r);

	v->local_bytes_sent = r->local.c.bytes_sent;
	v->local_bytes_recvd = r->local.c.bytes_received;
	v->remote_bytes_sent = r->remote.c.bytes_sent;
	v->remote_bytes_recvd = r->remote.c.bytes_received;
	v->local_bytes_xferd = (double)(r->local.c.bytes_sent + r->local.c.bytes_received);
	v->remote_bytes_xferd = (double)(r->remote.c.bytes_sent + r->remote.c.bytes_received);
	v->local_send_tput = xp_np_rate(fmt, (double)r->local.c.bytes_sent, el);
	v->local_recv_tput = xp_np_rate(fmt, (double)r->local.c.bytes_received, el);
	v->remote_send_tput = xp_np_rate(fmt, (double)r->remote.c.bytes_sent, el);
	v->remote_recv_tput = xp_np_rate(fmt, (double)r->remote.c.bytes_received, el);
	v->local_bytes_per_send = per((double)r->local.c.bytes_sent, v->local_send_calls);
	v->local_bytes_per_recv = per((double)r->local.c.bytes_received, v->local_recv_calls);
	v->remote_bytes_per_send = per((double)r->remote.c.bytes_sent, v->remote_send_calls);
	v->remote_bytes_per_recv = per((double)r->remote.c.bytes_received, v->remote_recv_calls);
}

/* Whole microseconds, as netperf's histogram keeps them; -1 if none. */
static void fill_latency(const struct xp_np_run *run, struct xp_np_vals *v)
{
	const struct xp_hist *h = run->r->hist;
	const struct xp_np_summary *s = run->sum;
	int burst = xp_test(run->cfg->test)->persistent ? run->cfg->burst : 0;

	v->min_lat = v->max_lat = v->p50_lat = v->p90_lat = v->p99_lat = -1;
	v->mean_lat = v->stddev_lat = -1;
	v->rt_latency = -1;
	v->trans_rate = is_rr(run->cfg->test) ? 0 : 1; /* netperf: 1.000 on streams */
	if (is_rr(run->cfg->test) && s->transactions && s->elapsed_total_s > 0) {
		v->trans_rate = (double)s->transactions / s->elapsed_total_s;
		v->rt_latency = 1e6 / v->trans_rate * (1 + burst);
	}
	if (!h || !xp_hist_count(h))
		return;
	v->min_lat = (long long)(xp_hist_min(h) / 1000);
	v->max_lat = (long long)(xp_hist_max(h) / 1000);
	v->p50_lat = (long long)(xp_hist_percentile(h, 50) / 1000);
	v->p90_lat = (long long)(xp_hist_percentile(h, 90) / 1000);
	v->p99_lat = (long long)(xp_hist_percentile(h, 99) / 1000);
	v->mean_lat = xp_hist_mean(h) / 1000;
	v->stddev_lat = xp_hist_stddev(h) / 1000;
}

static void fill_cpu(const struct xp_np_run *run, struct xp_np_vals *v)
{
	const struct xp_np_cfg *c = run->cfg;
	const struct xp_np_summary *s = run->sum;
	int conf = c->iter_max > 1;

	v->local_cpu = s->mean.local_cpu;
	v->remote_cpu = s->mean.remote_cpu;
	v->local_sd = s->mean.local_sd;
	v->remote_sd = s->mean.remote_sd;
	/* /proc/stat ("S") when measured, netperf's "U" otherwise; the user,
	 * system ... split is not measured */
	v->local_cpu_method = c->local_cpu ? "S" : "U";
	v->remote_cpu_method = c->remote_cpu ? "S" : "U";
	v->local_ncpus = c->local_cpu ? run->env->ncpus_local : 0;
	v->remote_ncpus = c->remote_cpu ? run->env->ncpus_remote : 0;
	v->local_peak = -1;
	v->local_peak_id = -1;
	v->remote_peak = c->remote_cpu ? -1 : 0;
	v->remote_peak_id = c->remote_cpu ? -1 : 0;
	v->local_bind = c->local_bind;
	v->remote_bind = c->remote_bind;
	v->conf_level = c->conf_level;
	v->conf_iterations = s->iterations;
	v->conf_interval = conf ? c->conf_width * 100 : -1;
	v->thruput_confid = conf ? s->thruput_confid : -1;
	v->local_cpu_confid = conf ? s->local_cpu_confid : -1;
	v->remote_cpu_confid = conf ? s->remote_cpu_confid : -1;
}

/* The TOS a side's data sockets carry: what xperf set, else 0 when one
 * was asked (netperf reads back what the socket has), else -1. */
static long long tos_of(int applied, int asked)
{
	return applied >= 0 ? applied : asked >= 0 ? 0 : -1;
}

static void fill_tcp(const struct xp_np_run *run, struct xp_np_vals *v)
{
	const struct xp_client_result *r = run->r;
	const struct xp_np_cfg *c = run->cfg;
	int tcp = !xp_test(c->test)->udp;
	const char *lcc = r->local.congestion, *rcc = r->remote.congestion;

	v->mss = tcp && r->local.tcp.flows ? (long long)r->local.tcp.mss : -1;
	v->local_retrans = tcp && r->local.tcp.flows ? (long long)r->local.tcp.retrans : -1;
	v->remote_retrans = tcp && r->remote.tcp.flows ? (long long)r->remote.tcp.retrans : -1;
	v->local_nodelay = v->remote_nodelay = c->nodelay;
	/* what each end's sockets used, as they report it (an older server:
	 * what was set, or nothing) */
	if (!*rcc)
		rcc = c->cong_applied;
	if (!*lcc)
		lcc = c->cong_applied[0] ? c->cong_applied : run->env->cong ? run->env->cong : "";
	v->local_cong = tcp ? lcc : "";
	v->remote_cong = tcp ? rcc : "";
	v->local_tos = tos_of(c->tos_applied[0], c->tos[0]);
	v->remote_tos = tos_of(c->tos_applied[1], c->tos[1]);
	v->local_prio = v->remote_prio = -1; /* not set: -y is refused */
}

static void fill_names(const struct xp_np_run *run, struct xp_np_vals *v)
{
	const struct xp_np_cfg *c = run->cfg;
	int udp = xp_test(c->test)->udp;
	int v6 = run->env->dest_family == AF_INET6;

	v->socket_type = udp ? "Datagram" : "Stream";
	v->protocol = udp ? "UDP" : "TCP";
	v->direction = xp_np_direction(c);
	v->units = xp_np_units(c->fmt);
	v->sd_units = c->fmt == 'x' ? "usec/Tran" : "usec/KB";
	v->brand = c->brand;
	v->uuid = run->env->uuid;
	v->command_line = c->command_line;
	v->source_port = c->data_port[0][0] ? c->data_port[0] : "0";
	v->dest_port = c->data_port[1][0] ? c->data_port[1] : "0";
	v->source_addr = c->local_host ? c->local_host : v6 ? "::0" : "0.0.0.0";
	v->dest_addr = c->host;
	v->source_family = c->local_host ? (v6 ? AF_INET6 : AF_INET) : AF_UNSPEC;
	v->dest_family = v6 ? AF_INET6 : AF_INET;
	v->local_fill = c->fill;
	v->remote_fill = ""; /* a remote fill file is refused */
}

void xp_np_vals_fill(const struct xp_np_run *run, struct xp_np_vals *v)
{
	memset(v, 0, sizeof(*v));
	fill_names(run, v);
	fill_sizes(run, v);
	fill_calls(run, v);
	fill_bytes(run, v);
	fill_latency(run, v);
	fill_cpu(run, v);
	fill_tcp(run, v);
	v->elapsed = run->sum->mean.elapsed_s;
	v->thruput = run->sum->mean.thruput;
}
