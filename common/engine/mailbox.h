/* SPDX-License-Identifier: BSD-2-Clause */
/* A server worker's mailbox: how the accept thread hands it a connected
 * socket, as a descriptor number in the table they share, over a pipe.
 * (A server worker of a persistent test takes a table of its own once all
 * its sockets are in: common/engine/worker_fds.c.  An SCM_RIGHTS version,
 * which let every worker own its table from the start, left a TCP_CRR
 * server socket open about once in 150 runs, cause not found.) */
#ifndef XP_MAILBOX_H
#define XP_MAILBOX_H

#include <stdint.h>

/* fds[0]: the worker reads; fds[1]: others write.  Both non-blocking.
 * 0, or -1 with errno. */
int xp_mailbox_open(int fds[2]);
/* Send `fd` with its flow index, waiting up to `wait_ms` for room.  0: sent,
 * the socket is the worker's now; -1 (errno): not sent, still the caller's. */
int xp_mailbox_send(int wfd, int fd, uint32_t idx, int wait_ms);
/* 1: a socket arrived (*fd, *idx); 0: none waiting; -1: a short message
 * (EPROTO) or a read error (errno). */
int xp_mailbox_recv(int rfd, int *fd, uint32_t *idx);

#endif
