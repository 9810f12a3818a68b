/* SPDX-License-Identifier: BSD-2-Clause */
/* A control connection before it is a test, in the accept loop: nothing
 * is granted (no thread, no buffer, no cookie) until its first exchange
 * is complete and passes.  Each message is taken whole, peeked until all
 * of it is in the socket, so a client dripping bytes costs a pending slot
 * until its deadline and nothing else.
 *
 *   without --auth-file:  SETUP
 *   with --auth-file:     AUTH_HELLO -> AUTH_CHALLENGE, AUTH_RESPONSE ->
 *                         AUTH_OK, SETUP
 *
 * Then the SETUP's parameters are checked, the tests running (in all and
 * from this address) counted and the test's resources reserved in the
 * budget; only then does the test get a session thread (session.c). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/ctl.h"
#include "common/log.h"
#include "common/sha256.h"
#include "proto/mux.h"
#include "server/server_int.h"

/* 1: a whole message taken into m; 0: not all of it yet; -1: the peer
 * closed or failed (why.msg empty), or a bad message (why says). */
static int take_msg(int fd, struct xp_msg *m, struct xp_why *why)
{
	uint8_t buf[XP_MSG_HDR_LEN + XP_MSG_BODY_MAX];
	uint16_t version, type;
	uint32_t blen;
	ssize_t n = recv(fd, buf, XP_MSG_HDR_LEN, MSG_PEEK);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	if (n == 0)
		return -1;
	if (n < XP_MSG_HDR_LEN)
		return 0;
	if (xp_msg_hdr_decode(buf, &version, &type, &blen, why))
		return -1;
	n = recv(fd, buf, XP_MSG_HDR_LEN + blen, MSG_PEEK);
	if (n < (ssize_t)(XP_MSG_HDR_LEN + blen))
		return n < 0 && errno != EAGAIN && errno != EINTR ? -1 : 0;
	if (recv(fd, buf, XP_MSG_HDR_LEN + blen, 0) != n)
		return -1;
	if (version != XP_PROTO_VERSION && type != XP_MSG_ERROR) {
		snprintf(why->msg, sizeof(why->msg), "client speaks protocol version %u, "
			 "this server speaks %u", version, XP_PROTO_VERSION);
		return -1;
	}
	if (xp_msg_decode(buf, XP_MSG_HDR_LEN + blen, m, why))
		return -1;
	xp_ctl_clean(m);
	return 1;
}

/* Answer ERROR (code, text), log "PEER: text; refused" with the limiter
 * rl, close.  Always 1 (p is gone). */
