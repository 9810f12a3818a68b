/* SPDX-License-Identifier: BSD-2-Clause */
#include "lab/rtnl.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#define PSCHED_NS_PER_TICK 64 /* the kernel's PSCHED_SHIFT is 6 */
#define HTB_HANDLE 0x10000u   /* 1: */
#define HTB_CLASS 0x10001u    /* 1:1 */

static void ifinfo(struct xp_nl_msg *m, uint16_t flags, int ifindex)
{
	struct ifinfomsg ifi;

	memset(&ifi, 0, sizeof(ifi));
	ifi.ifi_family = AF_UNSPEC;
	ifi.ifi_index = ifindex;
	xp_nl_init(m, RTM_NEWLINK, flags, &ifi, sizeof(ifi));
}

static void veth_peer(struct xp_nl_msg *m, const struct xp_lab_link *l, int peer_fd)
{
	struct ifinfomsg ifi;

	memset(&ifi, 0, sizeof(ifi));
	xp_nl_nest_open(m, VETH_INFO_PEER);
	xp_nl_put(m, &ifi, sizeof(ifi));
	xp_nl_attr_str(m, IFLA_IFNAME, l->peer);
	if (l->mtu)
		xp_nl_attr_u32(m, IFLA_MTU, l->mtu);
	if (peer_fd >= 0)
		xp_nl_attr_u32(m, IFLA_NET_NS_FD, (uint32_t)peer_fd);
	xp_nl_nest_close(m);
}

static int vxlan_data(struct xp_nl_msg *m, const struct xp_lab_link *l, int parent,
		      struct xp_err *err)
{
	struct in_addr local, remote;

	if (inet_pton(AF_INET, l->local, &local) != 1 ||
	    inet_pton(AF_INET, l->remote, &remote) != 1)
		return xp_err_set(err, "vxlan: bad underlay address '%s' or '%s'",
				  l->local, l->remote);
	xp_nl_attr_u32(m, IFLA_VXLAN_ID, l->vni);
	xp_nl_attr(m, IFLA_VXLAN_LOCAL, &local, sizeof(local));
	xp_nl_attr(m, IFLA_VXLAN_GROUP, &remote, sizeof(remote));
	if (parent)
		xp_nl_attr_u32(m, IFLA_VXLAN_LINK, (uint32_t)parent);
	xp_nl_attr_u16(m, IFLA_VXLAN_PORT, htons(l->port));
	return 0;
}

static int kind_data(struct xp_nl_msg *m, const struct xp_lab_link *l,
		     const struct xp_rtnl_ids *ids, struct xp_err *err)
{
	int rc = 0;

	if (l->kind == XP_LINK_BRIDGE)
		return 0;
	xp_nl_nest_open(m, IFLA_INFO_DATA);
	switch (l->kind) {
	case XP_LINK_VETH:
		veth_peer(m, l, ids->peer_fd);
		break;
	case XP_LINK_MACVLAN:
		xp_nl_attr_u32(m, IFLA_MACVLAN_MODE, MACVLAN_MODE_BRIDGE);
		break;
	case XP_LINK_IPVLAN:
		xp_nl_attr_u16(m, IFLA_IPVLAN_MODE, l->l3 ? IPVLAN_MODE_L3 : IPVLAN_MODE_L2);
		break;
	case XP_LINK_VXLAN:
		rc = vxlan_data(m, l, ids->parent, err);
		break;
	case XP_LINK_BRIDGE:
		break;
	}
	xp_nl_nest_close(m);
	return rc;
}

int xp_rtnl_link(struct xp_nl_msg *m, const struct xp_lab_step *s,
		 const struct xp_rtnl_ids *ids, struct xp_err *err)
{
	const struct xp_lab_link *l = &s->u.link;
	int rc;

	ifinfo(m, NLM_F_CREATE | NLM_F_EXCL, 0);
	xp_nl_attr_str(m, IFLA_IFNAME, s->dev);
	if (l->mtu)
		xp_nl_attr_u32(m, IFLA_MTU, l->mtu);
	if (ids->dest_fd >= 0)
		xp_nl_attr_u32(m, IFLA_NET_NS_FD, (uint32_t)ids->dest_fd);
	if (ids->parent && l->kind != XP_LINK_VXLAN)
		xp_nl_attr_u32(m, IFLA_LINK, (uint32_t)ids->parent);
	xp_nl_nest_open(m, IFLA_LINKINFO);
	xp_nl_attr_str(m, IFLA_INFO_KIND, xp_lab_link_kind_name(l->kind));
	rc = kind_data(m, l, ids, err);
	xp_nl_nest_close(m);
	return rc;
}

