/* SPDX-License-Identifier: BSD-2-Clause */
/* Internal to the iperf3 front end's command line (client/iperf3/args.c,
 * client/iperf3/optab.c): the option table. */
#ifndef XP_IPERF3_FE_INT_H
#define XP_IPERF3_FE_INT_H

#include <stddef.h>

#include "client/iperf3/fe.h"

enum xp_i3fe_arg { XP_I3A_NONE = 0, XP_I3A_REQ, XP_I3A_OPT };
/* Where an option belongs: iperf3 refuses a client option with -s
 * ("client only") and a server option with -c ("server only"). */
enum xp_i3fe_side { XP_I3S_ANY = 0, XP_I3S_CLIENT, XP_I3S_SERVER };

struct xp_i3fe_opt {
	const char *lname;   /* long name, or NULL */
	char letter;         /* short letter, or 0 */
	unsigned char arg;   /* enum xp_i3fe_arg */
	unsigned char side;  /* enum xp_i3fe_side */
	/* Take the value (NULL for XP_I3A_NONE, or an XP_I3A_OPT given
	 * without one).  0, or -1 with iperf3's message in err. */
	int (*set)(struct xp_i3fe_cfg *c, const char *v, struct xp_err *err);
	const char *meta;    /* the argument in the usage text */
	const char *help;    /* NULL: not in the usage text (an alias) */
};

extern const struct xp_i3fe_opt xp_i3fe_opts[];
extern const size_t xp_i3fe_nopts;

/* A number as iperf3 reads sizes and rates: decimals allowed, an
 * optional k, m, g or t suffix (either case) multiplying by kilo,
 * kilo^2 ... (kilo 1024 for sizes, 1000 for rates), nothing after.
 * 0, or -1 with err naming what. */
int xp_i3fe_num(const char *s, double kilo, const char *what, double *out, struct xp_err *err);

#endif
