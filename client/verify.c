/* SPDX-License-Identifier: BSD-2-Clause */
/* Plausibility of the server's figures (client/verify.h).  Every bound is
 * generous: it catches what cannot be, not what is merely unusual. */
#include "client/verify.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked.h"
#include "common/clock.h"
#include "common/tests.h"
#include "common/units.h"

typedef unsigned long long ull;

#define PER_NS_MAX 1e9     /* events a second: more than one a nanosecond is not real */
#define CPU_ID_MAX 65536   /* CPU ids a host may have */
#define SLACK_NS (XP_NS_PER_SEC) /* clocks and the end of a test */

__attribute__((format(printf, 2, 3)))
static void warn(struct xp_client_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nwarnings >= XP_WARNINGS_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(r->warnings[r->nwarnings++], XP_ERR_MAX, fmt, ap);
	va_end(ap);
}

/* The time the server's counts may cover: the client's test, its
 * warm-up, and slack for the ends. */
static double window_s(const struct xp_client_result *r)
{
	uint64_t el = r->local.elapsed_ns > r->local.active_ns ? r->local.elapsed_ns
							      : r->local.active_ns;

	return (double)(el + r->warmup_ns + SLACK_NS) / XP_NS_PER_SEC;
}

static void check_rates(struct xp_client_result *r)
{
	const struct xp_counters *c = &r->remote.c;
	double w = window_s(r), el = (double)r->remote.elapsed_ns / XP_NS_PER_SEC;
	uint64_t bytes = c->bytes_sent > c->bytes_received ? c->bytes_sent : c->bytes_received;
	const uint64_t counts[] = { c->transactions, c->datagrams_sent, c->datagrams_received,
				    c->errors, c->out_of_order, c->duplicates };
	size_t i;

	if ((double)bytes * 8 > XP_LINK_MAX_BPS * w)
		warn(r, "server counted %llu bytes in a %.1f s test: more than any link "
		     "carries", (ull)bytes, w);
	else if (el > 0 && bytes > (1u << 20) && (double)bytes * 8 > XP_LINK_MAX_BPS * el)
		warn(r, "server counted %llu bytes in its %.9f s: more than any link "
		     "carries", (ull)bytes, el);
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if ((double)counts[i] > PER_NS_MAX * w) {
			warn(r, "server counted %llu transactions, datagrams or errors in a "
			     "%.1f s test: more than one a nanosecond", (ull)counts[i], w);
			break;
		}
	if ((double)r->remote.elapsed_ns > (w + 60) * XP_NS_PER_SEC)
		warn(r, "server's test lasted %.0f s, the client's %.1f s", el, w);
}

/* The server cannot receive what the client never sent. */
static void check_exchange(const struct xp_opts *o, struct xp_client_result *r)
{
	const struct xp_test *t = xp_test(r->test);
	const struct xp_counters *s = &r->remote.c, *l = &r->local.c;
	uint64_t open;

	if (!t->udp && !t->server_sends && s->bytes_received > l->bytes_sent)
		warn(r, "server received %llu bytes, the client sent %llu",
		     (ull)s->bytes_received, (ull)l->bytes_sent);
	if (t->udp && s->datagrams_received > l->datagrams_sent)
		warn(r, "server received %llu datagrams, the client sent %llu",
		     (ull)s->datagrams_received, (ull)l->datagrams_sent);
	if (!t->rr)
		return;
	/* a server answers requests: the client's completed ones, those
	 * under way at the end, and (TCP_CRR) those whose answer was lost */
	if (t->udp)
		open = l->datagrams_sent;
	else
		open = l->transactions + l->errors + o->flows * (o->burst ? o->burst : 1);
	if (s->transactions > open)
		warn(r, "server answered %llu requests, the client made %llu",
		     (ull)s->transactions, (ull)open);
}

static void check_cpu(struct xp_client_result *r)
{
	const struct xp_side_result *s = &r->remote;
	uint64_t used;
	double n = (double)(s->ncpus ? s->ncpus : 1), w = window_s(r);

	if (!s->ncpus || s->ncpus > CPU_ID_MAX)
		warn(r, "server reported %llu CPUs online", (ull)s->ncpus);
	if (xp_u64_add(s->cpu_user_us, s->cpu_sys_us, &used) ||
	    (double)used > w * 1e6 * n * 1.1)
		warn(r, "server used %.0f s of CPU in a %.1f s test on %.0f CPUs: more "
		     "than its CPUs have", (double)s->cpu_user_us / 1e6 +
		     (double)s->cpu_sys_us / 1e6, w, n);
	if (s->host_busy_ppm > 1000000)
		warn(r, "server host busy %.0f%% of the time: over 100%%",
		     (double)s->host_busy_ppm / 1e4);
	if (s->max_rss_kb > (1ull << 40))
		warn(r, "server's peak memory %llu KiB: more than a host has",
		     (ull)s->max_rss_kb);
}

static void check_tcp(struct xp_client_result *r)
{
	const struct xp_tcp_totals *t = &r->remote.tcp;

	if (t->cwnd_min > t->cwnd_max || t->mss > (1u << 20) ||
	    t->rtt_us_max > 3600ull * 1000000 || t->rtt_us_min > t->rtt_us_max ||
	    (double)t->delivery_rate_bps > XP_LINK_MAX_BPS * (double)(t->flows ? t->flows : 1) ||
	    t->flows > (1u << 24))
		warn(r, "server's TCP_INFO figures are impossible (rtt, cwnd, mss or "
		     "delivery rate out of range)");
}

/* Each id in [0, CPU_ID_MAX); impossible ones become "?" (never shown as
 * a number, not even a negative one). */
static void check_cpu_ids(struct xp_client_result *r)
{
	char *list = r->remote.cpus, out[sizeof(r->remote.cpus)];
	size_t off = 0;
	int bad = 0;

	while (*list && off + 8 < sizeof(out)) {
		char *end;
		long v = strtol(list, &end, 10);
		int ok = *list >= '0' && *list <= '9' && v < CPU_ID_MAX &&
			 (*end == ',' || !*end);

		bad |= !ok;
		off += (size_t)(ok ? snprintf(out + off, sizeof(out) - off, "%s%ld",
					      off ? "," : "", v)
				   : snprintf(out + off, sizeof(out) - off, "%s?", off ? "," : ""));
		end = strchr(list, ',');
		list = end ? end + 1 : list + strlen(list);
	}
	out[off] = 0;
	if (!bad)
		return;
	warn(r, "server reported worker CPU ids that cannot be (shown as ?)");
	snprintf(r->remote.cpus, sizeof(r->remote.cpus), "%s", out);
}

int xp_verify_result(const struct xp_opts *o, struct xp_client_result *r)
{
	r->nwarnings = 0;
	check_rates(r);
	check_exchange(o, r);
	check_cpu(r);
	check_tcp(r);
	check_cpu_ids(r);
	return r->nwarnings;
}

void xp_verify_print(FILE *f, const struct xp_client_result *r)
{
	int i;

	for (i = 0; i < r->nwarnings; i++)
		fprintf(f, "  warning  %s\n", r->warnings[i]);
}

void xp_verify_json(struct xp_json *j, const struct xp_client_result *r)
{
	int i;

	xp_json_arr_open(j, "warnings");
	for (i = 0; i < r->nwarnings; i++)
		xp_json_str_val(j, NULL, r->warnings[i]);
	xp_json_arr_close(j);
}
