/* SPDX-License-Identifier: BSD-2-Clause */
/* Kernel timestamps on a TCP data socket (SO_TIMESTAMPING, software):
 * the kernel's receive time of what a read returned, and its transmit
 * time of what a send handed it, from the socket's error queue (TSONLY:
 * the stamp without the data).  Both are CLOCK_REALTIME, the clock the
 * application's stamps are read from (common/engine/owd.h).  A NIC's
 * hardware stamps, where it gives them, are counted, not used: they run
 * on the NIC's clock. */
#ifndef XP_ENGINE_KTS_H
#define XP_ENGINE_KTS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Ask for the stamps on fd.  0, or -1 with errno. */
int xp_kts_enable(int fd);

/* The device fd's local address is on (ifname, "" when none is found), and
 * whether it offers hardware timestamps both ways (1), not (0), or does
 * not say (-1: ETHTOOL_GET_TS_INFO failed). */
int xp_kts_nic(int fd, char *ifname, size_t len);

/* The client's first flow: its device into w->owd, for the report. */
struct xp_worker;
void xp_kts_note_nic(struct xp_worker *w, int fd);

/* recv(2) that also returns the kernel's receive time of the last
 * segment read (*rx, 0 when none came) and whether a hardware stamp came
 * too (*hw += 1). */
ssize_t xp_kts_recv(int fd, void *buf, size_t len, int flags, uint64_t *rx, uint64_t *hw);

/* Read the error queue (at most max entries, never blocking): *tx is the
 * transmit time of the last one that carried a software stamp (left
 * alone when none did).  The number of entries read: fewer than max when
 * the queue is empty. */
#define XP_KTS_DRAIN_ALL 64
int xp_kts_drain(int fd, uint64_t *tx, uint64_t *hw, int max);

/* A TCP_RR round trip in parts (common/engine/owd.h XP_KTS_*).  The
 * server's parts of a transaction come with the next response (its
 * kernel's transmit time is known only after it sent), so the client
 * keeps each transaction's own parts until then. */
#define XP_KTS_UNKNOWN UINT64_MAX
enum { XP_KTS_P_CTX, XP_KTS_P_CRX, XP_KTS_P_KRTT, XP_KTS_P_APP, XP_KTS_P_RTT, XP_KTS_PREV };
struct xp_kts_cli {
	uint64_t k1, crx; /* this request's kernel transmit, its response's receipt */
	uint64_t p[XP_KTS_PREV]; /* the previous transaction's client parts */
	uint8_t p_ok;
};

struct xp_kts_srv {
	uint64_t srx; /* the pending request's kernel receipt */
	uint64_t stx; /* the last response's kernel transmit (error queue) */
	uint64_t p_srx, p_t2, p_t3; /* the last response's */
	uint8_t p_ok;
};

struct xp_owd;
/* Client, a response in: t1 its request's send, t2 and t3 the server's
 * stamps, t4 now, rtt the round trip; srv the response's bytes 16-31, the
 * server's parts of the previous transaction, which complete it. */
void xp_kts_cli_done(struct xp_owd *o, struct xp_kts_cli *k, const uint64_t t[4], uint64_t rtt,
		     const uint8_t *srv);
/* Server, a response about to leave at t3 for the request read at t2:
 * bytes 16-31 of it, the previous transaction's parts. */
void xp_kts_srv_parts(struct xp_kts_srv *k, uint8_t *out, uint64_t t2, uint64_t t3);

/* UDP_RR (one request outstanding): the same split.  A response's bytes
 * 24-47 (XP_STAMP_UKRSP, proto/msg.h) hold the id of the server's previous
 * response on the flow and the server's parts of it, so a transaction
 * whose response was lost is not completed with another's. */
struct xp_kts_udp;
struct xp_worker;
/* Stamps asked for on fd; NULL with errno. */
struct xp_kts_udp *xp_kts_udp_new(int fd);
void xp_kts_udp_free(struct xp_kts_udp *u);
/* recv(2), noting the datagram's kernel receive time. */
ssize_t xp_kts_udp_recv(struct xp_kts_udp *u, struct xp_worker *w, int fd, void *buf, size_t len);
/* EPOLLERR: the error queue has stamps; read them all. */
void xp_kts_udp_errq(struct xp_kts_udp *u, struct xp_worker *w, int fd, uint32_t events);
/* Client: the response rsp to the request sent at t1 (CLOCK_REALTIME) is
 * in, rtt after its issue. */
void xp_kts_udp_done(struct xp_kts_udp *u, struct xp_worker *w, int fd, const uint8_t *rsp,
		     uint64_t t1, uint64_t rtt);
/* Server: the response rsp, its id and t2, t3 in place, is about to
 * leave: the previous one's parts into bytes 24-47. */
void xp_kts_udp_stamp(struct xp_kts_udp *u, struct xp_worker *w, int fd, uint8_t *rsp);

#endif
