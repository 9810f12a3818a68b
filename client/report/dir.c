/* SPDX-License-Identifier: BSD-2-Clause */
/* A stream test's result by direction: the sending and the receiving
 * end of each direction, from the test table's server_sends fact and
 * --bidir (never from the test's name), and the report lines and JSON
 * objects built on them. */
#include "client/report/dir.h"
#include "client/report/report.h"
#include "client/report/side.h"

#include <string.h>

#include "common/tests.h"

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

static double per_sec(uint64_t n, uint64_t ns)
{
	return ns ? (double)n / secs(ns) : 0.0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* --bidir: the sender's retransmissions on this direction's flows only. */
static uint64_t flow_retrans(const struct xp_flow_result *f, uint32_t n, int s2c)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		if ((f[i].flags & XP_FLOW_F_SENDER) && !!(f[i].flags & XP_FLOW_F_S2C) == s2c)
			sum += f[i].retrans;
	return sum;
}

static void fill_udp(const struct xp_side_result *snd, const struct xp_side_result *rcv,
		     struct xp_dir *d)
{
	double mean = xp_side_jitter_ns_mean(rcv);

	d->dgrams_sent = snd->c.datagrams_sent;
	d->dgrams_received = rcv->c.datagrams_received;
	d->lost = d->dgrams_sent > d->dgrams_received ? d->dgrams_sent - d->dgrams_received : 0;
	d->out_of_order = rcv->c.out_of_order;
	d->duplicates = rcv->c.duplicates;
	d->jitter_ms = mean < 0 ? -1 : mean / 1e6;
	d->jitter_max_ms = mean < 0 ? -1 : (double)rcv->c.jitter_ns_max / 1e6;
}

static void fill(const struct xp_client_result *r, int s2c, struct xp_dir *d)
{
	const struct xp_side_result *snd = s2c ? &r->remote : &r->local;
	const struct xp_side_result *rcv = s2c ? &r->local : &r->remote;
	uint64_t local_send_ns = r->quota ? r->local.elapsed_ns : r->local.active_ns;

	d->s2c = s2c;
	d->snd = s2c ? "server" : "client";
	d->rcv = s2c ? "client" : "server";
	d->sent = snd->c.bytes_sent;
	d->received = rcv->c.bytes_received;
	if (s2c) {
		d->sent_ns = r->remote.elapsed_ns ? r->remote.elapsed_ns : r->local.active_ns;
		d->recv_ns = r->local.elapsed_ns;
	} else {
		d->sent_ns = local_send_ns;
		d->recv_ns = r->remote.elapsed_ns ? r->remote.elapsed_ns : r->local.active_ns;
	}
	if (r->bidir)
		d->retrans = s2c ? flow_retrans(r->remote_flows, r->nremote_flows, 1)
				 : flow_retrans(r->flows, r->nflows, 0);
	else
		d->retrans = snd->tcp.retrans;
	if (xp_test(r->test)->udp)
		fill_udp(snd, rcv, d);
	else
		d->jitter_ms = d->jitter_max_ms = -1;
}

int xp_report_dirs(const struct xp_client_result *r, struct xp_dir d[2])
{
	const struct xp_test *t = xp_test(r->test);

	if (!t->bulk)
		return 0;
	memset(d, 0, 2 * sizeof(*d));
	fill(r, r->bidir ? 0 : t->server_sends, &d[0]);
	if (!r->bidir)
		return 1;
	fill(r, 1, &d[1]);
	return 2;
}

double xp_dir_received_bps(const struct xp_client_result *r)
{
	struct xp_dir d[2];
	double sum = 0;
	int i, n = xp_report_dirs(r, d);

	for (i = 0; i < n; i++)
		sum += per_sec(d[i].received, d[i].recv_ns) * 8;
	return sum;
}

double xp_dir_loss_pct(const struct xp_client_result *r)
{
	struct xp_dir d[2];
	uint64_t lost = 0, sent = 0;
	int i, n = xp_report_dirs(r, d);

	for (i = 0; i < n; i++) {
		lost += d[i].lost;
		sent += d[i].dgrams_sent;
	}
	return pct(lost, sent);
}

static void human_bytes(char *buf, size_t len, uint64_t b)
{
	const char *u[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int i = 0;

	while (v >= 1024 && i < 4) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, i ? "%.2f %s" : "%.0f %s", v, u[i]);
}

static void human_jitter(FILE *f, const struct xp_dir *d, uint64_t req)
{
	if (d->jitter_ms < 0 && req < XP_UDP_STAMP_LEN)
		fprintf(f, ", jitter n/a (datagrams under %d B carry no send time)\n",
			XP_UDP_STAMP_LEN);
	else if (d->jitter_ms < 0)
		fprintf(f, ", jitter n/a (the %s reported none)\n", d->rcv);
	else
		fprintf(f, ", jitter %.3f ms (flow mean; max %.3f)\n", d->jitter_ms,
			d->jitter_max_ms);
}

static void human_dir(FILE *f, const struct xp_opts *o, const struct xp_dir *d, int udp,
		      uint64_t req)
{
	char b1[32], b2[32], r1[40], r2[40];

	human_bytes(b1, sizeof(b1), d->sent);
	human_bytes(b2, sizeof(b2), d->received);
	fprintf(f, "  sent     %12s in %6.2f s = %s  (%s)\n", b1, secs(d->sent_ns),
		xp_report_rate(r1, sizeof(r1), 10, o, per_sec(d->sent, d->sent_ns) * 8), d->snd);
	fprintf(f, "  received %12s in %6.2f s = %s  (%s)\n", b2, secs(d->recv_ns),
		xp_report_rate(r2, sizeof(r2), 10, o, per_sec(d->received, d->recv_ns) * 8),
		d->rcv);
	if (!udp)
		return;
	fprintf(f, "  datagrams sent %llu, received %llu, lost %llu (%.3f%%), "
		"out of order %llu, duplicates %llu", (unsigned long long)d->dgrams_sent,
		(unsigned long long)d->dgrams_received, (unsigned long long)d->lost,
		pct(d->lost, d->dgrams_sent), (unsigned long long)d->out_of_order,
		(unsigned long long)d->duplicates);
	human_jitter(f, d, req);
}

