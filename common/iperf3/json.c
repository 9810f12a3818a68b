/* SPDX-License-Identifier: BSD-2-Clause */
/* iperf3's parameters and results (common/iperf3/json.h). */
#include "common/iperf3/json.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/json_read.h"

#define JSON_DEPTH 32u

/* A number as iperf3 means it: integral values exactly (those above
 * INT64_MAX are 3.12's unsigned spelling of a negative one, read back in
 * two's complement: 18446744073709551615 is -1), others truncated toward
 * zero like cJSON's valueint.  -1 for a non-number or one out of range. */
static int num_i64(const struct xp_jval *v, int64_t *out)
{
	uint64_t u;
	double d;

	if (xp_jval_i64(v, out) == 0)
		return 0;
	if (xp_jval_u64(v, &u) == 0) {
		*out = -(int64_t)(~u) - 1;
		return 0;
	}
	if (xp_jval_dbl(v, &d) == 0 && d > -9.2e18 && d < 9.2e18) {
		*out = (int64_t)d;
		return 0;
	}
	return -1;
}

/* true, or a number other than 0 (iperf3 sends some flags as 1). */
static int flag_set(const struct xp_jval *v)
{
	int64_t n;

	if (xp_jval_type(v) == XP_JBOOL)
		return xp_jval_bool_or(v, 0);
	return num_i64(v, &n) == 0 && n != 0;
}

struct key_off {
	const char *key;
	size_t off;
};

#define P(f) offsetof(struct xp_i3_params, f)
static const struct key_off num_keys[] = {
	{ "omit", P(omit) }, { "server_affinity", P(server_affinity) },
	{ "time", P(time) }, { "num", P(num) }, { "blockcount", P(blockcount) },
	{ "MSS", P(mss) }, { "parallel", P(parallel) }, { "window", P(window) },
	{ "len", P(len) }, { "bandwidth", P(bandwidth) }, { "fqrate", P(fqrate) },
	{ "pacing_timer", P(pacing_timer) }, { "burst", P(burst) }, { "TOS", P(tos) },
	{ "flowlabel", P(flowlabel) },
};
static const struct key_off flag_keys[] = {
	{ "nodelay", P(nodelay) }, { "reverse", P(reverse) },
	{ "bidirectional", P(bidir) }, { "mptcp", P(mptcp) },
	{ "get_server_output", P(get_server_output) },
	{ "udp_counters_64bit", P(udp64) }, { "repeating_payload", P(repeating_payload) },
	{ "zerocopy", P(zerocopy) }, { "dont_fragment", P(dont_fragment) },
	{ "skip_rx_copy", P(skip_rx_copy) },
};
#undef P
#define NKEYS(a) (sizeof(a) / sizeof((a)[0]))

void xp_i3_params_init(struct xp_i3_params *p)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < NKEYS(num_keys); i++)
		*(int64_t *)((char *)p + num_keys[i].off) = -1;
}

/* A string member into buf; 0 absent or copied, -1 too long. */
static int get_str(const struct xp_jval *obj, const char *key, char *buf, size_t cap,
		   int cut, struct xp_err *err)
{
	const char *s;
	size_t n;

	if (xp_jval_str(xp_jval_member(obj, key), &s, &n))
		return 0;
	if (n >= cap && !cut)
		return xp_err_set(err, "iperf3 parameter %s: %zu bytes, at most %zu", key, n,
				  cap - 1);
	snprintf(buf, cap, "%.*s", (int)(n < cap ? n : cap - 1), s);
	return 0;
}

static void read_params(const struct xp_jval *o, struct xp_i3_params *p)
{
	size_t i;
	int64_t n;

	if (xp_jval_bool_or(xp_jval_member(o, "tcp"), 0))
		p->proto = XP_I3_PROTO_TCP;
	if (xp_jval_bool_or(xp_jval_member(o, "udp"), 0))
		p->proto = XP_I3_PROTO_UDP;
	if (xp_jval_bool_or(xp_jval_member(o, "sctp"), 0))
		p->proto = XP_I3_PROTO_SCTP;
	for (i = 0; i < NKEYS(num_keys); i++)
		if (num_i64(xp_jval_member(o, num_keys[i].key), &n) == 0)
			*(int64_t *)((char *)p + num_keys[i].off) = n;
	for (i = 0; i < NKEYS(flag_keys); i++)
		*(int *)((char *)p + flag_keys[i].off) = flag_set(xp_jval_member(o, flag_keys[i].key));
	p->authtoken = xp_jval_type(xp_jval_member(o, "authtoken")) == XP_JSTR;
}

