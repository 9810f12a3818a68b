/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/log.h"

#include <stdarg.h>
#include <time.h>
#include <unistd.h>

void xp_log(FILE *f, const char *fmt, ...)
{
	char line[512], ts[32];
	struct timespec now;
	struct tm tm;
	va_list ap;

	if (!f)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	gmtime_r(&now.tv_sec, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", &tm);
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* one fprintf per line, so lines from several threads do not mix */
	fprintf(f, "%s.%03ldZ xperf[%d]: %s\n", ts, now.tv_nsec / 1000000,
		(int)getpid(), line);
	fflush(f);
}
