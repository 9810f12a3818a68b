/* A worker's mailbox: how another thread hands a worker a connected
 * socket.  The socket travels as SCM_RIGHTS over a SOCK_SEQPACKET
 * socketpair, so it lands in the receiving worker's own descriptor table
 * (see common/fdtable.h) whatever table the sender uses. */
#ifndef XP_MAILBOX_H
#define XP_MAILBOX_H

#include <stdint.h>

/* fds[0]: the worker reads; fds[1]: others write.  Both non-blocking.
 * 0, or -1 with errno. */
int xp_mailbox_open(int fds[2]);
/* Send `fd` with its flow index, waiting up to `wait_ms` for room.  0: sent,
 * and the sender's copy of fd is closed; -1 (errno): not sent, fd is
 * still the caller's. */
int xp_mailbox_send(int wfd, int fd, uint32_t idx, int wait_ms);
/* 1: a socket arrived (*fd, *idx; close-on-exec); 0: none waiting;
 * -1: a message without a socket or a read error (errno). */
int xp_mailbox_recv(int rfd, int *fd, uint32_t *idx);

#endif