void xp_rtnl_set(struct xp_nl_msg *m, int ifindex, int up, int master)
{
	struct ifinfomsg ifi;

	memset(&ifi, 0, sizeof(ifi));
	ifi.ifi_family = AF_UNSPEC;
	ifi.ifi_index = ifindex;
	if (up) {
		ifi.ifi_flags = IFF_UP;
		ifi.ifi_change = IFF_UP;
	}
	xp_nl_init(m, RTM_NEWLINK, 0, &ifi, sizeof(ifi));
	if (master)
		xp_nl_attr_u32(m, IFLA_MASTER, (uint32_t)master);
}

int xp_rtnl_addr(struct xp_nl_msg *m, int ifindex, const char *cidr,
		 struct xp_err *err)
{
	struct ifaddrmsg ifa;
	unsigned char bin[16];
	char host[64];
	const char *slash = strchr(cidr, '/');
	char *end;
	long len;
	int v6 = strchr(cidr, ':') != NULL;

	if (!slash || (size_t)(slash - cidr) >= sizeof(host))
		return xp_err_set(err, "address '%s': no /prefix length", cidr);
	snprintf(host, sizeof(host), "%.*s", (int)(slash - cidr), cidr);
	len = strtol(slash + 1, &end, 10);
	if (*end || len < 0 || len > (v6 ? 128 : 32) ||
	    inet_pton(v6 ? AF_INET6 : AF_INET, host, bin) != 1)
		return xp_err_set(err, "bad address '%s'", cidr);
	memset(&ifa, 0, sizeof(ifa));
	ifa.ifa_family = v6 ? AF_INET6 : AF_INET;
	ifa.ifa_prefixlen = (unsigned char)len;
	ifa.ifa_flags = v6 ? IFA_F_NODAD : 0;
	ifa.ifa_index = (unsigned)ifindex;
	xp_nl_init(m, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL, &ifa, sizeof(ifa));
	xp_nl_attr(m, IFA_LOCAL, bin, v6 ? 16 : 4);
	xp_nl_attr(m, IFA_ADDRESS, bin, v6 ? 16 : 4);
	return 0;
}

static void tcmsg(struct xp_nl_msg *m, uint16_t type, int ifindex, uint32_t handle,
		  uint32_t parent)
{
	struct tcmsg t;

	memset(&t, 0, sizeof(t));
	t.tcm_family = AF_UNSPEC;
	t.tcm_ifindex = ifindex;
	t.tcm_handle = handle;
	t.tcm_parent = parent;
	xp_nl_init(m, type, NLM_F_CREATE | NLM_F_EXCL, &t, sizeof(t));
}

/* A rate spec the kernel uses without a rate table: linklayer ethernet
 * tells it to compute transmit times itself. */
static void ratespec(struct tc_ratespec *r, uint64_t bytes_s)
{
	memset(r, 0, sizeof(*r));
	r->rate = bytes_s >= UINT32_MAX ? UINT32_MAX : (uint32_t)bytes_s;
	r->linklayer = TC_LINKLAYER_ETHERNET;
}

/* Time to send bytes at bytes_s, in the kernel's scheduler ticks. */
static uint32_t ticks(uint64_t bytes, uint64_t bytes_s)
{
	uint64_t ns = bytes_s ? bytes * 1000000000ull / bytes_s : 0;
	uint64_t t = ns / PSCHED_NS_PER_TICK;

	return t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
}

static void tbf(struct xp_nl_msg *m, const struct xp_lab_qdisc_cfg *q)
{
	struct tc_tbf_qopt o;
	uint64_t bytes_s = q->rate_bps / 8;

	memset(&o, 0, sizeof(o));
	ratespec(&o.rate, bytes_s);
	o.limit = q->limit;
	o.buffer = ticks(q->burst, bytes_s);
	xp_nl_nest_open(m, TCA_OPTIONS);
	xp_nl_attr(m, TCA_TBF_PARMS, &o, sizeof(o));
	xp_nl_attr_u32(m, TCA_TBF_BURST, q->burst);
	if (bytes_s >= UINT32_MAX)
		xp_nl_attr_u64(m, TCA_TBF_RATE64, bytes_s);
	xp_nl_nest_close(m);
}

