/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's two option tables, shared by the parser and usage text in
 * client/netperf/args.c: the global one, with its setters and the
 * argument helpers both use, in client/netperf/options.c, and the
 * test-specific one (after "--") in client/netperf/options_test.c.
 * Internal to those files and client/netperf/map.c. */
#ifndef XP_NETPERF_OPTIONS_H
#define XP_NETPERF_OPTIONS_H

#include <stddef.h>

#include "client/netperf/netperf.h"
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

/* An option calls set, or stores val into the int field at flag, or is
 * refused (a usage error: "-a: <help> is not supported by xperf"), or
 * (none of these) is accepted and does nothing, which its help must say
 * is all netperf does too or what happens anyway. */
struct np_opt {
	char letter;
	enum arg_kind kind;
	np_set_fn set;
	size_t flag;
	int val;
	const char *meta;
	const char *help;
	int refused;
};

#define NO_FLAG ((size_t)-1)

#define FN(l, k, fn, meta, help) { l, k, fn, NO_FLAG, 0, meta, help, 0 }
#define IGN(l, k, meta, help) { l, k, NULL, NO_FLAG, 0, meta, help, 0 }
#define FLAG(l, k, field, v, meta, help) \
	{ l, k, NULL, offsetof(struct xp_np_cfg, field), v, meta, help, 0 }
#define NOSUP(l, k, meta, what) { l, k, NULL, NO_FLAG, 0, meta, what, 1 }

/* The global options and the test-specific ones, with their counts. */
extern const struct np_opt xp_np_global_opts[];
extern const size_t xp_np_nglobal;
extern const struct np_opt xp_np_test_opts[];
extern const size_t xp_np_ntest;

/* ---- argument helpers (client/netperf/options.c) ---- */

/* "a,b" into a and b (each at most len - 1 characters).  With both set, a
 * lone value sets both (netperf's break_args); without, only a
 * (break_args_explicit). */
void xp_np_split_pair(const char *s, int both, char *a, char *b, size_t len);
/* A decimal integer in [lo, hi] into *out; what names the option. */
int xp_np_parse_int(const char *s, long lo, long hi, const char *what, int *out,
		    struct xp_err *err);
/* Both halves of a "x,y" size pair, each optional. */
int xp_np_size_pair(const char *arg, int both, const char *what, uint64_t *a,
		    uint64_t *b, struct xp_err *err);
/* netperf's address family names ("inet", "inet6", "4", "6", "AF_INET6"
 * ...): AF_INET, AF_INET6, or AF_UNSPEC. */
int xp_np_parse_family(const char *s);
/* "host[,family]": the host into buf (or NULL when empty) as *host, the
 * family (AF_UNSPEC when not given) into *family. */
int xp_np_host_family(const char *arg, const char *what, char *buf, size_t len,
		      const char **host, int *family, struct xp_err *err);
/* 1 if two host names or addresses name the same host as written:
 * numeric addresses compared as addresses (::1 and 0:0::1 are one),
 * names compared without regard to case. */
int xp_np_same_host(const char *a, const char *b);

/* ---- what the test options map to (client/netperf/map.c) ---- */

/* After parsing: the test's -H against the global one (the control host;
 * without one it becomes it), the global and test -L into c->local_host,
 * and the families they name into c->family.  0 or -1. */
int xp_np_merge_hosts(struct xp_np_cfg *c, struct xp_err *err);

/* The test-specific options that become xperf options (-e, -G, -F, -P
 * and the -L/-p local address and port), checked against the test once
 * it is known, into c->opts.  0 or -1. */
int xp_np_map_test_opts(struct xp_np_cfg *c, struct xp_err *err);

#endif
