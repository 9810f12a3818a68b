/* SPDX-License-Identifier: BSD-2-Clause */
#include "lab/wan/ring.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define HDR sizeof(struct xp_wan_rec)

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

int xp_wan_ring_init(struct xp_wan_ring *r, size_t size)
{
	int q;

	memset(r, 0, sizeof(*r));
	r->size = align8(size);
	r->buf = malloc(r->size);
	if (!r->buf)
		return -1;
	for (q = 0; q < XP_WAN_QUEUES; q++)
		r->first[q] = r->last[q] = NONE;
	return 0;
}

void xp_wan_ring_free(struct xp_wan_ring *r)
{
	free(r->buf);
	r->buf = NULL;
}

static struct xp_wan_rec *at(const struct xp_wan_ring *r, size_t off)
{
	return (struct xp_wan_rec *)(void *)(r->buf + off);
}

uint8_t *xp_wan_ring_space(struct xp_wan_ring *r, uint32_t max)
{
	size_t need = align8(HDR + max);

	if (!r->used)
		r->head = r->tail = 0;
	if (r->tail >= r->head && r->used < r->size) {
		if (r->size - r->tail >= need)
			return xp_wan_rec_data(at(r, r->tail));
		if (r->head < need)
			return NULL;
		/* wrap: the end is waste until the head passes it */
		if (r->size - r->tail >= HDR)
			at(r, r->tail)->size = 0;
		r->used += r->size - r->tail;
		r->tail = 0;
	}
	if (r->size - r->used < need)
		return NULL;
	return xp_wan_rec_data(at(r, r->tail));
}

struct xp_wan_rec *xp_wan_ring_push(struct xp_wan_ring *r, int q, uint32_t len)
{
	struct xp_wan_rec *rec = at(r, r->tail);
	uint32_t off = (uint32_t)r->tail;

	memset(rec, 0, HDR);
	rec->size = (uint32_t)align8(HDR + len);
	rec->len = len;
	rec->next = NONE;
	r->tail += rec->size;
	r->used += rec->size;
	if (r->tail == r->size)
		r->tail = 0;
	if (r->last[q] != NONE)
		at(r, r->last[q])->next = off;
	else
		r->first[q] = off;
	r->last[q] = off;
	r->held_bytes += len;
	r->held++;
	return rec;
}

struct xp_wan_rec *xp_wan_ring_first(const struct xp_wan_ring *r, int q)
{
	return r->first[q] == NONE ? NULL : at(r, r->first[q]);
}

struct xp_wan_rec *xp_wan_ring_after(const struct xp_wan_ring *r,
				     const struct xp_wan_rec *rec)
{
	return rec->next == NONE ? NULL : at(r, rec->next);
}

int xp_wan_ring_next_q(const struct xp_wan_ring *r)
{
	const struct xp_wan_rec *d = xp_wan_ring_first(r, XP_WAN_Q_DELAYED);
	const struct xp_wan_rec *a = xp_wan_ring_first(r, XP_WAN_Q_AHEAD);

	if (!d && !a)
		return -1;
	if (!d || (a && a->release_ns < d->release_ns))
		return XP_WAN_Q_AHEAD;
	return XP_WAN_Q_DELAYED;
}

/* Move the head past released records and wrap waste. */
static void reclaim(struct xp_wan_ring *r)
{
	while (r->used) {
		size_t left = r->size - r->head;
		struct xp_wan_rec *rec;

		if (left < HDR || !(rec = at(r, r->head))->size) {
			r->used -= left;
			r->head = 0;
			continue;
		}
		if (!(rec->flags & XP_WAN_REC_DONE))
			return;
		r->used -= rec->size;
		r->head += rec->size;
		if (r->head == r->size)
			r->head = 0;
	}
}

void xp_wan_ring_pop(struct xp_wan_ring *r, int q)
{
	struct xp_wan_rec *rec = xp_wan_ring_first(r, q);

	if (!rec)
		return;
	r->first[q] = rec->next;
	if (rec->next == NONE)
		r->last[q] = NONE;
	rec->flags |= XP_WAN_REC_DONE;
	r->held_bytes -= rec->len;
	r->held--;
	reclaim(r);
}
