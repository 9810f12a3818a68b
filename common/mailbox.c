#include "common/mailbox.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Room for a few thousand sockets in flight (each message is charged
 * about a kilobyte); the kernel caps this at net.core.wmem_max. */
#define MAILBOX_SNDBUF (4 << 20)

int xp_mailbox_open(int fds[2])
{
	int sz = MAILBOX_SNDBUF;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds))
		return -1;
	/* as root, past wmem_max; otherwise as much as allowed */
	if (setsockopt(fds[1], SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof(sz)))
		setsockopt(fds[1], SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	return 0;
}

int xp_mailbox_send(int wfd, int fd, uint32_t idx, int wait_ms)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = &idx, .iov_len = sizeof(idx) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	struct pollfd p = { .fd = wfd, .events = POLLOUT };

	memset(&ctl, 0, sizeof(ctl));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	for (;;) {
		if (sendmsg(wfd, &mh, MSG_NOSIGNAL) == (ssize_t)sizeof(idx)) {
			close(fd);
			return 0;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN || wait_ms <= 0 || poll(&p, 1, wait_ms) <= 0)
			return -1;
		wait_ms = 0; /* one wait, then give up */
	}
}

int xp_mailbox_recv(int rfd, int *fd, uint32_t *idx)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = idx, .iov_len = sizeof(*idx) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;
	ssize_t n = recvmsg(rfd, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	c = CMSG_FIRSTHDR(&mh);
	if (n != (ssize_t)sizeof(*idx) || !c || c->cmsg_level != SOL_SOCKET ||
	    c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(sizeof(int))) {
		if (c && c->cmsg_type == SCM_RIGHTS && c->cmsg_len >= CMSG_LEN(sizeof(int))) {
			memcpy(fd, CMSG_DATA(c), sizeof(int));
			close(*fd);
		}
		errno = EPROTO;
		return -1;
	}
	memcpy(fd, CMSG_DATA(c), sizeof(int));
	return 1;
}
