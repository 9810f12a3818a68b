/* SPDX-License-Identifier: BSD-2-Clause */
/* A socket address of either family, and what every mode does with one. */
#ifndef XP_ADDR_H
#define XP_ADDR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "common/err.h"

struct xp_addr {
	struct sockaddr_storage ss;
	socklen_t len;
};

/* family: AF_UNSPEC, AF_INET or AF_INET6.  host NULL = wildcard. */
int xp_resolve(const char *host, uint16_t port, int family, struct xp_addr *a,
	       struct xp_err *err);
/* "10.0.0.2:5310" or "[::1]:5310". */
const char *xp_addr_str(const struct xp_addr *a, char *buf, size_t len);
uint16_t xp_addr_port(const struct xp_addr *a);
void xp_addr_set_port(struct xp_addr *a, uint16_t port);

#endif
