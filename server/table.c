/* SPDX-License-Identifier: BSD-2-Clause */
/* The accept loop's tables, which every part of it reads: the descriptors
 * it watches (one epoll set), the connections pending their first message,
 * the sessions, and the routing of a data connection to its session's
 * worker.  Called from the loop's thread only (server/server_int.h). */
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/log.h"
#include "common/tests.h"
#include "server/server_int.h"

int xp_srv_watch(struct xp_server *s, int fd, enum xp_ev_kind k, uint32_t events)
{
	struct epoll_event ev = { .events = events,
				  .data.u64 = (uint64_t)k << 32 | (uint32_t)fd };

	return epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev);
}

int xp_server_watch_listener(struct xp_server *s, int fd)
{
	return xp_srv_watch(s, fd, EV_LISTEN, EPOLLIN);
}

struct xp_session *xp_srv_find(struct xp_server *s, uint64_t cookie)
{
	uint32_t i;

	for (i = 0; i < s->nsess; i++)
		if (s->sess[i]->cookie == cookie && atomic_load(&s->sess[i]->ready))
			return s->sess[i];
	return NULL;
}

/* A flow index of a persistent test is taken once; a TCP_CRR connection
 * only while the test's workers run. */
static int take_index(struct xp_session *ss, uint32_t idx)
{
	if (!xp_test(ss->run.test)->persistent)
		return atomic_load(&ss->running) ? 0 : -1;
	if (ss->seen[idx / 8] & (1u << (idx % 8)))
		return -1;
	ss->seen[idx / 8] |= (uint8_t)(1u << (idx % 8));
	return 0;
}

int xp_srv_route(struct xp_server *s, int fd, int type, uint64_t cookie, uint32_t idx,
		 const char *peer)
{
	struct xp_session *ss = xp_srv_find(s, cookie);
	struct xp_ratelog *rl = &s->rl[XP_RL_NOISE];

	if (!ss) {
		xp_ratelog(s->cfg.log, rl, "%s: data connection for unknown test, closed", peer);
		return -1;
	}
	if (xp_test(ss->run.test)->sock_type != type) {
		xp_ratelog(s->cfg.log, rl, "%s: %s data connection for a %s test, closed",
			   peer, type == SOCK_STREAM ? "TCP" : "UDP", xp_test_name(ss->run.test));
		return -1;
	}
	if (idx >= ss->setup.flows) {
		xp_ratelog(s->cfg.log, rl, "%s: flow index %u out of range (%llu flows), "
			   "closed", peer, idx, (unsigned long long)ss->setup.flows);
		return -1;
	}
	if (take_index(ss, idx)) {
		xp_ratelog(s->cfg.log, rl, "%s: flow %u repeated, or before the test, "
			   "closed", peer, idx);
		return -1;
	}
	if (type == SOCK_DGRAM && ss->hello_ep >= 0 && !atomic_load(&ss->running)) {
		/* until READY no worker reads it: the session echoes confirms */
		struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

		if (epoll_ctl(ss->hello_ep, EPOLL_CTL_ADD, fd, &ev))
			xp_ratelog(s->cfg.log, rl, "%s: flow %u: its repeated confirms go "
				   "unanswered until the test starts (epoll: %s)", peer, idx,
				   strerror(errno));
	}
	if (xp_worker_mail(&ss->group.w[idx % (uint32_t)ss->group.n], fd, idx)) {
		xp_log(s->cfg.log, "%s: worker mailbox full, connection closed", peer);
		return -1;
	}
	return 0;
}

void xp_srv_unpend(struct xp_server *s, struct xp_pending *p)
{
	epoll_ctl(s->epfd, EPOLL_CTL_DEL, p->fd, NULL);
	*p = s->pend[--s->npend];
}

void xp_srv_drop(struct xp_server *s, struct xp_pending *p)
{
	int fd = p->fd, sock = p->sock;

	xp_srv_unpend(s, p);
	close(fd);
	if (sock >= 0)
		close(sock);
}
