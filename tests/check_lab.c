/* SPDX-License-Identifier: BSD-2-Clause */
/* xperf lab's pure parts: the netlink message builder and ack parser,
 * rtnetlink request layout (netem's too), topology plans (the WAN path's
 * too), --dry-run rendering and the lab's option parsing. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "common/clock.h"
#include "lab/dev.h"
#include "lab/nl.h"
#include "lab/opts.h"
#include "lab/plan.h"
#include "lab/render.h"
#include "lab/rtnl.h"
#include "proto/msg.h"
#include "common/tests.h"

/* The attribute of type t among those in [p, p + len), or NULL. */
static const struct nlattr *find_attr(const uint8_t *p, size_t len, uint16_t t)
{
	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)(const void *)p;

		ck_assert_uint_ge(a->nla_len, NLA_HDRLEN);
		ck_assert_uint_le(a->nla_len, len);
		if ((a->nla_type & NLA_TYPE_MASK) == t)
			return a;
		if ((size_t)NLA_ALIGN(a->nla_len) >= len)
			break;
		len -= NLA_ALIGN(a->nla_len);
		p += NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

static const uint8_t *payload(const struct nlattr *a)
{
	return (const uint8_t *)a + NLA_HDRLEN;
}

static size_t plen(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

START_TEST(nl_builder_layout)
{
	struct xp_nl_msg m;
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 7 };
	const struct nlmsghdr *h;
	const struct nlattr *a, *n;
	const uint8_t *attrs;
	size_t len;

	xp_nl_init(&m, RTM_NEWLINK, NLM_F_CREATE, &ifi, sizeof(ifi));
	xp_nl_attr_str(&m, IFLA_IFNAME, "abc");      /* 4+4 bytes */
	xp_nl_nest_open(&m, IFLA_LINKINFO);
	xp_nl_attr_u32(&m, IFLA_MTU, 9000);
	xp_nl_attr_u8(&m, IFLA_CARRIER, 1);          /* padded to 8 */
	xp_nl_nest_close(&m);
	h = xp_nl_data(&m, &len);
	ck_assert_int_eq(m.overflow, 0);
	ck_assert_uint_eq(len, NLMSG_HDRLEN + sizeof(ifi) + 8 + 4 + 8 + 8);
	ck_assert_uint_eq(h->nlmsg_len, len);
	ck_assert_uint_eq(h->nlmsg_type, RTM_NEWLINK);
	ck_assert_uint_eq(h->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE);
	attrs = (const uint8_t *)h + NLMSG_HDRLEN + sizeof(ifi);
	a = find_attr(attrs, len - NLMSG_HDRLEN - sizeof(ifi), IFLA_IFNAME);
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq((const char *)payload(a), "abc");
	n = find_attr(attrs, len - NLMSG_HDRLEN - sizeof(ifi), IFLA_LINKINFO);
	ck_assert_ptr_nonnull(n);
	ck_assert(n->nla_type & NLA_F_NESTED);
	ck_assert_uint_eq(n->nla_len, 4 + 8 + 8);
	a = find_attr(payload(n), plen(n), IFLA_MTU);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(*(const uint32_t *)(const void *)payload(a), 9000);
}
END_TEST

START_TEST(nl_builder_overflow)
{
	static char big[XP_NL_BUF];
	struct xp_nl_msg m;
	struct xp_err e;
	uint32_t seq = 0;

	memset(big, 'x', sizeof(big) - 1);
	xp_nl_init(&m, RTM_NEWLINK, 0, NULL, 0);
	xp_nl_attr_str(&m, IFLA_IFNAME, big);
	ck_assert_int_eq(m.overflow, 1);
	/* Never sent: fails before touching the (invalid) socket. */
	ck_assert_int_eq(xp_nl_talk(-1, &m, &seq, "big", &e), -1);
	ck_assert_int_eq(errno, EMSGSIZE);
	xp_nl_init(&m, RTM_NEWLINK, 0, NULL, 0);
	xp_nl_nest_close(&m);
	ck_assert_int_eq(m.overflow, 1);
}
END_TEST

