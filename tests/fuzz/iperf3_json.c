/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: iperf3's parameters and results as a peer sends
 * them (common/iperf3/json.h).  Built by `make fuzz`, run by
 * tests/fuzz/run.sh.  Properties: no crash, leak or undefined behaviour;
 * errors are terminated strings; whatever parses is written back, and
 * the writing parses again to the same values. */
#include "common/iperf3/json.h"

#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"

static void params(const uint8_t *data, size_t size)
{
	struct xp_i3_params p, q;
	struct xp_err err;
	struct xp_json j;
	const char *s;

	if (xp_i3_params_parse((const char *)data, size, &p, &err)) {
		FUZZ_ERR_OK(err);
		return;
	}
	xp_json_init(&j, 0);
	xp_i3_params_write(&j, &p);
	s = xp_json_str(&j);
	if (j.oom || xp_i3_params_parse(s, strlen(s), &q, &err))
		abort();
	/* numbers below 0 are "absent" and not written */
	if (p.proto != q.proto || p.reverse != q.reverse || p.bidir != q.bidir ||
	    (p.time >= 0 && p.time != q.time) || (p.len >= 0 && p.len != q.len) ||
	    strcmp(p.congestion, q.congestion))
		abort();
	xp_json_free(&j);
}

static void results(const uint8_t *data, size_t size)
{
	struct xp_i3_results *r = malloc(2 * sizeof(*r));
	struct xp_err err;
	struct xp_json j;
	const char *s;
	uint32_t i;

	if (!r)
		abort();
	if (xp_i3_results_parse((const char *)data, size, r, &err)) {
		FUZZ_ERR_OK(err);
		if (r->nstreams)
			abort();
		free(r);
		return;
	}
	xp_json_init(&j, 0);
	xp_i3_results_write(&j, NULL, r);
	s = xp_json_str(&j);
	if (j.oom || xp_i3_results_parse(s, strlen(s), &r[1], &err) ||
	    r[1].nstreams != r->nstreams)
		abort();
	for (i = 0; i < r->nstreams; i++)
		if (r[1].streams[i].id != r->streams[i].id ||
		    r[1].streams[i].bytes != r->streams[i].bytes ||
		    r[1].streams[i].retransmits != r->streams[i].retransmits)
			abort();
	xp_json_free(&j);
	free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	params(data, size);
	results(data, size);
	return 0;
}
