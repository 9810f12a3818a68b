/* SPDX-License-Identifier: BSD-2-Clause */
/* A lab set-up as data: the list of steps that build one topology with
 * its knobs.  The same plan is executed through rtnetlink (lab/exec.c)
 * and rendered as equivalent ip/tc/sysctl commands for --dry-run
 * (lab/render.c), so the two cannot drift apart.
 *
 * Everything a plan creates lives inside the namespaces it creates: veth
 * ends and macvlans are created directly in (or moved at creation into)
 * their namespace, so nothing is ever added to the root namespace and
 * deleting the namespaces removes every link. */
#ifndef XP_LAB_PLAN_H
#define XP_LAB_PLAN_H

#include <stdint.h>

#include "common/err.h"
#include "lab/wan/impair.h"

#define XP_LAB_NS_MAX 3
#define XP_LAB_STEPS_MAX 160
#define XP_LAB_NSNAME 32
#define XP_LAB_IFNAME 16  /* IFNAMSIZ */
#define XP_LAB_SYSCTL_MAX 16
#define XP_LAB_PREFIX "xperf-"  /* namespace names: xperf-<pid>-<letter> */
#define XP_LAB_IFPREFIX "xp"    /* link names: xp<pid><suffix> */

enum xp_lab_step_kind {
	XP_STEP_NETNS,   /* ip netns add NAME */
	XP_STEP_LINK,    /* ip link add ... */
	XP_STEP_MASTER,  /* ip link set DEV master BRIDGE */
	XP_STEP_ADDR,    /* ip addr add ADDR/LEN dev DEV */
	XP_STEP_UP,      /* ip link set DEV up */
	XP_STEP_SYSCTL,  /* sysctl -w KEY=VALUE */
	XP_STEP_QUEUES,  /* every rx queue's rps_cpus or tx queue's xps_cpus */
	XP_STEP_OFFLOAD, /* ethtool -K DEV FEATURE on|off */
	XP_STEP_QDISC,   /* tc qdisc (and class, for htb) on DEV's egress */
	XP_STEP_NETEM,   /* tc qdisc add dev DEV root netem ... */
	XP_STEP_LINE,    /* xperf's delay line between DEV and u.line.peer */
};

enum xp_lab_link_kind {
	XP_LINK_VETH, XP_LINK_BRIDGE, XP_LINK_MACVLAN, XP_LINK_IPVLAN,
	XP_LINK_VXLAN,
};

enum xp_lab_offload {
	XP_OFF_GRO, XP_OFF_GSO, XP_OFF_TSO, XP_OFF_TXCSUM, XP_OFF_RXCSUM,
	XP_OFF_COUNT
};

enum xp_lab_qdisc { XP_QDISC_TBF, XP_QDISC_HTB };

struct xp_lab_link {
	enum xp_lab_link_kind kind;
	int dest_ns;                 /* -1, or the namespace it is created in */
	char peer[XP_LAB_IFNAME];    /* veth: the other end ... */
	int peer_ns;                 /* ... and its namespace */
	char parent[XP_LAB_IFNAME];  /* macvlan/ipvlan lower, vxlan underlay */
	uint32_t mtu;                /* 0: kernel default (veth: both ends) */
	int l3;                      /* ipvlan: L3 mode instead of L2 */
	uint32_t vni;                /* vxlan */
	uint16_t port;               /* vxlan UDP destination port */
	char local[16], remote[16];  /* vxlan underlay IPv4 addresses */
};

struct xp_lab_qdisc_cfg {
	enum xp_lab_qdisc kind;
	uint64_t rate_bps;  /* bits per second */
	uint32_t burst;     /* bytes */
	uint32_t limit;     /* tbf: bytes queued at most */
	uint32_t quantum;   /* htb: bytes per round */
};

