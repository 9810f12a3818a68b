/* SPDX-License-Identifier: BSD-2-Clause */
#include "client/intervals.h"

#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/hist_iv.h"

#define SNAP_WAIT_NS (200 * XP_NS_PER_MS)

struct xp_iv_state {
	int nw;
	uint32_t nflows;
	uint64_t t_prev;
	struct xp_counters *prev_c; /* per worker */
	struct xp_flow_iv *prev_f;  /* per flow index */
	struct xp_hist_iv *rtt;     /* round trips */
	struct xp_hist_iv *fwd, *ret; /* --one-way (xp_iv_one_way), else NULL */
	uint64_t bias_ns;           /* what the one-way histograms hold beyond the delay */
};

struct xp_iv_state *xp_iv_new(int nw, uint32_t nflows)
{
	struct xp_iv_state *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->nw = nw;
	st->nflows = nflows;
	st->prev_c = calloc((size_t)nw, sizeof(*st->prev_c));
	st->prev_f = calloc(nflows, sizeof(*st->prev_f));
	st->rtt = xp_hist_iv_new(nw);
	if (!st->prev_c || !st->prev_f || !st->rtt) {
		xp_iv_free(st);
		return NULL;
	}
	return st;
}

int xp_iv_one_way(struct xp_iv_state *st, uint64_t bias_ns)
{
	st->bias_ns = bias_ns;
	if (!st->fwd)
		st->fwd = xp_hist_iv_new(st->nw);
	if (!st->ret)
		st->ret = xp_hist_iv_new(st->nw);
	return st->fwd && st->ret ? 0 : -1;
}

void xp_iv_free(struct xp_iv_state *st)
{
	if (!st)
		return;
	free(st->prev_c);
	free(st->prev_f);
	xp_hist_iv_free(st->rtt);
	xp_hist_iv_free(st->fwd);
	xp_hist_iv_free(st->ret);
	free(st);
}

void xp_interval_free(struct xp_interval *iv)
{
	free(iv->flows);
	iv->flows = NULL;
}

struct xp_interval *xp_interval_append(struct xp_interval **arr, uint32_t *n,
				       struct xp_interval *iv)
{
	struct xp_interval *a = realloc(*arr, (*n + 1) * sizeof(*a));

	if (!a) {
		xp_interval_free(iv);
		return NULL;
	}
	*arr = a;
	a[*n] = *iv;
	return &a[(*n)++];
}

/* Ask every worker for a snapshot and wait for them (SNAP_WAIT_NS at
 * most); fresh[i] says whether worker i's arrived.  Returns how many did
 * not. */
static uint32_t wait_snaps(struct xp_worker *w, int nw, char *fresh)
{
	uint32_t tickets[256], late = 0;
	uint64_t deadline = xp_now_ns() + SNAP_WAIT_NS;
	int i, n = nw < 256 ? nw : 256;

	for (i = 0; i < n; i++)
		tickets[i] = xp_worker_snap_request(&w[i]);
	for (i = 0; i < n; i++) {
		fresh[i] = xp_worker_await(&w[i], xp_worker_snap_ready, tickets[i], deadline) == 1;
		late += !fresh[i];
	}
	return late;
}

/* Fold one worker's snapshot into the interval. */
static void add_worker(struct xp_iv_state *st, int i, const struct xp_snap *s,
		       struct xp_interval *out)
{
	struct xp_counters *p = &st->prev_c[i];
	uint32_t k;

	out->bytes_sent += s->c.bytes_sent - p->bytes_sent;
	out->bytes_received += s->c.bytes_received - p->bytes_received;
	out->transactions += s->c.transactions - p->transactions;
	out->datagrams_sent += s->c.datagrams_sent - p->datagrams_sent;
	out->datagrams_received += s->c.datagrams_received - p->datagrams_received;
	out->lost += s->c.lost - p->lost;
	*p = s->c;
	xp_hist_iv_add(st->rtt, i, s->hist);
	if (st->fwd) {
		xp_hist_iv_add(st->fwd, i, s->fwd);
		xp_hist_iv_add(st->ret, i, s->ret);
	}
	for (k = 0; k < s->nflows; k++) {
		const struct xp_flow_snap *f = &s->flows[k];
		struct xp_flow_iv *prev, *o;

		if (f->idx >= st->nflows)
			continue;
		prev = &st->prev_f[f->idx];
		o = &out->flows[f->idx];
		o->idx = f->idx;
		o->bytes = f->bytes - prev->bytes;
		o->trans = f->trans - prev->trans;
		o->retrans = f->retrans >= prev->retrans ? f->retrans - prev->retrans : 0;
		out->retrans += o->retrans;
		prev->bytes = f->bytes;
		prev->trans = f->trans;
		prev->retrans = f->retrans;
		o->jitter_ms = f->jitter_n ? (double)f->jitter_ns / 1e6 : -1;
	}
}

/* The mean of the flows' jitter, where they have one. */
static double mean_jitter(const struct xp_interval *iv)
{
	double sum = 0;
	uint32_t k, n = 0;

	for (k = 0; k < iv->nflows; k++)
		if (iv->flows[k].jitter_ms >= 0) {
			sum += iv->flows[k].jitter_ms;
			n++;
		}
	return n ? sum / n : -1;
}

int xp_iv_take(struct xp_iv_state *st, struct xp_worker *w, int nw, uint64_t t_go,
	       struct xp_interval *out)
{
	uint64_t t_now;
	char fresh[256];
	uint32_t k;
	int i;

	memset(out, 0, sizeof(*out));
	out->flows = calloc(st->nflows, sizeof(*out->flows));
	if (!out->flows)
		return -1;
	for (k = 0; k < st->nflows; k++) {
		out->flows[k].idx = k;
		out->flows[k].jitter_ms = -1;
	}
	out->nflows = st->nflows;
	/* a worker too busy (or too starved of CPU) to answer in time is not
	 * read (it may be writing its snapshot right now): what it counted
	 * shows in the next interval */
	out->late = wait_snaps(w, nw, fresh);
	xp_hist_iv_begin(st->rtt);
	if (st->fwd) {
		xp_hist_iv_begin(st->fwd);
		xp_hist_iv_begin(st->ret);
	}
	for (i = 0; i < nw && i < 256; i++)
		if (fresh[i])
			add_worker(st, i, &w[i].snap, out);
	t_now = xp_now_ns();
	if (!st->t_prev)
		st->t_prev = t_go;
	out->start = (double)(st->t_prev - t_go) / 1e9;
	out->end = (double)(t_now - t_go) / 1e9;
	st->t_prev = t_now;
	out->count = xp_hist_count(xp_hist_iv_sum(st->rtt));
	out->p50_us = xp_hist_percentile(xp_hist_iv_sum(st->rtt), 50) / 1e3;
	out->p99_us = xp_hist_percentile(xp_hist_iv_sum(st->rtt), 99) / 1e3;
	out->jitter_ms = mean_jitter(out);
	if (st->fwd) {
		xp_iv_owd_of(&out->fwd, xp_hist_iv_sum(st->fwd), st->bias_ns);
		xp_iv_owd_of(&out->ret, xp_hist_iv_sum(st->ret), st->bias_ns);
	}
	return 0;
}

void xp_iv_owd_of(struct xp_iv_owd *o, const struct xp_hist *h, uint64_t bias_ns)
{
	o->count = xp_hist_count(h);
	if (!o->count)
		return;
	o->p50_us = (xp_hist_percentile(h, 50) - (double)bias_ns) / 1e3;
	o->p99_us = (xp_hist_percentile(h, 99) - (double)bias_ns) / 1e3;
}
