/* SPDX-License-Identifier: BSD-2-Clause */
/* The topologies: each is a function that appends the steps building it
 * to a plan.  Client in namespace "a", server in "b"; "c" holds what sits
 * in between (a bridge, a macvlan/ipvlan parent).  Test addresses are
 * 10.231.0.1-2/24 and fd00:231::1-2/64, only ever inside these
 * namespaces; the vxlan underlay uses 10.232.0.1-2/24. */
#include "lab/plan.h"
#include "lab/lab.h"

#include <stdio.h>
#include <string.h>

#include <linux/if_link.h>

#define VXLAN_VNI 42
#define VXLAN_PORT 4789
#define VXLAN_OVERHEAD 50 /* outer IPv4 + UDP + VXLAN + Ethernet */

/* xp<pid><suffix>: at most 2 + 7 + 4 characters, under IFNAMSIZ. */
static const char *dev(const struct xp_lab_plan *p, const char *suffix, char *buf)
{
	snprintf(buf, XP_LAB_IFNAME, "%s%s", p->base, suffix);
	return buf;
}

static void up(struct xp_lab_plan *p, int ns, const char *name)
{
	xp_lab_step_add(p, XP_STEP_UP, ns, name);
}

static void addr(struct xp_lab_plan *p, int ns, const char *name, const char *a)
{
	snprintf(xp_lab_step_add(p, XP_STEP_ADDR, ns, name)->u.addr,
		 sizeof(((struct xp_lab_step *)0)->u.addr), "%s", a);
}

static struct xp_lab_link *link_add(struct xp_lab_plan *p, int ns, const char *name,
				    enum xp_lab_link_kind kind, uint32_t mtu)
{
	struct xp_lab_link *l = &xp_lab_step_add(p, XP_STEP_LINK, ns, name)->u.link;

	l->kind = kind;
	l->dest_ns = -1;
	l->peer_ns = -1;
	l->mtu = mtu;
	return l;
}

static void veth(struct xp_lab_plan *p, int ns, const char *name, int peer_ns,
		 const char *peer, uint32_t mtu)
{
	struct xp_lab_link *l = link_add(p, ns, name, XP_LINK_VETH, mtu);

	l->peer_ns = peer_ns;
	snprintf(l->peer, sizeof(l->peer), "%s", peer);
}

/* Addresses and "up" for both test ends, once their links exist. */
static void endpoints(struct xp_lab_plan *p, const char *cdev, const char *sdev)
{
	snprintf(p->client_dev, sizeof(p->client_dev), "%s", cdev);
	snprintf(p->server_dev, sizeof(p->server_dev), "%s", sdev);
	addr(p, p->client_ns, cdev, "10.231.0.1/24");
	addr(p, p->client_ns, cdev, "fd00:231::1/64");
	addr(p, p->server_ns, sdev, "10.231.0.2/24");
	addr(p, p->server_ns, sdev, "fd00:231::2/64");
	up(p, p->client_ns, cdev);
	up(p, p->server_ns, sdev);
}

static void build_veth(struct xp_lab_plan *p, uint32_t mtu)
{
	char a[XP_LAB_IFNAME], b[XP_LAB_IFNAME];

	veth(p, 0, dev(p, "a", a), 1, dev(p, "b", b), mtu);
	endpoints(p, a, b);
}

/* Each end's veth peer is a port of a Linux bridge in namespace c. */
static void build_bridge(struct xp_lab_plan *p, uint32_t mtu)
{
	char a[XP_LAB_IFNAME], b[XP_LAB_IFNAME], ca[XP_LAB_IFNAME], cb[XP_LAB_IFNAME];
	char br[XP_LAB_IFNAME];

	link_add(p, 2, dev(p, "br", br), XP_LINK_BRIDGE, mtu);
	veth(p, 0, dev(p, "a", a), 2, dev(p, "ca", ca), mtu);
	veth(p, 1, dev(p, "b", b), 2, dev(p, "cb", cb), mtu);
	snprintf(xp_lab_step_add(p, XP_STEP_MASTER, 2, ca)->u.master, XP_LAB_IFNAME, "%s", br);
	snprintf(xp_lab_step_add(p, XP_STEP_MASTER, 2, cb)->u.master, XP_LAB_IFNAME, "%s", br);
	up(p, 2, br);
	up(p, 2, ca);
	up(p, 2, cb);
	endpoints(p, a, b);
}

/* macvlan/ipvlan: both ends hang off one parent in namespace c, a veth
 * end (its peer is brought up too, so the parent has carrier). */
