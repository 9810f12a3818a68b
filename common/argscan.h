/* SPDX-License-Identifier: BSD-2-Clause */
/* A command line read as GNU getopt_long permutes it, without its global
 * state: options may come before, between and after the operands, "--"
 * ends the options (every word after it is an operand, "-x" too), a lone
 * "-" is an operand.  Long options take "--name=value" or "--name value"
 * (an optional value only after "="), and any unique prefix of their name;
 * short ones group ("-Jv"), and take their value attached ("-P4") or as
 * the next word.  POSIXLY_CORRECT changes nothing: the order never
 * matters.  Every error names the argument as it was typed.
 *
 * Each mode describes its options in a table of struct xp_argdef and asks
 * for one item at a time; the operands come back in their order. */
#ifndef XP_ARGSCAN_H
#define XP_ARGSCAN_H

#include <stddef.h>

#include "common/err.h"

enum xp_arg_has { XP_ARG_NONE, XP_ARG_REQ, XP_ARG_OPT };

struct xp_argdef {
	char sc;               /* short letter; 0: none */
	const char *lname;     /* long name; NULL: none (a row never matched) */
	enum xp_arg_has has;
};

/* What xp_argscan_next found besides an option (those are >= 0). */
#define XP_ARGS_END (-1)
#define XP_ARGS_OPERAND (-2)
#define XP_ARGS_ERROR (-3)

struct xp_argscan {
	int argc;
	char **argv;
	int i;               /* the next word */
	const char *cluster; /* the rest of a "-abc" word, or NULL */
	int operands_only;   /* after "--" */
};

/* Start at argv[1] (argv[0] is the program). */
void xp_argscan_init(struct xp_argscan *s, int argc, char **argv);

/* The next item: an option's index in defs[0, n) with *val its value (NULL
 * when it has none), XP_ARGS_OPERAND with *val the word, XP_ARGS_END, or
 * XP_ARGS_ERROR with err naming the argument ("unknown option '--bogus'",
 * "option '-p' needs an argument", "option '--json' takes no argument",
 * "option '--s' is ambiguous (--server, --spin ...)"). */
int xp_argscan_next(struct xp_argscan *s, const struct xp_argdef *defs, size_t n,
		    const char **val, struct xp_err *err);

#endif
