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

#define XP_MERGE_TYPE_U64 uint64_t
#define XP_MERGE_TYPE_DBL double

enum {
#define XP_MERGE(field, obj, key, type, rule, need) XP_MERGEI_##field,
#include "client/fleet/merge.def"
#undef XP_MERGE
	XP_MERGE_N
};

struct xp_jdoc;
struct xp_jval;

/* One result's figures, or the merged total of several. */
struct xp_merge_in {
	char name[128];          /* file name or host */
	char test[32];           /* "TCP_RR" */
	int rr, udp;
#define XP_MERGE(field, obj, key, type, rule, need) XP_MERGE_TYPE_##type field;
#include "client/fleet/merge.def"
#undef XP_MERGE
	unsigned char have[XP_MERGE_N]; /* the input has it; the total: all have it */
	char direction[24];      /* end.udp.direction ("" where none, or they differ) */
	int interrupted;         /* end.interrupted (the total: any) */
	struct xp_hist *hist;    /* RR: round trips (NULL otherwise) */
	uint64_t go_wall_ns;     /* when its measured part started (0: unknown) */
	uint64_t flows;          /* start.test_start.num_streams (0: unknown) */
	const char *host;        /* start.test_start.host, NULL when it names none */
	struct xp_jdoc *doc;     /* the document read (NULL in a total) */
	const struct xp_jval *end; /* its end: copied into hosts[] */
	int n;                   /* a total: how many inputs */
};

/* Read one xperf --json document (text[0, len)): one host's result, a
 * fan-out's or a merge's (whose end is their total), or one written by an
 * older xperf with the total at merged.end.  0, or -1 with err naming
 * what is missing or malformed.  xp_merge_free releases what it holds. */
int xp_merge_read(const char *text, size_t len, const char *name,
		  struct xp_merge_in *in, struct xp_err *err);
void xp_merge_free(struct xp_merge_in *in);

/* total += in (total starts zeroed).  Refused (-1, err) when the tests
 * differ or a request/response result has no histogram (an older xperf's,
 * or another histogram version: the decoder refuses those). */
int xp_merge_add(struct xp_merge_in *total, const struct xp_merge_in *in,
		 struct xp_err *err);

/* The spread of the inputs' start times (start.go_wall_ns), ms. */
double xp_merge_skew_ms(const struct xp_merge_in *ins, int n);

/* The merged report: one row per input and the total. */
void xp_merge_print(FILE *f, const struct xp_merge_in *ins, int n,
		    const struct xp_merge_in *total);

/* The merged JSON document, one schema for a fan-out and for `xperf
 * merge`, written in three steps inside the caller's top-level object:
 *   xp_merge_json_head: start (version, go_wall_ns, test_start.test,
 *     .protocol, .num_streams), test, flows, start_skew_ms;
 *   then the caller's hosts_failed and hosts[], an entry per input by
 *     xp_merge_json_host (host, file, flows, ok, and end: the input's own
 *     end as it was) or its own for a host that failed;
 *   xp_merge_json_end: end, the total, with the keys of one result's end
 *     that add up, at the same paths and with the same meaning. */
void xp_merge_json_head(struct xp_json *j, const struct xp_merge_in *ins, int n,
			const struct xp_merge_in *total, uint64_t flows);
void xp_merge_json_host(struct xp_json *j, const struct xp_merge_in *in, const char *host,
			const char *file);
void xp_merge_json_end(struct xp_json *j, const struct xp_merge_in *ins, int n,
		       const struct xp_merge_in *total);

/* `xperf merge [--json] FILE...`: the process exit status. */
int xp_merge_main(int argc, char **argv);

#endif
