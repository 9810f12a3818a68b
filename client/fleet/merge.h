/* SPDX-License-Identifier: BSD-2-Clause */
/* Exact merging of results: `xperf merge A.json B.json ...` and the fleet
 * controller add byte, datagram and transaction counts and latency
 * histograms (carried losslessly in each JSON as end.rr.histogram), so a
 * merged P99 is the P99 of one histogram holding every sample, never an
 * average of percentiles.  Rates are summed: the inputs ran at the same
 * time (one per host or per server), each over its own measured time. */
#ifndef XP_CLIENT_MERGE_H
#define XP_CLIENT_MERGE_H

#include <stdint.h>
#include <stdio.h>

#include "common/err.h"
#include "common/hist.h"
#include "common/json.h"

/* One result's figures, or the merged total of several. */
struct xp_merge_in {
	char name[128];          /* file name or host */
	char test[32];           /* "TCP_RR" */
	uint64_t sent_bytes, recv_bytes, retransmits;
	double sent_s, recv_s;   /* the longest */
	double sent_bps, recv_bps; /* summed */
	int rr, udp;
	uint64_t transactions;
	double tps;
	uint64_t packets_sent, packets_received, lost;
	struct xp_hist *hist;    /* RR: round trips (NULL otherwise) */
	uint64_t go_wall_ns;     /* when its measured part started (0: unknown) */
};

/* Read one xperf --json document (text[0, len)).  0, or -1 with err naming
 * what is missing or malformed.  xp_merge_free releases what it holds. */
int xp_merge_read(const char *text, size_t len, const char *name,
		  struct xp_merge_in *in, struct xp_err *err);
void xp_merge_free(struct xp_merge_in *in);

/* total += in.  Refused (-1, err) when the tests differ or a request/
 * response result has no histogram (an older xperf's, or another
 * histogram version: the decoder refuses those). */
int xp_merge_add(struct xp_merge_in *total, const struct xp_merge_in *in,
		 struct xp_err *err);

/* The merged report: one row per input and the total. */
void xp_merge_print(FILE *f, const struct xp_merge_in *ins, int n,
		    const struct xp_merge_in *total);
/* An object under key (NULL: at the top or in an array). */
void xp_merge_json(struct xp_json *j, const char *key, const struct xp_merge_in *ins,
		   int n, const struct xp_merge_in *total);

/* `xperf merge [--json] FILE...`: the process exit status. */
int xp_merge_main(int argc, char **argv);

#endif