static void build_over_parent(struct xp_lab_plan *p, uint32_t mtu,
			      enum xp_lab_link_kind kind, int l3)
{
	char a[XP_LAB_IFNAME], b[XP_LAB_IFNAME], par[XP_LAB_IFNAME], q[XP_LAB_IFNAME];
	int i;

	veth(p, 2, dev(p, "p", par), 2, dev(p, "q", q), mtu);
	up(p, 2, par);
	up(p, 2, q);
	for (i = 0; i < 2; i++) {
		struct xp_lab_link *l = link_add(p, 2, dev(p, i ? "b" : "a", i ? b : a),
						 kind, mtu);

		l->dest_ns = i;
		l->l3 = l3;
		snprintf(l->parent, sizeof(l->parent), "%s", par);
	}
	endpoints(p, a, b);
}

static void build_macvlan(struct xp_lab_plan *p, uint32_t mtu)
{
	build_over_parent(p, mtu, XP_LINK_MACVLAN, 0);
}

static void build_ipvlan(struct xp_lab_plan *p, uint32_t mtu)
{
	build_over_parent(p, mtu, XP_LINK_IPVLAN, 0);
}

static void build_ipvlan_l3(struct xp_lab_plan *p, uint32_t mtu)
{
	build_over_parent(p, mtu, XP_LINK_IPVLAN, 1);
}

/* An overlay as Flannel builds it: a VXLAN device per end, unicast to the
 * other end's underlay address over a veth pair. */
static void build_vxlan(struct xp_lab_plan *p, uint32_t mtu)
{
	char a[XP_LAB_IFNAME], b[XP_LAB_IFNAME], ua[XP_LAB_IFNAME], ub[XP_LAB_IFNAME];
	static const char *const under[2] = { "10.232.0.1", "10.232.0.2" };
	int i;

	veth(p, 0, dev(p, "ua", ua), 1, dev(p, "ub", ub), mtu ? mtu + VXLAN_OVERHEAD : 0);
	addr(p, 0, ua, "10.232.0.1/24");
	addr(p, 1, ub, "10.232.0.2/24");
	up(p, 0, ua);
	up(p, 1, ub);
	for (i = 0; i < 2; i++) {
		struct xp_lab_link *l = link_add(p, i, dev(p, i ? "b" : "a", i ? b : a),
						 XP_LINK_VXLAN, mtu);

		l->vni = VXLAN_VNI;
		l->port = VXLAN_PORT;
		snprintf(l->parent, sizeof(l->parent), "%s", i ? ub : ua);
		snprintf(l->local, sizeof(l->local), "%s", under[i]);
		snprintf(l->remote, sizeof(l->remote), "%s", under[!i]);
	}
	endpoints(p, a, b);
}

static void sysctl(struct xp_lab_plan *p, int ns, const char *key, const char *value)
{
	struct xp_lab_step *s = xp_lab_step_add(p, XP_STEP_SYSCTL, ns, NULL);

	snprintf(s->u.sysctl.key, sizeof(s->u.sysctl.key), "%s", key);
	snprintf(s->u.sysctl.value, sizeof(s->u.sysctl.value), "%s", value);
}

/* The veth topology as a WAN path: each end's veth peer in namespace c,
 * whose inner ends carry no address (and, IPv6 off there, send nothing
 * of their own); with netem a bridge joins them, else the delay line. */
static void build_wan(struct xp_lab_plan *p, const struct xp_lab_knobs *k)
{
	char a[XP_LAB_IFNAME], b[XP_LAB_IFNAME], br[XP_LAB_IFNAME];
	char *ca = p->inner[0], *cb = p->inner[1];

	sysctl(p, 2, "net.ipv6.conf.all.disable_ipv6", "1");
	sysctl(p, 2, "net.ipv6.conf.default.disable_ipv6", "1");
	veth(p, 0, dev(p, "a", a), 2, dev(p, "ca", ca), k->mtu);
	veth(p, 1, dev(p, "b", b), 2, dev(p, "cb", cb), k->mtu);
	if (p->wan.with == XP_WAN_NETEM) {
		link_add(p, 2, dev(p, "br", br), XP_LINK_BRIDGE, k->mtu);
		snprintf(xp_lab_step_add(p, XP_STEP_MASTER, 2, ca)->u.master, XP_LAB_IFNAME,
			 "%s", br);
		snprintf(xp_lab_step_add(p, XP_STEP_MASTER, 2, cb)->u.master, XP_LAB_IFNAME,
			 "%s", br);
		up(p, 2, br);
	}
	up(p, 2, ca);
	up(p, 2, cb);
	endpoints(p, a, b);
}

