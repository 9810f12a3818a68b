/* SPDX-License-Identifier: BSD-2-Clause */
/* Rate-limited log lines (common/ratelog.h). */
#include "common/ratelog.h"

#include <stdarg.h>

#include "common/clock.h"
#include "common/log.h"

void xp_ratelog(FILE *log, struct xp_ratelog *r, const char *fmt, ...)
{
	uint64_t now = xp_now_ns();
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
	va_end(ap);
	if (r->last_ns && now - r->last_ns < XP_NS_PER_SEC) {
		r->held++;
		return;
	}
	if (r->held)
		xp_log(log, "%s (and %llu more like it in the last %.1f s)", r->text,
		       (unsigned long long)r->held, (double)(now - r->last_ns) / XP_NS_PER_SEC);
	else
		xp_log(log, "%s", r->text);
	r->held = 0;
	r->last_ns = now;
}

void xp_ratelog_flush(FILE *log, struct xp_ratelog *r)
{
	uint64_t now = xp_now_ns();

	if (!r->held || now - r->last_ns < XP_NS_PER_SEC)
		return;
	xp_log(log, "%llu more in the last %.1f s like: %s", (unsigned long long)r->held,
	       (double)(now - r->last_ns) / XP_NS_PER_SEC, r->text);
	r->held = 0;
	r->last_ns = now;
}