/* An NLMSG_ERROR as the kernel sends it, capped or with the request echoed,
 * with or without the extended-ack message. */
static size_t make_ack(uint8_t *buf, uint32_t seq, int error, int capped, const char *ext)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(void *)buf;
	struct nlmsgerr *e = (struct nlmsgerr *)(void *)(buf + NLMSG_HDRLEN);
	size_t off = NLMSG_HDRLEN + sizeof(*e);

	memset(buf, 0, 512);
	h->nlmsg_type = NLMSG_ERROR;
	h->nlmsg_seq = seq;
	e->error = -error;
	e->msg.nlmsg_len = NLMSG_HDRLEN + 16; /* the request had 16 bytes of body */
	e->msg.nlmsg_seq = seq;
	if (!capped)
		off += 16;
	else
		h->nlmsg_flags |= NLM_F_CAPPED;
	if (ext) {
		struct nlattr *a = (struct nlattr *)(void *)(buf + off);

		h->nlmsg_flags |= NLM_F_ACK_TLVS;
		a->nla_type = NLMSGERR_ATTR_MSG;
		a->nla_len = (uint16_t)(NLA_HDRLEN + strlen(ext) + 1);
		memcpy(buf + off + NLA_HDRLEN, ext, strlen(ext) + 1);
		off += NLA_ALIGN(a->nla_len);
	}
	h->nlmsg_len = (uint32_t)off;
	return off;
}

START_TEST(nl_ack_parse)
{
	uint8_t buf[1024] __attribute__((aligned(4)));
	char ext[64];
	int error = -1;
	size_t n;

	n = make_ack(buf, 5, EOPNOTSUPP, 1, "Unknown device type");
	ck_assert_int_eq(xp_nl_parse_ack(buf, n, 5, &error, ext, sizeof(ext)), 1);
	ck_assert_int_eq(error, EOPNOTSUPP);
	ck_assert_str_eq(ext, "Unknown device type");
	n = make_ack(buf, 6, ENOENT, 0, "Specified qdisc kind is unknown");
	ck_assert_int_eq(xp_nl_parse_ack(buf, n, 6, &error, ext, sizeof(ext)), 1);
	ck_assert_int_eq(error, ENOENT);
	ck_assert_str_eq(ext, "Specified qdisc kind is unknown");
	n = make_ack(buf, 7, 0, 1, NULL);
	ck_assert_int_eq(xp_nl_parse_ack(buf, n, 7, &error, ext, sizeof(ext)), 1);
	ck_assert_int_eq(error, 0);
	ck_assert_str_eq(ext, "");
	/* another request's ack, a short extended buffer, junk */
	ck_assert_int_eq(xp_nl_parse_ack(buf, n, 8, &error, ext, sizeof(ext)), 0);
	n = make_ack(buf, 9, EEXIST, 1, "File exists here");
	ck_assert_int_eq(xp_nl_parse_ack(buf, n, 9, &error, ext, 5), 1);
	ck_assert_str_eq(ext, "File");
	((struct nlmsghdr *)(void *)buf)->nlmsg_len = 4000;
	ck_assert_int_eq(xp_nl_parse_ack(buf, n, 9, &error, ext, sizeof(ext)), -1);
}
END_TEST

