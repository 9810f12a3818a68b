/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/fill.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Up to cap bytes of fd into buf; the count, or -1 with errno. */
static ssize_t read_up_to(int fd, uint8_t *buf, size_t cap)
{
	size_t got = 0;

	while (got < cap) {
		ssize_t n = read(fd, buf + got, cap - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int xp_fill_load(const char *path, uint8_t **buf, size_t *len, struct xp_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;
	uint8_t *b, *small;
	ssize_t n;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return xp_err_sys(err, errno, "--fill %s: open", path);
	b = malloc(XP_FILL_MAX);
	if (!b) {
		close(fd);
		return xp_err_set(err, "--fill %s: out of memory for %u bytes", path,
				  XP_FILL_MAX);
	}
	n = read_up_to(fd, b, XP_FILL_MAX);
	e = errno;
	close(fd);
	if (n <= 0) {
		free(b);
		return n < 0 ? xp_err_sys(err, e, "--fill %s: read", path)
			     : xp_err_set(err, "--fill %s: the file is empty: there is "
					  "nothing to send from it", path);
	}
	small = realloc(b, (size_t)n); /* give back what a short file left unused */
	*buf = small ? small : b;
	*len = (size_t)n;
	return 0;
}

void xp_fill_cycle(uint8_t *dst, size_t dstlen, const uint8_t *src, size_t srclen)
{
	size_t done;

	if (!src || !srclen || !dstlen)
		return;
	done = srclen < dstlen ? srclen : dstlen;
	memcpy(dst, src, done);
	/* the part written so far is src repeated: copy it after itself */
	while (done < dstlen) {
		size_t n = done < dstlen - done ? done : dstlen - done;

		memcpy(dst + done, dst, n);
		done += n;
	}
}
