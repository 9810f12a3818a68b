/* SPDX-License-Identifier: BSD-2-Clause */
/* The kernel-timestamp split in the human report and the JSON
 * (client/report/kts.h). */
#include "client/report/kts.h"

#include "client/owd.h"
#include "client/report/hist.h"
#include "client/report/slo.h"

#define PCTS_MAX 64

struct part {
	const char *human, *key;
};

/* In the order a transaction passes them (XP_KTS_*). */
static const struct part parts[XP_KTS_NPARTS] = {
	{ "client stack tx (app send -> kernel tx)", "client_tx_stack_us" },
	{ "between the kernels (wire)", "between_kernels_us" },
	{ "server stack rx (kernel rx -> app read)", "server_rx_stack_us" },
	{ "server app (read -> send)", "server_app_us" },
	{ "server stack tx (app send -> kernel tx)", "server_tx_stack_us" },
	{ "client stack rx (kernel rx -> app read)", "client_rx_stack_us" },
	{ "round trip of these transactions", "round_trip_us" },
};

static const struct xp_owd *split(const struct xp_client_result *r)
{
	return r->owd && r->owd->sum->k[0] ? r->owd->sum : NULL;
}

static const char *nic_hw(int hw)
{
	return hw > 0 ? "offered (not enabled: that needs SIOCSHWTSTAMP on the NIC)" :
	       hw == 0 ? "not offered" : "unknown";
}

static double sum_of_means(const struct xp_owd *s)
{
	double sum = 0;
	int i;

	for (i = 0; i < XP_KTS_RTT; i++)
		sum += xp_hist_mean(s->k[i]);
	return sum;
}

static void human_part(FILE *f, const char *what, const struct xp_opts *o,
		       const struct xp_hist *h)
{
	double ps[PCTS_MAX];
	int i, n = o->percentiles ? xp_parse_percentiles(o->percentiles, ps, PCTS_MAX, NULL) : 0;

	fprintf(f, "  kernel   %s (us): mean %.2f", what, xp_hist_mean(h) / 1e3);
	for (i = 0; i < n; i++)
		fprintf(f, " p%g %.2f", ps[i], xp_hist_percentile(h, ps[i]) / 1e3);
	fprintf(f, " max %.2f\n", (double)xp_hist_max(h) / 1e3);
}

void xp_report_kts_human(FILE *f, const struct xp_opts *o, const struct xp_client_result *r)
{
	const struct xp_owd *s = split(r);
	double sum, rtt;
	int i;

	if (!s)
		return;
	fprintf(f, "  kernel   software timestamps split %llu transactions (%llu without every "
		"stamp); client device %s: hardware stamps %s, %llu given%s\n",
		(unsigned long long)xp_hist_count(s->k[0]), (unsigned long long)s->k_missing,
		s->nic[0] ? s->nic : "unknown", nic_hw(s->nic_hw), (unsigned long long)s->k_hw,
		s->k_hw ? " (on the NIC's clock: counted, not used)" : "");
	for (i = 0; i < XP_KTS_NPARTS; i++)
		human_part(f, parts[i].human, o, s->k[i]);
	sum = sum_of_means(s);
	rtt = xp_hist_mean(s->k[XP_KTS_RTT]);
	fprintf(f, "  kernel   sum of the parts' means %.2f us; round trip %.2f us (%+.2f us, "
		"%+.2f%%); of all transactions %.2f us\n", sum / 1e3, rtt / 1e3, (sum - rtt) / 1e3,
		rtt > 0 ? 100 * (sum - rtt) / rtt : 0, xp_hist_mean(r->hist) / 1e3);
}

static void json_part(struct xp_json *j, const char *key, const struct xp_hist *h)
{
	static const double ps[] = { 50, 90, 99, 99.9 };
	static const char *const keys[] = { "p50", "p90", "p99", "p99_9" };
	int i;

	xp_json_obj_open(j, key);
	xp_json_dbl(j, "min", (double)xp_hist_min(h) / 1e3);
	xp_json_dbl(j, "mean", xp_hist_mean(h) / 1e3);
	for (i = 0; i < 4; i++)
		xp_json_dbl(j, keys[i], xp_hist_percentile(h, ps[i]) / 1e3);
	xp_json_dbl(j, "max", (double)xp_hist_max(h) / 1e3);
	xp_json_obj_close(j);
}

void xp_report_kts_json(struct xp_json *j, const struct xp_opts *o,
			const struct xp_client_result *r)
{
	const struct xp_owd *s = split(r);
	int i;

	(void)o;
	if (!s)
		return;
	xp_json_obj_open(j, "kernel_timestamps");
	xp_json_u64(j, "transactions", xp_hist_count(s->k[0]));
	xp_json_u64(j, "incomplete", s->k_missing);
	xp_json_u64(j, "hardware_stamps", s->k_hw);
	xp_json_str_val(j, "client_device", s->nic);
	xp_json_str_val(j, "client_device_hardware",
			s->nic_hw > 0 ? "offered" : s->nic_hw == 0 ? "not_offered" : "unknown");
	for (i = 0; i < XP_KTS_NPARTS; i++)
		json_part(j, parts[i].key, s->k[i]);
	xp_json_dbl(j, "sum_of_means_us", sum_of_means(s) / 1e3);
	xp_json_obj_close(j);
}
