/* SPDX-License-Identifier: BSD-2-Clause */
/* Inside the option module (common/opts.c, common/opts_check.c): the
 * descriptor table common/opts.def generates, and the validation that
 * xp_opts_parse runs after parsing. */
#ifndef XP_OPTS_INT_H
#define XP_OPTS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "common/opts.h"

enum xp_opt_kind { XP_K_FLAG, XP_K_STR, XP_K_SIZE, XP_K_UINT, XP_K_SECS, XP_K_SECS0,
		   XP_K_TEST, XP_K_RATE, XP_K_OSTR, XP_K_MULTI, XP_K_SECTION };

/* Where a section's options apply (XP_SECTION_FOR in opts.def). */
enum xp_opt_side { XP_SIDE_ANY = 0, XP_SIDE_CLIENT, XP_SIDE_SERVER };

struct xp_opt_desc {
	char sc;
	const char *lname;
	enum xp_opt_kind kind;
	const char *meta;
	const char *def;
	uint64_t max;
	const char *help;
	size_t off;
	int side; /* sections: enum xp_opt_side */
	int idx;  /* enum xp_opt_index (o->given); -1 for a section */
};

/* The table, in opts.def's order, sections included. */
extern const struct xp_opt_desc xp_opt_descs[];
extern const size_t xp_opt_ndescs;

/* Check the combinations of o's values (o->given says which were on the
 * command line); flags are XP_OPTS_*.  0, or -1 with err. */
int xp_opts_validate(struct xp_opts *o, unsigned flags, struct xp_err *err);
/* -t RRUL's options (common/opts_mixed.c): with RRUL, only the options it
 * takes, and sane values; with another test, none of RRUL's own. */
int xp_opts_validate_mixed(const struct xp_opts *o, struct xp_err *err);
/* --one-way (common/opts_owd.c). */
int xp_opts_validate_owd(const struct xp_opts *o, struct xp_err *err);

#endif
