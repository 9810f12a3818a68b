/* SPDX-License-Identifier: BSD-2-Clause */
/* Each wait mode has its reasons; the report says which one held, so a
 * reader sees why a lone flow did or did not skip epoll_wait. */
#include "client/report/mode_reason.h"
#include "common/engine/worker.h"
#include "common/tests.h"

/* Why a lone flow stays on epoll, or NULL when it may run direct. */
static const char *epoll_reason(const struct xp_opts *o, const struct xp_test *t)
{
	uint64_t snd = o->sndbuf ? o->sndbuf : o->window;
	uint64_t rcv = o->rcvbuf ? o->rcvbuf : o->window;

	if (!t->persistent)
		return "a connection per transaction";
	if (t->rr && o->burst > 1)
		return "--burst keeps several transactions outstanding";
	if (t->rr && o->tps)
		return "--rate sends on a schedule (timers)";
	if (t->rr)
		return NULL;
	if (t->udp)
		return "UDP bulk flows send and read in batches";
	if (o->rate)
		return "-b paces the sends (timers)";
	if (o->zerocopy)
		return "--zerocopy: completions come through epoll";
	if (!xp_window_bounded(snd, rcv))
		return "a stream with the kernel's buffers or a window over 64 KiB, where "
		       "epoll moved more than blocking calls (docs/PERFORMANCE.md)";
	return NULL;
}

const char *xp_mode_reason(const struct xp_opts *o, int test, int direct)
{
	const struct xp_test *t = xp_test(test);
	const char *why;

	if (o->spin)
		return "--spin: workers poll their sockets";
	if (direct)
		return t->rr ? "one flow on a worker: blocking send and recv, no epoll_wait"
			     : "one flow on a worker with a window of 64 KiB or less: "
			       "blocking send and recv, no epoll_wait";
	if (xp_opts_flows_total(o) > o->threads)
		return "several flows on a worker";
	why = epoll_reason(o, t);
	return why ? why : "direct mode not entered: a send waited for room, or the flow "
			   "ended first";
}
