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

/* Whether a's option takes the next word as its value, among those the
 * controller decides itself. */
static int own_option(const char *a, int *has_value)
{
	static const char *const with_value[] = { "--from", "-c", "--client", "-p", "--port",
						  "-P", "--flows", "--auth-file", NULL };
	size_t i, n = strcspn(a, "=");

	*has_value = 0;
	if (!strcmp(a, "--json") || !strcmp(a, "-J"))
		return 1;
	for (i = 0; with_value[i]; i++) {
		if (!strcmp(a, with_value[i])) {
			*has_value = 1;
			return 1;
		}
		if (strlen(with_value[i]) == n && !strncmp(a, with_value[i], n))
			return 1; /* --from=... */
		if (with_value[i][1] != '-' && !strncmp(a, with_value[i], 2) && a[2])
			return 1; /* -P64 */
	}
	return 0;
}

int xp_controller_args(int argc, char **argv, char *buf, size_t len)
{
	struct xp_json j;
	int i, v, rc;

	xp_json_init(&j, 0);
	xp_json_arr_open(&j, NULL);
	for (i = 1; i < argc; i++) {
		if (own_option(argv[i], &v)) {
			i += v;
			continue;
		}
		xp_json_str_val(&j, NULL, argv[i]);
	}
	xp_json_arr_close(&j);
	rc = !j.oom && strlen(xp_json_str(&j)) < len ? 0 : -1;
	if (!rc)
		snprintf(buf, len, "%s", xp_json_str(&j));
	xp_json_free(&j);
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