int xp_i3_params_parse(const char *text, size_t len, struct xp_i3_params *p,
		       struct xp_err *err)
{
	struct xp_jlimits lim = { len ? len : 1, JSON_DEPTH, len / 2 + 16 };
	struct xp_jdoc *doc = xp_jdoc_parse(text, len, &lim, err);
	const struct xp_jval *o;
	int rc = 0;

	xp_i3_params_init(p);
	if (!doc)
		return -1;
	o = xp_jdoc_root(doc);
	if (xp_jval_type(o) != XP_JOBJ) {
		rc = xp_err_set(err, "iperf3 parameters: a JSON %s, not an object",
				xp_jtype_name(xp_jval_type(o)));
	} else {
		read_params(o, p);
		rc = get_str(o, "congestion", p->congestion, sizeof(p->congestion), 0, err);
		if (!rc)
			get_str(o, "client_version", p->client_version,
				sizeof(p->client_version), 1, err);
	}
	xp_jdoc_free(doc);
	return rc;
}

void xp_i3_params_write(struct xp_json *j, const struct xp_i3_params *p)
{
	static const char *const protos[] = { NULL, "tcp", "udp", "sctp" };
	size_t i;

	xp_json_obj_open(j, NULL);
	if (p->proto > 0 && p->proto <= XP_I3_PROTO_SCTP)
		xp_json_bool(j, protos[p->proto], 1);
	for (i = 0; i < NKEYS(num_keys); i++) {
		int64_t v = *(const int64_t *)((const char *)p + num_keys[i].off);

		if (v >= 0)
			xp_json_i64(j, num_keys[i].key, v);
	}
	for (i = 0; i < NKEYS(flag_keys); i++) {
		int v = *(const int *)((const char *)p + flag_keys[i].off);

		if (!v)
			continue;
		if (i < 4) /* nodelay, reverse, bidirectional, mptcp: true */
			xp_json_bool(j, flag_keys[i].key, 1);
		else
			xp_json_i64(j, flag_keys[i].key, 1);
	}
	if (p->congestion[0])
		xp_json_str_val(j, "congestion", p->congestion);
	if (p->client_version[0])
		xp_json_str_val(j, "client_version", p->client_version);
	xp_json_obj_close(j);
}

/* A required numeric member of a stream or of the results. */
static int need_i64(const struct xp_jval *o, const char *key, int64_t *out,
		    struct xp_err *err)
{
	if (num_i64(xp_jval_member(o, key), out))
		return xp_err_set(err, "iperf3 results: %s missing or not a number", key);
	return 0;
}

static int need_dbl(const struct xp_jval *o, const char *key, double *out,
		    struct xp_err *err)
{
	if (xp_jval_dbl(xp_jval_member(o, key), out))
		return xp_err_set(err, "iperf3 results: %s missing or not a number", key);
	return 0;
}

static int read_stream(const struct xp_jval *s, struct xp_i3_stream_res *r,
		       struct xp_err *err)
{
	int64_t bytes;

	memset(r, 0, sizeof(*r));
	if (xp_jval_type(s) != XP_JOBJ)
		return xp_err_set(err, "iperf3 results: a stream is a JSON %s",
				  xp_jtype_name(xp_jval_type(s)));
	if (need_i64(s, "id", &r->id, err) || need_i64(s, "bytes", &bytes, err) ||
	    need_i64(s, "retransmits", &r->retransmits, err) ||
	    need_dbl(s, "jitter", &r->jitter, err) || need_i64(s, "errors", &r->errors, err) ||
	    need_i64(s, "packets", &r->packets, err))
		return -1;
	if (bytes < 0)
		return xp_err_set(err, "iperf3 results: stream %lld: bytes %lld",
				  (long long)r->id, (long long)bytes);
	r->bytes = (uint64_t)bytes;
	r->has_omitted = num_i64(xp_jval_member(s, "omitted_errors"), &r->omitted_errors) == 0 &&
			 num_i64(xp_jval_member(s, "omitted_packets"), &r->omitted_packets) == 0;
	if (!r->has_omitted)
		r->omitted_errors = r->omitted_packets = 0;
	r->start_time = xp_jval_dbl_or(xp_jval_member(s, "start_time"), 0);
	r->end_time = xp_jval_dbl_or(xp_jval_member(s, "end_time"), 0);
	return 0;
}

