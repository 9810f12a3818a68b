/* SPDX-License-Identifier: BSD-2-Clause */
/* The fan-out's report: each host's result read back through the same
 * path as `xperf merge` (client/fleet/merge.h), so the merged figures of one
 * process and of files are computed alike. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/fleet/fanout_int.h"
#include "client/fleet/merge.h"
#include "client/report/report.h"
#include "common/exitcodes.h"
#include "common/tests.h"

/* One host's result as the JSON --json would print. */
static char *result_json(const struct xp_cli *c, const struct xp_fanout_host *h)
{
	struct xp_json j;
	char *s;

	xp_json_init(&j, 0);
	xp_json_obj_open(&j, NULL);
	xp_report_json_start(&j, &h->o, &h->r, "start");
	xp_report_json_end(&j, &h->o, &h->r, &c->slo, "end");
	xp_json_obj_close(&j);
	s = j.oom ? NULL : strdup(xp_json_str(&j));
	xp_json_free(&j);
	return s;
}

/* hosts[]: a good host's entry from its result (ins[k]), a failed one's
 * with its error. */
static void json_hosts(struct xp_json *j, const struct xp_fanout_host *hs, int n,
		       const struct xp_merge_in *ins)
{
	int i, k = 0;

	xp_json_arr_open(j, "hosts");
	for (i = 0; i < n; i++) {
		if (!hs[i].rc) {
			xp_merge_json_host(j, &ins[k++], hs[i].spec, NULL);
			continue;
		}
		xp_json_obj_open(j, NULL);
		xp_json_str_val(j, "host", hs[i].spec);
		xp_json_u64(j, "flows", hs[i].o.flows);
		xp_json_bool(j, "ok", 0);
		xp_json_str_val(j, "error", hs[i].err.msg);
		xp_json_obj_close(j);
	}
	xp_json_arr_close(j);
}

/* The merged document (client/fleet/merge.h): the total at end, as one
 * host's result has it, each host's own beside it in hosts[]. */
static void print_json(const struct xp_cli *c, struct xp_fanout_host *hs, int n,
		       const struct xp_merge_in *ins, int nok, const struct xp_merge_in *total)
{
	struct xp_json j;

	xp_json_init(&j, 1);
	xp_json_obj_open(&j, NULL);
	xp_merge_json_head(&j, ins, nok, total, c->o->flows);
	xp_json_u64(&j, "hosts_failed", (uint64_t)(n - nok));
	json_hosts(&j, hs, n, ins);
	if (nok)
		xp_merge_json_end(&j, ins, nok, total);
	xp_json_obj_close(&j);
	fputs(j.oom ? "{\"error\": \"out of memory formatting JSON\"}\n" : xp_json_str(&j), stdout);
	xp_json_free(&j);
}

static void print_human(const struct xp_cli *c, struct xp_fanout_host *hs, int n,
			const struct xp_merge_in *ins, int nok, const struct xp_merge_in *total)
{
	int i;

	if (hs[0].ctl)
		printf("xperf %s from %d agents to %s, %llu flows in all, started within %.3f ms\n",
		       xp_test(c->o->test)->name, n, c->o->client,
		       (unsigned long long)c->o->flows, xp_merge_skew_ms(ins, nok));
	else
		printf("xperf %s to %d servers, %llu flows in all, started within %.3f ms\n",
		       xp_test(c->o->test)->name, n, (unsigned long long)c->o->flows,
		       xp_merge_skew_ms(ins, nok));
	if (nok)
		xp_merge_print(stdout, ins, nok, total);
	for (i = 0; i < n; i++)
		if (hs[i].rc)
			printf("FAILED %s: %s\n", hs[i].spec, hs[i].err.msg);
}

/* Read each good host's result back; add them up.  The count read. */
static int gather(const struct xp_cli *c, struct xp_fanout_host *hs, int n,
		  struct xp_merge_in *ins, struct xp_merge_in *total)
{
	struct xp_err err;
	int i, k = 0;

	for (i = 0; i < n; i++) {
		char *doc;

		if (hs[i].rc)
			continue;
		doc = hs[i].doc ? hs[i].doc : result_json(c, &hs[i]);
		if (!doc || xp_merge_read(doc, strlen(doc), hs[i].spec, &ins[k], &err) ||
		    xp_merge_add(total, &ins[k], &err)) {
			hs[i].rc = -1;
			snprintf(hs[i].err.msg, sizeof(hs[i].err.msg), "%s",
				 doc ? err.msg : "out of memory");
			xp_merge_free(&ins[k]);
		} else {
			k++;
		}
		if (doc != hs[i].doc)
			free(doc);
	}
	return k;
}

int xp_fanout_report(const struct xp_cli *c, struct xp_fanout_host *hs, int n)
{
	struct xp_merge_in *ins = calloc((size_t)n, sizeof(*ins)), total;
	int i, nok;

	memset(&total, 0, sizeof(total));
	if (!ins)
		return xp_cli_fail(c->o, "out of memory");
	nok = gather(c, hs, n, ins, &total);
	if (!nok) { /* the document still names the test */
		snprintf(total.test, sizeof(total.test), "%s", xp_test(c->o->test)->name);
		total.udp = xp_test(c->o->test)->udp;
	}
	if (c->o->json)
		print_json(c, hs, n, ins, nok, &total);
	else
		print_human(c, hs, n, ins, nok, &total);
	for (i = 0; i < n; i++)
		if (hs[i].rc)
			fprintf(stderr, "xperf: %s: %s\n", hs[i].spec, hs[i].err.msg);
	for (i = 0; i < nok; i++)
		xp_merge_free(&ins[i]);
	xp_merge_free(&total);
	free(ins);
	return nok == n ? XP_EXIT_OK : XP_EXIT_FAIL;
}
