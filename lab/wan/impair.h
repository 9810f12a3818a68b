/* SPDX-License-Identifier: BSD-2-Clause */
/* A WAN path's impairment, per direction: delay, jitter, loss,
 * reordering, duplication, a rate and the queue's byte limit, as xperf
 * lab's --delay, --jitter, --loss, --reorder, --duplicate, --link-rate and
 * --queue-limit give them.  Each option takes one value for both
 * directions ("10") or two, client to server first ("10/30": 10 ms from
 * the client to the server, 30 ms back).  Pure: parsing and arithmetic,
 * no I/O; the same values drive netem (lab/rtnl.c) or xperf's own delay
 * line (lab/wan/line.h). */
#ifndef XP_WAN_IMPAIR_H
#define XP_WAN_IMPAIR_H

#include <stdint.h>

#include "common/err.h"

enum { XP_WAN_C2S, XP_WAN_S2C, XP_WAN_DIRS };

/* Who applies the impairment. */
enum xp_wan_with {
	XP_WAN_AUTO,  /* netem where the kernel has it, else the delay line */
	XP_WAN_NETEM, /* the kernel's netem qdisc (CONFIG_NET_SCH_NETEM) */
	XP_WAN_LINE,  /* xperf's userspace delay line */
};

/* Probabilities are kept as the percentage given (for reports and tc's
 * text) and as a threshold over 2^64 that a uniform 64-bit draw is
 * compared with. */
struct xp_wan_prob {
	double pct;
	uint64_t thr; /* draw < thr: the event happens */
};

struct xp_wan_dir {
	uint64_t delay_ns, jitter_ns;
	struct xp_wan_prob loss, reorder, duplicate;
	uint64_t rate_bps;    /* 0: no rate limit */
	uint64_t limit_bytes; /* frames held at most (given, or derived) */
	int limit_given;
	int spare_tcp;        /* --spare-tcp: TCP frames never dropped or copied */
};

struct xp_wan {
	int on;               /* an impairment option was given */
	enum xp_wan_with with;
	struct xp_wan_dir d[XP_WAN_DIRS];
	uint64_t seed;
	uint64_t cut_ns;      /* --cut-after: every frame dropped from this long
			       * after a measurement's mark (0: never) */
};

/* The option strings, NULL where not given. */
struct xp_wan_args {
	const char *delay, *jitter, *loss, *reorder, *duplicate, *rate, *limit;
	const char *with;     /* "auto", "netem", "line" */
	uint64_t seed;
};

/* Parse and check a (netem requires a delay for --reorder; so does the
 * line: with no delay there is nothing to send a frame ahead of), then
 * derive each direction's limit.  0, or -1 with a message naming the
 * option and the value. */
int xp_wan_parse(struct xp_wan *w, const struct xp_wan_args *a, struct xp_err *err);

/* One rate: "100m", "1.5g", "800k", "2000000", optionally "bit" after
 * the unit; bit/s, x1000; 8k..1000g.  what names the option in errors. */
int xp_wan_parse_rate(const char *s, const char *what, uint64_t *bps, struct xp_err *err);

/* The derived queue limit (bytes) of a direction with no --queue-limit:
 * with a rate, what the rate carries over the delay and jitter (the
 * frames in flight) plus 50 ms of it (the backlog a router buffers) plus
 * two 64 KiB frames; without one, the frames 10 Gbit/s puts in flight
 * over the delay and jitter plus 4 MiB, at most 512 MiB. */
uint64_t xp_wan_default_limit(const struct xp_wan_dir *d);

/* netem counts packets, not bytes: the limit as full-size frames
 * (1514 bytes), rounded up. */
uint32_t xp_wan_netem_limit(const struct xp_wan_dir *d);

/* A percentage as a threshold over 2^64 (100 %: every draw). */
uint64_t xp_wan_pct_thr(double pct);

/* Name of w->with: "auto", "netem", "line". */
const char *xp_wan_with_name(enum xp_wan_with with);

#endif
