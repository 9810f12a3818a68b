/* SPDX-License-Identifier: BSD-2-Clause */
/* Error reporting for library-style code: functions never print or exit;
 * they fill a caller-owned struct xp_err and return -1.  The message names
 * what failed and with which value, e.g. "connect 10.0.0.2:5310: Connection
 * refused". */
#ifndef XP_ERR_H
#define XP_ERR_H

#include <stddef.h>

#define XP_ERR_MAX 320 /* an error or warning line, with its NUL */

struct xp_err {
	char msg[XP_ERR_MAX];
};

/* Format msg into err (if err is not NULL); always returns -1. */
int xp_err_set(struct xp_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Like xp_err_set, appending ": strerror(errnum)". */
int xp_err_sys(struct xp_err *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