__attribute__((format(printf, 5, 6)))
static int refuse(struct xp_server *s, struct xp_pending *p, int code, int rl,
		  const char *fmt, ...)
{
	char text[XP_MSG_STR_MAX + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	xp_ctl_send_error(p->fd, code, text);
	xp_ratelog(s->cfg.log, &s->rl[rl], "%s: %s; refused", p->peer, text);
	xp_srv_drop(s, p);
	return 1;
}

static int send_auth(struct xp_server *s, struct xp_pending *p, int type,
		     const uint8_t *v)
{
	struct xp_msg m;
	struct xp_err err;

	memset(&m, 0, sizeof(m));
	m.type = (uint16_t)type;
	if (type == XP_MSG_AUTH_CHALLENGE)
		memcpy(m.u.auth.nonce, v, XP_AUTH_NONCE_LEN);
	else
		memcpy(m.u.auth.mac, v, XP_AUTH_MAC_LEN);
	if (xp_ctl_send(p->fd, &m, 200, p->peer, &err) == 0)
		return 0;
	xp_ratelog(s->cfg.log, &s->rl[XP_RL_NOISE], "%s", err.msg);
	xp_srv_drop(s, p);
	return 1;
}

static void *session_fail(struct xp_server *s, struct xp_session *ss, const char *why)
{
	xp_log(s->cfg.log, "%s: cannot start a session (%s)", ss->peer, why);
	free(ss->seen);
	free(ss);
	return NULL;
}

static struct xp_session *new_session(struct xp_server *s, struct xp_pending *p,
				      const struct xp_msg_setup *setup)
{
	struct xp_session *ss = calloc(1, sizeof(*ss));

	if (!ss)
		return NULL;
	snprintf(ss->peer, sizeof(ss->peer), "%s", p->peer);
	ss->seen = calloc(setup->flows / 8 + 1, 1);
	if (!ss->seen)
		return session_fail(s, ss, "out of memory");
	if (getrandom(&ss->cookie, sizeof(ss->cookie), 0) != sizeof(ss->cookie) ||
	    getrandom(ss->udp_key, sizeof(ss->udp_key), 0) != sizeof(ss->udp_key))
		return session_fail(s, ss, "getrandom");
	ss->ctl_fd = p->fd;
	ss->ctl_sock = p->sock >= 0 ? p->sock : p->fd;
	ss->chan = p->chan;
	ss->data_lfd = -1;
	ss->hello_ep = -1;
	ss->srv = s;
	ss->addr = p->addr;
	ss->cfg = &s->cfg;
	ss->done_fd = s->done[1];
	ss->adopt_fd = s->adopt[1];
	ss->setup = *setup;
	xp_srv_cost(setup, &ss->cost);
	return ss;
}

/* Register the session and start its thread; the fd is the session's from
 * here.  1 if it runs, 0 if it could not start (then it is gone). */
static int start(struct xp_server *s, struct xp_pending *p, struct xp_session *ss)
{
	struct xp_err err;

	s->sess[s->nsess++] = ss;
	xp_srv_unpend(s, p);
	if (xp_session_start(ss, &err) == 0)
		return 1;
	xp_log(s->cfg.log, "%s", err.msg);
	s->nsess--;
	xp_srv_release(s, &ss->cost);
	if (ss->ctl_sock != ss->ctl_fd)
		close(ss->ctl_sock);
	close(ss->ctl_fd);
	free(ss->agent);
	free(ss->seen);
	free(ss);
	return 0;
}

/* The SETUP is in: check it, find room, start the test.  Always 1. */
static int admit(struct xp_server *s, struct xp_pending *p, const struct xp_msg_setup *m)
{
	struct xp_session *ss;
	struct xp_cost cost;
	struct xp_err err;

	if (xp_srv_check_setup(&s->cfg, m, &err))
		return refuse(s, p, XP_ERRC_REFUSED, XP_RL_REFUSED, "%s", err.msg);
	xp_srv_cost(m, &cost);
	if (xp_srv_admit(s, &p->addr, &cost, &err))
		return refuse(s, p, XP_ERRC_BUSY, XP_RL_REFUSED, "%s", err.msg);
	ss = new_session(s, p, m);
	if (!ss) {
		xp_srv_release(s, &cost);
		return refuse(s, p, XP_ERRC_FAILED, XP_RL_REFUSED, "server out of resources");
	}
	if (start(s, p, ss) && s->cfg.verbose)
		xp_log(s->cfg.log, "%s: %s test admitted", ss->peer, xp_test_name((int)m->test));
	return 1;
}

/* A controller's AGENT_RUN: only on a server started with --agent (which
 * requires --auth-file) and only once the controller has authenticated;
 * it counts as a test of that address.  Always 1. */
static int admit_agent(struct xp_server *s, struct xp_pending *p,
		       const struct xp_msg_agent_run *m)
{
	struct xp_cost cost = { 0 };
	struct xp_msg_setup none = { .flows = 1 };
	struct xp_session *ss;
	struct xp_err err;

	if (!s->cfg.agent)
		return refuse(s, p, XP_ERRC_REFUSED, XP_RL_REFUSED, "this server is not an "
			      "agent: it runs tests for controllers only when started with "
			      "--agent");
	if (p->state != XP_P_SETUP)
		return refuse(s, p, XP_ERRC_AUTH_REQUIRED, XP_RL_AUTH, "an agent acts only "
			      "for a controller that authenticated (--auth-file)");
	if (!m->flows || m->flows > s->cfg.max_flows)
		return refuse(s, p, XP_ERRC_REFUSED, XP_RL_REFUSED, "%llu flows outside "
			      "1..%u (--max-flows)", (unsigned long long)m->flows,
			      s->cfg.max_flows);
	if (xp_srv_admit(s, &p->addr, &cost, &err))
		return refuse(s, p, XP_ERRC_BUSY, XP_RL_REFUSED, "%s", err.msg);
	ss = new_session(s, p, &none);
	if (ss && !(ss->agent = malloc(sizeof(*ss->agent)))) {
		free(ss->seen);
		free(ss);
		ss = NULL;
	}
	if (!ss) {
		xp_srv_release(s, &cost);
		return refuse(s, p, XP_ERRC_FAILED, XP_RL_REFUSED, "server out of resources");
	}
	*ss->agent = *m;
	ss->cost = cost;
	return start(s, p, ss);
}

/* MUX: several tests on this connection (proto/mux.h), each a channel
 * whose SETUP is admitted as any other's.  The connection counts as a
 * test of its address and holds its thread (the pump) and nothing else.
 * Always 1. */
static int admit_mux(struct xp_server *s, struct xp_pending *p, const struct xp_msg_mux *m)
{
	struct xp_cost cost = { 0 };
	struct xp_msg_setup none = { .flows = 1 };
	struct xp_session *ss;
	struct xp_err err;

	if (!m->channels || m->channels > XP_MUX_CHANNELS_MAX)
		return refuse(s, p, XP_ERRC_REFUSED, XP_RL_REFUSED, "MUX of %llu channels "
			      "(1..%d)", (unsigned long long)m->channels, XP_MUX_CHANNELS_MAX);
	if (xp_srv_admit(s, &p->addr, &cost, &err))
		return refuse(s, p, XP_ERRC_BUSY, XP_RL_REFUSED, "%s", err.msg);
	ss = new_session(s, p, &none);
	if (!ss) {
		xp_srv_release(s, &cost);
		return refuse(s, p, XP_ERRC_FAILED, XP_RL_REFUSED, "server out of resources");
	}
	ss->mux_channels = (uint32_t)m->channels;
	ss->cost = cost;
	if (start(s, p, ss) && s->cfg.verbose)
		xp_log(s->cfg.log, "%s: MUX of %u channels admitted", ss->peer, ss->mux_channels);
	return 1;
}

/* AUTH_HELLO: answer the challenge.  1: p is gone; 0: go on. */
static int challenge(struct xp_server *s, struct xp_pending *p, const struct xp_msg *m)
{
	struct xp_err err;

	if (!s->cfg.auth)
		return refuse(s, p, XP_ERRC_AUTH_UNSUPPORTED, XP_RL_AUTH, "this server does "
			      "not use authentication (it has no --auth-file): run the "
			      "client without --auth-file");
	memcpy(p->cnonce, m->u.auth.nonce, XP_AUTH_NONCE_LEN);
	if (xp_auth_nonce(p->snonce, &err))
		return refuse(s, p, XP_ERRC_FAILED, XP_RL_AUTH, "%s", err.msg);
	p->state = XP_P_AUTH;
	return send_auth(s, p, XP_MSG_AUTH_CHALLENGE, p->snonce);
}

/* AUTH_RESPONSE: check the client's MAC, then prove ours. */
static int respond(struct xp_server *s, struct xp_pending *p, const struct xp_msg *m)
{
	uint8_t mac[XP_AUTH_MAC_LEN];

	if (!xp_auth_verify(s->cfg.auth, XP_AUTH_CLIENT, p->snonce, p->cnonce,
			    m->u.auth.mac)) {
		xp_ctl_send_error(p->fd, XP_ERRC_AUTH_FAILED, "authentication failed: wrong key");
		xp_ratelog(s->cfg.log, &s->rl[XP_RL_AUTH], "%.*s: authentication failed",
			   (int)(strrchr(p->peer, ':') - p->peer), p->peer);
		xp_srv_drop(s, p);
		return 1;
	}
	xp_auth_mac(s->cfg.auth, XP_AUTH_SERVER, p->snonce, p->cnonce, mac);
	p->state = XP_P_SETUP;
	return send_auth(s, p, XP_MSG_AUTH_OK, mac);
}

static int on_msg(struct xp_server *s, struct xp_pending *p, const struct xp_msg *m)
{
	if (m->type == XP_MSG_ERROR)
		return refuse(s, p, XP_ERRC_FAILED, XP_RL_NOISE, "client reported an "
			      "error: %s", m->u.error.text);
	if (p->chan && m->type != XP_MSG_SETUP)
		return refuse(s, p, XP_ERRC_FAILED, XP_RL_NOISE, "a MUX channel carries one "
			      "test: expected SETUP, got %s", xp_msg_type_name(m->type));
	if (p->state == XP_P_CTL && m->type == XP_MSG_AUTH_HELLO)
		return challenge(s, p, m);
	if (p->state == XP_P_AUTH && m->type == XP_MSG_AUTH_RESPONSE)
		return respond(s, p, m);
	if (p->state == XP_P_CTL && (m->type == XP_MSG_SETUP || m->type == XP_MSG_MUX) &&
	    s->cfg.auth)
		return refuse(s, p, XP_ERRC_AUTH_REQUIRED, XP_RL_AUTH, "authentication "
			      "required: this server serves only clients that have its "
			      "key (--auth-file)");
	if ((p->state == XP_P_CTL || p->state == XP_P_SETUP) && m->type == XP_MSG_SETUP)
		return admit(s, p, &m->u.setup);
	if (m->type == XP_MSG_AGENT_RUN)
		return admit_agent(s, p, &m->u.agent_run);
	if ((p->state == XP_P_CTL || p->state == XP_P_SETUP) && m->type == XP_MSG_MUX)
		return admit_mux(s, p, &m->u.mux);
	return refuse(s, p, XP_ERRC_FAILED, XP_RL_NOISE, "expected %s, got %s",
		      p->state == XP_P_AUTH ? "AUTH_RESPONSE" : p->state == XP_P_SETUP
		      ? "SETUP" : s->cfg.auth ? "AUTH_HELLO" : "SETUP",
		      xp_msg_type_name(m->type));
}

int xp_srv_ctl_step(struct xp_server *s, struct xp_pending *p, int hup)
{
	for (;;) {
		struct xp_msg m;
		struct xp_why why = { "" };
		int rc = take_msg(p->fd, &m, &why);

		if (rc == 0 && !hup)
			return 0;
		if (rc <= 0 && why.msg[0])
			return refuse(s, p, XP_ERRC_FAILED, XP_RL_NOISE, "%s", why.msg);
		if (rc <= 0) {
			xp_ratelog(s->cfg.log, &s->rl[XP_RL_NOISE], "%s: connection closed by "
				   "peer before its %s was complete", p->peer,
				   p->state == XP_P_CTL ? "first message" : "authentication");
			xp_srv_drop(s, p);
			return 1;
		}
		if (on_msg(s, p, &m))
			return 1;
	}
}
