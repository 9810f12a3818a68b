/* SPDX-License-Identifier: BSD-2-Clause */
/* --exec: a child in its own process group, its signals unblocked (the
 * lab blocks them for its signalfd), waited for with a deadline. */
#include "lab/hook.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"

struct env_var {
	const char *name;
	const char *value;
};

static int env_of(const struct xp_lab_plan *p, int ipv6, struct env_var *v)
{
	v[0] = (struct env_var){ "XPERF_LAB_CLIENT_NS", p->ns[p->client_ns] };
	v[1] = (struct env_var){ "XPERF_LAB_SERVER_NS", p->ns[p->server_ns] };
	v[2] = (struct env_var){ "XPERF_LAB_CLIENT_ADDR", ipv6 ? p->client6 : p->client4 };
	v[3] = (struct env_var){ "XPERF_LAB_SERVER_ADDR", ipv6 ? p->server6 : p->server4 };
	v[4] = (struct env_var){ "XPERF_LAB_TOPOLOGY", p->topology };
	return 5;
}

void xp_lab_hook_env(FILE *f, const struct xp_lab_plan *p, int ipv6)
{
	struct env_var v[8];
	int i, n = env_of(p, ipv6, v);

	for (i = 0; i < n; i++)
		fprintf(f, "export %s=%s\n", v[i].name, v[i].value);
}

static void child(const char *cmd, const struct xp_lab_plan *p, int ipv6, int to_stderr)
{
	struct env_var v[8];
	sigset_t none;
	int i, n = env_of(p, ipv6, v);

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setpgid(0, 0);
	for (i = 0; i < n; i++)
		setenv(v[i].name, v[i].value, 1);
	if (to_stderr)
		dup2(STDERR_FILENO, STDOUT_FILENO);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	fprintf(stderr, "xperf lab: --exec: /bin/sh: %s\n", strerror(errno));
	_exit(127);
}

/* Wait for pid until the deadline or a signal; then its group is killed. */
static int wait_child(pid_t pid, uint64_t deadline, int sigfd, struct xp_lab_hook *h)
{
	struct pollfd pfd = { sigfd, POLLIN, 0 };
	int st, killed = 0;
	uint64_t kill_at = 0;

	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		if (r < 0 && errno != EINTR)
			return 127;
		if (!killed && (xp_now_ns() >= deadline ||
				(sigfd >= 0 && poll(&pfd, 1, 0) > 0))) {
			h->timed_out = xp_now_ns() >= deadline;
			h->interrupted = !h->timed_out;
			kill(-pid, SIGTERM);
			killed = 1;
			kill_at = xp_now_ns() + 2000000000ull;
		} else if (killed && xp_now_ns() >= kill_at) {
			kill(-pid, SIGKILL);
		}
		poll(NULL, 0, 20);
	}
}

int xp_lab_hook_run(const char *cmd, const struct xp_lab_plan *p, int ipv6, int to_stderr,
		    unsigned timeout_s, int sigfd, struct xp_lab_hook *h)
{
	uint64_t t0 = xp_now_ns();
	pid_t pid;

	memset(h, 0, sizeof(*h));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		snprintf(h->msg, sizeof(h->msg), "--exec: fork: %s", strerror(errno));
		h->status = -1;
		return -1;
	}
	if (pid == 0)
		child(cmd, p, ipv6, to_stderr);
	setpgid(pid, pid);
	h->ran = 1;
	h->status = wait_child(pid, t0 + (uint64_t)timeout_s * 1000000000ull, sigfd, h);
	h->secs = (double)(xp_now_ns() - t0) / 1e9;
	if (h->timed_out)
		snprintf(h->msg, sizeof(h->msg), "--exec: killed after --exec-timeout %u s",
			 timeout_s);
	else if (h->interrupted)
		snprintf(h->msg, sizeof(h->msg), "--exec: killed: the lab was interrupted");
	else if (h->status)
		snprintf(h->msg, sizeof(h->msg), "--exec: the command exited %d", h->status);
	return h->status ? -1 : 0;
}

void xp_lab_hook_line(FILE *f, const char *topology, const struct xp_lab_hook *h)
{
	if (!h->ran)
		fprintf(f, "exec (%s): not run%s%s\n", topology, h->msg[0] ? ": " : "", h->msg);
	else
		fprintf(f, "exec (%s): %s in %.1f s%s%s\n", topology,
			h->status ? "failed" : "exited 0", h->secs, h->msg[0] ? ": " : "", h->msg);
}

void xp_lab_hook_json(struct xp_json *j, const char *topology, const struct xp_lab_hook *h)
{
	xp_json_obj_open(j, NULL);
	xp_json_str_val(j, "topology", topology);
	xp_json_bool(j, "ran", h->ran);
	if (h->ran) {
		xp_json_i64(j, "status", h->status);
		xp_json_dbl(j, "seconds", h->secs);
	} else {
		xp_json_null(j, "status");
		xp_json_null(j, "seconds");
	}
	xp_json_bool(j, "timed_out", h->timed_out);
	if (h->msg[0])
		xp_json_str_val(j, "message", h->msg);
	else
		xp_json_null(j, "message");
	xp_json_obj_close(j);
}
