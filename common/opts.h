/* SPDX-License-Identifier: BSD-2-Clause */
/* Command-line options: struct, parser, defaults and --help, all generated
 * from common/opts.def so they cannot disagree. */
#ifndef XP_OPTS_H
#define XP_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "common/argscan.h"
#include "common/err.h"

#define XP_TYPE_FLAG int
#define XP_TYPE_STR const char *
#define XP_TYPE_SIZE uint64_t
#define XP_TYPE_UINT uint64_t
#define XP_TYPE_SECS uint64_t
#define XP_TYPE_SECS0 uint64_t
#define XP_TYPE_TEST int
#define XP_TYPE_RATE uint64_t
#define XP_TYPE_OSTR const char *
#define XP_TYPE_MULTI struct xp_strs

/* An option that may be given several times (MULTI): its values in order. */
#define XP_STRS_MAX 8
struct xp_strs {
	const char *v[XP_STRS_MAX];
	unsigned n;
};

/* Each option's position in the table, for xp_opts_given. */
enum xp_opt_index {
#define XP_SECTION(title)
#define XP_OPT(field, sc, lname, kind, meta, def, max, help) XP_OPTI_##field,
#include "common/opts.def"
#undef XP_OPT
#undef XP_SECTION
	XP_OPT_COUNT
};

struct xp_opts {
#define XP_SECTION(title)
#define XP_OPT(field, sc, lname, kind, meta, def, max, help) \
	XP_TYPE_##kind field;
#include "common/opts.def"
#undef XP_OPT
#undef XP_SECTION
	/* not an option: -t RRUL's load asks for a self probe on each of its
	 * flows this often (client/mixed/run.c); 0 none */
	uint64_t self_probe_ns;
	int argc;    /* the command line, for captions (xp_opts_parse) */
	char **argv;
	unsigned char given[XP_OPT_COUNT]; /* set on the command line, not a default */
};

/* 1 if the option `field` was on the command line (not its default). */
#define xp_opts_given(o, field) ((o)->given[XP_OPTI_##field])

/* Fill defaults, then parse argv.  Validation of combinations is done
 * here too, in one place.  0, or -1 with a one-line message in err. */
int xp_opts_parse(struct xp_opts *o, int argc, char **argv,
		  struct xp_err *err);

/* The same with XP_OPTS_* flags. */
#define XP_OPTS_MATRIX 1u /* one set of options for several tests (xperf lab):
			   * options that do nothing in this test (-N with UDP,
			   * --nagle or --percentiles with a stream test ...)
			   * are not usage errors */
int xp_opts_parse_flags(struct xp_opts *o, int argc, char **argv, unsigned flags,
			struct xp_err *err);
/* Each option of argv, in its order, by its long name and value (NULL:
 * none), however it was typed (a prefix, a group of letters, "--name=v");
 * operands are skipped.  fn returns nonzero to stop.  0, or -1 on a word
 * that does not parse or a stop. */
int xp_opts_each(int argc, char **argv,
		 int (*fn)(void *ctx, const char *lname, const char *val), void *ctx);
/* The option table as the command-line scanner reads it (common/argscan.h),
 * for a mode that reads these options among its own (xperf lab): one row
 * per option, at most cap; the count. */
size_t xp_opts_argdefs(struct xp_argdef *defs, size_t cap);
/* Set the numeric option named by its long name ("msg-size") from text
 * ("64K"), as the command line would; then xp_opts_check.  For --sweep.
 * -1 with err for an unknown or non-numeric option or a bad value. */
int xp_opts_set_numeric(struct xp_opts *o, const char *lname, const char *value,
			struct xp_err *err);
/* The value of that numeric option (seconds for durations).  0 or -1. */
int xp_opts_get_numeric(const struct xp_opts *o, const char *lname, double *v);
/* The unit of a numeric option's value: "B", "bit/s", "s" or "". */
const char *xp_opts_unit(const char *lname);
/* The validation xp_opts_parse runs, again (after xp_opts_set_numeric). */
int xp_opts_check(struct xp_opts *o, struct xp_err *err);

/* Only the defaults (what an empty command line gives). */
void xp_opts_defaults(struct xp_opts *o);

/* --help text, generated from the table. */
void xp_opts_usage(FILE *f, const char *prog);

/* Effective sizes after defaults that depend on the test. */
uint64_t xp_opts_req_size(const struct xp_opts *o);
uint64_t xp_opts_rsp_size(const struct xp_opts *o);

/* TCP_NODELAY for this test: asked for, or a stream test without --nagle. */
int xp_opts_nodelay(const struct xp_opts *o);

/* 1 if this side (remote: the server) sends a TCP bulk test's data. */
int xp_opts_tcp_sender(const struct xp_opts *o, int remote);

/* The TOS byte --tos or --dscp asks for; -1 when neither is given. */
int xp_opts_tos(const struct xp_opts *o);

/* --timestamps: the strftime(3) format of the interval lines' prefix;
 * NULL when not asked. */
const char *xp_opts_timestamp_format(const struct xp_opts *o);

/* The test shape (common/opts_shape.c): -R, --bidir, --omit, -n and -k
 * checked against the test and each other; -R replaces o->test by its
 * reverse twin.  Called by xp_opts_parse.  0, or -1 with err. */
int xp_opts_validate_shape(struct xp_opts *o, struct xp_err *err);
/* Flows the test opens: -P, twice with --bidir (the second half runs the
 * test's reverse twin). */
uint64_t xp_opts_flows_total(const struct xp_opts *o);
/* -n/-k as the units each direction's senders send in all: bytes (TCP
 * bulk), datagrams (UDP bulk, -n / -m) or transactions (RR); 0: none. */
uint64_t xp_opts_quota(const struct xp_opts *o);
/* The bound on the test's length: -l, or with -n/-k and no -l 3600 s. */
uint64_t xp_opts_duration_ns(const struct xp_opts *o);
/* The RR warm-up that runs: --warmup, none with -k. */
uint64_t xp_opts_warmup_ns(const struct xp_opts *o);

/* One line per option, "-m|--msg-size", for tests that compare the
 * table with the man page. */
void xp_opts_list(FILE *f);

#endif