START_TEST(rtnl_veth_request)
{
	struct xp_lab_step s;
	struct xp_rtnl_ids ids = { -1, 17, 0 };
	struct xp_nl_msg m;
	struct xp_err e;
	const struct nlattr *info, *data, *peer, *a;
	const uint8_t *attrs;
	size_t len, alen;
	const struct nlmsghdr *h;

	memset(&s, 0, sizeof(s));
	s.kind = XP_STEP_LINK;
	snprintf(s.dev, sizeof(s.dev), "xp1a");
	s.u.link.kind = XP_LINK_VETH;
	s.u.link.dest_ns = -1;
	s.u.link.peer_ns = 1;
	s.u.link.mtu = 9000;
	snprintf(s.u.link.peer, sizeof(s.u.link.peer), "xp1b");
	ck_assert_int_eq(xp_rtnl_link(&m, &s, &ids, &e), 0);
	h = xp_nl_data(&m, &len);
	ck_assert_uint_eq(h->nlmsg_flags & (NLM_F_CREATE | NLM_F_EXCL), NLM_F_CREATE | NLM_F_EXCL);
	attrs = (const uint8_t *)h + NLMSG_HDRLEN + sizeof(struct ifinfomsg);
	alen = len - NLMSG_HDRLEN - sizeof(struct ifinfomsg);
	ck_assert_ptr_null(find_attr(attrs, alen, IFLA_NET_NS_FD));
	info = find_attr(attrs, alen, IFLA_LINKINFO);
	ck_assert_ptr_nonnull(info);
	a = find_attr(payload(info), plen(info), IFLA_INFO_KIND);
	ck_assert_str_eq((const char *)payload(a), "veth");
	data = find_attr(payload(info), plen(info), IFLA_INFO_DATA);
	peer = find_attr(payload(data), plen(data), VETH_INFO_PEER);
	ck_assert_ptr_nonnull(peer);
	/* the peer carries its own ifinfomsg before its attributes */
	attrs = payload(peer) + sizeof(struct ifinfomsg);
	alen = plen(peer) - sizeof(struct ifinfomsg);
	ck_assert_str_eq((const char *)payload(find_attr(attrs, alen, IFLA_IFNAME)), "xp1b");
	ck_assert_uint_eq(*(const uint32_t *)(const void *)payload(find_attr(attrs, alen,
			  IFLA_NET_NS_FD)), 17);
	ck_assert_uint_eq(*(const uint32_t *)(const void *)payload(find_attr(attrs, alen,
			  IFLA_MTU)), 9000);
}
END_TEST

START_TEST(rtnl_addr)
{
	struct xp_nl_msg m;
	struct xp_err e;

	ck_assert_int_eq(xp_rtnl_addr(&m, 3, "10.231.0.1/24", &e), 0);
	ck_assert_int_eq(xp_rtnl_addr(&m, 3, "fd00:231::1/64", &e), 0);
	ck_assert_int_eq(xp_rtnl_addr(&m, 3, "10.231.0.1", &e), -1);
	ck_assert_int_eq(xp_rtnl_addr(&m, 3, "10.231.0.1/33", &e), -1);
	ck_assert_int_eq(xp_rtnl_addr(&m, 3, "10.231.0/24", &e), -1);
}
END_TEST

static struct xp_lab_knobs no_knobs(void)
{
	struct xp_lab_knobs k;
	int f;

	memset(&k, 0, sizeof(k));
	for (f = 0; f < XP_OFF_COUNT; f++)
		k.offload[f] = -1;
	return k;
}

static const char veth_dry_run[] =
	"ip netns add xperf-1234-a\n"
	"ip netns add xperf-1234-b\n"
	"ip -n xperf-1234-a link set lo up\n"
	"ip -n xperf-1234-b link set lo up\n"
	"ip -n xperf-1234-a link add name xp1234a type veth peer name xp1234b netns xperf-1234-b\n"
	"ip -n xperf-1234-a addr add 10.231.0.1/24 dev xp1234a\n"
	"ip -n xperf-1234-a addr add fd00:231::1/64 dev xp1234a nodad\n"
	"ip -n xperf-1234-b addr add 10.231.0.2/24 dev xp1234b\n"
	"ip -n xperf-1234-b addr add fd00:231::2/64 dev xp1234b nodad\n"
	"ip -n xperf-1234-a link set xp1234a up\n"
	"ip -n xperf-1234-b link set xp1234b up\n";

static char *render_steps(const struct xp_lab_plan *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int i;

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < p->nsteps; i++)
		xp_lab_render_step(f, p, &p->step[i]);
	fclose(f);
	return text;
}

