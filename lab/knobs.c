/* SPDX-License-Identifier: BSD-2-Clause */
/* Knobs as plan steps: sysctls in both end namespaces, offloads on every
 * link the lab made but a bridge itself, RPS/XPS masks on every veth end, and the egress
 * rate limit on both test devices (so both directions are shaped). */
#include "lab/plan.h"

#include <stdio.h>
#include <string.h>

#define ETH_HDR 14
#define DEFAULT_MTU 1500
#define HTB_QUANTUM_MAX 200000 /* the kernel warns above this */

void xp_lab_knobs_early(struct xp_lab_plan *p, const struct xp_lab_knobs *k)
{
	int i, side;

	for (side = 0; side < 2; side++)
		for (i = 0; i < k->nsysctl; i++) {
			int ns = side ? p->server_ns : p->client_ns;
			struct xp_lab_step *s = xp_lab_step_add(p, XP_STEP_SYSCTL, ns, NULL);
			const char *eq = strchr(k->sysctl[i], '=');
			size_t klen = eq ? (size_t)(eq - k->sysctl[i]) : strlen(k->sysctl[i]);

			snprintf(s->u.sysctl.key, sizeof(s->u.sysctl.key), "%.*s",
				 (int)klen, k->sysctl[i]);
			snprintf(s->u.sysctl.value, sizeof(s->u.sysctl.value), "%s",
				 eq ? eq + 1 : "");
		}
}

static void offloads(struct xp_lab_plan *p, int ns, const char *dev,
		     const struct xp_lab_knobs *k)
{
	int f;

	for (f = 0; f < XP_OFF_COUNT; f++) {
		struct xp_lab_step *s;

		if (k->offload[f] < 0)
			continue;
		s = xp_lab_step_add(p, XP_STEP_OFFLOAD, ns, dev);
		s->u.offload.feature = (enum xp_lab_offload)f;
		s->u.offload.on = k->offload[f];
	}
}

static void queues(struct xp_lab_plan *p, int ns, const char *dev,
		   const struct xp_lab_knobs *k)
{
	int tx;

	for (tx = 0; tx < 2; tx++) {
		const char *mask = tx ? k->xps : k->rps;
		struct xp_lab_step *s;

		if (!mask)
			continue;
		s = xp_lab_step_add(p, XP_STEP_QUEUES, ns, dev);
		s->u.queues.tx = tx;
		snprintf(s->u.queues.mask, sizeof(s->u.queues.mask), "%s", mask);
	}
}

static uint32_t clamp32(uint64_t v, uint64_t lo, uint64_t hi)
{
	return (uint32_t)(v < lo ? lo : v > hi ? hi : v);
}

/* Burst: 10 ms at the rate, at least two full frames and 16 KiB; tbf
 * queues another 50 ms at most. */
static void qdisc(struct xp_lab_plan *p, int ns, const char *dev,
		  const struct xp_lab_knobs *k)
{
	struct xp_lab_step *s = xp_lab_step_add(p, XP_STEP_QDISC, ns, dev);
	struct xp_lab_qdisc_cfg *q = &s->u.qdisc;
	uint64_t bytes_s = k->rate_bps / 8;
	uint64_t frame = (k->mtu ? k->mtu : DEFAULT_MTU) + ETH_HDR;
	uint64_t floor = 2 * frame > 16384 ? 2 * frame : 16384;

	q->kind = k->qdisc;
	q->rate_bps = k->rate_bps;
	q->burst = clamp32(bytes_s / 100, floor, UINT32_MAX / 2);
	q->limit = clamp32((uint64_t)q->burst + bytes_s / 20, 0, UINT32_MAX);
	q->quantum = clamp32(bytes_s / 10, frame, HTB_QUANTUM_MAX);
}

void xp_lab_knobs_late(struct xp_lab_plan *p, const struct xp_lab_knobs *k)
{
	int i, n = p->nsteps;

	for (i = 0; i < n; i++) {
		const struct xp_lab_step *s = &p->step[i];
		const struct xp_lab_link *l = &s->u.link;
		char dev[XP_LAB_IFNAME];
		int ns;

		if (s->kind != XP_STEP_LINK)
			continue;
		ns = l->dest_ns >= 0 ? l->dest_ns : s->ns;
		snprintf(dev, sizeof(dev), "%s", s->dev);
		/* Bridged frames never meet the bridge device's own features. */
		if (l->kind != XP_LINK_BRIDGE)
			offloads(p, ns, dev, k);
		if (l->kind == XP_LINK_VETH) {
			char peer[XP_LAB_IFNAME];

			snprintf(peer, sizeof(peer), "%s", l->peer);
			offloads(p, l->peer_ns, peer, k);
			queues(p, ns, dev, k);
			queues(p, l->peer_ns, peer, k);
		}
	}
	if (k->rate_bps) {
		qdisc(p, p->client_ns, p->client_dev, k);
		qdisc(p, p->server_ns, p->server_dev, k);
	}
}

const char *xp_lab_offload_name(enum xp_lab_offload f)
{
	static const char *const names[] = { "gro", "gso", "tso", "tx", "rx" };

	return (unsigned)f < XP_OFF_COUNT ? names[f] : "?";
}