void xp_report_human_dirs(FILE *f, const struct xp_opts *o, const struct xp_client_result *r)
{
	struct xp_dir d[2];
	int i, n = xp_report_dirs(r, d), udp = xp_test(r->test)->udp;
	char b1[32], b2[32], rate[40];

	for (i = 0; i < n; i++) {
		if (n > 1)
			fprintf(f, "  %s -> %s:\n", d[i].snd, d[i].rcv);
		human_dir(f, o, &d[i], udp, r->req);
	}
	if (n < 2)
		return;
	human_bytes(b1, sizeof(b1), d[0].sent + d[1].sent);
	human_bytes(b2, sizeof(b2), d[0].received + d[1].received);
	fprintf(f, "  sum      sent %s, received %s = %s both ways\n", b1, b2,
		xp_report_rate(rate, sizeof(rate), 0, o, xp_dir_received_bps(r)));
}

void xp_report_json_sum(struct xp_json *j, const char *key, uint64_t bytes, uint64_t ns,
			const uint64_t *retrans)
{
	xp_json_obj_open(j, key);
	xp_json_u64(j, "bytes", bytes);
	xp_json_dbl(j, "seconds", secs(ns));
	xp_json_dbl(j, "bits_per_second", per_sec(bytes, ns) * 8);
	if (retrans)
		xp_json_u64(j, "retransmits", *retrans);
	xp_json_obj_close(j);
}

static void json_ms(struct xp_json *j, const char *key, double ms)
{
	if (ms < 0)
		xp_json_null(j, key);
	else
		xp_json_dbl(j, key, ms);
}

void xp_report_json_udp(struct xp_json *j, const char *key, const struct xp_dir *d, int bulk)
{
	xp_json_obj_open(j, key);
	if (bulk)
		xp_json_str_val(j, "direction", d->s2c ? "server_to_client" : "client_to_server");
	xp_json_u64(j, "packets_sent", d->dgrams_sent);
	xp_json_u64(j, "packets_received", d->dgrams_received);
	xp_json_u64(j, "lost", d->lost);
	xp_json_dbl(j, "lost_percent", pct(d->lost, d->dgrams_sent));
	xp_json_u64(j, "out_of_order", d->out_of_order);
	xp_json_u64(j, "duplicates", d->duplicates);
	if (bulk) {
		json_ms(j, "jitter_ms", d->jitter_ms);
		json_ms(j, "jitter_max_ms", d->jitter_max_ms);
	}
	xp_json_obj_close(j);
}

void xp_report_json_dirs(struct xp_json *j, const struct xp_client_result *r)
{
	struct xp_dir d[2];
	int n = xp_report_dirs(r, d), udp = xp_test(r->test)->udp;

	if (!n)
		return;
	xp_report_json_sum(j, "sum_sent", d[0].sent, d[0].sent_ns, udp ? NULL : &d[0].retrans);
	xp_report_json_sum(j, "sum_received", d[0].received, d[0].recv_ns, NULL);
	if (n > 1) {
		xp_report_json_sum(j, "sum_sent_bidir_reverse", d[1].sent, d[1].sent_ns,
			 udp ? NULL : &d[1].retrans);
		xp_report_json_sum(j, "sum_received_bidir_reverse", d[1].received, d[1].recv_ns, NULL);
		xp_json_obj_open(j, "sum_bidir");
		xp_json_u64(j, "bytes_sent", d[0].sent + d[1].sent);
		xp_json_u64(j, "bytes_received", d[0].received + d[1].received);
		xp_json_dbl(j, "bits_per_second", xp_dir_received_bps(r));
		xp_json_obj_close(j);
	}
	if (udp)
		xp_report_json_udp(j, "udp", &d[0], 1);
	if (udp && n > 1)
		xp_report_json_udp(j, "udp_bidir_reverse", &d[1], 1);
}

void xp_report_human_shape(FILE *f, const struct xp_opts *o, const struct xp_client_result *r)
{
	const struct xp_test *t = xp_test(r->test);
	const char *unit = t->rr ? "transactions" : t->udp ? "datagrams" : "bytes";

	if (r->omit_ns)
		fprintf(f, "  omitted  the first %.2f s, on both ends: client sent %llu B and "
			"received %llu B in it, server sent %llu B and received %llu B\n",
			secs(r->omit_ns), (unsigned long long)r->local.omitted_bytes_sent,
			(unsigned long long)r->local.omitted_bytes_received,
			(unsigned long long)r->remote.omitted_bytes_sent,
			(unsigned long long)r->remote.omitted_bytes_received);
	if (r->quota)
		fprintf(f, "  count    %llu %s%s (-%c), over %llu flow%s; -l %.2f s bounds it\n",
			(unsigned long long)r->quota, unit, r->bidir ? " each way" : "",
			o->bytes ? 'n' : 'k', (unsigned long long)o->flows,
			o->flows == 1 ? "" : "s", secs(xp_opts_duration_ns(o)));
}

/* Stream tests are read by direction (client/report/dir.h); RR tests:
 * requests out, requests in at the server, both over the client's
 * duration. */
double xp_report_received_bps(const struct xp_client_result *r)
{
	if (!xp_test(r->test)->rr)
		return xp_dir_received_bps(r);
	return per_sec(r->remote.c.bytes_received, r->local.active_ns) * 8;
}
