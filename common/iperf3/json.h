/* SPDX-License-Identifier: BSD-2-Clause */
/* iperf3's two JSON messages: the parameters a client sends after
 * PARAM_EXCHANGE and the results both ends send after EXCHANGE_RESULTS
 * (proto/PROTOCOL.md, "iperf3 compatibility").  Reading follows iperf3's
 * own rule: a key of another type than expected is ignored, as if absent;
 * a required key (results) missing is an error.  Numbers that iperf3 3.12
 * and 3.13 print unsigned (-1 as 18446744073709551615) are read back as
 * the negative numbers they were.  Pure (no I/O); fuzzed by
 * tests/fuzz/iperf3_json.c. */
#ifndef XP_IPERF3_JSON_H
#define XP_IPERF3_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "common/json.h"
#include "proto/iperf3.h"

#define XP_I3_NAME_MAX 32 /* congestion control names, versions */
#define XP_I3_STREAMS_MAX (2 * XP_I3_MAX_STREAMS) /* --bidir -P 128 */

enum xp_i3_proto { XP_I3_PROTO_NONE = 0, XP_I3_PROTO_TCP, XP_I3_PROTO_UDP, XP_I3_PROTO_SCTP };

/* The parameters.  Numbers are -1 when absent (or of another type). */
struct xp_i3_params {
	int proto;                 /* enum xp_i3_proto; NONE: the server picks TCP */
	int64_t omit, time, num, blockcount, parallel;
	int64_t len;               /* bytes per write or per datagram */
	int64_t bandwidth;         /* bits/s per stream, 0: unlimited */
	int64_t window, mss, tos, flowlabel, burst, fqrate, pacing_timer;
	int64_t server_affinity;
	int reverse, bidir, nodelay, mptcp, get_server_output, udp64;
	int repeating_payload, zerocopy, dont_fragment, skip_rx_copy;
	int authtoken;             /* a token was sent (xperf cannot check one) */
	char congestion[XP_I3_NAME_MAX];     /* -C; "" when absent */
	char client_version[XP_I3_NAME_MAX];
};

/* All absent: -1 numbers, 0 flags, empty strings. */
void xp_i3_params_init(struct xp_i3_params *p);
/* Parse the JSON text[0, len).  0, or -1 with err when it is not JSON or
 * not an object, or a string is longer than its field. */
int xp_i3_params_parse(const char *text, size_t len, struct xp_i3_params *p,
		       struct xp_err *err);
/* The parameters as a client sends them (keys with value -1 or 0 flags
 * omitted; time, num, blockcount, omit and parallel always), into j
 * (compact). */
void xp_i3_params_write(struct xp_json *j, const struct xp_i3_params *p);

/* One stream in the results. */
struct xp_i3_stream_res {
	int64_t id;
	uint64_t bytes;            /* sent (sender; after --omit) or received */
	int64_t retransmits;       /* a TCP sender's, else -1 */
	double jitter;             /* seconds (UDP receiver) */
	int64_t errors, packets;   /* UDP: lost, and the highest count seen
				    * (receiver) or the datagrams sent */
	int64_t omitted_errors, omitted_packets; /* in the --omit part */
	int has_omitted;           /* those two were present (3.14+) */
	double start_time, end_time; /* seconds */
};

/* The whole results message of one end. */
struct xp_i3_results {
	double cpu_total, cpu_user, cpu_system; /* percent */
	int64_t sender_has_retransmits; /* -1: only received, 1: TCP_INFO, 0 */
	char congestion_used[XP_I3_NAME_MAX];
	uint32_t nstreams;
	struct xp_i3_stream_res streams[XP_I3_STREAMS_MAX];
	const char *server_output_text; /* write only: --get-server-output */
};

/* Parse the JSON text[0, len) into r (server_output_* are skipped).  0, or
 * -1 with err naming the key that is missing or wrong, or when there are
 * more streams than XP_I3_STREAMS_MAX or a stream id repeats. */
int xp_i3_results_parse(const char *text, size_t len, struct xp_i3_results *r,
			struct xp_err *err);
/* The results as iperf3 sends them, into j under key (NULL at the top
 * level; negative numbers signed, as 3.14+ does and 3.12 reads). */
void xp_i3_results_write(struct xp_json *j, const char *key, const struct xp_i3_results *r);
/* The stream with this id in r, or NULL. */
const struct xp_i3_stream_res *xp_i3_results_find(const struct xp_i3_results *r, int64_t id);

#endif
