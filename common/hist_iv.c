/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/hist_iv.h"

#include <stdlib.h>

struct xp_hist_iv {
	int nw;
	struct xp_hist **prev; /* per worker: its last reading */
	struct xp_hist *delta, *sum;
};

struct xp_hist_iv *xp_hist_iv_new(int nw)
{
	struct xp_hist_iv *v = calloc(1, sizeof(*v));
	int i;

	if (!v)
		return NULL;
	v->nw = nw;
	v->prev = calloc((size_t)(nw > 0 ? nw : 1), sizeof(*v->prev));
	v->delta = xp_hist_new();
	v->sum = xp_hist_new();
	if (!v->prev || !v->delta || !v->sum) {
		xp_hist_iv_free(v);
		return NULL;
	}
	for (i = 0; i < nw; i++)
		if (!(v->prev[i] = xp_hist_new())) {
			xp_hist_iv_free(v);
			return NULL;
		}
	return v;
}

void xp_hist_iv_free(struct xp_hist_iv *v)
{
	int i;

	if (!v)
		return;
	for (i = 0; v->prev && i < v->nw; i++)
		xp_hist_free(v->prev[i]);
	free(v->prev);
	xp_hist_free(v->delta);
	xp_hist_free(v->sum);
	free(v);
}

void xp_hist_iv_begin(struct xp_hist_iv *v)
{
	xp_hist_reset(v->sum);
}

/* Does now hold everything before held?  Not when the worker cleared its
 * histogram in between (its warm-up ended after the last reading): then
 * all it holds is new. */
static int holds(const struct xp_hist *now, const struct xp_hist *before)
{
	uint32_t b, n = xp_hist_buckets();

	if (xp_hist_count(now) < xp_hist_count(before))
		return 0;
	for (b = 0; b < n; b++)
		if (xp_hist_bucket_count(now, b) < xp_hist_bucket_count(before, b))
			return 0;
	return 1;
}

void xp_hist_iv_add(struct xp_hist_iv *v, int i, const struct xp_hist *now)
{
	if (!now || i < 0 || i >= v->nw)
		return;
	if (!holds(now, v->prev[i]))
		xp_hist_reset(v->prev[i]);
	xp_hist_diff(v->delta, now, v->prev[i]);
	xp_hist_merge(v->sum, v->delta);
	xp_hist_copy(v->prev[i], now);
}

void xp_hist_iv_rebase(struct xp_hist_iv *v)
{
	int i;

	for (i = 0; i < v->nw; i++)
		xp_hist_reset(v->prev[i]);
}

const struct xp_hist *xp_hist_iv_sum(const struct xp_hist_iv *v)
{
	return v->sum;
}
