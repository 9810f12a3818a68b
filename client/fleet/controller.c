/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller (client/fleet/agent.h): one thread per agent connects,
 * authenticates, sends AGENT_RUN with a start time far enough ahead for
 * every agent to open its flows, and reads back the agent's --json result;
 * the report is the fan-out's (client/fleet/fanout_out.c). */
#include "client/fleet/agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/auth.h"
#include "client/fleet/fanout_int.h"
#include "common/clock.h"
#include "common/ctl.h"
#include "common/json.h"
#include "common/sock.h"

#define CONNECT_MS 5000
#define START_LEAD_NS (2 * XP_NS_PER_SEC) /* agents open their flows meanwhile */
#define AGENT_SLACK_MS 60000              /* beyond the test: set-up and drain */
#define DOC_MAX (4u << 20)

int xp_controller_prepare(const struct xp_opts *o, struct xp_fanout *f, struct xp_err *err)
{
	struct xp_opts t = *o;

	t.hosts = NULL;
	t.client = o->from;
	return xp_fanout_prepare(&t, f, err);
}

/* What the controller decides itself, not forwarded. */
static const char *const own[] = { "from", "client", "port", "flows", "auth-file", "json",
				   NULL };

struct forward {
	struct xp_json j;
	size_t room;
};

/* One option, forwarded as one word "--name" or "--name=value", whichever
 * way it was typed: the agent reads exactly what this parser read. */
static int forward_one(void *ctx, const char *lname, const char *val)
{
	struct forward *f = ctx;
	char word[XP_MSG_TEXT_MAX + 1];
	size_t i;

	for (i = 0; own[i]; i++)
		if (!strcmp(lname, own[i]))
			return 0;
	if ((size_t)snprintf(word, sizeof(word), "--%s%s%s", lname, val ? "=" : "",
			     val ? val : "") >= f->room)
		return -1;
	xp_json_str_val(&f->j, NULL, word);
	return 0;
}

int xp_controller_args(int argc, char **argv, char *buf, size_t len)
{
	struct forward f;
	int rc;

	xp_json_init(&f.j, 0);
	f.room = len;
	xp_json_arr_open(&f.j, NULL);
	rc = xp_opts_each(argc, argv, forward_one, &f);
	xp_json_arr_close(&f.j);
	if (!rc)
		rc = !f.j.oom && strlen(xp_json_str(&f.j)) < len ? 0 : -1;
	if (!rc)
		snprintf(buf, len, "%s", xp_json_str(&f.j));
	xp_json_free(&f.j);
	return rc;
}

/* AGENT_DATA pieces until AGENT_END; the document into h->doc. */
static int read_answer(int fd, struct xp_fanout_host *h, int ms, struct xp_err *err)
{
	struct xp_msg m;
	size_t len = 0;
	char *doc = NULL;

	for (;;) {
		if (xp_ctl_recv(fd, &m, ms, h->spec, err))
			break;
		if (m.type == XP_MSG_AGENT_DATA) {
			size_t n = strlen(m.u.agent_data.text);
			char *nd = len + n < DOC_MAX ? realloc(doc, len + n + 1) : NULL;

			if (!nd) {
				xp_err_set(err, "agent %s: result too large", h->spec);
				break;
			}
			doc = nd;
			memcpy(doc + len, m.u.agent_data.text, n + 1);
			len += n;
			continue;
		}
		if (m.type == XP_MSG_AGENT_END && !m.u.agent_end.status && doc) {
			h->doc = doc;
			return 0;
		}
		xp_err_set(err, "agent %s: %s", h->spec, m.type == XP_MSG_AGENT_END
			   ? m.u.agent_end.error : m.type == XP_MSG_ERROR ? m.u.error.text
			   : "unexpected message");
		break;
	}
	free(doc);
	return -1;
}

static int ask_agent(struct xp_fanout_host *h, int fd, struct xp_err *err)
{
	struct xp_msg *m = calloc(1, sizeof(*m));
	int rc;

	if (!m)
		return xp_err_set(err, "out of memory");
	m->type = XP_MSG_AGENT_RUN;
	snprintf(m->u.agent_run.target, sizeof(m->u.agent_run.target), "%s", h->ctl->target);
	m->u.agent_run.port = h->ctl->port;
	m->u.agent_run.flows = h->o.flows;
	m->u.agent_run.start_wall_ns = h->ctl->start_wall_ns;
	snprintf(m->u.agent_run.args, sizeof(m->u.agent_run.args), "%s", h->ctl->args);
	rc = xp_ctl_send(fd, m, CONNECT_MS, h->spec, err);
	free(m);
	return rc;
}

static void *agent_main(void *arg)
{
	struct xp_fanout_host *h = arg;
	struct xp_addr a;
	int fd = -1, ms = (int)(h->ctl->test_ns / XP_NS_PER_MS) + AGENT_SLACK_MS;

	h->rc = -1;
	if (xp_resolve(h->host, h->port, AF_UNSPEC, &a, &h->err) ||
	    (fd = xp_connect_tcp(&a, NULL, CONNECT_MS, &h->err)) < 0 ||
	    xp_client_auth(fd, h->ctl->key, h->spec, CONNECT_MS, &h->err) ||
	    ask_agent(h, fd, &h->err) || read_answer(fd, h, ms, &h->err))
		goto out;
	h->rc = 0;
out:
	if (fd >= 0)
		close(fd);
	return NULL;
}

int xp_controller_run(const struct xp_cli *c, const struct xp_fanout *f)
{
	struct xp_fanout_ctl ctl = { 0 };
	struct xp_fanout_host *hs;
	struct xp_auth_key key;
	struct xp_err err;
	int rc;

	if (xp_auth_key_load(c->o->auth_file, &key, &err))
		return xp_cli_fail(c->o, err.msg);
	ctl.key = &key;
	ctl.target = c->o->client;
	ctl.port = (uint16_t)c->o->port;
	ctl.test_ns = c->o->length + c->o->omit + c->o->warmup;
	if (xp_controller_args(c->o->argc, c->o->argv, ctl.args, sizeof(ctl.args))) {
		xp_auth_key_wipe(&key);
		return xp_cli_fail(c->o, "--from: the test's options are too long to forward");
	}
	ctl.start_wall_ns = xp_wall_ns() + START_LEAD_NS;
	hs = xp_fanout_hosts(c, f, -1, NULL);
	rc = hs ? xp_fanout_go(c, hs, f->n, agent_main, &ctl)
		: xp_cli_fail(c->o, "out of memory");
	xp_auth_key_wipe(&key);
	return rc;
}
