/* SPDX-License-Identifier: BSD-2-Clause */
/* --line-between (lab/between.h). */
#include "lab/between.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/exitcodes.h"
#include "common/json.h"
#include "lab/report_wan.h"
#include "lab/wan/line.h"

/* "A,B" into two existing interface names. */
static int devices(const char *s, char dev[XP_WAN_DIRS][16], struct xp_err *err)
{
	const char *comma = strchr(s, ',');
	size_t n = comma ? (size_t)(comma - s) : 0;

	if (!comma || !n || n >= 16 || strlen(comma + 1) >= 16 || !comma[1] ||
	    strchr(comma + 1, ','))
		return xp_err_set(err, "--line-between '%s': want two interface names, DEV,DEV", s);
	snprintf(dev[XP_WAN_C2S], 16, "%.*s", (int)n, s);
	snprintf(dev[XP_WAN_S2C], 16, "%s", comma + 1);
	if (!strcmp(dev[0], dev[1]))
		return xp_err_set(err, "--line-between '%s': two different interfaces", s);
	if (!if_nametoindex(dev[0]) || !if_nametoindex(dev[1]))
		return xp_err_set(err, "--line-between: no interface %s in this namespace",
				  if_nametoindex(dev[0]) ? dev[1] : dev[0]);
	return 0;
}

/* Until a signal, the deadline (0: none) or the line's own failure. */
static void wait_out(struct xp_wan_line *line, int sigfd, uint64_t deadline)
{
	struct pollfd p = { sigfd, POLLIN, 0 };
	struct xp_err err;

	while (!xp_wan_line_failed(line, &err) && (!deadline || xp_now_ns() < deadline))
		if (poll(&p, sigfd >= 0 ? 1 : 0, 100) > 0)
			return;
}

static void report(const struct xp_lab_cfg *c, char dev[XP_WAN_DIRS][16],
		   const struct xp_wan_stats *s, double secs, const char *error, int json)
{
	struct xp_json j;

	if (!json) {
		printf("xperf delay line between %s and %s, %.2f s (client to server: from %s "
		       "to %s)\n", dev[0], dev[1], secs, dev[0], dev[1]);
		xp_lab_wan_dir_text(stdout, &c->knobs.wan);
		xp_lab_wan_stats_text(stdout, s);
		if (error[0])
			printf("delay line: stopped: %s\n", error);
		return;
	}
	xp_json_init(&j, 1);
	xp_json_obj_open(&j, NULL);
	xp_json_obj_open(&j, "line");
	xp_json_str_val(&j, "from", dev[0]);
	xp_json_str_val(&j, "to", dev[1]);
	xp_json_dbl(&j, "seconds", secs);
	xp_json_u64(&j, "seed", c->knobs.wan.seed);
	xp_lab_wan_stats_json(&j, s);
	if (error[0])
		xp_json_str_val(&j, "error", error);
	else
		xp_json_null(&j, "error");
	xp_json_obj_close(&j);
	xp_json_obj_close(&j);
	if (!j.oom)
		fputs(xp_json_str(&j), stdout);
	xp_json_free(&j);
}

int xp_lab_between(const struct xp_lab_cfg *c, int sigfd, int json)
{
	struct xp_wan wan = c->knobs.wan;
	struct xp_wan_line_cfg lc;
	struct xp_wan_line *line = NULL;
	struct xp_wan_stats s;
	struct xp_err err = { "" }, failed = { "" };
	uint64_t t0;
	int nsfd;

	memset(&lc, 0, sizeof(lc));
	if (devices(c->a.line_between, lc.dev, &err))
		goto fail;
	if ((nsfd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC)) < 0) {
		xp_err_sys(&err, errno, "--line-between: /proc/self/ns/net");
		goto fail;
	}
	wan.with = XP_WAN_LINE;
	lc.nsfd = nsfd;
	lc.wan = &wan;
	lc.cpu = c->knobs.line_cpu;
	if (xp_wan_line_start(&line, &lc, &err)) {
		close(nsfd);
		goto fail;
	}
	t0 = xp_now_ns();
	wait_out(line, sigfd, c->a.line_for ? t0 + c->a.line_for * XP_NS_PER_SEC : 0);
	xp_wan_line_read(line, &s);
	if (!xp_wan_line_failed(line, &failed))
		failed.msg[0] = 0;
	xp_wan_line_stop(line);
	close(nsfd);
	report(c, lc.dev, &s, (double)(xp_now_ns() - t0) / 1e9, failed.msg, json);
	return failed.msg[0] ? XP_EXIT_FAIL : XP_EXIT_OK;
fail:
	fprintf(stderr, "xperf lab: %s\n", err.msg);
	return XP_EXIT_FAIL;
}