START_TEST(dry_run_veth)
{
	struct xp_lab_plan *p = malloc(sizeof(*p));
	struct xp_lab_knobs k = no_knobs();
	struct xp_err e;
	char *text;

	ck_assert_int_eq(xp_lab_plan_make(p, xp_lab_topo_find("veth"), 1234, &k, &e), 0);
	text = render_steps(p);
	ck_assert_str_eq(text, veth_dry_run);
	ck_assert_str_eq(p->ns[p->server_ns], "xperf-1234-b");
	ck_assert_str_eq(p->server4, "10.231.0.2");
	free(text);
	free(p);
}
END_TEST

START_TEST(dry_run_knobs)
{
	struct xp_lab_plan *p = malloc(sizeof(*p));
	struct xp_lab_knobs k = no_knobs();
	struct xp_err e;
	char *text;

	k.mtu = 9000;
	k.rps = "3";
	k.offload[XP_OFF_GRO] = 0;
	k.rate_bps = 100000000;
	k.qdisc = XP_QDISC_TBF;
	k.sysctl[0] = "net.ipv4.tcp_rmem=4096 87380 16777216";
	k.nsysctl = 1;
	ck_assert_int_eq(xp_lab_plan_make(p, xp_lab_topo_find("veth"), 7, &k, &e), 0);
	text = render_steps(p);
	ck_assert_ptr_nonnull(strstr(text, "ip netns exec xperf-7-a sysctl -q -w "
				     "'net.ipv4.tcp_rmem=4096 87380 16777216'\n"));
	ck_assert_ptr_nonnull(strstr(text, "link add name xp7a mtu 9000 type veth peer name "
				     "xp7b mtu 9000 netns xperf-7-b\n"));
	ck_assert_ptr_nonnull(strstr(text, "ip netns exec xperf-7-b ethtool -K xp7b gro off\n"));
	ck_assert_ptr_nonnull(strstr(text, "/sys/class/net/xp7a/queues/rx-*; do echo 3 > "
				     "$q/rps_cpus; done'\n"));
	ck_assert_ptr_nonnull(strstr(text, "ip netns exec xperf-7-a tc qdisc add dev xp7a root "
				     "tbf rate 100000000bit burst 125000 limit 750000\n"));
	/* sysctls come before the links, so "default" settings reach them */
	ck_assert(strstr(text, "sysctl") < strstr(text, "link add"));
	free(text);
	free(p);
}
END_TEST

/* Every topology fits, names fit IFNAMSIZ even for the largest pid, and
 * every step acts in a namespace the plan creates. */
START_TEST(plans_all_topologies)
{
	struct xp_lab_plan *p = malloc(sizeof(*p));
	struct xp_lab_knobs k = no_knobs();
	const struct xp_lab_topo *t;
	struct xp_err e;
	int i, f;

	for (f = 0; f < XP_OFF_COUNT; f++)
		k.offload[f] = 0;
	k.rps = k.xps = "1";
	k.rate_bps = 1000000;
	for (t = xp_lab_topos(); t->name; t++) {
		ck_assert_int_eq(xp_lab_plan_make(p, t, 4194304, &k, &e), 0);
		ck_assert_int_eq(p->step[0].kind, XP_STEP_NETNS);
		for (i = 0; i < p->nsteps; i++) {
			ck_assert_int_lt(p->step[i].ns, p->nns);
			ck_assert_uint_lt(strlen(p->step[i].dev), 16);
			if (p->step[i].kind == XP_STEP_LINK)
				ck_assert_int_eq(strncmp(p->step[i].dev, "xp4194304", 9), 0);
		}
		ck_assert_int_eq(strncmp(p->ns[0], XP_LAB_PREFIX "4194304-", 14), 0);
		ck_assert_int_eq(p->nns, strcmp(t->name, "veth") && strcmp(t->name, "vxlan") ? 3 : 2);
	}
	ck_assert_ptr_null(xp_lab_topo_find("dummy"));
	free(p);
}
END_TEST

