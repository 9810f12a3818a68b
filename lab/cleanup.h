/* SPDX-License-Identifier: BSD-2-Clause */
/* xperf lab --cleanup: remove what killed lab runs left behind.  Every
 * lab namespace is named xperf-<pid>-<letter> and every link it made lives
 * inside one (none in the root namespace), so removing the namespaces of
 * runs whose process is gone removes everything.  Namespaces of a live
 * xperf process are left alone: that run cleans up after itself. */
#ifndef XP_LAB_CLEANUP_H
#define XP_LAB_CLEANUP_H

#include "common/err.h"
#include "lab/plan.h"

#define XP_LAB_CLEAN_MAX 256

struct xp_lab_clean {
	char removed[XP_LAB_CLEAN_MAX][XP_LAB_NSNAME];
	int nremoved;
	char in_use[XP_LAB_CLEAN_MAX][XP_LAB_NSNAME]; /* a live run's */
	int nin_use;
	int failed;                 /* removals that failed */
	struct xp_err err;          /* the first failure */
};

/* Remove stale lab namespaces (all of them whose pid is not a live xperf;
 * only_pid > 0: only that run's, whatever its state).  0, or -1 if the
 * namespace directory could not be read or a removal failed. */
int xp_lab_cleanup(struct xp_lab_clean *r, unsigned only_pid);

#endif
