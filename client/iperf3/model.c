/* SPDX-License-Identifier: BSD-2-Clause */
/* The iperf3 front end's report (client/iperf3/report.h): its memory,
 * and the helpers both ends' builders share. */
#include "client/iperf3/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "client/iperf3/fe.h"
#include "common/iperf3/json.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0"
#endif

int xp_i3r_init(struct xp_i3_report *r, uint32_t nstreams)
{
	memset(r, 0, sizeof(*r));
	r->format = 'a';
	r->tos = -1;
	r->nstreams = nstreams;
	r->st = calloc(nstreams ? nstreams : 1, sizeof(*r->st));
	return r->st ? 0 : -1;
}

void xp_i3r_free(struct xp_i3_report *r)
{
	uint32_t k;

	for (k = 0; k < r->nintervals; k++)
		free(r->iv[k].st);
	free(r->iv);
	free(r->st);
	r->iv = NULL;
	r->st = NULL;
	r->nintervals = r->capintervals = 0;
}

struct xp_i3r_interval *xp_i3r_add_interval(struct xp_i3_report *r, double start, double end)
{
	struct xp_i3r_interval *iv;

	if (r->nintervals == r->capintervals) {
		uint32_t cap = r->capintervals ? 2 * r->capintervals : 16;
		struct xp_i3r_interval *n = realloc(r->iv, cap * sizeof(*n));

		if (!n)
			return NULL;
		r->iv = n;
		r->capintervals = cap;
	}
	iv = &r->iv[r->nintervals];
	memset(iv, 0, sizeof(*iv));
	iv->st = calloc(r->nstreams ? r->nstreams : 1, sizeof(*iv->st));
	if (!iv->st)
		return NULL;
	iv->start = start;
	iv->end = end;
	r->nintervals++;
	return iv;
}

void xp_i3r_split_addr(const char *s, char *host, size_t len, uint16_t *port)
{
	const char *colon = strrchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);

	*port = colon ? (uint16_t)strtoul(colon + 1, NULL, 10) : 0;
	if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
		s++;
		n -= 2;
	}
	if (n > 7 && !strncmp(s, "::ffff:", 7) && strchr(s + 7, '.')) {
		s += 7;
		n -= 7;
	}
	if (n >= len)
		n = len - 1;
	memcpy(host, s, n);
	host[n] = 0;
}

void xp_i3r_version(char *buf, size_t len)
{
	snprintf(buf, len, "iperf %s (xperf %s iperf3 front end)", XP_I3FE_VERSION,
		 PACKAGE_VERSION);
}

void xp_i3r_system_info(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u))
		snprintf(buf, len, "Linux");
	else
		snprintf(buf, len, "%s %s %s %s %s", u.sysname, u.nodename, u.release, u.version,
			 u.machine);
}

static double secs(const struct xp_i3_stream_res *s)
{
	return s && s->end_time > s->start_time ? s->end_time - s->start_time : 0;
}

void xp_i3r_stream_end(struct xp_i3r_stream *s, const struct xp_i3_stream_res *snd,
		       const struct xp_i3_stream_res *rcv)
{
	s->bytes_sent = snd ? snd->bytes : 0;
	s->bytes_received = rcv ? rcv->bytes : 0;
	s->sender_time = secs(snd);
	s->receiver_time = secs(rcv);
	s->sender_time = s->sender_time ? s->sender_time : s->receiver_time;
	s->receiver_time = s->receiver_time ? s->receiver_time : s->sender_time;
	s->retransmits = snd ? snd->retransmits : -1;
	s->sender_packets = snd ? snd->packets - snd->omitted_packets : 0;
	s->receiver_packets = rcv ? rcv->packets - rcv->omitted_packets : 0;
	s->lost = rcv ? rcv->errors - rcv->omitted_errors : 0;
	s->jitter_ms = rcv ? rcv->jitter * 1000 : 0;
}
