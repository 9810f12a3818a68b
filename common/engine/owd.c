/* SPDX-License-Identifier: BSD-2-Clause */
/* A worker's one-way delay histograms (common/engine/owd.h). */
#include "common/engine/owd.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "common/owd.h"
#include "common/engine/worker.h"
#include "proto/be.h"

struct xp_owd *xp_owd_new(int kernel)
{
	struct xp_owd *o = calloc(1, sizeof(*o));
	int i, ok;

	if (!o)
		return NULL;
	o->fwd = xp_hist_new();
	o->ret = xp_hist_new();
	o->srv = xp_hist_new();
	ok = o->fwd && o->ret && o->srv;
	for (i = 0; kernel && i < XP_KTS_NPARTS; i++)
		ok &= (o->k[i] = xp_hist_new()) != NULL;
	if (ok)
		return o;
	xp_owd_free(o);
	return NULL;
}

void xp_owd_free(struct xp_owd *o)
{
	if (!o)
		return;
	xp_hist_free(o->fwd);
	xp_hist_free(o->ret);
	xp_hist_free(o->srv);
	for (int i = 0; i < XP_KTS_NPARTS; i++)
		xp_hist_free(o->k[i]);
	free(o);
}

void xp_owd_reset(struct xp_owd *o)
{
	if (!o)
		return;
	xp_hist_reset(o->fwd);
	xp_hist_reset(o->ret);
	xp_hist_reset(o->srv);
	o->neg = o->k_missing = o->k_hw = 0;
	for (int i = 0; o->k[0] && i < XP_KTS_NPARTS; i++)
		xp_hist_reset(o->k[i]);
}

void xp_owd_merge(struct xp_owd *dst, const struct xp_owd *src)
{
	if (!src)
		return;
	xp_hist_merge(dst->fwd, src->fwd);
	xp_hist_merge(dst->ret, src->ret);
	xp_hist_merge(dst->srv, src->srv);
	dst->neg += src->neg;
	dst->k_missing += src->k_missing;
	dst->k_hw += src->k_hw;
	if (!dst->nic[0] && src->nic[0]) {
		memcpy(dst->nic, src->nic, sizeof(dst->nic));
		dst->nic_hw = src->nic_hw;
	}
	for (int i = 0; dst->k[0] && src->k[0] && i < XP_KTS_NPARTS; i++)
		xp_hist_merge(dst->k[i], src->k[i]);
}

void xp_owd_udp(struct xp_worker *w, uint64_t rx, uint64_t tx)
{
	struct xp_hist *h = w->run->role == XP_ROLE_SERVER ? w->owd->fwd : w->owd->ret;

	xp_hist_add(h, xp_owd_delay(rx, tx, 0 - (uint64_t)w->run->owd_peer_lead_ns,
				    w->run->owd_bias_ns, &w->owd->neg));
}

void xp_owd_rr(struct xp_worker *w, const uint8_t *stamps, uint64_t t1, uint64_t t4)
{
	uint64_t t2 = xp_get64(stamps), t3 = xp_get64(stamps + 8), bias = w->run->owd_bias_ns;
	uint64_t lead = (uint64_t)w->run->owd_peer_lead_ns;

	xp_hist_add(w->owd->fwd, xp_owd_delay(t2, t1, lead, bias, &w->owd->neg));
	xp_hist_add(w->owd->ret, xp_owd_delay(t4, t3, 0 - lead, bias, &w->owd->neg));
	xp_hist_add(w->owd->srv, t3 >= t2 ? t3 - t2 : 0);
}

uint64_t xp_owd_stamp(uint8_t *stamps, uint64_t t2)
{
	uint64_t t3 = xp_owd_now();

	xp_put64(stamps, t2);
	xp_put64(stamps + 8, t3);
	return t3;
}

uint64_t xp_owd_now(void)
{
	return xp_wall_ns();
}
