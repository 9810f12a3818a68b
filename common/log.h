/* SPDX-License-Identifier: BSD-2-Clause */
/* Server log: one line per event, with a timestamp, to a FILE (or none). */
#ifndef XP_LOG_H
#define XP_LOG_H

#include <stdio.h>

void xp_log(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
