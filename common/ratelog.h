/* SPDX-License-Identifier: BSD-2-Clause */
/* Log lines that a peer can cause at will (stray datagrams, connections
 * refused before they are a test, descriptor exhaustion), at most one a
 * second per kind, with a count of the ones held back: a flood of events
 * costs a line a second, not a line an event.  Not thread-safe: one
 * thread (the server's accept loop) owns each struct. */
#ifndef XP_RATELOG_H
#define XP_RATELOG_H

#include <stdint.h>
#include <stdio.h>

struct xp_ratelog {
	uint64_t last_ns; /* when the last line was written (0: never) */
	uint64_t held;    /* events since, not written */
	char text[200];   /* the last one held */
};

/* One event: written at once if no line of this kind was written in the
 * last second (with ", and N more since" if some were held), else held. */
void xp_ratelog(FILE *log, struct xp_ratelog *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Write the held events ("N more like: <the last one>") if the last line
 * is a second old; call it now and then. */
void xp_ratelog_flush(FILE *log, struct xp_ratelog *r);

#endif
