/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/engine/seqwin.h"

#include <string.h>

void xp_seqwin_init(struct xp_seqwin *w)
{
	memset(w, 0, sizeof(*w));
}

static int test_and_set(struct xp_seqwin *w, uint64_t seq)
{
	uint64_t bit = seq % XP_SEQWIN_BITS;
	uint64_t mask = 1ull << (bit % 64);
	int was = (w->bits[bit / 64] & mask) != 0;

	w->bits[bit / 64] |= mask;
	return was;
}

/* Slots for next..seq-1 are reused for newer numbers: clear them. */
static void advance(struct xp_seqwin *w, uint64_t seq)
{
	uint64_t s;

	if (seq - w->next >= XP_SEQWIN_BITS) {
		memset(w->bits, 0, sizeof(w->bits));
	} else {
		for (s = w->next; s <= seq; s++)
			w->bits[(s % XP_SEQWIN_BITS) / 64] &= ~(1ull << (s % 64));
	}
	w->next = seq + 1;
}

int xp_seqwin_add(struct xp_seqwin *w, uint64_t seq)
{
	if (seq >= w->next) {
		advance(w, seq);
		test_and_set(w, seq);
		w->unique++;
		return 1;
	}
	w->out_of_order++;
	if (w->next - seq > XP_SEQWIN_BITS) {
		w->unique++; /* too old to tell: count it as new */
		return 1;
	}
	if (test_and_set(w, seq)) {
		w->out_of_order--;
		w->duplicates++;
		return 0;
	}
	w->unique++;
	return 1;
}
