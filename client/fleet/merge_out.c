/* SPDX-License-Identifier: BSD-2-Clause */
/* `xperf merge`: read result files, add them up, print the breakdown and
 * the exact total (client/fleet/merge.h). */
#include "client/fleet/merge.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client/report/hist.h"
#include "common/argscan.h"
#include "common/exitcodes.h"

#define FILE_MAX (64u << 20) /* a result with per-interval data is far smaller */

static void print_row(FILE *f, const struct xp_merge_in *m, const char *name)
{
	fprintf(f, "%-28.28s %14.3f %14.3f", name, m->sent_bps / 1e6, m->recv_bps / 1e6);
	if (m->rr)
		fprintf(f, " %12llu %12.1f %9.2f %9.2f", (unsigned long long)m->transactions,
			m->tps, xp_hist_percentile(m->hist, 50) / 1e3,
			xp_hist_percentile(m->hist, 99) / 1e3);
	fputc('\n', f);
}

void xp_merge_print(FILE *f, const struct xp_merge_in *ins, int n,
		    const struct xp_merge_in *total)
{
	int i;

	fprintf(f, "%-28s %14s %14s", "input", "sent Mbit/s", "recv Mbit/s");
	if (total->rr)
		fprintf(f, " %12s %12s %9s %9s", "trans", "trans/s", "p50 us", "p99 us");
	fputc('\n', f);
	for (i = 0; i < n; i++)
		print_row(f, &ins[i], ins[i].name);
	print_row(f, total, "total");
	fprintf(f, "total bytes sent %llu, received %llu",
		(unsigned long long)total->sent_bytes, (unsigned long long)total->recv_bytes);
	if (total->rr)
		fprintf(f, "; latency of all %llu samples (us): min %.2f p50 %.2f p90 %.2f "
			"p99 %.2f p99.9 %.2f max %.2f",
			(unsigned long long)xp_hist_count(total->hist),
			(double)xp_hist_min(total->hist) / 1e3, xp_hist_percentile(total->hist, 50) / 1e3,
			xp_hist_percentile(total->hist, 90) / 1e3, xp_hist_percentile(total->hist, 99) / 1e3,
			xp_hist_percentile(total->hist, 99.9) / 1e3, (double)xp_hist_max(total->hist) / 1e3);
	fputc('\n', f);
}

static char *slurp(const char *path, size_t *len, struct xp_err *err)
{
	FILE *f = fopen(path, "re");
	char *buf = f ? malloc(FILE_MAX + 1) : NULL;

	if (!f)
		return xp_err_sys(err, errno, "%s", path), NULL;
	if (!buf) {
		fclose(f);
		return xp_err_set(err, "%s: out of memory", path), NULL;
	}
	*len = fread(buf, 1, FILE_MAX + 1, f);
	fclose(f);
	if (*len > FILE_MAX) {
		free(buf);
		return xp_err_set(err, "%s: larger than %u MiB", path, FILE_MAX >> 20), NULL;
	}
	return buf;
}

static int read_file(const char *path, struct xp_merge_in *in, struct xp_err *err)
{
	size_t len;
	char *text = slurp(path, &len, err);
	int rc;

	if (!text)
		return -1;
	rc = xp_merge_read(text, len, path, in, err);
	free(text);
	return rc;
}

/* The fan-out's document (client/fleet/merge.h), a host per file. */
static void print_json(const struct xp_merge_in *ins, int n, const struct xp_merge_in *total)
{
	struct xp_json j;
	int i;

	xp_json_init(&j, 1);
	xp_json_obj_open(&j, NULL);
	xp_merge_json_head(&j, ins, n, total, total->flows);
	xp_json_u64(&j, "hosts_failed", 0);
	xp_json_arr_open(&j, "hosts");
	for (i = 0; i < n; i++)
		xp_merge_json_host(&j, &ins[i], NULL, ins[i].name);
	xp_json_arr_close(&j);
	xp_merge_json_end(&j, ins, n, total);
	xp_json_obj_close(&j);
	fputs(j.oom ? "{\"error\": \"out of memory formatting JSON\"}\n" : xp_json_str(&j),
	      stdout);
	xp_json_free(&j);
}

static int merge_files(char **files, int n, int json, struct xp_err *err)
{
	struct xp_merge_in *ins = calloc((size_t)n, sizeof(*ins)), total;
	int i, rc = -1;

	memset(&total, 0, sizeof(total));
	if (!ins)
		return xp_err_set(err, "out of memory");
	for (i = 0; i < n; i++)
		if (read_file(files[i], &ins[i], err) || xp_merge_add(&total, &ins[i], err))
			goto out;
	if (json) {
		print_json(ins, n, &total);
	} else {
		printf("xperf merge: %d %s results\n", n, total.test);
		xp_merge_print(stdout, ins, n, &total);
	}
	rc = 0;
out:
	for (i = 0; i < n; i++)
		xp_merge_free(&ins[i]);
	xp_merge_free(&total);
	free(ins);
	return rc;
}

static const struct xp_argdef merge_opts[] = {
	{ 'J', "json", XP_ARG_NONE },
	{ 'h', "help", XP_ARG_NONE },
};
#define NOPTS (sizeof(merge_opts) / sizeof(merge_opts[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: xperf merge [-J|--json] [--] RESULT.json...\n"
		   "  adds the results of tests that ran at the same time (xperf --json\n"
		   "  files of one test type): bytes, datagrams, transactions and rates\n"
		   "  are summed, latency histograms merged exactly; options may come\n"
		   "  before or after the files, and every word after -- is a file\n");
}

/* Options anywhere; the files, in order, into files[] (room for argc). */
static int parse(int argc, char **argv, char **files, int *n, int *json, int *help,
		 struct xp_err *err)
{
	struct xp_argscan s;
	const char *val;
	int k;

	*n = *json = *help = 0;
	xp_argscan_init(&s, argc, argv);
	while ((k = xp_argscan_next(&s, merge_opts, NOPTS, &val, err)) != XP_ARGS_END) {
		if (k == XP_ARGS_ERROR)
			return -1;
		if (k == XP_ARGS_OPERAND)
			files[(*n)++] = (char *)val;
		else if (merge_opts[k].sc == 'J')
			*json = 1;
		else
			*help = 1;
	}
	return 0;
}

int xp_merge_main(int argc, char **argv)
{
	struct xp_err err;
	char **files = calloc((size_t)argc + 1, sizeof(*files));
	int n, json, help, rc = XP_EXIT_OK;

	if (!files) {
		fprintf(stderr, "xperf merge: out of memory\n");
		return XP_EXIT_FAIL;
	}
	if (parse(argc, argv, files, &n, &json, &help, &err)) {
		fprintf(stderr, "xperf merge: %s (see xperf merge --help)\n", err.msg);
		rc = XP_EXIT_USAGE;
	} else if (help || !n) {
		usage(help ? stdout : stderr);
		rc = help ? XP_EXIT_OK : XP_EXIT_USAGE;
	} else if (merge_files(files, n, json, &err)) {
		fprintf(stderr, "xperf merge: %s\n", err.msg);
		rc = XP_EXIT_FAIL;
	}
	free(files);
	return rc;
}
