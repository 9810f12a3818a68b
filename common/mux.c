/* SPDX-License-Identifier: BSD-2-Clause */
/* The MUX pump (common/mux.h). */
#include "common/mux.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/ctl.h"
#include "common/sock.h"

#define SEND_MS 5000 /* a frame that cannot go in this long: the end (of the channel) */

int xp_mux_pump_init(struct xp_mux_pump *p, int tcp, uint32_t n, const char *peer,
		     struct xp_err *err)
{
	uint32_t i;

	memset(p, 0, sizeof(*p));
	p->tcp = tcp;
	p->n = n > XP_MUX_CHANNELS_MAX ? XP_MUX_CHANNELS_MAX : n;
	p->peer = peer;
	for (i = 0; i <= XP_MUX_CHANNELS_MAX; i++)
		p->fd[i] = -1;
	p->in = malloc(XP_MUX_FRAME_MAX);
	p->cin = malloc((size_t)(p->n + 1) * XP_MUX_FRAME_MAX);
	if (!p->in || !p->cin) {
		xp_mux_pump_free(p);
		return xp_err_set(err, "mux: out of memory");
	}
	return 0;
}

void xp_mux_pump_free(struct xp_mux_pump *p)
{
	uint32_t i;

	for (i = 0; i <= XP_MUX_CHANNELS_MAX; i++)
		if (p->fd[i] >= 0) {
			close(p->fd[i]);
			p->fd[i] = -1;
		}
	free(p->in);
	free(p->cin);
	p->in = p->cin = NULL;
}

static int send_head(struct xp_mux_pump *p, uint16_t chan, uint8_t kind)
{
	uint8_t h[XP_MUX_HEAD_LEN];

	xp_mux_head_encode(h, chan, kind);
	return xp_send_all(p->tcp, h, sizeof(h), SEND_MS, p->peer, &p->err);
}

/* Our end of channel k is done: the peer is told (CLOSE).  -1 if that
 * could not be sent (the connection is gone). */
static int close_chan(struct xp_mux_pump *p, uint16_t k, int tell)
{
	close(p->fd[k]);
	p->fd[k] = -1;
	p->cin_len[k] = 0;
	return tell ? send_head(p, k, XP_MUX_CLOSE) : 0;
}

void xp_mux_pump_error(struct xp_mux_pump *p, int code, const char *text)
{
	uint8_t b[XP_MUX_HEAD_LEN + XP_MSG_HDR_LEN + XP_MSG_STR_MAX + 64];
	struct xp_msg m;
	struct xp_err ignored;
	size_t n;

	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_ERROR;
	m.u.error.code = (uint64_t)code;
	snprintf(m.u.error.text, sizeof(m.u.error.text), "%s", text);
	n = xp_msg_encode(&m, b + XP_MUX_HEAD_LEN, sizeof(b) - XP_MUX_HEAD_LEN);
	xp_mux_head_encode(b, 0, XP_MUX_DATA);
	if (n)
		xp_send_all(p->tcp, b, XP_MUX_HEAD_LEN + n, 200, p->peer, &ignored);
}

/* A message on channel 0: only an ERROR, which ends the connection. */
static int on_conn_msg(struct xp_mux_pump *p, const uint8_t *b, uint32_t len)
{
	struct xp_why why = { "" };
	struct xp_msg m;

	if (xp_msg_decode(b, len, &m, &why))
		return xp_err_set(&p->err, "%s: mux channel 0: %s", p->peer, why.msg);
	xp_ctl_clean(&m);
	if (m.type == XP_MSG_ERROR)
		return xp_err_set(&p->err, "%s: %s", p->peer, m.u.error.text);
	return xp_err_set(&p->err, "%s: mux channel 0 carries only ERROR, not %s", p->peer,
			  xp_msg_type_name(m.type));
}

/* One frame from the peer, whole. */
static int on_frame(struct xp_mux_pump *p, const struct xp_mux_frame *f, const uint8_t *msg)
{
	struct xp_err gone;
	uint16_t k = f->chan;

	if (!k)
		return f->kind == XP_MUX_CLOSE ? xp_err_set(&p->err, "%s: closed the connection "
							    "(mux channel 0)", p->peer)
					       : on_conn_msg(p, msg, f->msg_len);
	if (!p->used[k] && p->open && f->kind == XP_MUX_DATA) {
		p->used[k] = 1;
		p->fd[k] = p->open(p->ctx, k);
		if (p->fd[k] < 0)
			return send_head(p, k, XP_MUX_CLOSE);
	}
	if (!p->used[k])
		return xp_err_set(&p->err, "%s: a frame on mux channel %u, which is not open",
				  p->peer, (unsigned)k);
	if (p->fd[k] < 0)
		return 0; /* ours closed: the peer had not heard yet */
	if (f->kind == XP_MUX_CLOSE)
		return close_chan(p, k, 0);
	if (xp_send_all(p->fd[k], msg, f->msg_len, SEND_MS, "mux channel", &gone))
		return close_chan(p, k, 1); /* its test is gone, or stuck */
	return 0;
}