static int lab_parse(struct xp_lab_cfg *c, struct xp_err *e, const char *line)
{
	static char buf[512];
	char *argv[64], *save = NULL, *tok;
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	argv[argc++] = "lab";
	for (tok = strtok_r(buf, " ", &save); tok && argc < 63; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	e->msg[0] = 0;
	return xp_lab_parse(c, argc, argv, e);
}

START_TEST(lab_options)
{
	struct xp_lab_cfg *c = malloc(sizeof(*c));
	struct xp_err e;

	ck_assert_int_eq(lab_parse(c, &e, ""), 0);
	ck_assert_int_eq(c->ntopo, 1);
	ck_assert_str_eq(c->topo[0]->name, "veth");
	ck_assert_int_eq(c->ntests, 2);
	ck_assert_uint_eq(c->a.multi, 4);
	ck_assert_int_eq(lab_parse(c, &e, "--topology veth,bridge,vxlan -t TCP_RR,UDP_RR "
				   "-l 2 -m 64 --nodelay --mtu 1400 --egress-rate=1.5g --qdisc htb"), 0);
	ck_assert_int_eq(c->ntopo, 3);
	ck_assert_str_eq(c->topo[2]->name, "vxlan");
	ck_assert_int_eq(c->ntests, 2);
	ck_assert_int_eq(c->opts[1].test, XP_UDP_RR);
	ck_assert_uint_eq(c->opts[1].length, 2 * XP_NS_PER_SEC);
	ck_assert_uint_eq(c->opts[0].msg_size, 64);
	ck_assert_int_eq(c->opts[0].nodelay, 1);
	ck_assert_uint_eq(c->knobs.mtu, 1400);
	ck_assert_uint_eq(c->knobs.rate_bps, 1500000000ull);
	ck_assert_int_eq(c->knobs.qdisc, XP_QDISC_HTB);
	ck_assert_int_eq(c->npass, 5);
	/* options anywhere, by unique prefixes too; test options kept as given */
	ck_assert_int_eq(lab_parse(c, &e, "-l 2 -4N --topo bridge --mt=1400 -tTCP_RR"), 0);
	ck_assert_str_eq(c->topo[0]->name, "bridge");
	ck_assert_uint_eq(c->knobs.mtu, 1400);
	ck_assert_int_eq(c->ntests, 1);
	ck_assert_int_eq(c->opts[0].ipv4, 1);
	ck_assert_int_eq(c->npass, 3);
	ck_assert_str_eq(c->pass[2], "-4N");
	ck_assert_int_eq(lab_parse(c, &e, "--sysctl net.core.somaxconn=512 "
				   "--sysctl net.ipv4.tcp_sack=0 --offload gro=off,csum=on"), 0);
	ck_assert_int_eq(c->knobs.nsysctl, 2);
	ck_assert_int_eq(c->knobs.offload[XP_OFF_GRO], 0);
	ck_assert_int_eq(c->knobs.offload[XP_OFF_TXCSUM], 1);
	ck_assert_int_eq(c->knobs.offload[XP_OFF_RXCSUM], 1);
	ck_assert_int_eq(c->knobs.offload[XP_OFF_TSO], -1);
	free(c);
}
END_TEST

START_TEST(lab_options_rejected)
{
	struct xp_lab_cfg *c = malloc(sizeof(*c));
	struct xp_err e;

	ck_assert_int_eq(lab_parse(c, &e, "--topology veth,dummy"), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "unknown topology 'dummy'"));
	ck_assert_int_eq(lab_parse(c, &e, "--topology veth,,bridge"), -1);
	ck_assert_int_eq(lab_parse(c, &e, "-t TCP_RR,TCP_NOPE"), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "TCP_NOPE"));
	ck_assert_int_eq(lab_parse(c, &e, "-c 10.0.0.1"), -1);
	ck_assert_int_eq(lab_parse(c, &e, "-s"), -1);
	ck_assert_int_eq(lab_parse(c, &e, "--mtu 40"), -1);
	ck_assert_int_eq(lab_parse(c, &e, "--rps 0xff"), -1);
	ck_assert_int_eq(lab_parse(c, &e, "--egress-rate 10q"), -1);
	ck_assert_int_eq(lab_parse(c, &e, "--qdisc fq"), -1);
	ck_assert_int_eq(lab_parse(c, &e, "--offload gro=maybe"), -1);
	ck_assert_int_eq(lab_parse(c, &e, "--offload lro=off"), -1);
	ck_assert_int_eq(lab_parse(c, &e, "--sysctl vm.swappiness=1"), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "only net.*"));
	ck_assert_int_eq(lab_parse(c, &e, "--sysctl net.ipv4.tcp_sack"), -1);
	ck_assert_int_eq(lab_parse(c, &e, "--dry-run=1"), -1);
	ck_assert_int_eq(lab_parse(c, &e, "--topology"), -1);
	ck_assert_str_eq(e.msg, "option '--topology' needs an argument");
	ck_assert_int_eq(lab_parse(c, &e, "-t TCP_RR --bogus"), -1);
	ck_assert_str_eq(e.msg, "unknown option '--bogus'");
	ck_assert_int_eq(lab_parse(c, &e, "-t TCP_RR -- -l 1"), -1);
	ck_assert_str_eq(e.msg, "unexpected argument '-l'");
	ck_assert_int_eq(lab_parse(c, &e, "-Nt TCP_RR"), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "'-Nt' holds lab and test options"));
	ck_assert_int_eq(lab_parse(c, &e, "--m 3"), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "ambiguous"));
	ck_assert_int_eq(lab_parse(c, &e, "-t TCP_RR -M 10"), 0);
	ck_assert_int_eq(lab_parse(c, &e, "-t TCP_STREAM -M 10"), -1);
	free(c);
}
END_TEST

