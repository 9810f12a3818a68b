/* SPDX-License-Identifier: BSD-2-Clause */
#include "lab/report_wan.h"

#include <string.h>

#include "common/tests.h"
#include "lab/wanrun.h"

static const char *const dir_names[XP_WAN_DIRS] = { "c2s", "s2c" };
static const char *const dir_words[XP_WAN_DIRS] = { "client to server",
						    "server to client" };

void xp_lab_row_line(struct xp_lab_row *row, const struct xp_lab_ceiling *c,
		     const struct xp_wan_stats *after, const struct xp_wan_stats *before,
		     uint64_t ns)
{
	struct xp_wan_stats d;
	double load;

	xp_wan_stats_delta(&d, after, before);
	xp_wan_stats_add(&row->ls, &d);
	row->line = 1;
	load = xp_lab_line_load(c, &d, ns);
	if (load > row->line_load)
		row->line_load = load;
}

static void dir_text(FILE *f, const struct xp_wan_dir *d)
{
	fprintf(f, "delay %g ms", (double)d->delay_ns / 1e6);
	if (d->jitter_ns)
		fprintf(f, " +-%g ms", (double)d->jitter_ns / 1e6);
	if (d->loss.thr)
		fprintf(f, ", loss %g%%", d->loss.pct);
	if (d->reorder.thr)
		fprintf(f, ", reorder %g%%", d->reorder.pct);
	if (d->duplicate.thr)
		fprintf(f, ", duplicate %g%%", d->duplicate.pct);
	if (d->rate_bps)
		fprintf(f, ", rate %.3f Mbit/s", (double)d->rate_bps / 1e6);
	fprintf(f, ", queue limit %llu B", (unsigned long long)d->limit_bytes);
}

void xp_lab_wan_dir_text(FILE *f, const struct xp_wan *w)
{
	int d;

	for (d = 0; d < XP_WAN_DIRS; d++) {
		fprintf(f, "    %s: ", dir_words[d]);
		dir_text(f, &w->d[d]);
		fputc('\n', f);
	}
}

void xp_lab_wan_head(FILE *f, const struct xp_lab_cfg *c, const struct xp_lab_report *rep)
{
	const struct xp_wan *w = &c->knobs.wan;
	const struct xp_lab_ceiling *cl = &rep->ceiling;

	if (!w->on)
		return;
	fprintf(f, "  impairment: %s (%s), seed %llu", rep->impaired_by == XP_WAN_LINE ?
		"xperf's delay line" : "netem", rep->impair_note, (unsigned long long)w->seed);
	if (rep->impaired_by == XP_WAN_LINE && rep->line_cpu >= 0)
		fprintf(f, ", line on CPU %d", rep->line_cpu);
	fputc('\n', f);
	xp_lab_wan_dir_text(f, w);
	if (rep->impaired_by != XP_WAN_LINE)
		return;
	if (cl->measured)
		fprintf(f, "  delay line ceiling: %.1f Mbit/s at %.0f frames/s (TCP_STREAM), "
			   "%.0f frames/s at %.1f Mbit/s (UDP_STREAM, 64 B)\n",
			cl->tcp_mbps, cl->tcp_fps, cl->udp_fps, cl->udp_mbps);
	else
		fprintf(f, "  delay line ceiling: not measured%s%s\n", cl->msg[0] ? ": " : "",
			cl->msg);
}

static void ctr_text(FILE *f, const struct xp_wan_counters *c)
{
	fprintf(f, "%llu frames %.1f MB, lost %llu, dropped %llu, refused %llu, kernel-dropped "
		   "%llu, reordered %llu, late %llu, duplicated %llu, queue max %llu B; UDP "
		   "datagrams %llu, not sent on %llu, late %llu, duplicated %llu",
		(unsigned long long)c->frames, (double)c->bytes / 1e6,
		(unsigned long long)c->lost, (unsigned long long)c->dropped,
		(unsigned long long)c->tx_errors, (unsigned long long)c->rx_drops,
		(unsigned long long)c->reordered, (unsigned long long)c->late,
		(unsigned long long)c->duplicated, (unsigned long long)c->queue_max_bytes,
		(unsigned long long)c->udp, (unsigned long long)c->udp_dropped,
		(unsigned long long)c->udp_late, (unsigned long long)c->udp_duplicated);
}

void xp_lab_wan_stats_text(FILE *f, const struct xp_wan_stats *s)
{
	int d;

	for (d = 0; d < XP_WAN_DIRS; d++) {
		fprintf(f, "    %s: ", dir_words[d]);
		ctr_text(f, &s->d[d]);
		fputc('\n', f);
	}
}

