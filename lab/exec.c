/* SPDX-License-Identifier: BSD-2-Clause */
#include "lab/exec.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lab/dev.h"
#include "lab/netns.h"
#include "lab/nl.h"
#include "lab/rtnl.h"

void xp_lab_env_init(struct xp_lab_env *e, const struct xp_lab_plan *p)
{
	int i;

	memset(e, 0, sizeof(*e));
	e->p = p;
	for (i = 0; i < XP_LAB_NS_MAX; i++)
		e->fd[i] = e->nl[i] = e->sk[i] = -1;
}

struct socks {
	int nl, sk;
};

static int open_socks(void *arg, struct xp_err *err)
{
	struct socks *s = arg;

	s->nl = xp_nl_open(err);
	if (s->nl < 0)
		return -1;
	s->sk = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s->sk < 0) {
		close(s->nl);
		return xp_err_sys(err, errno, "socket");
	}
	return 0;
}

static int make_ns(struct xp_lab_env *e, int i, struct xp_err *err)
{
	struct socks s;

	if (xp_netns_add(e->p->ns[i], err))
		return -1;
	e->made[i] = 1;
	if ((e->fd[i] = xp_netns_open(e->p->ns[i], err)) < 0)
		return -1;
	if (xp_netns_call(e->fd[i], open_socks, &s, err))
		return -1;
	e->nl[i] = s.nl;
	e->sk[i] = s.sk;
	return 0;
}

static int talk(struct xp_lab_env *e, int ns, struct xp_nl_msg *m, const char *what,
		struct xp_err *err)
{
	return xp_nl_talk(e->nl[ns], m, &e->seq[ns], what, err);
}

static const char *const link_config[] = {
	"CONFIG_VETH", "CONFIG_BRIDGE", "CONFIG_MACVLAN", "CONFIG_IPVLAN", "CONFIG_VXLAN",
};

static int do_link(struct xp_lab_env *e, const struct xp_lab_step *s, struct xp_err *err)
{
	const struct xp_lab_link *l = &s->u.link;
	const char *kind = xp_lab_link_kind_name(l->kind);
	struct xp_rtnl_ids ids = { -1, -1, 0 };
	struct xp_nl_msg m;
	char what[64];

	if (l->dest_ns >= 0)
		ids.dest_fd = e->fd[l->dest_ns];
	if (l->kind == XP_LINK_VETH)
		ids.peer_fd = e->fd[l->peer_ns];
	if (l->parent[0] && (ids.parent = xp_lab_ifindex(e->sk[s->ns], l->parent, err)) < 0)
		return -1;
	if (xp_rtnl_link(&m, s, &ids, err))
		return -1;
	snprintf(what, sizeof(what), "ip link add %s type %s", s->dev, kind);
	if (!talk(e, s->ns, &m, what, err))
		return 0;
	if (errno == EOPNOTSUPP)
		snprintf(e->unsupported, sizeof(e->unsupported), "%s link type (%s)",
			 kind, link_config[l->kind]);
	return -1;
}

static int do_set(struct xp_lab_env *e, const struct xp_lab_step *s, struct xp_err *err)
{
	int idx = xp_lab_ifindex(e->sk[s->ns], s->dev, err), master = 0;
	struct xp_nl_msg m;
	char what[64];

	if (idx < 0)
		return -1;
	if (s->kind == XP_STEP_MASTER &&
	    (master = xp_lab_ifindex(e->sk[s->ns], s->u.master, err)) < 0)
		return -1;
	xp_rtnl_set(&m, idx, s->kind == XP_STEP_UP, master);
	snprintf(what, sizeof(what), "ip link set %s %s%s", s->dev,
		 master ? "master " : "up", master ? s->u.master : "");
	return talk(e, s->ns, &m, what, err);
}

static int do_addr(struct xp_lab_env *e, const struct xp_lab_step *s, struct xp_err *err)
{
	int idx = xp_lab_ifindex(e->sk[s->ns], s->dev, err);
	struct xp_nl_msg m;
	char what[96];

	if (idx < 0 || xp_rtnl_addr(&m, idx, s->u.addr, err))
		return -1;
	snprintf(what, sizeof(what), "ip addr add %s dev %s", s->u.addr, s->dev);
	return talk(e, s->ns, &m, what, err);
}

static int do_qdisc(struct xp_lab_env *e, const struct xp_lab_step *s, struct xp_err *err)
{
	const struct xp_lab_qdisc_cfg *q = &s->u.qdisc;
	const char *kind = q->kind == XP_QDISC_HTB ? "htb" : "tbf";
	int idx = xp_lab_ifindex(e->sk[s->ns], s->dev, err);
	struct xp_nl_msg m;
	char what[64];

	if (idx < 0)
		return -1;
	xp_rtnl_qdisc(&m, idx, q);
	snprintf(what, sizeof(what), "tc qdisc add dev %s root %s", s->dev, kind);
	if (talk(e, s->ns, &m, what, err)) {
		if (errno == ENOENT)
			snprintf(e->unsupported, sizeof(e->unsupported),
				 "%s qdisc (CONFIG_NET_SCH_%s)", kind,
				 q->kind == XP_QDISC_HTB ? "HTB" : "TBF");
		return -1;
	}
	if (q->kind != XP_QDISC_HTB)
		return 0;
	xp_rtnl_htb_class(&m, idx, q);
	snprintf(what, sizeof(what), "tc class add dev %s classid 1:1 htb", s->dev);
	return talk(e, s->ns, &m, what, err);
}

static int netem_unknown(int error)
{
	return error == ENOENT || error == EOPNOTSUPP;
}

