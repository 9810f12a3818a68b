/* SPDX-License-Identifier: BSD-2-Clause */
/* -t RRUL's figures and report: human, --json and --json-stream. */
#include <stdio.h>
#include <string.h>

#include "client/mixed/mixed_int.h"
#include "client/owd.h"
#include "client/report/dir.h"
#include "common/json.h"

static const char *const probe_names[XP_MX_PROBES] = { "tcp", "udp" };
static const char *const phase_names[XP_MX_PHASES] = { "idle", "loaded" };
static const char *const dir_names[XP_MX_DIRS] = { "up", "down" };
static const char *const dir_keys[XP_MX_DIRS] = { "self_up", "self_down" };

static void load_figures(struct xp_mixed *m)
{
	const struct xp_client_result *r = &m->p[XP_MX_LOAD].r;
	struct xp_dir d[2];
	int i, n = m->p[XP_MX_LOAD].ran ? xp_report_dirs(r, d) : 0;

	for (i = 0; i < n; i++) {
		double bps = d[i].recv_ns ? (double)d[i].received * 8e9 / (double)d[i].recv_ns : 0;

		if (d[i].s2c)
			m->down_bps = bps;
		else
			m->up_bps = bps;
		m->retrans += d[i].retrans;
	}
}

/* --one-way: a probe part's delays each way (none without its stamps). */
static void way_figures(struct xp_mixed *m, int ph, int pr, const struct xp_client_result *r)
{
	int k;

	if (!r->owd || !r->owd->sum || !r->owd->est.samples)
		return;
	for (k = 0; k < XP_MX_WAYS; k++) {
		struct xp_mixed_lat *l = &m->way[ph][pr][k];

		xp_mixed_lat_from_hist(k == XP_MX_FWD ? r->owd->sum->fwd : r->owd->sum->ret, l);
		xp_mixed_lat_unbias(l, (double)r->owd->est.unc_ns / 1e6);
	}
}

static uint64_t unanswered(uint64_t sent, uint64_t answered)
{
	return sent > answered ? sent - answered : 0;
}

/* The self probes: all, and apart by the way their flows send. */
static void self_figures(struct xp_mixed *m)
{
	const struct xp_counters *c = &m->p[XP_MX_LOAD].r.local.c;
	uint64_t sent[XP_MX_DIRS] = { c->self_probes_sent - c->self_probes_down_sent,
				      c->self_probes_down_sent };
	const struct xp_mixed_lat *idle = &m->lat[XP_MX_IDLE][XP_MX_TCP];
	int k;

	xp_mixed_lat_from_hist(xp_mixed_self_hist(m, -1), &m->self);
	m->self_unanswered = unanswered(c->self_probes_sent, m->self.count);
	/* self against the idle TCP probes: the same path, unloaded */
	xp_mixed_inflation(idle, &m->self, &m->self_infl);
	for (k = 0; k < XP_MX_DIRS; k++) {
		xp_mixed_lat_from_hist(xp_mixed_self_hist(m, k), &m->self_dir[k]);
		m->self_dir_unanswered[k] = unanswered(sent[k], m->self_dir[k].count);
		xp_mixed_inflation(idle, &m->self_dir[k], &m->self_dir_infl[k]);
	}
}

void xp_mixed_compute(struct xp_mixed *m)
{
	int i, ph, pr, k;

	for (i = 0; i < XP_MX_PARTS; i++) {
		const struct xp_client_result *r = &m->p[i].r;

		ph = xp_mixed_part_phase(i);
		pr = xp_mixed_part_probe(i);
		if (pr < 0 || !m->p[i].ran)
			continue;
		xp_mixed_lat_from_hist(r->hist, &m->lat[ph][pr]);
		m->unanswered[ph][pr] = xp_mixed_unanswered(r->local.active_ns, m->interval_ns,
							    m->lat[ph][pr].count);
		if (pr == XP_MX_UDP)
			m->lost[ph] = r->local.c.lost;
		way_figures(m, ph, pr, r);
	}
	for (pr = 0; pr < XP_MX_PROBES; pr++) {
		xp_mixed_inflation(&m->lat[XP_MX_IDLE][pr], &m->lat[XP_MX_LOADED][pr], &m->infl[pr]);
		for (k = 0; k < XP_MX_WAYS; k++)
			xp_mixed_inflation(&m->way[XP_MX_IDLE][pr][k], &m->way[XP_MX_LOADED][pr][k],
					   &m->way_infl[pr][k]);
	}
	self_figures(m);
	/* foreign: the loaded TCP probes' own connections; self: the load's */
	m->rpm = xp_mixed_rpm(m->lat[XP_MX_LOADED][XP_MX_TCP].tm, m->self.tm);
	load_figures(m);
}

