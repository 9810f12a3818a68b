/* SPDX-License-Identifier: BSD-2-Clause */
/* Addresses: resolving a host, printing an address, its port. */
#include "common/addr.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

int xp_resolve(const char *host, uint16_t port, int family, struct xp_addr *a,
	       struct xp_err *err)
{
	struct addrinfo hints, *res;
	char ps[8];
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = host ? AI_ADDRCONFIG : AI_PASSIVE;
	snprintf(ps, sizeof(ps), "%u", port);
	rc = getaddrinfo(host, ps, &hints, &res);
	if (rc && host) {
		hints.ai_flags = 0; /* loopback-only hosts have no "configured" address */
		rc = getaddrinfo(host, ps, &hints, &res);
	}
	if (rc)
		return xp_err_set(err, "resolve %s: %s", host ? host : "*",
				  gai_strerror(rc));
	memcpy(&a->ss, res->ai_addr, res->ai_addrlen);
	a->len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

const char *xp_addr_str(const struct xp_addr *a, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";
	const struct sockaddr_in *s4 = (const void *)&a->ss;
	const struct sockaddr_in6 *s6 = (const void *)&a->ss;

	if (a->ss.ss_family == AF_INET) {
		inet_ntop(AF_INET, &s4->sin_addr, host, sizeof(host));
		snprintf(buf, len, "%s:%u", host, ntohs(s4->sin_port));
	} else if (a->ss.ss_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
		/* an IPv4 client of a dual-stack socket: show it as IPv4 */
		inet_ntop(AF_INET, &s6->sin6_addr.s6_addr[12], host, sizeof(host));
		snprintf(buf, len, "%s:%u", host, ntohs(s6->sin6_port));
	} else if (a->ss.ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof(host));
		snprintf(buf, len, "[%s]:%u", host, ntohs(s6->sin6_port));
	} else {
		snprintf(buf, len, "(family %d)", a->ss.ss_family);
	}
	return buf;
}

uint16_t xp_addr_port(const struct xp_addr *a)
{
	if (a->ss.ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)&a->ss)->sin6_port);
	return ntohs(((const struct sockaddr_in *)&a->ss)->sin_port);
}

void xp_addr_set_port(struct xp_addr *a, uint16_t port)
{
	if (a->ss.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&a->ss)->sin6_port = htons(port);
	else
		((struct sockaddr_in *)&a->ss)->sin_port = htons(port);
}