static int do_netem(struct xp_lab_env *e, const struct xp_lab_step *s, struct xp_err *err)
{
	int idx = xp_lab_ifindex(e->sk[s->ns], s->dev, err);
	struct xp_nl_msg m;
	char what[64];

	if (idx < 0)
		return -1;
	xp_rtnl_netem(&m, idx, &s->u.netem);
	snprintf(what, sizeof(what), "tc qdisc add dev %s root netem", s->dev);
	if (!talk(e, s->ns, &m, what, err))
		return 0;
	if (netem_unknown(errno))
		snprintf(e->unsupported, sizeof(e->unsupported),
			 "netem qdisc (CONFIG_NET_SCH_NETEM; --impair-with line uses xperf's "
			 "delay line instead)");
	return -1;
}

static int do_line(struct xp_lab_env *e, const struct xp_lab_step *s, struct xp_err *err)
{
	struct xp_wan_line_cfg c;

	memset(&c, 0, sizeof(c));
	c.nsfd = e->fd[s->ns];
	snprintf(c.dev[XP_WAN_C2S], sizeof(c.dev[0]), "%s", s->dev);
	snprintf(c.dev[XP_WAN_S2C], sizeof(c.dev[1]), "%s", s->u.line.peer);
	c.wan = &e->p->wan;
	c.cpu = s->u.line.cpu;
	if (e->line)
		return xp_err_set(err, "internal: a second delay line");
	return xp_wan_line_start(&e->line, &c, err);
}

static int do_step(struct xp_lab_env *e, const struct xp_lab_step *s, struct xp_err *err)
{
	switch (s->kind) {
	case XP_STEP_NETNS:
		return make_ns(e, s->ns, err);
	case XP_STEP_LINK:
		return do_link(e, s, err);
	case XP_STEP_MASTER:
	case XP_STEP_UP:
		return do_set(e, s, err);
	case XP_STEP_ADDR:
		return do_addr(e, s, err);
	case XP_STEP_SYSCTL:
		return xp_lab_sysctl(e->fd[s->ns], s->u.sysctl.key, s->u.sysctl.value, err);
	case XP_STEP_QUEUES:
		return xp_lab_queues(e->fd[s->ns], s->dev, s->u.queues.tx,
				     s->u.queues.mask, err);
	case XP_STEP_OFFLOAD:
		return xp_lab_offload(e->sk[s->ns], s->dev, s->u.offload.feature,
				      s->u.offload.on, err);
	case XP_STEP_QDISC:
		return do_qdisc(e, s, err);
	case XP_STEP_NETEM:
		return do_netem(e, s, err);
	case XP_STEP_LINE:
		return do_line(e, s, err);
	}
	return xp_err_set(err, "internal: step kind %d", (int)s->kind);
}

static int signalled(int sigfd)
{
	struct pollfd p = { .fd = sigfd, .events = POLLIN };

	return sigfd >= 0 && poll(&p, 1, 0) > 0;
}

int xp_lab_exec(struct xp_lab_env *e, int sigfd, struct xp_err *err)
{
	int i;

	for (i = 0; i < e->p->nsteps; i++) {
		const struct xp_lab_step *s = &e->p->step[i];

		if (signalled(sigfd)) {
			e->interrupted = 1;
			return xp_err_set(err, "interrupted while building %s", e->p->topology);
		}
		/* Never act on a namespace we did not make in this run. */
		if (s->kind != XP_STEP_NETNS && !e->made[s->ns])
			return xp_err_set(err, "internal: step %d before its namespace", i);
		if (do_step(e, s, err))
			return -1;
	}
	return 0;
}

int xp_lab_teardown(struct xp_lab_env *e, struct xp_err *err)
{
	struct xp_err one;
	int i, rc = 0;

	xp_wan_line_stop(e->line);
	e->line = NULL;
	for (i = XP_LAB_NS_MAX - 1; i >= 0; i--) {
		if (e->nl[i] >= 0)
			close(e->nl[i]);
		if (e->sk[i] >= 0)
			close(e->sk[i]);
		if (e->fd[i] >= 0)
			close(e->fd[i]);
		e->nl[i] = e->sk[i] = e->fd[i] = -1;
		if (e->made[i] && xp_netns_del(e->p->ns[i], &one) && !rc) {
			rc = -1;
			if (err)
				*err = one;
		}
		e->made[i] = 0;
	}
	return rc;
}

struct probe {
	int rc;
	struct xp_err err;
};

static void *probe_thread(void *arg)
{
	struct probe *p = arg;
	struct xp_wan_dir none;
	struct xp_nl_msg m;
	uint32_t seq = 0;
	int fd;

	p->rc = -1;
	if (unshare(CLONE_NEWNET)) {
		xp_err_sys(&p->err, errno, "netem probe: unshare(CLONE_NEWNET)");
		return NULL;
	}
	if ((fd = xp_nl_open(&p->err)) < 0)
		return NULL;
	memset(&none, 0, sizeof(none));
	none.limit_bytes = 1514;
	xp_rtnl_netem(&m, 1, &none); /* lo is 1 in every new namespace */
	if (!xp_nl_talk(fd, &m, &seq, "netem probe: tc qdisc add dev lo root netem",
			&p->err))
		p->rc = 1;
	else if (netem_unknown(errno))
		p->rc = 0;
	close(fd);
	return NULL;
}

int xp_lab_netem_probe(struct xp_err *err)
{
	struct probe p = { -1, { "" } };
	pthread_t thr;

	if (pthread_create(&thr, NULL, probe_thread, &p))
		return xp_err_set(err, "netem probe: cannot start a thread");
	pthread_join(thr, NULL);
	if (p.rc < 0 && err)
		*err = p.err;
	return p.rc;
}
