/* SPDX-License-Identifier: BSD-2-Clause */
/* --dry-run output: a plan as equivalent shell commands (ip, tc,
 * ethtool, sysctl), one per line, that a user can run by hand as root. */
#ifndef XP_LAB_RENDER_H
#define XP_LAB_RENDER_H

#include <stdio.h>

#include "lab/plan.h"

/* One step (htb: two lines).  Ends with a newline. */
void xp_lab_render_step(FILE *f, const struct xp_lab_plan *p,
			const struct xp_lab_step *s);
/* The whole plan, with a header, the test commands and the teardown as
 * comments.  what: the topology's description; test_args: shell-quoted
 * test options for the commented client command, or NULL. */
void xp_lab_render(FILE *f, const struct xp_lab_plan *p, const char *what,
		   const char *test_args);
/* s as one shell word (quoted only when needed). */
void xp_lab_shell_word(FILE *f, const char *s);

#endif
