/* SPDX-License-Identifier: BSD-2-Clause */
/* Why the client's workers waited as they did: the report's mode line and
 * end.worker_mode_reason. */
#ifndef XP_MODE_REASON_H
#define XP_MODE_REASON_H

#include "common/opts.h"

/* The reason, from the options and the test (the rules of
 * common/engine/direct.c) and whether a worker ran in direct mode.  Pure;
 * a static string. */
const char *xp_mode_reason(const struct xp_opts *o, int test, int direct);

#endif
