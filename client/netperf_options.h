/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's two option tables (global, and test-specific after "--"),
 * shared by the parser and usage text in client/netperf_args.c and
 * defined, with what each option does, in client/netperf_options.c.
 * Internal to those two files. */
#ifndef XP_NETPERF_OPTIONS_H
#define XP_NETPERF_OPTIONS_H

#include <stddef.h>

#include "client/netperf.h"
#include "common/err.h"

#define SIZE_MAX_NP (1ull << 30)

enum arg_kind {
	A_NONE,     /* flag */
	A_REQ,      /* value required (attached or next word) */
	A_OPT_NUM,  /* -c/-C: a following word that starts with a digit */
	A_OPT_SPEC, /* -k/-o/-O: a following word that does not start with '-' */
};

typedef int (*np_set_fn)(struct xp_np_cfg *c, const char *arg,
			 struct xp_err *err);

/* An option either calls set, or stores val into the int field at flag,
 * or (neither) is accepted and ignored. */
struct np_opt {
	char letter;
	enum arg_kind kind;
	np_set_fn set;
	size_t flag;
	int val;
	const char *meta;
	const char *help;
};

#define NO_FLAG ((size_t)-1)

/* The global options and the test-specific ones, with their counts. */
extern const struct np_opt xp_np_global_opts[];
extern const size_t xp_np_nglobal;
extern const struct np_opt xp_np_test_opts[];
extern const size_t xp_np_ntest;

#endif
