/* SPDX-License-Identifier: BSD-2-Clause */
/* Kernel timestamps on a TCP data socket (common/engine/kts.h). */
#include "common/engine/kts.h"

#include <errno.h>
#include <ifaddrs.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <linux/errqueue.h>
#include <linux/net_tstamp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>

#include "common/clock.h"
#include "common/engine/owd.h"
#include "common/engine/worker.h"
#include "proto/be.h"

#ifndef SO_TIMESTAMPING
#define SO_TIMESTAMPING 37
#endif
#ifndef SCM_TIMESTAMPING
#define SCM_TIMESTAMPING SO_TIMESTAMPING
#endif
#define CTL_LEN 256 /* scm_timestamping and a sock_extended_err, aligned */

int xp_kts_enable(int fd)
{
	int v = SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_RX_SOFTWARE |
		SOF_TIMESTAMPING_SOFTWARE | SOF_TIMESTAMPING_RAW_HARDWARE |
		SOF_TIMESTAMPING_OPT_TSONLY;

	return setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &v, sizeof(v));
}

static int same_addr(const struct sockaddr *a, const struct sockaddr_storage *b)
{
	const struct sockaddr_in6 *b6 = (const void *)b;

	if (a->sa_family == AF_INET && b->ss_family == AF_INET)
		return !memcmp(&((const struct sockaddr_in *)(const void *)a)->sin_addr,
			       &((const struct sockaddr_in *)(const void *)b)->sin_addr, 4);
	if (a->sa_family == AF_INET && b->ss_family == AF_INET6 &&
	    IN6_IS_ADDR_V4MAPPED(&b6->sin6_addr))
		return !memcmp(&((const struct sockaddr_in *)(const void *)a)->sin_addr,
			       &b6->sin6_addr.s6_addr[12], 4);
	return a->sa_family == AF_INET6 && b->ss_family == AF_INET6 &&
	       !memcmp(&((const struct sockaddr_in6 *)(const void *)a)->sin6_addr,
		       &b6->sin6_addr, 16);
}

int xp_kts_nic(int fd, char *ifname, size_t len)
{
	struct sockaddr_storage local;
	socklen_t sl = sizeof(local);
	struct ethtool_ts_info info = { .cmd = ETHTOOL_GET_TS_INFO };
	struct ifaddrs *all, *i;
	struct ifreq ifr;
	uint32_t both = SOF_TIMESTAMPING_TX_HARDWARE | SOF_TIMESTAMPING_RX_HARDWARE;

	ifname[0] = '\0';
	if (getsockname(fd, (struct sockaddr *)&local, &sl) || getifaddrs(&all))
		return -1;
	for (i = all; i; i = i->ifa_next)
		if (i->ifa_addr && same_addr(i->ifa_addr, &local)) {
			snprintf(ifname, len, "%s", i->ifa_name);
			break;
		}
	freeifaddrs(all);
	if (!ifname[0])
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&info;
	if (ioctl(fd, SIOCETHTOOL, &ifr))
		return -1;
	return (info.so_timestamping & both) == both;
}

void xp_kts_note_nic(struct xp_worker *w, int fd)
{
	if (w->run->role == XP_ROLE_CLIENT && !w->owd->nic[0])
		w->owd->nic_hw = xp_kts_nic(fd, w->owd->nic, sizeof(w->owd->nic));
}

static uint64_t ns_of(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * XP_NS_PER_SEC + (uint64_t)t->tv_nsec;
}

/* The software stamp of mh's SCM_TIMESTAMPING (0: none); *hw counts a
 * hardware one. */
static uint64_t stamp_of(struct msghdr *mh, uint64_t *hw)
{
	struct cmsghdr *c;
	uint64_t sw = 0;

	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		struct scm_timestamping ts;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_TIMESTAMPING ||
		    c->cmsg_len < CMSG_LEN(sizeof(ts)))
			continue;
		memcpy(&ts, CMSG_DATA(c), sizeof(ts));
		sw = ns_of(&ts.ts[0]);
		*hw += ts.ts[2].tv_sec || ts.ts[2].tv_nsec;
	}
	return sw;
}

ssize_t xp_kts_recv(int fd, void *buf, size_t len, int flags, uint64_t *rx, uint64_t *hw)
{
	union {
		char b[CTL_LEN];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl.b, .msg_controllen = sizeof(ctl.b) };
	ssize_t n = recvmsg(fd, &mh, flags);

	*rx = n > 0 ? stamp_of(&mh, hw) : 0;
	return n;
}

