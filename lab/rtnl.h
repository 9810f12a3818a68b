/* SPDX-License-Identifier: BSD-2-Clause */
/* rtnetlink requests for the lab's steps, built as messages (pure: no
 * socket, so unit tests can check them) and sent by lab/exec.c. */
#ifndef XP_LAB_RTNL_H
#define XP_LAB_RTNL_H

#include "common/err.h"
#include "lab/nl.h"
#include "lab/plan.h"

/* What a link request needs beyond the step: file descriptors of the
 * namespaces the new link (dest_fd) and a veth's peer (peer_fd) go to,
 * or -1, and the parent's ifindex (macvlan, ipvlan, vxlan) or 0. */
struct xp_rtnl_ids {
	int dest_fd, peer_fd;
	int parent;
};

/* RTM_NEWLINK creating s's link (NLM_F_CREATE|NLM_F_EXCL).  0, or -1 if
 * a vxlan address does not parse. */
int xp_rtnl_link(struct xp_nl_msg *m, const struct xp_lab_step *s,
		 const struct xp_rtnl_ids *ids, struct xp_err *err);
/* RTM_NEWLINK changing ifindex: up (IFF_UP) and/or master (ifindex, or
 * 0 to leave alone). */
void xp_rtnl_set(struct xp_nl_msg *m, int ifindex, int up, int master);
/* RTM_NEWADDR of "ADDR/LEN" (IPv4 or IPv6; IPv6 without DAD). 0 or -1. */
int xp_rtnl_addr(struct xp_nl_msg *m, int ifindex, const char *cidr,
		 struct xp_err *err);
/* Root qdisc of q's kind on ifindex (tbf: the whole shaper; htb: the
 * qdisc, handle 1:, default class 1). */
void xp_rtnl_qdisc(struct xp_nl_msg *m, int ifindex, const struct xp_lab_qdisc_cfg *q);
/* htb only: class 1:1 at the rate. */
void xp_rtnl_htb_class(struct xp_nl_msg *m, int ifindex,
		       const struct xp_lab_qdisc_cfg *q);
/* Root netem qdisc on ifindex with direction d's impairment (delay and
 * jitter in ns, loss, duplicate and reorder as fractions of 2^32, the
 * rate in bytes/s, the limit in packets). */
void xp_rtnl_netem(struct xp_nl_msg *m, int ifindex, const struct xp_wan_dir *d);

#endif