/* The connection is readable.  1: it ended (EOF); 0: go on; -1: error. */
static int from_conn(struct xp_mux_pump *p)
{
	ssize_t r = recv(p->tcp, p->in + p->in_len, XP_MUX_FRAME_MAX - p->in_len, MSG_DONTWAIT);
	size_t off = 0;

	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (r < 0)
		return xp_err_sys(&p->err, errno, "receive from %s", p->peer);
	if (r == 0)
		return 1;
	p->in_len += (size_t)r;
	for (;;) {
		struct xp_why why = { "" };
		struct xp_mux_frame f;
		long n = xp_mux_frame_take(p->in + off, p->in_len - off, p->n, &f, &why);

		if (n < 0)
			return xp_err_set(&p->err, "%s: %s", p->peer, why.msg);
		if (n == 0)
			break;
		if (on_frame(p, &f, p->in + off + XP_MUX_HEAD_LEN))
			return -1;
		off += (size_t)n;
	}
	memmove(p->in, p->in + off, p->in_len - off);
	p->in_len -= off;
	return 0;
}

/* Channel k is readable: whole messages go to the peer, framed. */
static int from_chan(struct xp_mux_pump *p, uint16_t k)
{
	uint8_t *b = p->cin + (size_t)k * XP_MUX_FRAME_MAX, *m = b + XP_MUX_HEAD_LEN;
	size_t room = XP_MUX_FRAME_MAX - XP_MUX_HEAD_LEN - p->cin_len[k];
	ssize_t r = recv(p->fd[k], m + p->cin_len[k], room, MSG_DONTWAIT);

	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (r <= 0)
		return close_chan(p, k, 1);
	p->cin_len[k] += (size_t)r;
	for (;;) {
		struct xp_why why = { "" };
		long n = xp_mux_msg_take(m, p->cin_len[k], &why);

		if (n < 0)
			return close_chan(p, k, 1); /* our own side's bug: that test ends */
		if (n == 0)
			return 0;
		xp_mux_head_encode(b, k, XP_MUX_DATA);
		if (xp_send_all(p->tcp, b, XP_MUX_HEAD_LEN + (size_t)n, SEND_MS, p->peer, &p->err))
			return -1;
		p->cin_len[k] -= (size_t)n;
		memmove(m, m + n, p->cin_len[k]);
	}
}

/* Every channel opened and closed again (a client opens them all first). */
static int all_done(const struct xp_mux_pump *p, int *open)
{
	uint32_t k, used = 0;

	*open = 0;
	for (k = 1; k <= p->n; k++) {
		used += p->used[k];
		*open += p->fd[k] >= 0;
	}
	return used == p->n && !*open;
}

int xp_mux_pump_run(struct xp_mux_pump *p)
{
	uint64_t quiet_since = xp_now_ns();
	int rc = 0, open;

	while (!rc && !all_done(p, &open)) {
		struct pollfd pf[XP_MUX_CHANNELS_MAX + 1];
		uint32_t k;
		int n;

		if (open)
			quiet_since = xp_now_ns();
		else if (p->idle_ns && xp_now_ns() - quiet_since > p->idle_ns) {
			xp_err_set(&p->err, "%s: no test on its connection for %.1f s", p->peer,
				   (double)p->idle_ns / XP_NS_PER_SEC);
			return -1;
		}
		pf[0] = (struct pollfd){ .fd = p->tcp, .events = POLLIN };
		for (k = 1; k <= p->n; k++)
			pf[k] = (struct pollfd){ .fd = p->fd[k], .events = POLLIN };
		n = poll(pf, p->n + 1, 200);
		if (n < 0 && errno != EINTR)
			return xp_err_sys(&p->err, errno, "mux: poll");
		for (k = 1; n > 0 && !rc && k <= p->n; k++)
			if (p->fd[k] >= 0 && pf[k].revents)
				rc = from_chan(p, (uint16_t)k);
		if (!rc && n > 0 && pf[0].revents)
			rc = from_conn(p);
	}
	all_done(p, &open);
	if (rc == 1 && open)
		rc = xp_err_set(&p->err, "%s closed the connection with %d of its tests open",
				p->peer, open);
	xp_mux_pump_free(p);
	return rc < 0 ? -1 : 0;
}