void xp_lab_wan_rows(FILE *f, const struct xp_lab_report *rep)
{
	int i;

	for (i = 0; i < rep->n; i++) {
		const struct xp_lab_row *r = &rep->row[i];

		if (!r->line)
			continue;
		fprintf(f, "%s %s through the delay line (%.0f%% of its ceiling):\n",
			r->topology, xp_test_name(r->test), r->line_load * 100);
		xp_lab_wan_stats_text(f, &r->ls);
		if (r->line_load >= XP_LAB_NEAR_CEILING)
			fprintf(f, "    warning: near the delay line's ceiling; the figure may "
				   "be the line's limit, not the path's\n");
	}
	if (rep->line_error[0])
		fprintf(f, "delay line: stopped: %s\n", rep->line_error);
}

static void json_dir(struct xp_json *j, const char *key, const struct xp_wan_dir *d)
{
	xp_json_obj_open(j, key);
	xp_json_dbl(j, "delay_ms", (double)d->delay_ns / 1e6);
	xp_json_dbl(j, "jitter_ms", (double)d->jitter_ns / 1e6);
	xp_json_dbl(j, "loss_pct", d->loss.pct);
	xp_json_dbl(j, "reorder_pct", d->reorder.pct);
	xp_json_dbl(j, "duplicate_pct", d->duplicate.pct);
	xp_json_u64(j, "rate_bps", d->rate_bps);
	xp_json_u64(j, "queue_limit_bytes", d->limit_bytes);
	xp_json_obj_close(j);
}

void xp_lab_wan_json_start(struct xp_json *j, const struct xp_lab_cfg *c,
			   const struct xp_lab_report *rep)
{
	const struct xp_wan *w = &c->knobs.wan;
	int d;

	if (!w->on) {
		xp_json_null(j, "impairment");
		return;
	}
	xp_json_obj_open(j, "impairment");
	xp_json_str_val(j, "by", xp_wan_with_name(rep->impaired_by));
	xp_json_str_val(j, "why", rep->impair_note);
	xp_json_u64(j, "seed", w->seed);
	for (d = 0; d < XP_WAN_DIRS; d++)
		json_dir(j, dir_names[d], &w->d[d]);
	xp_json_obj_close(j);
}

void xp_lab_wan_json_end(struct xp_json *j, const struct xp_lab_report *rep)
{
	const struct xp_lab_ceiling *c = &rep->ceiling;

	if (rep->impaired_by != XP_WAN_LINE) {
		xp_json_null(j, "line");
		return;
	}
	xp_json_obj_open(j, "line");
	xp_json_i64(j, "cpu", rep->line_cpu);
	if (c->measured) {
		xp_json_obj_open(j, "ceiling");
		xp_json_dbl(j, "tcp_mbps", c->tcp_mbps);
		xp_json_dbl(j, "tcp_frames_per_sec", c->tcp_fps);
		xp_json_dbl(j, "udp_mbps", c->udp_mbps);
		xp_json_dbl(j, "udp_frames_per_sec", c->udp_fps);
		xp_json_obj_close(j);
	} else {
		xp_json_null(j, "ceiling");
	}
	if (c->msg[0])
		xp_json_str_val(j, "ceiling_error", c->msg);
	else
		xp_json_null(j, "ceiling_error");
	if (rep->line_error[0])
		xp_json_str_val(j, "error", rep->line_error);
	else
		xp_json_null(j, "error");
	xp_json_obj_close(j);
}

void xp_lab_wan_stats_json(struct xp_json *j, const struct xp_wan_stats *s)
{
	int d;

	for (d = 0; d < XP_WAN_DIRS; d++) {
		const struct xp_wan_counters *c = &s->d[d];

		xp_json_obj_open(j, dir_names[d]);
#define XP_WAN_CTR(field, merge, help) xp_json_u64(j, #field, c->field);
#include "lab/wan/counters.def"
#undef XP_WAN_CTR
		xp_json_obj_close(j);
	}
}

void xp_lab_wan_json_row(struct xp_json *j, const struct xp_lab_row *r)
{
	if (!r->line) {
		xp_json_null(j, "line");
		return;
	}
	xp_json_obj_open(j, "line");
	xp_lab_wan_stats_json(j, &r->ls);
	xp_json_dbl(j, "ceiling_share", r->line_load);
	xp_json_bool(j, "near_ceiling", r->line_load >= XP_LAB_NEAR_CEILING);
	xp_json_obj_close(j);
}