static void human_row(FILE *f, const char *what, const struct xp_mixed_lat *l, int signed_)
{
	if (signed_)
		fprintf(f, "  %-20s %+9.3f %+9.3f %+9.3f %+9.3f %+9.3f\n", what, l->p50, l->p90,
			l->p99, l->p999, l->mean);
	else
		fprintf(f, "  %-20s %9.3f %9.3f %9.3f %9.3f %9.3f", what, l->p50, l->p90, l->p99,
			l->p999, l->mean);
}

static const char *const way_names[XP_MX_WAYS] = { "fwd", "ret" };
static const char *const way_keys[XP_MX_WAYS] = { "forward", "return" };

/* --one-way: the probes' delays each way, and each part's clock offset. */
static void human_ways(FILE *f, const struct xp_mixed *m)
{
	char what[32];
	int ph, pr, k, i;

	fprintf(f, "  one-way (ms)               P50       P90       P99     P99.9      mean"
		"   (fwd: client to server, ret: server to client)\n");
	for (ph = 0; ph < XP_MX_PHASES; ph++)
		for (pr = 0; pr < XP_MX_PROBES; pr++)
			for (k = 0; k < XP_MX_WAYS; k++) {
				snprintf(what, sizeof(what), "%s %s %s", phase_names[ph],
					 probe_names[pr], way_names[k]);
				human_row(f, what, &m->way[ph][pr][k], 0);
				fputc('\n', f);
			}
	for (pr = 0; pr < XP_MX_PROBES; pr++)
		for (k = 0; k < XP_MX_WAYS; k++) {
			snprintf(what, sizeof(what), "inflation %s %s", probe_names[pr], way_names[k]);
			human_row(f, what, &m->way_infl[pr][k], 1);
		}
	fprintf(f, "  clock offsets        (server - client, us)");
	for (i = 0; i < XP_MX_PARTS; i++)
		if (m->p[i].ran && m->p[i].r.owd && m->p[i].r.owd->est.samples)
			fprintf(f, " %s %+.2f +/- %.2f", xp_mixed_part_name(i),
				(double)m->p[i].r.owd->est.offset_ns / 1e3,
				(double)m->p[i].r.owd->est.unc_ns / 1e3);
	fputc('\n', f);
}

void xp_mixed_human(FILE *f, const struct xp_mixed *m)
{
	const struct xp_opts *o = m->c->o;
	int both = !strcmp(o->load, "both");
	char what[32];
	int ph, pr, k;

	fprintf(f, "RRUL to %s: probes every %.3f ms (TCP_RR and UDP_RR), idle %.1f s, then "
		"load %s, %llu TCP flow%s%s, for %.1f s (the load's first %.1f s not measured)\n",
		m->p[XP_MX_IDLE_TCP].r.server, (double)m->interval_ns / 1e6,
		(double)o->idle / 1e9, o->load, (unsigned long long)o->load_flows,
		o->load_flows == 1 ? "" : "s", strcmp(o->load, "both") ? "" : " each way",
		(double)o->length / 1e9, (double)m->ramp_ns / 1e9);
	fprintf(f, "  latency (ms)               P50       P90       P99     P99.9      mean"
		"   answered  unanswered\n");
	for (ph = 0; ph < XP_MX_PHASES; ph++)
		for (pr = 0; pr < XP_MX_PROBES; pr++) {
			snprintf(what, sizeof(what), "%s %s", phase_names[ph], probe_names[pr]);
			human_row(f, what, &m->lat[ph][pr], 0);
			fprintf(f, " %10llu %11llu\n", (unsigned long long)m->lat[ph][pr].count,
				(unsigned long long)m->unanswered[ph][pr]);
		}
	human_row(f, "loaded self", &m->self, 0);
	fprintf(f, " %10llu %11llu   (on the load's connections)\n",
		(unsigned long long)m->self.count, (unsigned long long)m->self_unanswered);
	if (both)
		for (k = 0; k < XP_MX_DIRS; k++) {
			snprintf(what, sizeof(what), "loaded self %s", dir_names[k]);
			human_row(f, what, &m->self_dir[k], 0);
			fprintf(f, " %10llu %11llu\n", (unsigned long long)m->self_dir[k].count,
				(unsigned long long)m->self_dir_unanswered[k]);
		}
	for (pr = 0; pr < XP_MX_PROBES; pr++) {
		snprintf(what, sizeof(what), "inflation %s", probe_names[pr]);
		human_row(f, what, &m->infl[pr], 1);
	}
	human_row(f, "inflation self", &m->self_infl, 1);
	for (k = 0; both && k < XP_MX_DIRS; k++) {
		snprintf(what, sizeof(what), "inflation self %s", dir_names[k]);
		human_row(f, what, &m->self_dir_infl[k], 1);
	}
	if (m->c->o->one_way)
		human_ways(f, m);
	fprintf(f, "  throughput           up %.2f Mbit/s, down %.2f Mbit/s, %llu retransmits\n",
		m->up_bps / 1e6, m->down_bps / 1e6, (unsigned long long)m->retrans);
	fprintf(f, "  responsiveness       %.0f RPM (60000 / the mean of the trimmed means: foreign "
		"%.3f ms, the loaded TCP probes; self %.3f ms)\n", m->rpm,
		m->lat[XP_MX_LOADED][XP_MX_TCP].tm, m->self.tm);
	if (m->lost[XP_MX_IDLE] || m->lost[XP_MX_LOADED])
		fprintf(f, "  udp probes lost      idle %llu, loaded %llu (no answer in %.3f s)\n",
			(unsigned long long)m->lost[XP_MX_IDLE],
			(unsigned long long)m->lost[XP_MX_LOADED],
			(double)m->p[XP_MX_LOADED_UDP].o.rr_timeout / 1e9);
}

