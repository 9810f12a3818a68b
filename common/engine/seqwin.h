/* SPDX-License-Identifier: BSD-2-Clause */
/* Receiver-side accounting of UDP sequence numbers: unique datagrams,
 * out-of-order arrivals and duplicates, exact within a sliding window of
 * XP_SEQWIN_BITS sequence numbers below the highest seen (older arrivals
 * count as received and out of order: a duplicate that late cannot be told
 * apart).  Fixed size, no allocation, O(1) for in-order arrivals. */
#ifndef XP_SEQWIN_H
#define XP_SEQWIN_H

#include <stdint.h>

#define XP_SEQWIN_BITS 1024

struct xp_seqwin {
	uint64_t next; /* highest sequence seen + 1 (0: none yet) */
	uint64_t unique, out_of_order, duplicates;
	uint64_t bits[XP_SEQWIN_BITS / 64]; /* bit (s % BITS) set: s seen */
};

void xp_seqwin_init(struct xp_seqwin *w);
/* Account one datagram.  Returns 1 if it was new, 0 if a duplicate. */
int xp_seqwin_add(struct xp_seqwin *w, uint64_t seq);

#endif
