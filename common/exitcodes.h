/* SPDX-License-Identifier: BSD-2-Clause */
/* Process exit statuses: part of the interface, documented in xperf(1). */
#ifndef XP_EXITCODES_H
#define XP_EXITCODES_H

enum xp_exit {
	XP_EXIT_OK = 0,     /* test ran and completed */
	XP_EXIT_FAIL = 1,   /* could not connect, or the test did not complete */
	XP_EXIT_USAGE = 2,  /* bad command line */
	XP_EXIT_SLO = 3,    /* test completed but an --slo bound was missed */
};

#endif