static void json_figures(struct xp_json *j, const struct xp_mixed_lat *l)
{
	xp_json_dbl(j, "p50_ms", l->p50);
	xp_json_dbl(j, "p90_ms", l->p90);
	xp_json_dbl(j, "p99_ms", l->p99);
	xp_json_dbl(j, "p99_9_ms", l->p999);
	xp_json_dbl(j, "mean_ms", l->mean);
	xp_json_dbl(j, "trimmed_mean_ms", l->tm);
}

/* A probe kind's figures; ways (--one-way): its delays each way inside. */
static void json_lat(struct xp_json *j, const char *key, const struct xp_mixed_lat *l,
		     const uint64_t *unanswered, const struct xp_mixed_lat *ways)
{
	int k;

	xp_json_obj_open(j, key);
	xp_json_u64(j, "answered", l->count);
	if (unanswered)
		xp_json_u64(j, "unanswered", *unanswered);
	json_figures(j, l);
	for (k = 0; ways && k < XP_MX_WAYS; k++) {
		xp_json_obj_open(j, way_keys[k]);
		xp_json_u64(j, "count", ways[k].count);
		json_figures(j, &ways[k]);
		xp_json_obj_close(j);
	}
	xp_json_obj_close(j);
}

/* --one-way: each probe part's clock offset (its own CLOCK exchanges). */
static void json_clocks(struct xp_json *j, const struct xp_mixed *m)
{
	int i;

	xp_json_obj_open(j, "one_way");
	for (i = 0; i < XP_MX_PARTS; i++) {
		const struct xp_owd_result *w = m->p[i].ran ? m->p[i].r.owd : NULL;

		if (!w || !w->est.samples)
			continue;
		xp_json_obj_open(j, xp_mixed_part_name(i));
		xp_json_dbl(j, "clock_offset_us", (double)w->est.offset_ns / 1e3);
		xp_json_dbl(j, "clock_offset_uncertainty_us", (double)w->est.unc_ns / 1e3);
		xp_json_u64(j, "clamped", w->sum->neg);
		xp_json_obj_close(j);
	}
	xp_json_obj_close(j);
}

static void json_params(struct xp_json *j, const struct xp_mixed *m)
{
	const struct xp_opts *o = m->c->o;

	xp_json_str_val(j, "test", "RRUL");
	xp_json_str_val(j, "server", m->p[XP_MX_IDLE_TCP].r.server);
	xp_json_str_val(j, "load", o->load);
	xp_json_u64(j, "load_flows", o->load_flows);
	xp_json_dbl(j, "probe_interval_ms", (double)m->interval_ns / 1e6);
	xp_json_dbl(j, "idle_seconds", (double)o->idle / 1e9);
	xp_json_dbl(j, "loaded_seconds", (double)o->length / 1e9);
	xp_json_dbl(j, "ramp_seconds", (double)m->ramp_ns / 1e9);
}

