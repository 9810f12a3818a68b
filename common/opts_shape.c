/* SPDX-License-Identifier: BSD-2-Clause */
/* The test-shape options (-R, --bidir, --omit, -n, -k): which tests each
 * applies to, how they combine, and what follows from them.  Which test
 * is another's reverse twin comes from the test table (xp_test_reverse),
 * never from its name. */
#include "common/opts.h"

#include <stdio.h>

#include "common/clock.h"
#include "common/tests.h"

#define QUOTA_BOUND_NS (3600ull * XP_NS_PER_SEC) /* -n/-k without -l */
#define MAX_WIRE_ID 64                           /* test numbers looked at */

/* The tests that have a reverse twin (c2s_only: and send client to
 * server), "TCP_STREAM, TCP_MAERTS, ...". */
static const char *twin_names(char *buf, size_t len, int c2s_only)
{
	size_t off = 0;
	int id;

	buf[0] = 0;
	for (id = 1; id < MAX_WIRE_ID && off < len; id++) {
		const struct xp_test *t = xp_test_find(id);

		if (!t || !xp_test_reverse(id) || (c2s_only && t->server_sends))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", t->name);
	}
	return buf;
}

static int check_direction(struct xp_opts *o, struct xp_err *err)
{
	const struct xp_test *t = xp_test(o->test);
	int twin = xp_test_reverse(o->test);
	char names[128];

	if (o->reverse && o->bidir)
		return xp_err_set(err, "-R and --bidir exclude each other (--bidir runs "
				  "both directions)");
	if (o->reverse && !twin)
		return xp_err_set(err, "-R applies to stream tests with a reverse twin (%s), "
				  "not %s", twin_names(names, sizeof(names), 0), t->name);
	if (o->bidir && (!twin || t->server_sends))
		return xp_err_set(err, "--bidir applies to %s (it adds the reverse "
				  "direction), not %s", twin_names(names, sizeof(names), 1),
				  t->name);
	if (o->reverse)
		o->test = twin;
	return 0;
}

static int check_omit(const struct xp_opts *o, struct xp_err *err)
{
	const struct xp_test *t = xp_test(o->test);

	if (o->omit && !t->bulk)
		return xp_err_set(err, "--omit applies to stream tests, not %s (RR tests: "
				  "--warmup SECS)", t->name);
	if (xp_opts_given(o, warmup) && t->bulk)
		return xp_err_set(err, "--warmup applies to RR tests, not %s (stream tests: "
				  "--omit SECS)", t->name);
	if (o->omit && (o->bytes || o->count))
		return xp_err_set(err, "--omit and -n/-k exclude each other (-n and -k "
				  "count every byte or datagram sent)");
	return 0;
}

static int check_quota(const struct xp_opts *o, struct xp_err *err)
{
	const struct xp_test *t = xp_test(o->test);
	uint64_t req = xp_opts_req_size(o);

	if ((xp_opts_given(o, bytes) && !o->bytes) || (xp_opts_given(o, count) && !o->count))
		return xp_err_set(err, "-n and -k: at least 1");
	if (o->bytes && o->count)
		return xp_err_set(err, "-n and -k exclude each other");
	if (o->bytes && !t->bulk)
		return xp_err_set(err, "-n applies to stream tests, not %s (RR tests: "
				  "-k TRANSACTIONS)", t->name);
	if (o->count && t->bulk && !t->udp)
		return xp_err_set(err, "-k applies to UDP stream tests (datagrams) and RR "
				  "tests (transactions), not %s (TCP stream tests: -n BYTES)",
				  t->name);
	if (o->bytes && t->udp && req && o->bytes % req)
		return xp_err_set(err, "-n %llu: %s datagrams are -m %llu bytes each: give a "
				  "multiple of %llu, or -k DATAGRAMS", (unsigned long long)o->bytes,
				  t->name, (unsigned long long)req, (unsigned long long)req);
	if (o->count && t->rr && xp_opts_given(o, warmup))
		return xp_err_set(err, "--warmup and -k exclude each other (-k counts every "
				  "transaction)");
	return 0;
}

int xp_opts_validate_shape(struct xp_opts *o, struct xp_err *err)
{
	if (check_direction(o, err) || check_omit(o, err))
		return -1;
	return check_quota(o, err);
}

uint64_t xp_opts_flows_total(const struct xp_opts *o)
{
	return o->bidir ? 2 * o->flows : o->flows;
}

uint64_t xp_opts_quota(const struct xp_opts *o)
{
	const struct xp_test *t = xp_test(o->test);
	uint64_t req = xp_opts_req_size(o);

	if (o->bytes)
		return t->udp ? (req ? o->bytes / req : 0) : o->bytes;
	return o->count;
}

uint64_t xp_opts_duration_ns(const struct xp_opts *o)
{
	if (o->test == XP_RRUL) /* its longest part: the idle or the loaded phase */
		return o->length > o->idle ? o->length : o->idle;
	if (xp_opts_quota(o) && !xp_opts_given(o, length))
		return QUOTA_BOUND_NS;
	return o->length;
}

uint64_t xp_opts_warmup_ns(const struct xp_opts *o)
{
	return xp_test(o->test)->rr && !xp_opts_quota(o) ? o->warmup : 0;
}
