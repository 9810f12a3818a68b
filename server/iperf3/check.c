/* SPDX-License-Identifier: BSD-2-Clause */
/* What a stock iperf3 client may ask of the xperf server: the parameters
 * checked against this server's limits and abilities (refused with
 * iperf3's own error numbers, which the client prints in its words), the
 * worker side they become, and the socket options xperf's own do not
 * cover. */
#include "server/iperf3/session.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/cpu.h"
#include "common/units.h"

#define DEFAULT_TCP_LEN (128u << 10)
#define MAX_TCP_LEN (1u << 20)
#define MAX_WINDOW (512ull << 20)
#define MAX_MSS (9 * 1024)
#define MAX_BURST 1000
#define MAX_OMIT 600
#define MAX_TIME 86400
#define DEFAULT_TIME 10

static int refuse(int *code, int c, struct xp_err *err, const char *what)
{
	*code = c;
	return xp_err_set(err, "iperf3 client asked for %s: refused (iperf3 error %d)", what, c);
}

static int congestion_ok(const char *name)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), ok;

	if (fd < 0)
		return 0;
	ok = setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, (socklen_t)strlen(name)) == 0;
	close(fd);
	return ok;
}

static int cpu_ok(int64_t cpu)
{
	int cpus[XP_CPUS_MAX], n = xp_cpu_allowed(cpus, XP_CPUS_MAX), i;

	for (i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return 1;
	return 0;
}

static int check_features(const struct xp_i3_params *p, int *code, int *sys,
			  struct xp_err *err)
{
	if (p->proto == XP_I3_PROTO_SCTP)
		return refuse(code, XP_I3E_NOSCTP, err, "SCTP");
	if (p->mptcp)
		return refuse(code, XP_I3E_UNIMP, err, "MPTCP (-m)");
	if (p->authtoken)
		return refuse(code, XP_I3E_AUTHTEST, err, "authentication (--username)");
	if (p->flowlabel > 0)
		return refuse(code, XP_I3E_SETFLOW, err, "an IPv6 flow label (-L)");
	if (p->reverse && p->bidir)
		return refuse(code, XP_I3E_REVERSEBIDIR, err, "both -R and --bidir");
	if ((p->num > 0 || p->blockcount > 0) && (p->reverse || p->bidir))
		return refuse(code, XP_I3E_UNIMP, err, "-n or -k with the server sending");
	if (p->tos > 255)
		return refuse(code, XP_I3E_BADTOS, err, "a TOS above 255");
	if (p->mss > MAX_MSS)
		return refuse(code, XP_I3E_MSS, err, "an MSS above 9216");
	if (p->burst > MAX_BURST)
		return refuse(code, XP_I3E_BURST, err, "a burst above 1000");
	if (p->congestion[0] && !congestion_ok(p->congestion))
		return refuse(code, XP_I3E_SETCONGESTION, err, "a congestion control this host lacks");
	if (p->server_affinity >= 0 && !cpu_ok(p->server_affinity)) {
		*sys = EINVAL;
		return refuse(code, XP_I3E_AFFINITY, err, "a CPU this server may not use (-A)");
	}
	return 0;
}

static int check_sizes(const struct xp_i3_params *p, const struct xp_i3srv_cfg *c,
		       int *code, struct xp_err *err)
{
	int64_t streams = p->parallel < 0 ? 1 : p->parallel;

	if (streams < 1 || streams > XP_I3_MAX_STREAMS ||
	    (uint64_t)streams * (p->bidir ? 2 : 1) > c->max_flows)
		return refuse(code, XP_I3E_NUMSTREAMS, err, "too many streams (-P)");
	if (p->window > (int64_t)MAX_WINDOW)
		return refuse(code, XP_I3E_BUFSIZE, err, "a socket buffer above 512 MiB (-w)");
	if (p->proto == XP_I3_PROTO_UDP) {
		if (p->len < XP_I3_UDP_MIN || p->len > XP_I3_UDP_MAX)
			return refuse(code, XP_I3E_UDPBLOCKSIZE, err,
				      "a UDP datagram size outside 16..65507 (-l)");
		return 0;
	}
	if (p->len == 0 || p->len > MAX_TCP_LEN || (p->len > 0 && (uint64_t)p->len > c->max_msg))
		return refuse(code, XP_I3E_BLOCKSIZE, err, "a block size outside this server's limits (-l)");
	return 0;
}

/* 3.20 and later know error 37, "exceeds the server's maximum duration". */
static int duration_code(const char *version)
{
	int major = 0, minor = 0;

	if (sscanf(version, "%d.%d", &major, &minor) == 2 && (major > 3 || (major == 3 && minor >= 20)))
		return XP_I3E_MAXDURATION;
	return XP_I3E_DURATION;
}

static int check_time(const struct xp_i3_params *p, const struct xp_i3srv_cfg *c,
		      int *code, struct xp_err *err)
{
	int64_t t = p->time < 0 ? DEFAULT_TIME : p->time, omit = p->omit < 0 ? 0 : p->omit;

	if (omit > MAX_OMIT)
		return refuse(code, XP_I3E_OMIT, err, "an --omit above 600 s");
	if (t > MAX_TIME || (uint64_t)(t + omit) * XP_NS_PER_SEC > c->max_duration_ns)
		return refuse(code, duration_code(p->client_version), err,
			      "a test longer than --max-duration");
	if (t == 0 && p->num <= 0 && p->blockcount <= 0)
		return refuse(code, XP_I3E_ENDCONDITIONS, err, "no end (-t 0 without -n or -k)");
	return 0;
}

int xp_i3_check_params(const struct xp_i3_params *p, const struct xp_i3srv_cfg *c,
		       int *code, int *sys, struct xp_err *err)
{
	*sys = 0;
	if (check_features(p, code, sys, err) || check_sizes(p, c, code, err) ||
	    check_time(p, c, code, err))
		return -1;
	return 0;
}

void xp_i3_side_cfg_server(const struct xp_i3_params *p, const struct xp_i3srv_cfg *c,
			   char *cpus, size_t len, struct xp_i3_side_cfg *out)
{
	memset(out, 0, sizeof(*out));
	out->role = XP_ROLE_SERVER;
	out->udp = p->proto == XP_I3_PROTO_UDP;
	out->reverse = p->reverse;
	out->bidir = p->bidir;
	out->udp64 = p->udp64;
	out->parallel = p->parallel > 0 ? (uint32_t)p->parallel : 1;
	out->len = p->len > 0 ? (uint32_t)p->len : DEFAULT_TCP_LEN;
	out->rate_bps = p->bandwidth > 0 ? (uint64_t)p->bandwidth : 0;
	out->pace_burst = p->burst > 0 ? (uint32_t)p->burst : 0;
	out->gso = 1;
	out->so.nodelay = p->nodelay;
	out->so.sndbuf = out->so.rcvbuf = p->window > 0 ? (uint64_t)p->window : 0;
	out->so.pacing_Bps = p->fqrate > 0 ? (uint64_t)p->fqrate / 8 : 0;
	out->max_threads = c->max_threads;
	out->cpus = c->cpus;
	if (p->server_affinity >= 0) {
		snprintf(cpus, len, "%lld", (long long)p->server_affinity);
		out->cpus = cpus;
	}
}

static void set_tos(int fd, int tos)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len))
		return;
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, &tos, sizeof(tos));
	setsockopt(fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos));
}

void xp_i3sess_tune_listener(struct xp_i3sess *s)
{
	const struct xp_i3_params *p = &s->p;
	int fd = s->lst->fd, win = (int)p->window, mss = (int)p->mss;

	if (s->udp || fd < 0 || (p->window <= 0 && p->mss <= 0))
		return;
	s->lst->tuned = 1;
	if (p->window > 0) {
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &win, sizeof(win));
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &win, sizeof(win));
	}
	if (p->mss > 0)
		setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof(mss));
}

void xp_i3sess_sockopts(const struct xp_i3sess *s, int fd, int udp_sender)
{
	const struct xp_i3_params *p = &s->p;

	if (p->tos > 0)
		set_tos(fd, (int)p->tos);
	if (!s->udp && p->congestion[0])
		setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, p->congestion,
			   (socklen_t)strlen(p->congestion));
	if (!s->udp && p->mss > 0) {
		int mss = (int)p->mss;

		setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof(mss));
	}
	if (s->udp && udp_sender && p->dont_fragment) {
		int v = IP_PMTUDISC_DO;

		setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &v, sizeof(v));
	}
}