START_TEST(rates_and_sysctl_names)
{
	struct xp_err e;
	uint64_t v;

	ck_assert_int_eq(xp_lab_parse_rate("100m", &v, &e), 0);
	ck_assert_uint_eq(v, 100000000);
	ck_assert_int_eq(xp_lab_parse_rate("2Gbit", &v, &e), 0);
	ck_assert_uint_eq(v, 2000000000ull);
	ck_assert_int_eq(xp_lab_parse_rate("64000", &v, &e), 0);
	ck_assert_uint_eq(v, 64000);
	ck_assert_int_eq(xp_lab_parse_rate("1k", &v, &e), -1);
	ck_assert_int_eq(xp_lab_parse_rate("-5m", &v, &e), -1);
	ck_assert_int_eq(xp_lab_parse_rate("m", &v, &e), -1);
	ck_assert_int_eq(xp_lab_sysctl_check("net.ipv4.tcp_rmem", &e), 0);
	ck_assert_int_eq(xp_lab_sysctl_check("net.ipv4.conf.xp12a.rp_filter", &e), 0);
	ck_assert_int_eq(xp_lab_sysctl_check("net/../../kernel/x", &e), -1);
	ck_assert_int_eq(xp_lab_sysctl_check("net..ipv4", &e), -1);
	ck_assert_int_eq(xp_lab_sysctl_check("kernel.pid_max", &e), -1);
}
END_TEST

/* A WAN path: three namespaces, no address on the inner ends, and the
 * impairment as netem qdiscs (each inner end's egress carries one
 * direction) or as the delay line with the netem equivalent in comments. */