static void json_body(struct xp_json *j, const struct xp_mixed *m)
{
	int ph, pr, k;

	json_params(j, m);
	for (ph = 0; ph < XP_MX_PHASES; ph++) {
		xp_json_obj_open(j, phase_names[ph]);
		for (pr = 0; pr < XP_MX_PROBES; pr++)
			json_lat(j, probe_names[pr], &m->lat[ph][pr], &m->unanswered[ph][pr],
				 m->c->o->one_way ? m->way[ph][pr] : NULL);
		if (ph == XP_MX_LOADED) {
			json_lat(j, "self", &m->self, &m->self_unanswered, NULL);
			for (k = 0; k < XP_MX_DIRS; k++)
				json_lat(j, dir_keys[k], &m->self_dir[k], &m->self_dir_unanswered[k],
					 NULL);
		}
		xp_json_u64(j, "udp_lost", m->lost[ph]);
		xp_json_obj_close(j);
	}
	xp_json_obj_open(j, "inflation");
	for (pr = 0; pr < XP_MX_PROBES; pr++)
		json_lat(j, probe_names[pr], &m->infl[pr], NULL,
			 m->c->o->one_way ? m->way_infl[pr] : NULL);
	json_lat(j, "self", &m->self_infl, NULL, NULL);
	for (k = 0; k < XP_MX_DIRS; k++)
		json_lat(j, dir_keys[k], &m->self_dir_infl[k], NULL, NULL);
	xp_json_obj_close(j);
	if (m->c->o->one_way)
		json_clocks(j, m);
	xp_json_obj_open(j, "throughput");
	xp_json_dbl(j, "up_bits_per_second", m->up_bps);
	xp_json_dbl(j, "down_bits_per_second", m->down_bps);
	xp_json_u64(j, "retransmits", m->retrans);
	xp_json_obj_close(j);
	xp_json_dbl(j, "rpm", m->rpm);
	xp_json_obj_open(j, "responsiveness");
	xp_json_dbl(j, "rpm", m->rpm);
	xp_json_dbl(j, "foreign_trimmed_mean_ms", m->lat[XP_MX_LOADED][XP_MX_TCP].tm);
	xp_json_dbl(j, "self_trimmed_mean_ms", m->self.tm);
	xp_json_u64(j, "self_probes", m->self.count);
	xp_json_obj_close(j);
	if (m->c->slo.n)
		xp_mixed_slo_json(j, m);
}

static void emit(FILE *f, struct xp_json *j)
{
	const char *s = j->oom ? "{\"error\": \"out of memory formatting JSON\"}" : xp_json_str(j);
	size_t n = strlen(s);

	fputs(s, f);
	if (!n || s[n - 1] != '\n')
		fputc('\n', f);
	fflush(f);
	xp_json_free(j);
}

void xp_mixed_json(FILE *f, const struct xp_mixed *m, int stream)
{
	struct xp_json j;

	xp_json_init(&j, !stream);
	xp_json_obj_open(&j, NULL);
	if (stream) {
		xp_json_str_val(&j, "event", "end");
		xp_json_obj_open(&j, "data");
	}
	json_body(&j, m);
	if (stream)
		xp_json_obj_close(&j);
	xp_json_obj_close(&j);
	emit(f, &j);
}

void xp_mixed_stream_start(FILE *f, const struct xp_mixed *m)
{
	struct xp_json j;

	xp_json_init(&j, 0);
	xp_json_obj_open(&j, NULL);
	xp_json_str_val(&j, "event", "start");
	xp_json_obj_open(&j, "data");
	xp_json_str_val(&j, "test", "RRUL");
	xp_json_str_val(&j, "load", m->c->o->load);
	xp_json_u64(&j, "load_flows", m->c->o->load_flows);
	xp_json_dbl(&j, "probe_interval_ms", (double)m->interval_ns / 1e6);
	xp_json_obj_close(&j);
	xp_json_obj_close(&j);
	emit(f, &j);
}

void xp_mixed_stream_interval(FILE *f, const struct xp_mixed *m, int idx,
			      const struct xp_client_result *r, const struct xp_interval *iv)
{
	struct xp_json j;

	xp_json_init(&j, 0);
	xp_json_obj_open(&j, NULL);
	xp_json_str_val(&j, "event", "interval");
	xp_json_obj_open(&j, "data");
	xp_json_str_val(&j, "part", xp_mixed_part_name(idx));
	xp_json_dbl(&j, "start", iv->start);
	xp_json_dbl(&j, "end", iv->end);
	xp_json_dbl(&j, "run_end", xp_mixed_offset(m, r) + iv->end);
	if (idx == XP_MX_LOAD) {
		xp_json_u64(&j, "bytes_sent", iv->bytes_sent);
		xp_json_u64(&j, "bytes_received", iv->bytes_received);
		xp_json_u64(&j, "self_probes", iv->count);
		xp_json_dbl(&j, "self_p50_ms", iv->p50_us / 1e3);
		xp_json_dbl(&j, "self_p99_ms", iv->p99_us / 1e3);
	} else {
		xp_json_u64(&j, "probes", iv->count);
		xp_json_dbl(&j, "p50_ms", iv->p50_us / 1e3);
		xp_json_dbl(&j, "p99_ms", iv->p99_us / 1e3);
	}
	xp_json_obj_close(&j);
	xp_json_obj_close(&j);
	emit(f, &j);
}
