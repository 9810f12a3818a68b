/* SPDX-License-Identifier: BSD-2-Clause */
/* Histograms per interval: each worker's histogram only grows during a
 * test (its snapshots are read), and an interval report wants what the
 * workers added since the last one, summed.  One of these per histogram
 * kind keeps each worker's last reading and the interval's sum. */
#ifndef XP_HIST_IV_H
#define XP_HIST_IV_H

#include "common/hist.h"

struct xp_hist_iv;

/* For nw workers; NULL on no memory. */
struct xp_hist_iv *xp_hist_iv_new(int nw);
void xp_hist_iv_free(struct xp_hist_iv *v); /* NULL: nothing */

/* A new interval: its sum empties. */
void xp_hist_iv_begin(struct xp_hist_iv *v);
/* Worker i's histogram now (NULL: nothing): what it gained since its last
 * reading goes into the interval's sum (all of it, when it was cleared
 * since). */
void xp_hist_iv_add(struct xp_hist_iv *v, int i, const struct xp_hist *now);
/* The workers' histograms were cleared (the end of a warm-up or --omit):
 * their readings restart from empty. */
void xp_hist_iv_rebase(struct xp_hist_iv *v);
/* The interval's sum so far. */
const struct xp_hist *xp_hist_iv_sum(const struct xp_hist_iv *v);

#endif
