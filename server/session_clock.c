/* SPDX-License-Identifier: BSD-2-Clause */
/* A session's part in one-way delays (SETUP stamps, proto/PROTOCOL.md
 * section 11): the stamps a test may ask for, the CLOCK exchanges the
 * client makes before READY (each answered at once with the server's
 * receive and send times), the offset OFFSET brings, and after the test
 * the UDP receivers' one-way delay histogram, in HIST pieces. */
#include "server/session.h"

#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/ctl.h"
#include "common/hist_codec.h"
#include "common/tests.h"
#include "common/engine/owd.h"

typedef unsigned long long ull;

int xp_session_check_stamps(const struct xp_msg_setup *p, struct xp_err *err)
{
	const struct xp_test *t = xp_test((int)p->test);

	if (p->stamps & ~(uint64_t)XP_STAMP_ALL)
		return xp_err_set(err, "unknown stamps 0x%llx", (ull)p->stamps);
	if (!p->stamps)
		return 0;
	if ((p->stamps & XP_STAMP_KERNEL) &&
	    (!t->rr || !t->persistent || p->burst > 1 ||
	     p->rsp_size < (t->udp ? XP_STAMP_UKRSP : XP_STAMP_KRSP_LEN) ||
	     (t->udp && p->req_size < 8)))
		return xp_err_set(err, "kernel timestamps apply to TCP_RR with %u-byte and "
				  "UDP_RR with %u-byte responses, one request outstanding",
				  XP_STAMP_KRSP_LEN, XP_STAMP_UKRSP);
	if (!t->udp && t->rr && t->persistent) {
		if (p->rsp_size < XP_STAMP_RSP_LEN || p->burst > 1)
			return xp_err_set(err, "one-way stamps need %u-byte responses and "
					  "one request outstanding", XP_STAMP_RSP_LEN);
		return 0;
	}
	if (t->udp && t->rr) {
		if (p->req_size < 8 || p->rsp_size < 8 + XP_STAMP_RSP_LEN)
			return xp_err_set(err, "one-way stamps need %u-byte requests and %u-byte "
					  "responses", 8, 8 + XP_STAMP_RSP_LEN);
		return 0;
	}
	if (t->udp && t->bulk && !p->bidir) {
		if (p->req_size < XP_UDP_STAMP_LEN)
			return xp_err_set(err, "one-way stamps need %u-byte datagrams",
					  XP_UDP_STAMP_LEN);
		return 0;
	}
	return xp_err_set(err, "one-way stamps asked for %s%s", t->name,
			  p->bidir ? " --bidir" : "");
}

/* Answer one CLOCK: t2 when it was read, t3 now. */
static int answer(struct xp_session *s, struct xp_msg *m, uint64_t t2, struct xp_err *err)
{
	m->type = XP_MSG_CLOCK_OK;
	m->u.clock.t2 = t2;
	m->u.clock.t3 = xp_wall_ns();
	return xp_ctl_send(s->ctl_fd, m, 5000, "client", err);
}

int xp_session_expect_ready(struct xp_session *s, struct xp_msg *m, int timeout_ms,
			    struct xp_err *err)
{
	uint64_t end = xp_now_ns() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * XP_NS_PER_MS;
	int clocks = 0;

	for (;;) {
		uint64_t now = xp_now_ns();
		int left = now < end ? (int)((end - now + XP_NS_PER_MS - 1) / XP_NS_PER_MS) : 1;

		if (xp_ctl_recv(s->ctl_fd, m, left, "client", err))
			return -1;
		if (m->type == XP_MSG_CLOCK && s->setup.stamps && clocks++ < XP_CLOCK_MAX) {
			if (answer(s, m, xp_wall_ns(), err))
				return -1;
		} else if (m->type == XP_MSG_OFFSET && s->setup.stamps) {
			s->run.owd_peer_lead_ns = (int64_t)(0 - m->u.offset.offset_ns);
			s->run.owd_bias_ns = m->u.offset.bias_ns; /* any value is harmless */
		} else if (m->type != XP_MSG_HEARTBEAT) {
			break;
		}
	}
	if (m->type == XP_MSG_ERROR)
		return xp_err_set(err, "client: %s", m->u.error.text);
	if (m->type != XP_MSG_READY)
		return xp_err_set(err, "client: expected READY, got %s", xp_msg_type_name(m->type));
	return 0;
}

/* The histogram's text in pieces; an empty one is not sent. */
static int send_hist(struct xp_session *s, int kind, const struct xp_hist *h,
		     uint64_t clamped, struct xp_err *err)
{
	size_t max = xp_hist_encoded_max(), len, off;
	char *text;
	struct xp_msg m;
	int rc = 0;

	if (!xp_hist_count(h))
		return 0;
	if (!(text = malloc(max)))
		return xp_err_set(err, "out of memory for the one-way histogram");
	len = xp_hist_encode(h, text, max);
	for (off = 0; off < len && !rc; off += XP_MSG_TEXT_MAX) {
		size_t n = len - off < XP_MSG_TEXT_MAX ? len - off : XP_MSG_TEXT_MAX;

		memset(&m, 0, sizeof(m));
		m.type = XP_MSG_HIST;
		m.u.hist.kind = (uint64_t)kind;
		m.u.hist.clamped = off ? 0 : clamped;
		memcpy(m.u.hist.text, text + off, n);
		rc = xp_ctl_send(s->ctl_fd, &m, 5000, "client", err);
	}
	free(text);
	return rc;
}

int xp_session_send_owd(struct xp_session *s, struct xp_err *err)
{
	struct xp_owd *sum;
	int i, rc;

	if (!s->setup.stamps || !xp_test(s->run.test)->udp)
		return 0;
	if (!(sum = xp_owd_new(0)))
		return xp_err_set(err, "out of memory for the one-way histogram");
	for (i = 0; i < s->group.n; i++)
		xp_owd_merge(sum, s->group.w[i].owd);
	rc = send_hist(s, XP_HIST_OWD_FWD, sum->fwd, sum->neg, err);
	xp_owd_free(sum);
	return rc;
}
