/* SPDX-License-Identifier: BSD-2-Clause */
/* xperf lab's command line: its own options (lab/lab_opts.def), and the
 * rest handed to the main option parser once per test, so every test
 * option (-l, -m, -P, --nodelay, --json ...) means what it means for a
 * plain xperf run. */
#ifndef XP_LAB_OPTS_H
#define XP_LAB_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "common/err.h"
#include "common/opts.h"
#include "lab/plan.h"

#define XP_LAB_TOPOS_MAX 12
#define XP_LAB_TESTS_MAX 6
#define XP_LAB_ARGS_MAX 128

#define XP_LAB_TYPE_FLAG int
#define XP_LAB_TYPE_STR const char *
#define XP_LAB_TYPE_UINT uint64_t
#define XP_LAB_TYPE_LIST struct xp_lab_list

struct xp_lab_list {
	const char *v[XP_LAB_SYSCTL_MAX];
	int n;
};

struct xp_lab_args {
#define XP_LAB_OPT(field, sc, lname, kind, meta, def, max, help) \
	XP_LAB_TYPE_##kind field;
#include "lab/lab_opts.def"
#undef XP_LAB_OPT
};

/* Each lab option's index, for xp_lab_cfg.given. */
enum xp_lab_opt_index {
#define XP_LAB_OPT(field, sc, lname, kind, meta, def, max, help) XP_LAB_OPT_##field,
#include "lab/lab_opts.def"
#undef XP_LAB_OPT
	XP_LAB_NOPTS
};

/* Everything the lab needs, validated. */
struct xp_lab_cfg {
	struct xp_lab_args a;
	unsigned char given[XP_LAB_NOPTS]; /* the option was on the command line */
	const struct xp_lab_topo *topo[XP_LAB_TOPOS_MAX];
	int ntopo;
	struct xp_opts opts[XP_LAB_TESTS_MAX]; /* one per test, in -t order */
	int ntests;
	struct xp_lab_knobs knobs;
	char *pass[XP_LAB_ARGS_MAX];  /* the test options, as given */
	int npass;
	char lists[512];              /* storage for the split lists */
};

/* Parse argv (argv[0] is "lab").  0, or -1 with a one-line message. */
int xp_lab_parse(struct xp_lab_cfg *c, int argc, char **argv, struct xp_err *err);
void xp_lab_usage(FILE *f);
/* "--egress-rate" value: "100m", "1.5g", "800k", "2000000" (bit/s, x1000). */
int xp_lab_parse_rate(const char *s, uint64_t *bps, struct xp_err *err);
/* "--offload" value into knobs->offload[]. */
int xp_lab_parse_offload(const char *s, int *offload, struct xp_err *err);

#endif
