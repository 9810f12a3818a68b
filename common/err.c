/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int xp_err_set(struct xp_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int xp_err_sys(struct xp_err *err, int errnum, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	n = strlen(err->msg);
	snprintf(err->msg + n, sizeof(err->msg) - n, ": %s", strerror(errnum));
	return -1;
}
