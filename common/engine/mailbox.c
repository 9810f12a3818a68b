/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/engine/mailbox.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

int xp_mailbox_open(int fds[2])
{
	return pipe2(fds, O_NONBLOCK | O_CLOEXEC);
}

struct mail {
	int fd;
	uint32_t idx;
};

int xp_mailbox_send(int wfd, int fd, uint32_t idx, int wait_ms)
{
	struct mail m = { .fd = fd, .idx = idx };
	struct pollfd p = { .fd = wfd, .events = POLLOUT };

	for (;;) {
		if (write(wfd, &m, sizeof(m)) == (ssize_t)sizeof(m))
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN || wait_ms <= 0 || poll(&p, 1, wait_ms) <= 0)
			return -1;
		wait_ms = 0; /* one wait, then give up */
	}
}

int xp_mailbox_recv(int rfd, int *fd, uint32_t *idx)
{
	struct mail m;
	ssize_t n = read(rfd, &m, sizeof(m));

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	if (n != (ssize_t)sizeof(m)) {
		errno = EPROTO;
		return -1;
	}
	*fd = m.fd;
	*idx = m.idx;
	return 1;
}