START_TEST(dry_run_wan)
{
	struct xp_lab_plan *p = malloc(sizeof(*p));
	struct xp_lab_knobs k = no_knobs();
	struct xp_wan_args a = { .delay = "10/30", .loss = "1", .rate = "100m",
				 .reorder = "25/0" };
	struct xp_err e;
	char *text;

	ck_assert_int_eq(xp_wan_parse(&k.wan, &a, &e), 0);
	k.line_cpu = 1;
	k.wan.with = XP_WAN_NETEM;
	ck_assert_int_eq(xp_lab_plan_make(p, xp_lab_topo_find("veth"), 9, &k, &e), 0);
	ck_assert_int_eq(p->nns, 3);
	text = render_steps(p);
	ck_assert_ptr_nonnull(strstr(text, "link add name xp9a type veth peer name xp9ca netns "
				     "xperf-9-c\n"));
	ck_assert_ptr_nonnull(strstr(text, "link add name xp9b type veth peer name xp9cb netns "
				     "xperf-9-c\n"));
	ck_assert_ptr_nonnull(strstr(text, "ip -n xperf-9-c link set xp9ca master xp9br\n"));
	ck_assert_ptr_nonnull(strstr(text, "ip netns exec xperf-9-c tc qdisc add dev xp9cb root "
				     "netem limit 582 delay 10ms loss 1% reorder 25% rate "
				     "100000000bit  # client to server\n"));
	ck_assert_ptr_nonnull(strstr(text, "ip netns exec xperf-9-c tc qdisc add dev xp9ca root "
				     "netem limit 748 delay 30ms loss 1% rate 100000000bit  # "
				     "server to client\n"));
	ck_assert_ptr_null(strstr(text, "addr add 10.231.0.1/24 dev xp9ca"));
	ck_assert_ptr_null(strstr(text, "delay line"));
	free(text);
	k.wan.with = XP_WAN_LINE;
	ck_assert_int_eq(xp_lab_plan_make(p, xp_lab_topo_find("veth"), 9, &k, &e), 0);
	text = render_steps(p);
	ck_assert_ptr_null(strstr(text, "\nip -n xperf-9-c link set xp9ca master"));
	ck_assert_ptr_nonnull(strstr(text, "\n#   ip -n xperf-9-c link set xp9ca master"));
	ck_assert_ptr_nonnull(strstr(text, "# xperf's delay line (no command does this): a thread "
				     "in xperf-9-c on CPU 1 moves every frame between xp9ca and "
				     "xp9cb\n"));
	ck_assert_ptr_nonnull(strstr(text, "#   ip netns exec xperf-9-c tc qdisc add dev xp9cb "
				     "root netem limit 582 delay 10ms"));
	ck_assert_int_eq(p->step[p->nsteps - 1].kind, XP_STEP_LINE);
	free(text);
	/* impairment elsewhere than on veth, or not resolved to netem or line */
	ck_assert_int_eq(xp_lab_plan_make(p, xp_lab_topo_find("bridge"), 9, &k, &e), -1);
	k.wan.with = XP_WAN_AUTO;
	ck_assert_int_eq(xp_lab_plan_make(p, xp_lab_topo_find("veth"), 9, &k, &e), -1);
	free(p);
}
END_TEST

