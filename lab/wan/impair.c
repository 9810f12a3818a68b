/* SPDX-License-Identifier: BSD-2-Clause */
#include "lab/wan/impair.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/units.h"

#define MS_MAX 60000.0               /* one minute each way */
#define NS_PER_MS 1000000.0
#define LIMIT_MAX (1ull << 32)       /* 4 GiB */
#define NORATE_BPS 10000000000.0     /* no --link-rate: size for 10 Gbit/s in flight */
#define NORATE_PAD (4ull << 20)
#define NORATE_CAP (512ull << 20)
#define BACKLOG_NS 50000000.0        /* 50 ms of the rate queued */
#define FRAME_PAD (2ull * 65536)

enum kind { MS, PCT, RATE, BYTES };

/* One value of kind k from s[0, len). */
static int one(const char *s, size_t len, enum kind k, const char *what,
	       double *v, struct xp_err *err)
{
	char buf[64], *end;
	uint64_t u;

	if (!len || len >= sizeof(buf))
		return xp_err_set(err, "%s: empty or overlong value in '%s'", what, s);
	snprintf(buf, sizeof(buf), "%.*s", (int)len, s);
	if (k == RATE && !strcmp(buf, "0")) {
		*v = 0; /* no rate limit that way */
		return 0;
	}
	if (k == RATE || k == BYTES) {
		if (k == RATE ? xp_wan_parse_rate(buf, what, &u, err)
			      : xp_parse_size(buf, LIMIT_MAX, what, &u, err))
			return -1;
		*v = (double)u;
		return 0;
	}
	*v = strtod(buf, &end);
	if (end == buf || !isdigit((unsigned char)buf[0]) ||
	    (*end && !(k == PCT && !strcmp(end, "%"))))
		return xp_err_set(err, "%s: '%s' is not a %s", what, buf,
				  k == MS ? "number of milliseconds (e.g. 10, 0.5)"
					  : "percentage (e.g. 1, 0.1, 25%)");
	if (!(*v <= (k == MS ? MS_MAX : 100.0)))
		return xp_err_set(err, "%s: '%s' is above %s", what, buf,
				  k == MS ? "60000 ms" : "100 %");
	return 0;
}

/* "A" (both directions) or "A/B" (client to server, server to client). */
static int pair(const char *s, enum kind k, const char *what, double v[XP_WAN_DIRS],
		struct xp_err *err)
{
	const char *slash = strchr(s, '/');

	if (!slash)
		return one(s, strlen(s), k, what, &v[0], err) ? -1 : (v[1] = v[0], 0);
	if (strchr(slash + 1, '/'))
		return xp_err_set(err, "%s: '%s': one value, or two as CLIENT-TO-SERVER/"
				  "SERVER-TO-CLIENT", what, s);
	if (one(s, (size_t)(slash - s), k, what, &v[0], err))
		return -1;
	return one(slash + 1, strlen(slash + 1), k, what, &v[1], err);
}

uint64_t xp_wan_pct_thr(double pct)
{
	if (pct <= 0)
		return 0;
	if (pct >= 100)
		return UINT64_MAX;
	return (uint64_t)(pct / 100.0 * 18446744073709551616.0);
}

static void prob(struct xp_wan_prob *p, double pct)
{
	p->pct = pct;
	p->thr = xp_wan_pct_thr(pct);
}

uint64_t xp_wan_default_limit(const struct xp_wan_dir *d)
{
	double s = (double)(d->delay_ns + d->jitter_ns) / 1e9, v;

	if (d->rate_bps) {
		v = (double)d->rate_bps / 8 * (s + BACKLOG_NS / 1e9) + (double)FRAME_PAD;
		return v > (double)LIMIT_MAX ? LIMIT_MAX : (uint64_t)v;
	}
	v = NORATE_BPS / 8 * s + (double)NORATE_PAD;
	return v > (double)NORATE_CAP ? NORATE_CAP : (uint64_t)v;
}

enum field { F_DELAY, F_JITTER, F_LOSS, F_REORDER, F_DUP, F_RATE, F_LIMIT };

static void put(struct xp_wan_dir *x, enum field f, double v)
{
	switch (f) {
	case F_DELAY: x->delay_ns = (uint64_t)(v * NS_PER_MS + 0.5); break;
	case F_JITTER: x->jitter_ns = (uint64_t)(v * NS_PER_MS + 0.5); break;
	case F_LOSS: prob(&x->loss, v); break;
	case F_REORDER: prob(&x->reorder, v); break;
	case F_DUP: prob(&x->duplicate, v); break;
	case F_RATE: x->rate_bps = (uint64_t)v; break;
	case F_LIMIT: x->limit_bytes = (uint64_t)v; x->limit_given = 1; break;
	}
}