void xp_rtnl_qdisc(struct xp_nl_msg *m, int ifindex, const struct xp_lab_qdisc_cfg *q)
{
	struct tc_htb_glob g;

	tcmsg(m, RTM_NEWQDISC, ifindex, q->kind == XP_QDISC_HTB ? HTB_HANDLE : 0,
	      TC_H_ROOT);
	xp_nl_attr_str(m, TCA_KIND, q->kind == XP_QDISC_HTB ? "htb" : "tbf");
	if (q->kind == XP_QDISC_TBF) {
		tbf(m, q);
		return;
	}
	memset(&g, 0, sizeof(g));
	g.version = TC_HTB_PROTOVER;
	g.rate2quantum = 10;
	g.defcls = 1;
	xp_nl_nest_open(m, TCA_OPTIONS);
	xp_nl_attr(m, TCA_HTB_INIT, &g, sizeof(g));
	xp_nl_nest_close(m);
}

void xp_rtnl_htb_class(struct xp_nl_msg *m, int ifindex,
		       const struct xp_lab_qdisc_cfg *q)
{
	struct tc_htb_opt o;
	uint64_t bytes_s = q->rate_bps / 8;

	tcmsg(m, RTM_NEWTCLASS, ifindex, HTB_CLASS, HTB_HANDLE);
	xp_nl_attr_str(m, TCA_KIND, "htb");
	memset(&o, 0, sizeof(o));
	ratespec(&o.rate, bytes_s);
	ratespec(&o.ceil, bytes_s);
	o.buffer = ticks(q->burst, bytes_s);
	o.cbuffer = o.buffer;
	o.quantum = q->quantum;
	xp_nl_nest_open(m, TCA_OPTIONS);
	xp_nl_attr(m, TCA_HTB_PARMS, &o, sizeof(o));
	if (bytes_s >= UINT32_MAX) {
		xp_nl_attr_u64(m, TCA_HTB_RATE64, bytes_s);
		xp_nl_attr_u64(m, TCA_HTB_CEIL64, bytes_s);
	}
	xp_nl_nest_close(m);
}

static uint32_t prob32(double pct)
{
	return pct >= 100 ? UINT32_MAX : (uint32_t)(pct / 100.0 * (double)UINT32_MAX);
}

/* netem's options: its qopt struct, then attributes (not a nest). */
void xp_rtnl_netem(struct xp_nl_msg *m, int ifindex, const struct xp_wan_dir *d)
{
	struct tc_netem_qopt o;
	struct tc_netem_reorder r = { prob32(d->reorder.pct), 0 };
	struct tc_netem_rate rate;
	uint64_t bytes_s = d->rate_bps / 8;
	int64_t ns;

	tcmsg(m, RTM_NEWQDISC, ifindex, 0, TC_H_ROOT);
	xp_nl_attr_str(m, TCA_KIND, "netem");
	memset(&o, 0, sizeof(o));
	o.limit = xp_wan_netem_limit(d);
	o.loss = prob32(d->loss.pct);
	o.duplicate = prob32(d->duplicate.pct);
	o.gap = d->reorder.thr ? 1 : 0; /* as tc sets it: reorder every chosen one */
	xp_nl_nest_open(m, TCA_OPTIONS);
	xp_nl_put(m, &o, sizeof(o));
	ns = (int64_t)d->delay_ns;
	xp_nl_attr(m, TCA_NETEM_LATENCY64, &ns, sizeof(ns));
	ns = (int64_t)d->jitter_ns;
	xp_nl_attr(m, TCA_NETEM_JITTER64, &ns, sizeof(ns));
	if (d->reorder.thr)
		xp_nl_attr(m, TCA_NETEM_REORDER, &r, sizeof(r));
	if (bytes_s) {
		memset(&rate, 0, sizeof(rate));
		rate.rate = bytes_s >= UINT32_MAX ? UINT32_MAX : (uint32_t)bytes_s;
		xp_nl_attr(m, TCA_NETEM_RATE, &rate, sizeof(rate));
		if (bytes_s >= UINT32_MAX)
			xp_nl_attr_u64(m, TCA_NETEM_RATE64, bytes_s);
	}
	xp_nl_nest_close(m);
}
