/* SPDX-License-Identifier: BSD-2-Clause */
#include "lab/wan/sched.h"

#include <string.h>

void xp_wan_rng_seed(struct xp_wan_rng *r, uint64_t seed, unsigned stream)
{
	r->s = seed ^ (0x9e3779b97f4a7c15ull * (stream + 1));
}

uint64_t xp_wan_rng_next(struct xp_wan_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void xp_wan_sched_init(struct xp_wan_sched *s, const struct xp_wan_dir *cfg,
		       uint64_t seed, unsigned dir)
{
	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	xp_wan_rng_seed(&s->rng, seed, dir);
}

void xp_wan_draw(struct xp_wan_sched *s, struct xp_wan_draws *d)
{
	const struct xp_wan_dir *c = s->cfg;
	uint64_t j = c->jitter_ns, r;

	d->lost = xp_wan_rng_next(&s->rng) < c->loss.thr;
	d->dup = xp_wan_rng_next(&s->rng) < c->duplicate.thr;
	d->ahead = xp_wan_rng_next(&s->rng) < c->reorder.thr;
	r = xp_wan_rng_next(&s->rng);
	d->jitter_ns = j ? (int64_t)(r % (2 * j + 1)) - (int64_t)j : 0;
}

uint64_t xp_wan_tx_ns(uint64_t bytes, uint64_t rate_bps)
{
	if (!rate_bps)
		return 0;
	/* no overflow below 2 GB: frames are at most 64 KiB */
	return bytes * 8000000000ull / rate_bps;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

void xp_wan_when(struct xp_wan_sched *s, const struct xp_wan_draws *d, uint64_t now_ns,
		 uint32_t wire_bytes, int delayed_pending, struct xp_wan_when *w)
{
	const struct xp_wan_dir *c = s->cfg;
	uint64_t tx = xp_wan_tx_ns(wire_bytes, c->rate_bps);
	uint64_t done = c->rate_bps ? max64(now_ns, s->link_free_ns) + tx : now_ns;
	int64_t prop = (int64_t)c->delay_ns + d->jitter_ns;

	if (c->rate_bps)
		s->link_free_ns = done + (d->dup ? tx : 0);
	memset(w, 0, sizeof(*w));
	if (d->ahead) {
		w->release_ns = max64(done, s->last_ahead_ns);
		w->dup_release_ns = w->release_ns + tx;
		s->last_ahead_ns = d->dup ? w->dup_release_ns : w->release_ns;
		w->overtakes = delayed_pending && s->last_delayed_ns > w->release_ns;
		return;
	}
	w->release_ns = max64(done + (prop > 0 ? (uint64_t)prop : 0), s->last_delayed_ns);
	w->dup_release_ns = w->release_ns + tx;
	s->last_delayed_ns = d->dup ? w->dup_release_ns : w->release_ns;
}