struct xp_lab_step {
	enum xp_lab_step_kind kind;
	int ns;                      /* namespace the step runs in */
	char dev[XP_LAB_IFNAME];     /* device created or acted on */
	union {
		struct xp_lab_link link;
		char master[XP_LAB_IFNAME];
		char addr[48];       /* "10.231.0.1/24", "fd00:231::1/64" */
		struct { char key[96], value[160]; } sysctl;
		struct { int tx; char mask[72]; } queues;
		struct { enum xp_lab_offload feature; int on; } offload;
		struct xp_lab_qdisc_cfg qdisc;
		struct xp_wan_dir netem;
		struct { char peer[XP_LAB_IFNAME]; int cpu; } line; /* dev faces the client */
	} u;
};

struct xp_lab_plan {
	const char *topology;
	char ns[XP_LAB_NS_MAX][XP_LAB_NSNAME];
	int nns;
	char base[10];               /* "xp<id>": every link name starts so */
	struct xp_lab_step step[XP_LAB_STEPS_MAX + 1]; /* last: overflow sink */
	int nsteps;
	int overflow;                /* a builder ran out of room */
	/* Where the test runs: client in client_ns, server in server_ns. */
	int client_ns, server_ns;
	char client_dev[XP_LAB_IFNAME], server_dev[XP_LAB_IFNAME];
	char client4[16], server4[16], client6[48], server6[48];
	/* A WAN path: the impairment (wan.with is netem or line here) and the
	 * middle namespace's two inner ends, [0] facing the client. */
	struct xp_wan wan;
	char inner[2][XP_LAB_IFNAME];
};

/* The knobs a user can turn, validated by the lab's option parser. */
struct xp_lab_knobs {
	uint32_t mtu;                  /* 0: kernel default */
	const char *rps, *xps;         /* hex CPU masks, or NULL */
	int offload[XP_OFF_COUNT];     /* -1 leave alone, 0 off, 1 on */
	enum xp_lab_qdisc qdisc;
	uint64_t rate_bps;             /* 0: no rate limit */
	const char *sysctl[XP_LAB_SYSCTL_MAX]; /* "net.x.y=value" */
	int nsysctl;
	/* Impairment (wan.on): the veth topology becomes a WAN path, its two
	 * ends joined through a middle namespace where netem or xperf's delay
	 * line (wan.with; auto is resolved before a plan is made) holds the
	 * frames.  line_cpu: the line's CPU, -1 unpinned. */
	struct xp_wan wan;
	int line_cpu;
};

struct xp_lab_topo {
	const char *name;
	const char *what;              /* one line for --help and the man page */
	void (*build)(struct xp_lab_plan *p, uint32_t mtu);
};

/* The topology called name, or NULL. */
const struct xp_lab_topo *xp_lab_topo_find(const char *name);
/* All topologies, NULL-terminated by name. */
const struct xp_lab_topo *xp_lab_topos(void);

/* Build the plan of topology t for run id (the process id: names are
 * xperf-<id>-a... and xp<id>a...), then append the knobs.  0 or -1. */
int xp_lab_plan_make(struct xp_lab_plan *p, const struct xp_lab_topo *t,
		     unsigned id, const struct xp_lab_knobs *k,
		     struct xp_err *err);

/* For the builders (lab/topo.c, lab/knobs.c): append a zeroed step. */
struct xp_lab_step *xp_lab_step_add(struct xp_lab_plan *p,
				    enum xp_lab_step_kind kind, int ns,
				    const char *dev);
/* Append the steps that turn the knobs k: sysctls right after the
 * namespaces exist (so "default" settings reach the new links), the rest
 * once the links are up. */
void xp_lab_knobs_early(struct xp_lab_plan *p, const struct xp_lab_knobs *k);
void xp_lab_knobs_late(struct xp_lab_plan *p, const struct xp_lab_knobs *k);

/* Name of an offload for ethtool -K and for --offload ("gro", "tx" ...). */
const char *xp_lab_offload_name(enum xp_lab_offload f);
const char *xp_lab_link_kind_name(enum xp_lab_link_kind k);

#endif