/* Once every link is made and tuned: netem on each inner end's egress
 * (the one towards the server carries client-to-server traffic), or the
 * delay line between them. */
static void wan_steps(struct xp_lab_plan *p, const struct xp_lab_knobs *k)
{
	struct xp_lab_step *s;
	int d;

	if (p->wan.with == XP_WAN_NETEM) {
		for (d = 0; d < XP_WAN_DIRS; d++)
			xp_lab_step_add(p, XP_STEP_NETEM, 2, p->inner[!d])->u.netem = p->wan.d[d];
		return;
	}
	s = xp_lab_step_add(p, XP_STEP_LINE, 2, p->inner[0]);
	snprintf(s->u.line.peer, sizeof(s->u.line.peer), "%s", p->inner[1]);
	s->u.line.cpu = k->line_cpu;
}

static const struct xp_lab_topo topos[] = {
	{ "veth", "a veth pair straight between the two namespaces", build_veth },
	{ "bridge", "each end's veth on a Linux bridge in a third namespace", build_bridge },
	{ "macvlan", "two macvlans (bridge mode) on a veth parent in a third namespace",
	  build_macvlan },
	{ "ipvlan", "two ipvlans (L2 mode) on a veth parent in a third namespace",
	  build_ipvlan },
	{ "ipvlan-l3", "two ipvlans (L3 mode) on a veth parent in a third namespace",
	  build_ipvlan_l3 },
	{ "vxlan", "a VXLAN overlay (VNI 42, UDP 4789) across a veth underlay, as Flannel does",
	  build_vxlan },
	{ NULL, NULL, NULL },
};

const struct xp_lab_topo *xp_lab_topos(void)
{
	return topos;
}

const struct xp_lab_topo *xp_lab_topo_find(const char *name)
{
	const struct xp_lab_topo *t;

	for (t = topos; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

/* Namespaces: a (client), b (server), and c when the topology has a
 * middle.  Every namespace gets its loopback up. */
static void namespaces(struct xp_lab_plan *p, int n, unsigned id)
{
	int i;

	for (i = 0; i < n; i++) {
		snprintf(p->ns[i], sizeof(p->ns[i]), XP_LAB_PREFIX "%u-%c", id, 'a' + i);
		xp_lab_step_add(p, XP_STEP_NETNS, i, NULL);
	}
	p->nns = n;
	for (i = 0; i < n; i++)
		up(p, i, "lo");
}

static int middle(const struct xp_lab_topo *t)
{
	return t->build == build_bridge || t->build == build_macvlan ||
	       t->build == build_ipvlan || t->build == build_ipvlan_l3;
}

int xp_lab_plan_make(struct xp_lab_plan *p, const struct xp_lab_topo *t,
		     unsigned id, const struct xp_lab_knobs *k,
		     struct xp_err *err)
{
	memset(p, 0, sizeof(*p));
	p->topology = t->name;
	p->client_ns = 0;
	p->server_ns = 1;
	snprintf(p->base, sizeof(p->base), XP_LAB_IFPREFIX "%u", id);
	if (k->wan.on && t->build != build_veth)
		return xp_err_set(err, "%s: impairment (--delay, --loss ...) applies to the "
				  "veth topology only", t->name);
	if (k->wan.on && k->wan.with == XP_WAN_AUTO)
		return xp_err_set(err, "internal: netem or the delay line not chosen");
	p->wan = k->wan;
	namespaces(p, middle(t) || k->wan.on ? 3 : 2, id);
	xp_lab_knobs_early(p, k);
	if (k->wan.on)
		build_wan(p, k);
	else
		t->build(p, k->mtu);
	snprintf(p->client4, sizeof(p->client4), "10.231.0.1");
	snprintf(p->server4, sizeof(p->server4), "10.231.0.2");
	snprintf(p->client6, sizeof(p->client6), "fd00:231::1");
	snprintf(p->server6, sizeof(p->server6), "fd00:231::2");
	xp_lab_knobs_late(p, k);
	if (k->wan.on)
		wan_steps(p, k);
	if (p->overflow)
		return xp_err_set(err, "%s: internal: plan longer than %d steps",
				  t->name, XP_LAB_STEPS_MAX);
	return 0;
}

const char *xp_lab_link_kind_name(enum xp_lab_link_kind k)
{
	static const char *const names[] = { "veth", "bridge", "macvlan", "ipvlan", "vxlan" };

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

void xp_lab_topo_names(FILE *f)
{
	const struct xp_lab_topo *t;

	for (t = xp_lab_topos(); t->name; t++)
		fprintf(f, "%s%s", t == xp_lab_topos() ? "" : " ", t->name);
}
