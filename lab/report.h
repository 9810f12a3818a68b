/* SPDX-License-Identifier: BSD-2-Clause */
/* The lab's result: one row per topology and test, printed as one
 * comparison table or as one JSON document. */
#ifndef XP_LAB_REPORT_H
#define XP_LAB_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "client/client.h"
#include "lab/hook.h"
#include "lab/opts.h"
#include "lab/wan/line.h"

enum xp_lab_status {
	XP_ROW_OK,          /* measured */
	XP_ROW_UNSUPPORTED, /* the kernel lacks a feature the topology needs */
	XP_ROW_FAILED,      /* set-up or test failed */
	XP_ROW_SKIPPED,     /* not run: the lab was interrupted first */
};

struct xp_lab_row {
	const char *topology;
	int test;
	enum xp_lab_status status;
	char msg[400];             /* why, when not OK */
	char feature[128];         /* unsupported: what is missing */
	int stream;                /* throughput columns apply */
	double gbps1, gbps_multi;  /* received, Gbit/s */
	uint32_t multi;            /* flows of the multi-flow run, 0: none */
	int rr;                    /* rate and latency columns apply */
	uint64_t transactions;
	double tps, p50_us, p99_us;
	uint32_t flows;            /* flows of the RR run */
	unsigned runs;             /* -I: runs of each measurement */
	double lo, hi;             /* -I: the spread of gbps1 (stream) or tps (RR),
				    * which hold the median */
	uint64_t errors;           /* recoverable socket errors, both ends */
	double mean_us;            /* RR: mean round trip */
	uint64_t retrans;          /* TCP retransmissions, both ends */
	uint64_t rcvbuf;           /* the receiver's SO_RCVBUF as granted */
	int udp;                   /* UDP bulk: the receiver's datagram counts */
	uint64_t dg_sent, dg_received, dg_lost, dg_out_of_order, dg_duplicates;
	int line;                  /* measured through the delay line: */
	struct xp_wan_stats ls;    /* its counters over the row's measurements */
	double line_load;          /* the most of its ceiling one of them used */
};

/* A share of the delay line's ceiling from which a figure may be the
 * line's own limit rather than the path's. */
#define XP_LAB_NEAR_CEILING 0.8

/* The delay line's own ceiling, measured unimpaired before the tests:
 * forwarded frames per second and wire Mbit/s, both directions summed. */
struct xp_lab_ceiling {
	int measured;
	double tcp_mbps, tcp_fps;  /* during a TCP_STREAM */
	double udp_mbps, udp_fps;  /* during a UDP_STREAM of 64-byte datagrams */
	char msg[XP_ERR_MAX];      /* why not measured, or "" */
};

#define XP_LAB_ROWS_MAX (XP_LAB_TOPOS_MAX * XP_LAB_TESTS_MAX)

struct xp_lab_report {
	unsigned id;               /* run id: names are xperf-<id>-* */
	struct xp_lab_row row[XP_LAB_ROWS_MAX];
	int n;
	int interrupted;
	char teardown_error[XP_ERR_MAX];  /* "" unless removing something failed */
	enum xp_wan_with impaired_by;     /* netem or line; auto: not impaired */
	char impair_note[160];            /* why that one */
	int line_cpu;
	struct xp_lab_ceiling ceiling;
	char line_error[XP_ERR_MAX];      /* the delay line stopped on this */
	int has_hook;                     /* --exec was given: */
	struct xp_lab_hook hook[XP_LAB_TOPOS_MAX]; /* what it did, per topology */
};

/* Fill a row's columns from a finished test. multi: this was the
 * multi-flow run of a stream test. */
void xp_lab_row_fill(struct xp_lab_row *row, const struct xp_client_result *r,
		     int multi);
/* Rows not OK. */
int xp_lab_failed_rows(const struct xp_lab_report *rep);
/* --exec runs that failed (exited non-zero, were killed or not started). */
int xp_lab_failed_hooks(const struct xp_lab_cfg *c, const struct xp_lab_report *rep);

void xp_lab_table(FILE *f, const struct xp_lab_cfg *c, const struct xp_lab_report *rep);
/* One JSON document; 0, or -1 if it could not be built. */
int xp_lab_json(FILE *f, const struct xp_lab_cfg *c, const struct xp_lab_report *rep);

#endif
