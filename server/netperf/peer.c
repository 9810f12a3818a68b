/* SPDX-License-Identifier: BSD-2-Clause */
#include "server/netperf/peer.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "common/ctl.h"
#include "proto/be.h"

int xp_netperf_request(const uint8_t *b, size_t n)
{
	uint32_t type, cpu;

	if (n < 8)
		return 0;
	type = xp_get32(b);
	cpu = xp_get32(b + 4);
	return type >= 1 && type <= 1000 && (cpu == 0xffffffffu || cpu < 4096);
}

unsigned xp_netperf_refuse(int fd, const uint8_t *b)
{
	uint8_t reply[XP_CTL_NETPERF_LEN], junk[XP_CTL_NETPERF_LEN];
	uint32_t type = xp_get32(b);

	memset(reply, 0, sizeof(reply));
	xp_put32(reply, type + 1); /* netperf's response type follows its request's */
	xp_put32(reply + 4, EPROTONOSUPPORT);
	if (recv(fd, junk, sizeof(junk), MSG_DONTWAIT) < 0 && errno != EAGAIN)
		return type;
	if (send(fd, reply, sizeof(reply), MSG_DONTWAIT | MSG_NOSIGNAL) == (ssize_t)sizeof(reply))
		shutdown(fd, SHUT_WR);
	return type;
}