int xp_kts_drain(int fd, uint64_t *tx, uint64_t *hw, int max)
{
	union {
		char b[CTL_LEN];
		struct cmsghdr align;
	} ctl;
	char none;
	int i, saved = errno;

	for (i = 0; i < max; i++) {
		struct iovec iov = { .iov_base = &none, .iov_len = sizeof(none) };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
				     .msg_control = ctl.b, .msg_controllen = sizeof(ctl.b) };
		uint64_t sw;

		if (recvmsg(fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			break;
		sw = stamp_of(&mh, hw);
		if (sw)
			*tx = sw;
	}
	errno = saved;
	return i;
}

/* The previous transaction complete: each part into its histogram. */
static void add_parts(struct xp_owd *o, const uint64_t *p, uint64_t srx, uint64_t stx)
{
	uint64_t hold = srx + p[XP_KTS_P_APP] + stx;

	if (hold > p[XP_KTS_P_KRTT]) { /* the server held it longer than its trip */
		o->k_missing++;
		return;
	}
	xp_hist_add(o->k[XP_KTS_CLI_TX], p[XP_KTS_P_CTX]);
	xp_hist_add(o->k[XP_KTS_WIRE], p[XP_KTS_P_KRTT] - hold);
	xp_hist_add(o->k[XP_KTS_SRV_RX], srx);
	xp_hist_add(o->k[XP_KTS_SRV_APP], p[XP_KTS_P_APP]);
	xp_hist_add(o->k[XP_KTS_SRV_TX], stx);
	xp_hist_add(o->k[XP_KTS_CLI_RX], p[XP_KTS_P_CRX]);
	xp_hist_add(o->k[XP_KTS_RTT], p[XP_KTS_P_RTT]);
}

void xp_kts_cli_done(struct xp_owd *o, struct xp_kts_cli *k, const uint64_t t[4], uint64_t rtt,
		     const uint8_t *srv)
{
	uint64_t srx = xp_get64(srv), stx = xp_get64(srv + 8);
	int ok = k->k1 && k->crx && t[0] <= k->k1 && k->k1 <= k->crx && k->crx <= t[3] &&
		 t[1] <= t[2];

	if (k->p_ok && srx != XP_KTS_UNKNOWN && stx != XP_KTS_UNKNOWN)
		add_parts(o, k->p, srx, stx);
	else if (k->p_ok)
		o->k_missing++;
	k->p_ok = (uint8_t)ok;
	if (ok) {
		k->p[XP_KTS_P_CTX] = k->k1 - t[0];
		k->p[XP_KTS_P_CRX] = t[3] - k->crx;
		k->p[XP_KTS_P_KRTT] = k->crx - k->k1;
		k->p[XP_KTS_P_APP] = t[2] - t[1];
		k->p[XP_KTS_P_RTT] = rtt;
	} else {
		o->k_missing++;
	}
	k->k1 = k->crx = 0;
}

void xp_kts_srv_parts(struct xp_kts_srv *k, uint8_t *out, uint64_t t2, uint64_t t3)
{
	int ok = k->p_ok && k->stx && k->p_srx <= k->p_t2 && k->p_t3 <= k->stx;

	xp_put64(out, ok ? k->p_t2 - k->p_srx : XP_KTS_UNKNOWN);
	xp_put64(out + 8, ok ? k->stx - k->p_t3 : XP_KTS_UNKNOWN);
	k->p_ok = k->srx && k->srx <= t2;
	k->p_srx = k->srx;
	k->p_t2 = t2;
	k->p_t3 = t3;
	k->stx = k->srx = 0;
}

struct xp_kts_udp {
	struct xp_kts_cli kc;
	struct xp_kts_srv ks;
	uint64_t rx;      /* the last datagram's kernel receipt */
	uint64_t tx;      /* the last kernel transmit read from the error queue */
	uint64_t prev_id; /* the id of the previous response (client: its own) */
};

struct xp_kts_udp *xp_kts_udp_new(int fd)
{
	struct xp_kts_udp *u;

	if (xp_kts_enable(fd))
		return NULL;
	u = calloc(1, sizeof(*u));
	if (!u)
		errno = ENOMEM;
	return u;
}

void xp_kts_udp_free(struct xp_kts_udp *u)
{
	free(u);
}

ssize_t xp_kts_udp_recv(struct xp_kts_udp *u, struct xp_worker *w, int fd, void *buf, size_t len)
{
	return xp_kts_recv(fd, buf, len, 0, &u->rx, &w->owd->k_hw);
}

void xp_kts_udp_errq(struct xp_kts_udp *u, struct xp_worker *w, int fd, uint32_t events)
{
	if (events & EPOLLERR)
		xp_kts_drain(fd, &u->tx, &w->owd->k_hw, XP_KTS_DRAIN_ALL);
}

/* The stamps of the datagrams sent, one by one, until the last read is
 * not older than floor (its own send) or none is left. */
static void drain_to(struct xp_kts_udp *u, struct xp_worker *w, int fd, uint64_t floor)
{
	int k;

	for (k = 0; k < XP_KTS_DRAIN_ALL && u->tx < floor &&
		    xp_kts_drain(fd, &u->tx, &w->owd->k_hw, 1); k++)
		;
}

void xp_kts_udp_done(struct xp_kts_udp *u, struct xp_worker *w, int fd, const uint8_t *rsp,
		     uint64_t t1, uint64_t rtt)
{
	uint64_t t[4] = { t1, xp_get64(rsp + 8), xp_get64(rsp + 16), xp_owd_now() };

	drain_to(u, w, fd, t1);
	u->kc.k1 = u->tx >= t1 ? u->tx : 0;
	u->kc.crx = u->rx;
	if (u->kc.p_ok && xp_get64(rsp + 24) != u->prev_id) { /* the server's previous
								* answered another request */
		u->kc.p_ok = 0;
		w->owd->k_missing++;
	}
	xp_kts_cli_done(w->owd, &u->kc, t, rtt, rsp + 32);
	u->prev_id = xp_get64(rsp);
}

void xp_kts_udp_stamp(struct xp_kts_udp *u, struct xp_worker *w, int fd, uint8_t *rsp)
{
	drain_to(u, w, fd, u->ks.p_t3);
	u->ks.stx = u->ks.p_ok && u->tx >= u->ks.p_t3 ? u->tx : 0;
	u->ks.srx = u->rx;
	xp_put64(rsp + 24, u->prev_id);
	xp_kts_srv_parts(&u->ks, rsp + 32, xp_get64(rsp + 8), xp_get64(rsp + 16));
	u->prev_id = xp_get64(rsp);
}
