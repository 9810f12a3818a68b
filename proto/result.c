/* SPDX-License-Identifier: BSD-2-Clause */
/* Combining side results, field by field as proto/result.def says. */
#include "proto/result.h"

#include <string.h>

static uint64_t merge_u64(uint64_t a, uint64_t b, char rule)
{
	switch (rule) {
	case 'S': return a + b;
	case 'X': return a > b ? a : b;
	case 'N': return !a || (b && b < a) ? b : a; /* 0 is "none" */
	default: return a | b;
	}
}

#define SUM 'S'
#define MAX 'X'
#define MIN 'N'
#define OR 'O'

void xp_counters_add(struct xp_counters *dst, const struct xp_counters *src)
{
#define XP_RESULT(g, f, tag, merge) XP_ADD_##g(f, merge)
#define XP_ADD_C(f, merge) dst->f = merge_u64(dst->f, src->f, merge);
#define XP_ADD_TCP(f, merge)
#define XP_ADD_SIDE(f, merge)
#include "proto/result.def"
#undef XP_ADD_C
#undef XP_ADD_TCP
#undef XP_ADD_SIDE
}

void xp_tcp_totals_merge(struct xp_tcp_totals *dst, const struct xp_tcp_totals *src)
{
#define XP_ADD_C(f, merge)
#define XP_ADD_TCP(f, merge) dst->f = merge_u64(dst->f, src->f, merge);
#define XP_ADD_SIDE(f, merge)
#include "proto/result.def"
#undef XP_ADD_C
#undef XP_ADD_TCP
#undef XP_ADD_SIDE
}

void xp_tcp_totals_add(struct xp_tcp_totals *t, const struct xp_flow_result *f)
{
	struct xp_tcp_totals one = {
		.flows = 1, .retrans = f->retrans, .rtt_us_max = f->rtt_us, .rtt_us_min = f->rtt_us,
		.cwnd_min = f->cwnd, .cwnd_max = f->cwnd, .mss = f->mss,
		.delivery_rate_bps = f->delivery_rate_bps, .rtt_us_sum = f->rtt_us,
		.rttvar_us_sum = f->rttvar_us, .advmss = f->advmss,
	};

	xp_tcp_totals_merge(t, &one);
}

/* "0,1" + "2,3" -> "0,1,2,3", whole entries only, within the buffer. */
static void append_cpus(char *dst, const char *src)
{
	size_t n = strlen(dst), m = strlen(src);

	if (!m || n + 1 + m > XP_RESULT_STR_MAX)
		return;
	if (n)
		dst[n++] = ',';
	memcpy(dst + n, src, m + 1);
}

void xp_side_result_merge(struct xp_side_result *dst, const struct xp_side_result *src)
{
	xp_counters_add(&dst->c, &src->c);
	xp_tcp_totals_merge(&dst->tcp, &src->tcp);
#define XP_ADD_C(f, merge)
#define XP_ADD_TCP(f, merge)
#define XP_ADD_SIDE(f, merge) dst->f = merge_u64(dst->f, src->f, merge);
#include "proto/result.def"
#undef XP_ADD_C
#undef XP_ADD_TCP
#undef XP_ADD_SIDE
#undef XP_RESULT
	if (!dst->warning[0])
		memcpy(dst->warning, src->warning, sizeof(dst->warning));
	if (!dst->congestion[0])
		memcpy(dst->congestion, src->congestion, sizeof(dst->congestion));
	append_cpus(dst->cpus, src->cpus);
}

double xp_tcp_rtt_us_mean(const struct xp_tcp_totals *t)
{
	return t->flows ? (double)t->rtt_us_sum / (double)t->flows : 0;
}

double xp_tcp_rttvar_us_mean(const struct xp_tcp_totals *t)
{
	return t->flows ? (double)t->rttvar_us_sum / (double)t->flows : 0;
}

double xp_side_jitter_ns_mean(const struct xp_side_result *r)
{
	return r->c.jitter_flows ? (double)r->c.jitter_ns_sum / (double)r->c.jitter_flows : -1;
}

double xp_side_proc_percent(const struct xp_side_result *r)
{
	return r->cpu_wall_us ? 100.0 * (double)(r->cpu_user_us + r->cpu_sys_us) /
					(double)r->cpu_wall_us : 0.0;
}
