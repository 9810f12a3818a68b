/* SPDX-License-Identifier: BSD-2-Clause */
/* The client's part of a test's shape (client/shape.c): the end of
 * --omit, each flow's result at both ends, and the exact accounting of
 * the bytes --omit leaves out. */
#ifndef XP_CLIENT_SHAPE_H
#define XP_CLIENT_SHAPE_H

#include "client/client.h"
#include "common/engine/group.h"

/* --omit (stream tests) is over: the client's workers move what they
 * counted to w->warm and count again from now; MEASURE tells the server
 * to do the same.  0, or -1 with err. */
int xp_shape_measure(struct xp_group *g, int ctl, const char *peer, struct xp_err *err);
/* Append worker w's flow results to r->flows.  0, or -1 out of memory. */
int xp_shape_collect(struct xp_client_result *r, const struct xp_worker *w);
/* Append one of the server's (a FLOW message), at most `max` in all. */
void xp_shape_remote_flow(struct xp_client_result *r, const struct xp_flow_result *f,
			  uint32_t max);
/* --warmup (RR): each server flow's transactions less the client flow's
 * warm-up ones, as discount_warmup does for the totals. */
void xp_shape_fix_warmup(struct xp_client_result *r);
/* Both ends' flow results in flow order (before the lookups below). */
void xp_shape_sort(struct xp_client_result *r);
/* TCP stream tests after --omit: each end started counting when it
 * learnt the omit was over, so the bytes in flight then were counted by
 * the sender as omitted and by the receiver as measured, or the other
 * way.  A receiver's measured bytes become exactly those sent after the
 * sender's boundary (its total less the sender's omitted bytes; TCP
 * delivers them all), per flow and in each side's totals, so sent and
 * received agree.  UDP needs none of this: receivers count only the
 * datagrams the sender marked as measured. */
void xp_shape_fix_omit(struct xp_client_result *r);
/* The server's record of flow `idx`, or NULL. */
const struct xp_flow_result *xp_shape_remote(const struct xp_client_result *r, uint32_t idx);
/* The client's record of flow `idx`, or NULL. */
const struct xp_flow_result *xp_shape_local(const struct xp_client_result *r, uint32_t idx);

#endif
