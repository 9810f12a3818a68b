/* SPDX-License-Identifier: BSD-2-Clause */
/* An agent's run (client/fleet/agent.h): the controller's options become an
 * ordinary client test toward its target, started at the controller's
 * moment; the --json result goes back in pieces. */
#include "client/fleet/agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client/client.h"
#include "client/report/report.h"
#include "common/clock.h"
#include "common/ctl.h"
#include "common/exitcodes.h"
#include "common/json_read.h"

#define AGENT_ARGS_MAX 96
#define CTL_MS 15000

/* What an agent refuses to be told: options that would make it read or
 * write files or act as something else than one client of one server. */
static const char *const refused[] = {
	"-s", "--server", "--agent", "--from", "--hosts", "--logfile", "--plot",
	"--csv", "--histogram", "--pidfile", "-D", "--daemon", "--sweep", "-I",
	"--iterations", "--json-stream", "--bash-completion", "--fill", NULL,
};

static int refused_arg(const char *a)
{
	size_t i, n = strcspn(a, "=");

	for (i = 0; refused[i]; i++)
		if (strlen(refused[i]) == n && !strncmp(a, refused[i], n))
			return 1;
	return 0;
}

struct argv_buf {
	char *v[AGENT_ARGS_MAX + 16];
	int n;
	char port[16], flows[24];
	struct xp_jdoc *doc;
};

/* argv: "xperf", the controller's options, then what the agent decides
 * (later options win). */
static int build_argv(const struct xp_msg_agent_run *req, const char *key,
		      struct argv_buf *a, struct xp_err *err)
{
	const struct xp_jval *v;

	a->v[a->n++] = "xperf";
	a->doc = xp_jdoc_parse(req->args, strlen(req->args), NULL, err);
	if (!a->doc)
		return -1;
	if (xp_jval_type(xp_jdoc_root(a->doc)) != XP_JARR)
		return xp_err_set(err, "agent: the options are not a JSON array");
	for (v = xp_jval_first(xp_jdoc_root(a->doc)); v; v = xp_jval_next(v)) {
		const char *s = xp_jval_str_or(v, NULL);

		if (!s || a->n >= AGENT_ARGS_MAX)
			return xp_err_set(err, "agent: options must be at most %d strings",
					  AGENT_ARGS_MAX);
		if (refused_arg(s))
			return xp_err_set(err, "agent: '%s' is not taken from a controller", s);
		a->v[a->n++] = (char *)s;
	}
	snprintf(a->port, sizeof(a->port), "%llu", (unsigned long long)req->port);
	snprintf(a->flows, sizeof(a->flows), "%llu", (unsigned long long)req->flows);
	a->v[a->n++] = "-c";
	a->v[a->n++] = (char *)req->target;
	a->v[a->n++] = "-p";
	a->v[a->n++] = a->port;
	a->v[a->n++] = "-P";
	a->v[a->n++] = a->flows;
	if (key) {
		a->v[a->n++] = "--auth-file";
		a->v[a->n++] = (char *)key;
	}
	a->v[a->n] = NULL;
	return 0;
}

/* Hold the test until the controller's start time (its flows are open). */
static void at_start(void *ctx)
{
	uint64_t when = *(const uint64_t *)ctx, now = xp_wall_ns();
	struct timespec ts;

	if (!when || now >= when || when - now > 60 * XP_NS_PER_SEC)
		return;
	ts.tv_sec = (time_t)((when - now) / XP_NS_PER_SEC);
	ts.tv_nsec = (long)((when - now) % XP_NS_PER_SEC);
	nanosleep(&ts, NULL);
}

static char *result_json(const struct xp_opts *o, const struct xp_client_result *r)
{
	struct xp_json j;
	char *s;

	xp_json_init(&j, 0);
	xp_json_obj_open(&j, NULL);
	xp_report_json_start(&j, o, r, "start");
	xp_report_json_end(&j, o, r, NULL, "end");
	xp_json_obj_close(&j);
	s = j.oom ? NULL : strdup(xp_json_str(&j));
	xp_json_free(&j);
	return s;
}

static int send_text(int fd, const char *text, const char *peer, struct xp_err *err)
{
	struct xp_msg m;
	size_t off = 0, len = strlen(text);

	while (off < len) {
		size_t n = len - off < XP_MSG_TEXT_MAX ? len - off : XP_MSG_TEXT_MAX;

		memset(&m, 0, sizeof(m));
		m.type = XP_MSG_AGENT_DATA;
		memcpy(m.u.agent_data.text, text + off, n);
		if (xp_ctl_send(fd, &m, CTL_MS, peer, err))
			return -1;
		off += n;
	}
	return 0;
}

static void send_end(int fd, int status, const char *error, const char *peer)
{
	struct xp_msg m;
	struct xp_err err;

	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_AGENT_END;
	m.u.agent_end.status = (uint64_t)status;
	snprintf(m.u.agent_end.error, sizeof(m.u.agent_end.error), "%s", error);
	xp_ctl_send(fd, &m, CTL_MS, peer, &err);
}

static int run_test(int fd, const struct xp_opts *o, const struct xp_msg_agent_run *req,
		    const char *peer, struct xp_err *err)
{
	uint64_t when = req->start_wall_ns;
	struct xp_client_hooks hooks = { &when, NULL, NULL, at_start };
	struct xp_client_result r;
	char *doc;
	int rc;

	if (xp_client_run_ex(o, req->target, (uint16_t)req->port, -1, &hooks, &r, err)) {
		xp_client_result_free(&r);
		return -1;
	}
	doc = result_json(o, &r);
	rc = doc ? send_text(fd, doc, peer, err) : xp_err_set(err, "agent: out of memory");
	free(doc);
	xp_client_result_free(&r);
	return rc;
}

void xp_agent_serve(int fd, const struct xp_msg_agent_run *req, const char *peer,
		    void *ctx)
{
	struct xp_agent_ctx *ac = ctx;
	struct argv_buf *a = calloc(1, sizeof(*a));
	struct xp_opts o;
	struct xp_err err = { "" };
	int status = XP_EXIT_USAGE, rc = -1;

	if (!a) {
		send_end(fd, XP_EXIT_FAIL, "agent: out of memory", peer);
		return;
	}
	if (!build_argv(req, ac->auth_file, a, &err))
		rc = xp_opts_parse(&o, a->n, a->v, &err);
	if (!rc) {
		status = XP_EXIT_FAIL;
		if (!run_test(fd, &o, req, peer, &err))
			status = XP_EXIT_OK;
	}
	send_end(fd, status, status ? err.msg : "", peer);
	xp_jdoc_free(a->doc);
	free(a);
}
