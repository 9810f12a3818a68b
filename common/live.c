/* SPDX-License-Identifier: BSD-2-Clause */
/* Heartbeats during a test (common/live.h). */
#include "common/live.h"

#include <poll.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "common/ctl.h"

void xp_live_init(struct xp_live *l, int fd, const char *peer, uint64_t send_ms,
		  uint64_t peer_ms)
{
	uint64_t now = xp_now_ns();

	memset(l, 0, sizeof(*l));
	l->fd = l->info_fd = fd;
	l->peer = peer;
	l->every_ns = send_ms * XP_NS_PER_MS;
	/* a peer that announced a slower beat than our limit gets more time */
	if (peer_ms)
		l->dead_ns = (peer_ms > 1000 ? peer_ms * 5 : XP_HEARTBEAT_DEAD_MS) *
			     XP_NS_PER_MS;
	l->next_tx = now + l->every_ns;
	l->last_rx = now;
}

/* A lossy path delays a live peer's heartbeats behind TCP's backed-off
 * retransmissions (20 % loss at a 300 ms round trip: three losses of one
 * segment in a row are 7 s).  So silence past dead_ns is the peer's only
 * if its kernel stopped acknowledging ours too (cut off, or gone; we send
 * a heartbeat a second, so a live kernel acknowledges that often); one
 * still acknowledging gets up to LOSSY times as long.  Whether our own
 * segments were retransmitted says nothing of the peer's: its lone lost
 * heartbeat leaves no trace here, and a short test at 20 % loss often has
 * none of ours lost (the likely end of the control connection of a 2 s
 * UDP_RR at 300 ms and 20 % loss, twice in about 40 runs, when this was
 * the test of a clean path). */
#define LOSSY 6

int xp_live_peer_dead(const struct xp_live *l, uint64_t now)
{
	uint64_t quiet = now > l->last_rx ? now - l->last_rx : 0;
	struct tcp_info ti;
	socklen_t n = sizeof(ti);

	if (!l->dead_ns || quiet <= l->dead_ns)
		return 0;
	if (quiet > l->dead_ns * LOSSY)
		return 1;
	memset(&ti, 0, sizeof(ti));
	if (getsockopt(l->info_fd, IPPROTO_TCP, TCP_INFO, &ti, &n))
		return 1;
	return (uint64_t)ti.tcpi_last_ack_recv * XP_NS_PER_MS > l->dead_ns;
}

int xp_live_tick(struct xp_live *l, struct xp_err *err)
{
	uint64_t now = xp_now_ns();
	struct xp_msg m;

	if (l->every_ns && now >= l->next_tx) {
		memset(&m, 0, sizeof(m));
		m.type = XP_MSG_HEARTBEAT;
		if (xp_ctl_send(l->fd, &m, 1000, l->peer, err))
			return -1;
		l->next_tx = now + l->every_ns;
	}
	if (xp_live_peer_dead(l, now))
		return xp_err_set(err, "%s silent for %.0f s (no heartbeat): frozen, gone "
				  "or cut off", l->peer,
				  (double)(now - l->last_rx) / XP_NS_PER_SEC);
	return 0;
}

int xp_live_sleep_ms(const struct xp_live *l, int cap_ms)
{
	uint64_t now = xp_now_ns(), ms;

	if (!l->every_ns)
		return cap_ms > 0 ? cap_ms : 1;
	ms = l->next_tx > now ? (l->next_tx - now + XP_NS_PER_MS - 1) / XP_NS_PER_MS : 0;
	if (ms > (uint64_t)cap_ms)
		ms = (uint64_t)cap_ms;
	return ms ? (int)ms : 1;
}

int xp_live_recv(struct xp_live *l, struct xp_msg *m, struct xp_err *err)
{
	/* a message has started: the rest follows at once from a live peer */
	int wait = l->dead_ns ? (int)(l->dead_ns / XP_NS_PER_MS) : 10000;

	if (xp_ctl_recv(l->fd, m, wait, l->peer, err))
		return -1;
	l->last_rx = xp_now_ns();
	return m->type != XP_MSG_HEARTBEAT;
}

int xp_live_wait(struct xp_live *l, struct xp_msg *m, uint64_t deadline,
		 struct xp_err *err)
{
	struct pollfd p = { .fd = l->fd, .events = POLLIN };

	for (;;) {
		uint64_t now = xp_now_ns();
		int cap, rc;

		if (now >= deadline)
			return xp_err_set(err, "%s: deadline passed", l->peer);
		cap = (int)((deadline - now + XP_NS_PER_MS - 1) / XP_NS_PER_MS);
		/* what is in the socket first: silence is judged on an empty one */
		rc = poll(&p, 1, xp_live_sleep_ms(l, cap < 1000 ? cap : 1000));
		if (rc > 0 && (rc = xp_live_recv(l, m, err)) != 0)
			return rc > 0 ? 0 : -1;
		if (xp_live_tick(l, err))
			return -1;
	}
}
