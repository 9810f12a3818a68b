/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/ctl.h"

#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "common/sanitize.h"
#include "common/sock.h"
#include "proto/iperf3.h"

/* Peer text is escaped on the way in (common/sanitize.h), so no log line
 * or terminal ever sees a peer's control characters: a string field of a
 * message that holds any comes out longer, cut at its buffer's size. */
static void clean(char *s, size_t cap)
{
	char raw[XP_MSG_STR_MAX + 1];
	size_t n = strnlen(s, cap - 1);

	if (n >= sizeof(raw))
		n = sizeof(raw) - 1;
	memcpy(raw, s, n);
	xp_sanitize(s, cap, raw, n);
}

void xp_ctl_clean(struct xp_msg *m)
{
	switch (m->type) {
	case XP_MSG_ERROR:
		clean(m->u.error.text, sizeof(m->u.error.text));
		break;
	case XP_MSG_SETUP:
		clean(m->u.setup.cpus, sizeof(m->u.setup.cpus));
		clean(m->u.setup.congestion, sizeof(m->u.setup.congestion));
		break;
	case XP_MSG_SETUP_OK:
		clean(m->u.setup_ok.cpus, sizeof(m->u.setup_ok.cpus));
		break;
	case XP_MSG_AGENT_RUN:
		clean(m->u.agent_run.target, sizeof(m->u.agent_run.target));
		break;
	case XP_MSG_AGENT_END:
		clean(m->u.agent_end.error, sizeof(m->u.agent_end.error));
		break;
	case XP_MSG_RESULT:
		clean(m->u.result.cpus, sizeof(m->u.result.cpus));
		clean(m->u.result.warning, sizeof(m->u.result.warning));
		clean(m->u.result.congestion, sizeof(m->u.result.congestion));
		break;
	}
}

int xp_ctl_send(int fd, const struct xp_msg *m, int timeout_ms,
		const char *peer, struct xp_err *err)
{
	uint8_t buf[XP_MSG_HDR_LEN + XP_MSG_BODY_MAX];
	size_t n = xp_msg_encode(m, buf, sizeof(buf));

	if (!n)
		return xp_err_set(err, "encode %s message: too large",
				  xp_msg_type_name(m->type));
	return xp_send_all(fd, buf, n, timeout_ms, peer, err);
}

int xp_ctl_send_min(int fd, const struct xp_msg *m, size_t min_len, int timeout_ms,
		    const char *peer, struct xp_err *err)
{
	uint8_t buf[XP_MSG_HDR_LEN + XP_MSG_BODY_MAX];
	size_t n = xp_msg_encode_min(m, buf, sizeof(buf), min_len);

	if (!n)
		return xp_err_set(err, "encode %s message: too large",
				  xp_msg_type_name(m->type));
	return xp_send_all(fd, buf, n, timeout_ms, peer, err);
}

/* A netserver answers a request it does not know (xperf's header read as
 * netperf's request type) with 656 bytes: response type 0, then
 * serv_errno 998. */
static int netserver_reply(const uint8_t *b, const char *peer, struct xp_err *err)
{
	static const uint8_t sig[8] = { 0, 0, 0, 0, 0, 0, 0x03, 0xe6 };

	if (memcmp(b, sig, sizeof(sig)))
		return 0;
	xp_err_set(err, "%s is a netperf netserver, not an xperf server (it answered "
		   "with netperf's \"unknown request\"): start `xperf -s` there, or run "
		   "netperf against it", peer);
	return 1;
}

static int other_version(const uint8_t *buf, size_t len, uint16_t version,
			 const char *peer, struct xp_err *err)
{
	struct xp_msg m;

	if (xp_msg_decode(buf, len, &m, NULL) == 0 && m.type == XP_MSG_ERROR) {
		xp_ctl_clean(&m);
		return xp_err_set(err, "%s speaks protocol version %u, this xperf "
				  "speaks %u: %s", peer, version, XP_PROTO_VERSION,
				  m.u.error.text);
	}
	return xp_err_set(err, "%s speaks protocol version %u, this xperf speaks %u",
			  peer, version, XP_PROTO_VERSION);
}

int xp_ctl_recv(int fd, struct xp_msg *m, int timeout_ms, const char *peer,
		struct xp_err *err)
{
	uint8_t buf[XP_MSG_HDR_LEN + XP_MSG_BODY_MAX];
	uint16_t version, type;
	uint32_t blen;
	char what[96];
	struct xp_why why;

	snprintf(what, sizeof(what), "%s (control)", peer);
	/* the first byte alone: an iperf3 server answers with one */
	if (xp_recv_all(fd, buf, 1, timeout_ms, what, err))
		return -1;
	if (xp_i3_server_first_byte(buf[0]))
		return xp_err_set(err, "%s is an iperf3 server (it answered iperf3's state "
				  "byte 0x%02x): use the iperf3 front end (xperf "
				  "--iperf3-args -c ...)", peer, buf[0]);
	if (xp_recv_all(fd, buf + 1, XP_MSG_HDR_LEN - 1, timeout_ms, what, err))
		return -1;
	if (netserver_reply(buf, peer, err))
		return -1;
	if (xp_msg_hdr_decode(buf, &version, &type, &blen, &why))
		return xp_err_set(err, "%s", why.msg);
	if (xp_recv_all(fd, buf + XP_MSG_HDR_LEN, blen, timeout_ms, what, err))
		return -1;
	if (version != XP_PROTO_VERSION)
		return other_version(buf, XP_MSG_HDR_LEN + blen, version, peer, err);
	if (xp_msg_decode(buf, XP_MSG_HDR_LEN + blen, m, &why))
		return xp_err_set(err, "%s", why.msg);
	xp_ctl_clean(m);
	return 0;
}

int xp_ctl_expect(int fd, struct xp_msg *m, int type, int timeout_ms, const char *peer,
		  struct xp_err *err)
{
	uint64_t end = xp_now_ns() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * XP_NS_PER_MS;

	for (;;) {
		uint64_t now = xp_now_ns();
		int left = now < end ? (int)((end - now + XP_NS_PER_MS - 1) / XP_NS_PER_MS) : 0;

		/* heartbeats are skipped, but do not extend the wait */
		if (xp_ctl_recv(fd, m, left > 0 ? left : 1, peer, err))
			return -1;
		if (m->type != XP_MSG_HEARTBEAT)
			break;
	}
	if (m->type == XP_MSG_ERROR)
		return xp_err_set(err, "%s: %s", peer, m->u.error.text);
	if (m->type != type)
		return xp_err_set(err, "%s: expected %s, got %s", peer,
				  xp_msg_type_name((uint16_t)type), xp_msg_type_name(m->type));
	return 0;
}

void xp_ctl_send_error(int fd, int code, const char *text)
{
	struct xp_msg m;

	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_ERROR;
	m.u.error.code = (uint64_t)code;
	snprintf(m.u.error.text, sizeof(m.u.error.text), "%s", text);
	xp_ctl_send(fd, &m, 1000, "peer", NULL);
}
