/* SPDX-License-Identifier: BSD-2-Clause */
/* A client's one-way delays (--one-way): the server's clock offset from
 * CLOCK exchanges before READY (common/owd.h), and the delays each way
 * that the client's workers and, for UDP bulk, the server's receivers
 * measured (common/engine/owd.h). */
#ifndef XP_CLIENT_OWD_H
#define XP_CLIENT_OWD_H

#include <stddef.h>

#include "common/owd.h"
#include "common/engine/owd.h"

#define XP_CLOCK_EXCHANGES 16 /* CLOCK messages before READY */

struct xp_owd_result {
	struct xp_clock_est est; /* the offset: server clock - client clock */
	struct xp_owd *sum;      /* both ends' delays, merged */
	char *text;              /* the server's HIST pieces, joined */
	size_t len;
};

struct xp_client_result;
void xp_owd_result_free(struct xp_client_result *r);

#endif
