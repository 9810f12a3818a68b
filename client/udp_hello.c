/* SPDX-License-Identifier: BSD-2-Clause */
/* The client's side of the UDP flow handshake (client/udp_hello.h). */
#include "client/udp_hello.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "proto/hello.h"
#include "proto/msg.h"

#define TRIES 50
#define EVERY_MS 100

int xp_udp_answer(const uint8_t *b, ssize_t n, uint64_t cookie, uint32_t idx,
		  uint8_t *out, size_t *len)
{
	uint64_t nonce;
	uint32_t f;

	if (n == XP_UDP_CONFIRM_LEN && *len == XP_UDP_CONFIRM_LEN && !memcmp(b, out, *len))
		return 1;
	if (n <= 0 || xp_udp_challenge_decode(b, (size_t)n, &f, &nonce) || f != idx)
		return 0;
	xp_udp_confirm_encode(out, cookie, idx, nonce);
	*len = XP_UDP_CONFIRM_LEN;
	return 2;
}

int xp_udp_handshake(int fd, uint64_t cookie, uint32_t idx, uint64_t deadline,
		     const char *peer, struct xp_err *err)
{
	uint8_t out[XP_UDP_CONFIRM_LEN], b[64];
	size_t len = XP_DATA_HELLO_LEN;
	int i, rc = 0;

	xp_data_hello_encode(out, cookie, idx);
	for (i = 0; i < TRIES && xp_now_ns() < deadline; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (send(fd, out, len, 0) < 0 && errno != ECONNREFUSED)
			return xp_err_sys(err, errno, "udp hello to %s", peer);
		while (poll(&p, 1, EVERY_MS) > 0) {
			ssize_t n = recv(fd, b, sizeof(b), MSG_DONTWAIT);

			if ((rc = xp_udp_answer(b, n, cookie, idx, out, &len)) != 0)
				break;
			if (n < 0 && errno != ECONNREFUSED && errno != EAGAIN)
				return xp_err_sys(err, errno, "udp hello to %s", peer);
			if (n < 0)
				break;
		}
		if (rc == 1)
			return 0;
	}
	return xp_err_set(err, "udp hello to %s: no %s after %d tries (is its UDP port "
			  "open?)", peer, len == XP_DATA_HELLO_LEN ? "answer" :
			  "echo of the confirm", i);
}
