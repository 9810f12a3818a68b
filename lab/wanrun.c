/* SPDX-License-Identifier: BSD-2-Clause */
#include "lab/wanrun.h"

#include <stdio.h>
#include <string.h>

#include "common/opts.h"

static void sums(const struct xp_wan_stats *s, double *frames, double *bytes)
{
	int d;

	*frames = *bytes = 0;
	for (d = 0; d < XP_WAN_DIRS; d++) {
		*frames += (double)s->d[d].forwarded;
		*bytes += (double)s->d[d].forwarded_bytes;
	}
}

/* One blast: frames/s and Mbit/s the line forwarded during it. */
static int blast(struct xp_wan_line *line, const struct xp_lab_where *w, int sigfd,
		 const char *const *args, double *mbps, double *fps, int *interrupted,
		 int *stuck, struct xp_err *err)
{
	char *argv[16];
	struct xp_opts o;
	struct xp_client_result r;
	struct xp_wan_stats a, b, d;
	double frames, bytes, s;
	int argc = 0;

	while (args[argc] && argc < 15) {
		argv[argc] = (char *)args[argc];
		argc++;
	}
	argv[argc] = NULL;
	if (xp_opts_parse_flags(&o, argc, argv, XP_OPTS_MATRIX, err))
		return -1;
	xp_wan_line_read(line, &b);
	if (xp_lab_measure(&o, w, sigfd, &r, interrupted, stuck, err))
		return -1;
	xp_wan_line_read(line, &a);
	s = (double)r.local.active_ns / 1e9;
	xp_client_result_free(&r);
	xp_wan_stats_delta(&d, &a, &b);
	sums(&d, &frames, &bytes);
	*fps = s > 0 ? frames / s : 0;
	*mbps = s > 0 ? bytes * 8 / s / 1e6 : 0;
	return 0;
}

int xp_lab_line_calibrate(struct xp_wan_line *line, const struct xp_lab_where *w,
			  int ipv6, int sigfd, uint64_t ms, struct xp_lab_ceiling *c,
			  int *interrupted, int *stuck, struct xp_err *err)
{
	char len[32];
	const char *tcp[] = { "xperf lab", "-t", "TCP_STREAM", "-l", len,
			      ipv6 ? "-6" : "-4", NULL };
	const char *udp[] = { "xperf lab", "-t", "UDP_STREAM", "-m", "64", "--no-gso",
			      "-l", len, ipv6 ? "-6" : "-4", NULL };
	int rc;

	memset(c, 0, sizeof(*c));
	snprintf(len, sizeof(len), "%.3f", (double)ms / 1e3);
	xp_wan_line_bypass(line, 1);
	rc = blast(line, w, sigfd, tcp, &c->tcp_mbps, &c->tcp_fps, interrupted, stuck, err);
	if (!rc && !*interrupted)
		rc = blast(line, w, sigfd, udp, &c->udp_mbps, &c->udp_fps, interrupted, stuck,
			   err);
	xp_wan_line_bypass(line, 0);
	if (rc || *interrupted) {
		snprintf(c->msg, sizeof(c->msg), "%s", rc ? err->msg : "interrupted");
		return -1;
	}
	c->measured = 1;
	return 0;
}

double xp_lab_line_load(const struct xp_lab_ceiling *c, const struct xp_wan_stats *delta,
			uint64_t ns)
{
	double frames, bytes, s = (double)ns / 1e9, fps, mbps, ceil_fps, ceil_mbps;

	if (!c->measured || s <= 0)
		return 0;
	sums(delta, &frames, &bytes);
	fps = frames / s;
	mbps = bytes * 8 / s / 1e6;
	ceil_fps = c->tcp_fps > c->udp_fps ? c->tcp_fps : c->udp_fps;
	ceil_mbps = c->tcp_mbps > c->udp_mbps ? c->tcp_mbps : c->udp_mbps;
	fps = ceil_fps > 0 ? fps / ceil_fps : 0;
	mbps = ceil_mbps > 0 ? mbps / ceil_mbps : 0;
	return fps > mbps ? fps : mbps;
}