static int read_streams(const struct xp_jval *arr, struct xp_i3_results *r,
			struct xp_err *err)
{
	const struct xp_jval *s;

	if (xp_jval_type(arr) != XP_JARR)
		return xp_err_set(err, "iperf3 results: streams missing or not an array");
	if (xp_jval_len(arr) > XP_I3_STREAMS_MAX)
		return xp_err_set(err, "iperf3 results: %zu streams, at most %u",
				  xp_jval_len(arr), XP_I3_STREAMS_MAX);
	for (s = xp_jval_first(arr); s; s = xp_jval_next(s)) {
		struct xp_i3_stream_res *st = &r->streams[r->nstreams];

		if (read_stream(s, st, err))
			return -1;
		if (xp_i3_results_find(r, st->id))
			return xp_err_set(err, "iperf3 results: stream id %lld twice",
					  (long long)st->id);
		r->nstreams++;
	}
	return 0;
}

static int read_results(const struct xp_jval *o, struct xp_i3_results *r,
			struct xp_err *err)
{
	if (xp_jval_type(o) != XP_JOBJ)
		return xp_err_set(err, "iperf3 results: a JSON %s, not an object",
				  xp_jtype_name(xp_jval_type(o)));
	if (need_dbl(o, "cpu_util_total", &r->cpu_total, err) ||
	    need_dbl(o, "cpu_util_user", &r->cpu_user, err) ||
	    need_dbl(o, "cpu_util_system", &r->cpu_system, err) ||
	    need_i64(o, "sender_has_retransmits", &r->sender_has_retransmits, err))
		return -1;
	get_str(o, "congestion_used", r->congestion_used, sizeof(r->congestion_used), 1, err);
	return read_streams(xp_jval_member(o, "streams"), r, err);
}

int xp_i3_results_parse(const char *text, size_t len, struct xp_i3_results *r,
			struct xp_err *err)
{
	/* a value takes at least a byte and a separator: no more nodes */
	struct xp_jlimits lim = { len ? len : 1, JSON_DEPTH, len / 2 + 16 };
	struct xp_jdoc *doc;
	int rc;

	memset(r, 0, sizeof(*r));
	doc = xp_jdoc_parse(text, len, &lim, err);
	if (!doc)
		return -1;
	rc = read_results(xp_jdoc_root(doc), r, err);
	xp_jdoc_free(doc);
	if (rc)
		r->nstreams = 0;
	return rc;
}

static void write_stream(struct xp_json *j, const struct xp_i3_stream_res *s)
{
	xp_json_obj_open(j, NULL);
	xp_json_i64(j, "id", s->id);
	xp_json_u64(j, "bytes", s->bytes);
	xp_json_i64(j, "retransmits", s->retransmits);
	xp_json_dbl(j, "jitter", s->jitter);
	xp_json_i64(j, "errors", s->errors);
	xp_json_i64(j, "omitted_errors", s->omitted_errors);
	xp_json_i64(j, "packets", s->packets);
	xp_json_i64(j, "omitted_packets", s->omitted_packets);
	xp_json_dbl(j, "start_time", s->start_time);
	xp_json_dbl(j, "end_time", s->end_time);
	xp_json_obj_close(j);
}

void xp_i3_results_write(struct xp_json *j, const char *key, const struct xp_i3_results *r)
{
	uint32_t i;

	xp_json_obj_open(j, key);
	xp_json_dbl(j, "cpu_util_total", r->cpu_total);
	xp_json_dbl(j, "cpu_util_user", r->cpu_user);
	xp_json_dbl(j, "cpu_util_system", r->cpu_system);
	xp_json_i64(j, "sender_has_retransmits", r->sender_has_retransmits);
	if (r->congestion_used[0])
		xp_json_str_val(j, "congestion_used", r->congestion_used);
	if (r->server_output_text)
		xp_json_str_val(j, "server_output_text", r->server_output_text);
	xp_json_arr_open(j, "streams");
	for (i = 0; i < r->nstreams && i < XP_I3_STREAMS_MAX; i++)
		write_stream(j, &r->streams[i]);
	xp_json_arr_close(j);
	xp_json_obj_close(j);
}

const struct xp_i3_stream_res *xp_i3_results_find(const struct xp_i3_results *r, int64_t id)
{
	uint32_t i;

	for (i = 0; i < r->nstreams; i++)
		if (r->streams[i].id == id)
			return &r->streams[i];
	return NULL;
}
