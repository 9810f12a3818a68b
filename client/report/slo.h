/* SPDX-License-Identifier: BSD-2-Clause */
/* Service-level objectives: "p99<=200us,p50<=80us,rate>=10000,
 * throughput>=5G,loss<=0.1%,retransmits<=10".  Parsed into bounds in
 * canonical units, evaluated against measured values supplied by the
 * caller.  Pure functions. */
#ifndef XP_SLO_H
#define XP_SLO_H

#include "common/err.h"

#define XP_SLO_MAX 32

enum xp_slo_metric {
	XP_SLO_LATENCY_PCT = 1, /* pNN[.N]: round-trip percentile, us */
	XP_SLO_LATENCY_MEAN,    /* mean, us */
	XP_SLO_LATENCY_MIN,     /* min, us */
	XP_SLO_LATENCY_MAX,     /* max, us */
	XP_SLO_LATENCY_STDDEV,  /* stddev, us */
	XP_SLO_RATE,            /* transactions per second */
	XP_SLO_THROUGHPUT,      /* received bits per second */
	XP_SLO_LOSS,            /* UDP loss, percent */
	XP_SLO_RETRANSMITS,     /* TCP retransmitted segments, count */
	XP_SLO_RPM,             /* -t RRUL: round trips per minute under load */
	XP_SLO_THROUGHPUT_UP,   /* -t RRUL: the load's bits/s client to server */
	XP_SLO_THROUGHPUT_DOWN, /* ... server to client */
};

/* -t RRUL: which phase a latency bound reads (idle_p99, loaded_p99,
 * inflation_p99 = loaded - idle), and with udp_ in front the UDP probes',
 * with self_ the self probes' (loaded_ and inflation_ only: against the
 * idle TCP probes). */
enum xp_slo_phase { XP_SLO_ANY = 0, XP_SLO_IDLE, XP_SLO_LOADED, XP_SLO_INFLATION };

/* -t RRUL: self_ reads all the self probes, self_up_ and self_down_ those
 * on the load's flows that send that way (client to server, back). */
enum xp_slo_self { XP_SLO_NOT_SELF = 0, XP_SLO_SELF, XP_SLO_SELF_UP, XP_SLO_SELF_DOWN };

/* --one-way: fwd_ and ret_ before a latency metric read the one-way
 * delays (client to server, server to client), not the round trip. */
enum xp_slo_way { XP_SLO_RTT = 0, XP_SLO_FWD, XP_SLO_RET };

enum xp_slo_op { XP_SLO_LE = 1, XP_SLO_LT, XP_SLO_GE, XP_SLO_GT };

struct xp_slo_bound {
	int metric;       /* enum xp_slo_metric */
	double pct;       /* XP_SLO_LATENCY_PCT: the percentile, e.g. 99.9 */
	int op;           /* enum xp_slo_op */
	double limit;     /* canonical unit (see enum) */
	char text[64];    /* the bound as written, for reports */
	char name[32];    /* canonical metric name: "p99.9", "mean", "rate",
			   * "udp_loaded_p99" ... */
	int phase;        /* enum xp_slo_phase */
	int udp;          /* -t RRUL: the UDP probes' latency, not the TCP ones' */
	int self;         /* enum xp_slo_self: -t RRUL's self probes' (the load's connections) */
	int way;          /* enum xp_slo_way */
};

struct xp_slo {
	struct xp_slo_bound b[XP_SLO_MAX];
	int n;
};

/* Parse a comma-separated list (for -t RRUL also idle_/loaded_/inflation_
 * before a latency metric, udp_ before those, rpm, throughput_up and
 * throughput_down; with --one-way fwd_ or ret_ before a latency metric).  Latency values take ns, us, ms or s
 * (no unit: us); throughput takes k/M/G (x1000) and optional "bit/s" or
 * "bps"; rate takes k/M (x1000); loss takes an optional %.  Errors name
 * the bound: "--slo: 'p99<=abc': invalid value".  0 or -1. */
int xp_slo_parse(const char *s, struct xp_slo *slo, struct xp_err *err);

/* 1 if measured satisfies the bound, 0 if not. */
int xp_slo_check(const struct xp_slo_bound *b, double measured);

/* Percentile list "50,90,99,99.9,99.99": each in (0, 100], ascending not
 * required, no duplicates, at most cap.  Returns count or -1. */
int xp_parse_percentiles(const char *s, double *out, int cap, struct xp_err *err);

#endif
