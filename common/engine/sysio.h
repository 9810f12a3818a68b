/* SPDX-License-Identifier: BSD-2-Clause */
/* The engines' per-message socket calls, made without libc's
 * thread-cancellation wrappers.
 *
 * recv(), send(), sendmmsg(), recvmmsg() and epoll_wait() are cancellation
 * points: in a process with more than one thread glibc (and musl) brackets
 * each one with an atomic enable/disable of asynchronous cancellation.  A
 * single-threaded program (the bench's syscall floor, netperf, sockperf)
 * skips it; xperf always has a control thread beside its workers, so it
 * paid two atomic read-modify-writes per call: about 2% of a CPU in TCP_RR
 * on one CPU (perf, docs/PERFORMANCE.md).  xperf never cancels a thread (a
 * worker stops on its own, or a signal interrupts a blocking call with
 * EINTR), so the engines call the kernel through syscall(2), which is not
 * a cancellation point; its errno and return value are those of the libc
 * call.  Linux defines every number used here on every architecture. */
#ifndef XP_ENGINE_SYSIO_H
#define XP_ENGINE_SYSIO_H

#include <stddef.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* The kernel's signal set size (epoll_pwait's last argument). */
#define XP_KSIGSET 8

static inline ssize_t xp_recv(int fd, void *buf, size_t len, int flags)
{
	return (ssize_t)syscall(SYS_recvfrom, fd, buf, len, flags, NULL, NULL);
}

static inline ssize_t xp_send(int fd, const void *buf, size_t len, int flags)
{
	return (ssize_t)syscall(SYS_sendto, fd, buf, len, flags, NULL, 0);
}

static inline ssize_t xp_sendmsg(int fd, const struct msghdr *m, int flags)
{
	return (ssize_t)syscall(SYS_sendmsg, fd, m, flags);
}

static inline int xp_sendmmsg(int fd, struct mmsghdr *v, unsigned n, int flags)
{
	return (int)syscall(SYS_sendmmsg, fd, v, n, flags);
}

static inline int xp_recvmmsg(int fd, struct mmsghdr *v, unsigned n, int flags)
{
	return (int)syscall(SYS_recvmmsg, fd, v, n, flags, NULL);
}

/* epoll_wait(2), timeout in ms (-1: none), no signal mask. */
static inline int xp_epoll_wait(int epfd, struct epoll_event *ev, int n, int ms)
{
	return (int)syscall(SYS_epoll_pwait, epfd, ev, n, ms, NULL, (size_t)XP_KSIGSET);
}

/* epoll_pwait2(2), timeout in ns; fails with ENOSYS before Linux 5.11. */
static inline int xp_epoll_wait_ts(int epfd, struct epoll_event *ev, int n,
				   const struct timespec *ts)
{
	return (int)syscall(SYS_epoll_pwait2, epfd, ev, n, ts, NULL, (size_t)XP_KSIGSET);
}

#endif
