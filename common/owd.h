/* SPDX-License-Identifier: BSD-2-Clause */
/* One-way delay arithmetic, pure: the clock offset between two hosts from
 * NTP-style exchanges, and a one-way delay from two clocks' stamps.
 *
 * An exchange is four CLOCK_REALTIME stamps: t1 the client sent, t2 the
 * server received, t3 the server answered, t4 the client received.  Its
 * round trip is (t4 - t1) - (t3 - t2), and the server's clock is ahead of
 * the client's by offset = ((t2 - t1) + (t3 - t4)) / 2, within half that
 * round trip whatever the asymmetry of the path (RFC 5905 section 8).  Of
 * several exchanges the one with the smallest round trip is kept: the
 * least queueing, the tightest bound. */
#ifndef XP_OWD_H
#define XP_OWD_H

#include <stddef.h>
#include <stdint.h>

struct xp_clock_sample {
	uint64_t t1, t2, t3, t4;
};

struct xp_clock_est {
	int64_t offset_ns;  /* server clock - client clock */
	uint64_t unc_ns;    /* |error| <= this: half the exchange's round trip */
	uint64_t rtt_ns;    /* the kept exchange's round trip */
	uint32_t samples;   /* exchanges that were consistent (t4 >= t1, t3 >= t2) */
};

/* The estimate from n samples; -1 when none is consistent. */
int xp_clock_estimate(const struct xp_clock_sample *s, size_t n, struct xp_clock_est *e);

/* A one-way delay plus bias: arrival (receiver's clock) - sent (sender's
 * clock) - the receiver's clock's lead over the sender's (an int64 in
 * two's complement: the arithmetic wraps, whatever a peer sent) + bias.  With
 * the offset's uncertainty as the bias the offset's error cannot make it
 * negative, so histograms keep it; the reports take the bias off.  A
 * result below zero nonetheless (a clock stepped or drifted) is 0, and
 * *neg counts it. */
static inline uint64_t xp_owd_delay(uint64_t arrival, uint64_t sent, uint64_t lead,
				    uint64_t bias, uint64_t *neg)
{
	int64_t d = (int64_t)(arrival - sent - lead + bias);

	if (d >= 0)
		return (uint64_t)d;
	++*neg;
	return 0;
}

#endif
