/* SPDX-License-Identifier: BSD-2-Clause */
/* --dry-run: the plan as the ip, tc, ethtool and sysctl commands that do
 * the same by hand.  Pure text; nothing is touched. */
#include "lab/render.h"

#include <string.h>

/* Shell word: as is when safe, else single-quoted. */
static void word(FILE *f, const char *s)
{
	const char *safe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			   "0123456789_.,:/=+-@%";

	if (*s && strspn(s, safe) == strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

static void mtu(FILE *f, uint32_t m)
{
	if (m)
		fprintf(f, " mtu %u", m);
}

static void link_kind(FILE *f, const struct xp_lab_plan *p, const struct xp_lab_link *l)
{
	fprintf(f, " type %s", xp_lab_link_kind_name(l->kind));
	switch (l->kind) {
	case XP_LINK_VETH:
		fprintf(f, " peer name %s", l->peer);
		mtu(f, l->mtu);
		fprintf(f, " netns %s", p->ns[l->peer_ns]);
		break;
	case XP_LINK_MACVLAN:
		fputs(" mode bridge", f);
		break;
	case XP_LINK_IPVLAN:
		fprintf(f, " mode %s", l->l3 ? "l3" : "l2");
		break;
	case XP_LINK_VXLAN:
		fprintf(f, " id %u local %s remote %s dev %s dstport %u", l->vni,
			l->local, l->remote, l->parent, l->port);
		break;
	case XP_LINK_BRIDGE:
		break;
	}
}

static void link_add(FILE *f, const struct xp_lab_plan *p, const struct xp_lab_step *s)
{
	const struct xp_lab_link *l = &s->u.link;

	fprintf(f, "ip -n %s link add", p->ns[s->ns]);
	if (l->parent[0] && l->kind != XP_LINK_VXLAN)
		fprintf(f, " link %s", l->parent);
	fprintf(f, " name %s", s->dev);
	mtu(f, l->mtu);
	if (l->dest_ns >= 0)
		fprintf(f, " netns %s", p->ns[l->dest_ns]);
	link_kind(f, p, l);
}

static void qdisc(FILE *f, const char *ns, const char *dev,
		  const struct xp_lab_qdisc_cfg *q)
{
	unsigned long long r = (unsigned long long)q->rate_bps;

	if (q->kind == XP_QDISC_TBF) {
		fprintf(f, "ip netns exec %s tc qdisc add dev %s root tbf rate %llubit "
			"burst %u limit %u", ns, dev, r, q->burst, q->limit);
		return;
	}
	fprintf(f, "ip netns exec %s tc qdisc add dev %s root handle 1: htb default 1\n",
		ns, dev);
	fprintf(f, "ip netns exec %s tc class add dev %s parent 1: classid 1:1 htb "
		"rate %llubit ceil %llubit burst %u cburst %u quantum %u", ns, dev,
		r, r, q->burst, q->burst, q->quantum);
}

/* tc's words for one direction's netem qdisc. */
static void netem(FILE *f, const char *ns, const char *dev, const struct xp_wan_dir *d)
{
	fprintf(f, "ip netns exec %s tc qdisc add dev %s root netem limit %u delay %gms",
		ns, dev, xp_wan_netem_limit(d), (double)d->delay_ns / 1e6);
	if (d->jitter_ns)
		fprintf(f, " %gms", (double)d->jitter_ns / 1e6);
	if (d->loss.thr)
		fprintf(f, " loss %g%%", d->loss.pct);
	if (d->duplicate.thr)
		fprintf(f, " duplicate %g%%", d->duplicate.pct);
	if (d->reorder.thr)
		fprintf(f, " reorder %g%%", d->reorder.pct);
	if (d->rate_bps)
		fprintf(f, " rate %llubit", (unsigned long long)d->rate_bps);
}

/* The delay line is no command: say what it does, and what netem would. */
static void line(FILE *f, const struct xp_lab_plan *p, const struct xp_lab_step *s)
{
	const char *ns = p->ns[s->ns];
	int d;

	fprintf(f, "# xperf's delay line (no command does this): a thread in %s", ns);
	if (s->u.line.cpu >= 0)
		fprintf(f, " on CPU %d", s->u.line.cpu);
	fprintf(f, " moves every frame between %s and %s\n", s->dev, s->u.line.peer);
	fprintf(f, "# and holds it as these netem qdiscs would (limit in bytes: %llu and %llu),\n"
		   "# which on a kernel with netem replace it, with a bridge joining the two:\n",
		(unsigned long long)p->wan.d[0].limit_bytes,
		(unsigned long long)p->wan.d[1].limit_bytes);
	fprintf(f, "#   ip -n %s link add name %sbr type bridge\n", ns, p->base);
	fprintf(f, "#   ip -n %s link set %s master %sbr\n", ns, s->dev, p->base);
	fprintf(f, "#   ip -n %s link set %s master %sbr\n", ns, s->u.line.peer, p->base);
	fprintf(f, "#   ip -n %s link set %sbr up\n", ns, p->base);
	for (d = 0; d < XP_WAN_DIRS; d++) {
		fputs("#   ", f);
		netem(f, ns, d == XP_WAN_C2S ? s->u.line.peer : s->dev, &p->wan.d[d]);
		fputs(d == XP_WAN_C2S ? "  # client to server\n" : "  # server to client", f);
	}
}

static void sysctl(FILE *f, const char *ns, const struct xp_lab_step *s)
{
	char kv[sizeof(s->u.sysctl.key) + sizeof(s->u.sysctl.value) + 2];

	snprintf(kv, sizeof(kv), "%s=%s", s->u.sysctl.key, s->u.sysctl.value);
	fprintf(f, "ip netns exec %s sysctl -q -w ", ns);
	word(f, kv);
}

void xp_lab_render_step(FILE *f, const struct xp_lab_plan *p,
			const struct xp_lab_step *s)
{
	const char *ns = p->ns[s->ns];

	switch (s->kind) {
	case XP_STEP_NETNS:
		fprintf(f, "ip netns add %s", ns);
		break;
	case XP_STEP_LINK:
		link_add(f, p, s);
		break;
	case XP_STEP_MASTER:
		fprintf(f, "ip -n %s link set %s master %s", ns, s->dev, s->u.master);
		break;
	case XP_STEP_ADDR:
		fprintf(f, "ip -n %s addr add %s dev %s%s", ns, s->u.addr, s->dev,
			strchr(s->u.addr, ':') ? " nodad" : "");
		break;
	case XP_STEP_UP:
		fprintf(f, "ip -n %s link set %s up", ns, s->dev);
		break;
	case XP_STEP_SYSCTL:
		sysctl(f, ns, s);
		break;
	case XP_STEP_QUEUES:
		fprintf(f, "ip netns exec %s sh -c 'for q in /sys/class/net/%s/queues/%s-*; "
			"do echo %s > $q/%s; done'", ns, s->dev, s->u.queues.tx ? "tx" : "rx",
			s->u.queues.mask, s->u.queues.tx ? "xps_cpus" : "rps_cpus");
		break;
	case XP_STEP_OFFLOAD:
		fprintf(f, "ip netns exec %s ethtool -K %s %s %s", ns, s->dev,
			xp_lab_offload_name(s->u.offload.feature),
			s->u.offload.on ? "on" : "off");
		break;
	case XP_STEP_QDISC:
		qdisc(f, ns, s->dev, &s->u.qdisc);
		break;
	case XP_STEP_NETEM:
		netem(f, ns, s->dev, &s->u.netem);
		fputs(strcmp(s->dev, p->inner[1]) ? "  # server to client" : "  # client to server",
		      f);
		break;
	case XP_STEP_LINE:
		line(f, p, s);
		break;
	}
	fputc('\n', f);
}

void xp_lab_render(FILE *f, const struct xp_lab_plan *p, const char *what,
		   const char *test_args)
{
	int i;

	fprintf(f, "# xperf lab --dry-run, topology %s: %s\n", p->topology, what);
	fprintf(f, "# as root; every name is unique to this run (xperf lab --cleanup "
		"removes them)\n");
	for (i = 0; i < p->nsteps; i++)
		xp_lab_render_step(f, p, &p->step[i]);
	fprintf(f, "# the test: server in %s, client in %s\n", p->ns[p->server_ns],
		p->ns[p->client_ns]);
	fprintf(f, "#   ip netns exec %s xperf -s -B %s &\n", p->ns[p->server_ns], p->server4);
	fprintf(f, "#   ip netns exec %s xperf -c %s%s%s\n", p->ns[p->client_ns], p->server4,
		test_args && *test_args ? " " : "", test_args ? test_args : "");
	fprintf(f, "# teardown (deleting a namespace deletes the links in it):\n");
	for (i = p->nns - 1; i >= 0; i--)
		fprintf(f, "#   ip netns del %s\n", p->ns[i]);
}

void xp_lab_shell_word(FILE *f, const char *s)
{
	word(f, s);
}