START_TEST(rtnl_netem_request)
{
	struct xp_wan_args a = { .delay = "10", .jitter = "2", .loss = "50", .rate = "40g",
				 .reorder = "100" };
	struct xp_wan w;
	struct xp_nl_msg m;
	struct xp_err e;
	const struct nlmsghdr *h;
	const struct nlattr *kind, *opt, *lat, *reo;
	const struct tc_netem_qopt *q;
	const uint8_t *attrs;
	size_t len, alen;
	int64_t ns;

	ck_assert_int_eq(xp_wan_parse(&w, &a, &e), 0);
	xp_rtnl_netem(&m, 4, &w.d[0]);
	h = xp_nl_data(&m, &len);
	ck_assert_int_eq(m.overflow, 0);
	ck_assert_uint_eq(h->nlmsg_type, RTM_NEWQDISC);
	attrs = (const uint8_t *)h + NLMSG_HDRLEN + sizeof(struct tcmsg);
	alen = len - NLMSG_HDRLEN - sizeof(struct tcmsg);
	kind = find_attr(attrs, alen, TCA_KIND);
	ck_assert_str_eq((const char *)payload(kind), "netem");
	opt = find_attr(attrs, alen, TCA_OPTIONS);
	ck_assert_ptr_nonnull(opt);
	/* the qopt struct first, then attributes */
	q = (const struct tc_netem_qopt *)(const void *)payload(opt);
	ck_assert_uint_eq(q->limit, xp_wan_netem_limit(&w.d[0]));
	ck_assert_uint_eq(q->loss, UINT32_MAX / 2);
	ck_assert_uint_eq(q->gap, 1);
	lat = find_attr(payload(opt) + sizeof(*q), plen(opt) - sizeof(*q), TCA_NETEM_LATENCY64);
	ck_assert_ptr_nonnull(lat);
	memcpy(&ns, payload(lat), sizeof(ns));
	ck_assert_int_eq(ns, 10000000);
	lat = find_attr(payload(opt) + sizeof(*q), plen(opt) - sizeof(*q), TCA_NETEM_JITTER64);
	memcpy(&ns, payload(lat), sizeof(ns));
	ck_assert_int_eq(ns, 2000000);
	reo = find_attr(payload(opt) + sizeof(*q), plen(opt) - sizeof(*q), TCA_NETEM_REORDER);
	ck_assert_uint_eq(((const struct tc_netem_reorder *)(const void *)payload(reo))->probability,
			  UINT32_MAX);
	/* 5 GB/s needs the 64-bit rate */
	ck_assert_ptr_nonnull(find_attr(payload(opt) + sizeof(*q), plen(opt) - sizeof(*q),
					TCA_NETEM_RATE64));
}
END_TEST

START_TEST(lab_wan_options)
{
	struct xp_lab_cfg *c = malloc(sizeof(*c));
	struct xp_err e;

	ck_assert_int_eq(lab_parse(c, &e, "--delay 10/30 --loss 1 --seed 5 --line-cpu 0 "
				   "--impair-with line -t TCP_RR"), 0);
	ck_assert_int_eq(c->knobs.wan.on, 1);
	ck_assert_int_eq(c->knobs.wan.with, XP_WAN_LINE);
	ck_assert_uint_eq(c->knobs.wan.d[XP_WAN_S2C].delay_ns, 30000000);
	ck_assert_uint_eq(c->knobs.wan.seed, 5);
	ck_assert_int_eq(c->knobs.line_cpu, 0);
	ck_assert_uint_eq(c->a.line_calibrate, 500);
	ck_assert_int_eq(lab_parse(c, &e, ""), 0);
	ck_assert_int_eq(c->knobs.wan.on, 0);
	ck_assert_int_eq(lab_parse(c, &e, "--delay 10 --topology veth,bridge"), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "veth topology only"));
	ck_assert_int_eq(lab_parse(c, &e, "--delay 10 --line-cpu 5000"), -1);
	ck_assert_int_eq(lab_parse(c, &e, "--jitter 1/2/3"), -1);
	ck_assert_int_eq(lab_parse(c, &e, "--impair-with tc"), -1);
	free(c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lab");
	TCase *t = tcase_create("pure");
	SRunner *r;
	int failed;

	tcase_add_test(t, nl_builder_layout);
	tcase_add_test(t, nl_builder_overflow);
	tcase_add_test(t, nl_ack_parse);
	tcase_add_test(t, rtnl_veth_request);
	tcase_add_test(t, rtnl_addr);
	tcase_add_test(t, dry_run_veth);
	tcase_add_test(t, dry_run_knobs);
	tcase_add_test(t, plans_all_topologies);
	tcase_add_test(t, lab_options);
	tcase_add_test(t, lab_options_rejected);
	tcase_add_test(t, rates_and_sysctl_names);
	tcase_add_test(t, dry_run_wan);
	tcase_add_test(t, rtnl_netem_request);
	tcase_add_test(t, lab_wan_options);
	suite_add_tcase(s, t);
	r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
