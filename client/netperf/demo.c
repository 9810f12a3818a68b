/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's demo mode, -D [-]interval[,units]: a line of interim results
 * as the test runs, flushed at once, in the format of the test's output:
 *   classic tables and -O:  Interim result: %7.2f UNITS/s over %.3f
 *                           seconds ending at SECS.MSEC
 *   -o:                     %7.2f,UNITS/s,%.3f,SECS.MSEC
 *   -k:                     NETPERF_INTERIM_RESULT[n]=%.2f, NETPERF_UNITS[n],
 *                           NETPERF_INTERVAL[n], NETPERF_ENDING[n]
 * (flent reads the -k form; ENDING is the wall clock in Unix seconds.)
 * netperf counts work units as it sends and reads the clock when a guess
 * of units says an interval may have passed (positive -D), or after every
 * call (negative -D); xperf's client takes a snapshot of its workers at
 * every interval boundary instead, so both forms give intervals of the
 * length asked.  The value is what netperf counts: bytes sent (stream),
 * bytes received (TCP_MAERTS), transactions (-f x), or request plus
 * response bytes (request/response tests with another -f). */
#include "client/netperf/netperf.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "common/units.h"
#include "proto/msg.h"

#define DEMO_MIN_NS (10 * XP_NS_PER_MS)
#define DEMO_MAX_S 3600.0

int xp_np_parse_demo(struct xp_np_cfg *c, const char *arg, struct xp_err *err)
{
	const char *comma = strchr(arg, ',');
	size_t n = comma ? (size_t)(comma - arg) : strlen(arg);
	char first[64], *end;
	double secs = 1; /* netperf's default interval */

	if (n >= sizeof(first))
		return xp_err_set(err, "-D %s: interval too long", arg);
	memcpy(first, arg, n);
	first[n] = 0;
	c->demo = 1;
	if (*first) {
		secs = strtod(first, &end);
		if (*end || secs != secs)
			return xp_err_set(err, "-D %s: the interval is in seconds, e.g. "
					  "-D 1 or -D -0.2", arg);
		if (secs < 0) {
			secs = -secs;
			c->demo = 2;
		}
	}
	if (secs * 1e9 < DEMO_MIN_NS || secs > DEMO_MAX_S)
		return xp_err_set(err, "-D %s: the interval must be 0.01 to %.0f "
				  "seconds", arg, DEMO_MAX_S);
	c->demo_ns = (uint64_t)(secs * 1e9 + 0.5);
	if (comma && comma[1] && xp_np_parse_size(comma + 1, "-D", &c->demo_units, err))
		return -1;
	return 0;
}

int xp_np_demo_format(char *buf, size_t len, enum xp_np_mode mode, unsigned n,
		      double value, const char *units, double secs, int64_t end_s,
		      int end_ms)
{
	long es = (long)end_s, ems = end_ms;

	if (mode == XP_NP_KEYVAL)
		return snprintf(buf, len, "NETPERF_INTERIM_RESULT[%u]=%.2f\n"
				"NETPERF_UNITS[%u]=%s/s\nNETPERF_INTERVAL[%u]=%.3f\n"
				"NETPERF_ENDING[%u]=%ld.%.3ld\n", n, value, n, units, n,
				secs, n, es, ems);
	if (mode == XP_NP_CSV)
		return snprintf(buf, len, "%7.2f,%s/s,%.3f,%ld.%.3ld\n", value, units,
				secs, es, ems);
	return snprintf(buf, len, "Interim result: %7.2f %s/s over %.3f seconds "
			"ending at %ld.%.3ld\n", value, units, secs, es, ems);
}

/* The units netperf would have counted in the interval. */
static double work_units(const struct xp_np_cfg *c, const struct xp_interval *iv)
{
	const struct xp_test *t = xp_test(c->test);

	if (c->fmt == 'x')
		return (double)iv->transactions;
	if (t->rr)
		return (double)(iv->bytes_sent + iv->bytes_received);
	if (t->server_sends)
		return (double)iv->bytes_received;
	return (double)iv->bytes_sent;
}

double xp_np_demo_value(const struct xp_np_cfg *c, const struct xp_interval *iv)
{
	double secs = iv->end - iv->start;

	if (secs <= 0)
		return 0;
	if (c->fmt == 'x')
		return work_units(c, iv) / secs;
	return xp_np_rate(c->fmt, work_units(c, iv), secs);
}

static void print_line(FILE *f, const struct xp_np_cfg *c, struct xp_np_demo *d)
{
	struct timespec now;
	char line[512];
	enum xp_np_mode mode = c->mode == XP_NP_COLUMNS ? XP_NP_CLASSIC : c->mode;

	clock_gettime(CLOCK_REALTIME, &now);
	xp_np_demo_format(line, sizeof(line), mode, d->n, xp_np_demo_value(c, &d->acc),
			  xp_np_units(c->fmt), d->acc.end - d->acc.start, (int64_t)now.tv_sec,
			  (int)(now.tv_nsec / 1000000));
	fputs(line, f);
	fflush(f);
	d->n++;
	d->pending = 0;
	d->done.end = d->acc.end;
	d->done.bytes_sent += d->acc.bytes_sent;
	d->done.bytes_received += d->acc.bytes_received;
	d->done.transactions += d->acc.transactions;
}

/* netperf prints once at least the interval has passed since its last
 * line, and only after a send, receive or transaction: never a line of
 * nothing.  xperf's intervals come on a fixed grid, a little early or
 * late; one that comes much too soon (the client catching up after a
 * worker answered late), one without a worker's counts (it answered too
 * late) and one in which nothing moved join the next. */
void xp_np_demo_emit(FILE *f, const struct xp_np_cfg *c, struct xp_np_demo *d,
		     const struct xp_interval *iv)
{
	if (!d->pending) {
		memset(&d->acc, 0, sizeof(d->acc));
		d->acc.start = iv->start;
		d->pending = 1;
	}
	d->acc.end = iv->end;
	d->acc.bytes_sent += iv->bytes_sent;
	d->acc.bytes_received += iv->bytes_received;
	d->acc.transactions += iv->transactions;
	if (!iv->late && work_units(c, &d->acc) > 0 &&
	    (d->acc.end - d->acc.start) * 1e9 >= 0.75 * (double)c->demo_ns)
		print_line(f, c, d);
}

/* netperf's last line covers what was done since its previous one: here
 * the run's totals less what the lines printed so far showed, over the
 * rest of the run's time, whether or not the workers answered the last
 * snapshots in time. */
void xp_np_demo_flush(FILE *f, const struct xp_np_cfg *c, struct xp_np_demo *d,
		      const struct xp_client_result *r)
{
	const struct xp_counters *t = &r->local.c;

	memset(&d->acc, 0, sizeof(d->acc));
	d->acc.start = d->done.end;
	d->acc.end = (double)r->local.active_ns / 1e9;
	d->acc.bytes_sent = t->bytes_sent - (t->bytes_sent > d->done.bytes_sent ?
					     d->done.bytes_sent : t->bytes_sent);
	d->acc.bytes_received = t->bytes_received - (t->bytes_received >
		d->done.bytes_received ? d->done.bytes_received : t->bytes_received);
	d->acc.transactions = t->transactions - (t->transactions > d->done.transactions ?
						 d->done.transactions : t->transactions);
	if (d->acc.end - d->acc.start > 0.001 &&
	    d->acc.bytes_sent + d->acc.bytes_received + d->acc.transactions > 0)
		print_line(f, c, d);
	memset(&d->done, 0, sizeof(d->done));
	d->pending = 0;
}