uint32_t xp_wan_netem_limit(const struct xp_wan_dir *d)
{
	uint64_t n = (d->limit_bytes + 1513) / 1514;

	return n > UINT32_MAX ? UINT32_MAX : n ? (uint32_t)n : 1;
}

/* Each given option into both directions. */
static int values(struct xp_wan *w, const struct xp_wan_args *a, struct xp_err *err)
{
	const struct { const char *s; enum field f; enum kind k; const char *name; } opt[] = {
		{ a->delay, F_DELAY, MS, "--delay" },
		{ a->jitter, F_JITTER, MS, "--jitter" },
		{ a->loss, F_LOSS, PCT, "--loss" },
		{ a->reorder, F_REORDER, PCT, "--reorder" },
		{ a->duplicate, F_DUP, PCT, "--duplicate" },
		{ a->rate, F_RATE, RATE, "--link-rate" },
		{ a->limit, F_LIMIT, BYTES, "--queue-limit" },
	};
	size_t i;

	for (i = 0; i < sizeof(opt) / sizeof(opt[0]); i++) {
		double v[XP_WAN_DIRS];

		if (!opt[i].s)
			continue;
		if (pair(opt[i].s, opt[i].k, opt[i].name, v, err))
			return -1;
		w->on = 1;
		put(&w->d[XP_WAN_C2S], opt[i].f, v[XP_WAN_C2S]);
		put(&w->d[XP_WAN_S2C], opt[i].f, v[XP_WAN_S2C]);
	}
	return 0;
}

static int with(struct xp_wan *w, const char *s, struct xp_err *err)
{
	if (!s || !strcmp(s, "auto"))
		w->with = XP_WAN_AUTO;
	else if (!strcmp(s, "netem"))
		w->with = XP_WAN_NETEM;
	else if (!strcmp(s, "line"))
		w->with = XP_WAN_LINE;
	else
		return xp_err_set(err, "--impair-with: auto, netem or line, not '%s'", s);
	if (s && strcmp(s, "auto"))
		w->on = 1;
	return 0;
}

int xp_wan_parse(struct xp_wan *w, const struct xp_wan_args *a, struct xp_err *err)
{
	int d;

	memset(w, 0, sizeof(*w));
	w->seed = a->seed;
	if (values(w, a, err) || with(w, a->with, err))
		return -1;
	for (d = 0; d < XP_WAN_DIRS; d++) {
		struct xp_wan_dir *x = &w->d[d];

		if (x->reorder.thr && !x->delay_ns)
			return xp_err_set(err, "--reorder %s: needs a --delay in that direction "
					  "(a reordered frame is one sent ahead of delayed ones)",
					  a->reorder);
		if (x->limit_given && x->limit_bytes < 2 * 65536)
			return xp_err_set(err, "--queue-limit %s: at least 128K (two of the "
					  "largest frames)", a->limit);
		if (!x->limit_given)
			x->limit_bytes = xp_wan_default_limit(x);
	}
	return 0;
}

int xp_wan_parse_rate(const char *s, const char *what, uint64_t *bps, struct xp_err *err)
{
	char *end;
	double v = strtod(s, &end);
	double mult = 1;

	if (end == s || !isdigit((unsigned char)*s))
		return xp_err_set(err, "%s: '%s' is not a rate (e.g. 100m)", what, s);
	if (*end && strchr("kKmMgG", *end)) {
		mult = *end == 'k' || *end == 'K' ? 1e3 : *end == 'm' || *end == 'M' ? 1e6 : 1e9;
		end++;
	}
	if (*end && strcasecmp(end, "bit"))
		return xp_err_set(err, "%s: '%s': unknown unit (k, m, g, optional "
				  "\"bit\"; bits per second)", what, s);
	v *= mult;
	if (!(v >= 8000 && v <= 1e12))
		return xp_err_set(err, "%s: '%s' outside 8k..1000g bit/s", what, s);
	*bps = (uint64_t)v;
	return 0;
}

const char *xp_wan_with_name(enum xp_wan_with with)
{
	return with == XP_WAN_NETEM ? "netem" : with == XP_WAN_LINE ? "line" : "auto";
}
