/* SPDX-License-Identifier: BSD-2-Clause */
/* Each worker thread owns a private file descriptor table.  In a process
 * whose threads share one table, every system call on a descriptor takes
 * and drops a reference on the open file (an atomic operation each way);
 * with a table of its own the kernel skips that.  A 1-byte TCP_RR between
 * two processes on one CPU ran 2% slower with an idle second thread in
 * the client than without, and as fast again once that client had
 * unshared its table. */
#ifndef XP_FDTABLE_H
#define XP_FDTABLE_H

#include <stddef.h>

/* Give the calling thread a private copy of the descriptor table
 * (unshare(CLONE_FILES)) and close in it every descriptor except 0-2 and
 * keep[0..n).  0: done; -1 (errno): the thread still shares the table. */
int xp_fdtable_private(const int *keep, size_t n);

#endif
