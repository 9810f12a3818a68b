/* SPDX-License-Identifier: BSD-2-Clause */
/* The traffic engines behind the test table (common/tests.def, common/engine/table.c).  Each is a
 * set of xp_side_ops callbacks; the flow's on_io handler is swapped as the
 * flow moves between states rather than switching on a state field. */
#ifndef XP_ENGINES_H
#define XP_ENGINES_H

#include "common/engine/worker.h"

/* Datagrams per UDP GSO send or sendmmsg batch (the UDP sender's send
 * buffer holds this many messages). */
#define XP_UDP_BATCH 64

/* TCP bulk transfer (TCP_STREAM, TCP_MAERTS). */
extern const struct xp_side_ops xp_stream_tx, xp_stream_rx;
/* TCP bulk carrying self probes (common/engine/stream_self.c): a run's
 * stream engines when run->self_probes. */
extern const struct xp_side_ops xp_stream_self_tx, xp_stream_self_rx;
/* TCP request/response on a persistent connection (TCP_RR). */
extern const struct xp_side_ops xp_rr_client, xp_rr_server;
/* TCP connect/request/response/close (TCP_CRR). */
extern const struct xp_side_ops xp_crr_client, xp_crr_server;
/* UDP (UDP_STREAM, UDP_RR). */
extern const struct xp_side_ops xp_udp_tx, xp_udp_rx;
extern const struct xp_side_ops xp_udp_rr_client, xp_udp_rr_server;
/* TCP_RR carrying one-way stamps (common/engine/rr_stamp.c). */
extern const struct xp_side_ops xp_rr_stamp_client, xp_rr_stamp_server;
/* The run's stamps (SETUP's, XP_STAMP_*), and the engine they need. */
void xp_run_set_stamps(struct xp_run *r, uint64_t stamps);
/* Frees the worker's UDP batch buffers (w->mm). */
void xp_udp_worker_free(struct xp_worker *w);

#endif
