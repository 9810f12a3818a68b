/* SPDX-License-Identifier: BSD-2-Clause */
/* `iperf3 -c HOST ...` (client/iperf3/cli.h): one test in iperf3's
 * protocol (client/iperf3/client.h), which stock iperf3 servers and
 * xperf's both answer, printed as it goes the way iperf3 prints it: text
 * lines at each interval, one JSON document at the end (-J), or a JSON
 * line per event (--json-stream). */
#include "client/iperf3/cli.h"

#include <errno.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "client/report/report.h"
#include "common/signals.h"

enum { OUT_TEXT = 0, OUT_JSON, OUT_STREAM };

struct cli {
	const struct xp_i3fe_cfg *c;
	struct xp_i3_report rep;
	struct xp_i3_client_out *out;
	struct xp_i3out o;
	struct xp_i3m_tcpi *ti;
	int mode;
	struct xp_jdoc *srv_doc;  /* the server's results, for its output */
	uint32_t printed;         /* intervals printed so far */
	const struct xp_opts *opts;
	const struct xp_client_result *xr; /* at the end: xperf's own figures */
};

/* -J's "xperf": xperf's report of the same test (both ends' counters,
 * TCP_INFO, the server's side), under a key iperf3 does not use. */
static void xperf_extra(void *ctx, struct xp_json *j, const char *key)
{
	const struct cli *cl = ctx;

	if (cl->xr)
		xp_report_json_end(j, cl->opts, cl->xr, NULL, key);
}

/* The intervals not printed yet. */
static void print_intervals(struct cli *cl)
{
	struct xp_json j;

	for (; cl->printed < cl->rep.nintervals; cl->printed++) {
		if (cl->mode == OUT_TEXT) {
			xp_i3t_interval(&cl->o, &cl->rep, cl->printed);
		} else if (cl->mode == OUT_STREAM) {
			xp_json_init(&j, 0);
			xp_i3j_event_interval(&j, &cl->rep, cl->printed);
			if (!j.oom)
				fputs(xp_json_str(&j), cl->o.f);
			xp_json_free(&j);
			fflush(cl->o.f);
		}
	}
}

static void emit(struct cli *cl, struct xp_json *j)
{
	if (!j->oom)
		fputs(xp_json_str(j), cl->o.f);
	xp_json_free(j);
	fflush(cl->o.f);
}

/* The end of a JSON run: the whole document (-J) or the end event
 * (--json-stream). */
static void emit_end(struct cli *cl)
{
	struct xp_json j;

	xp_json_init(&j, cl->mode == OUT_JSON);
	if (cl->mode == OUT_JSON)
		xp_i3j_document(&j, &cl->rep);
	else
		xp_i3j_event_end(&j, &cl->rep);
	emit(cl, &j);
}

/* A TCP sender's TCP_INFO, read from the client's copy of its socket. */
static void read_tcpi(int fd, struct xp_i3m_tcpi *t)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(t, 0, sizeof(*t));
	memset(&ti, 0, sizeof(ti));
	if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		return;
	t->valid = 1;
	t->cwnd_bytes = (uint64_t)ti.tcpi_snd_cwnd * ti.tcpi_snd_mss;
	t->rtt_us = ti.tcpi_rtt;
	t->rttvar_us = ti.tcpi_rttvar;
	t->pmtu = ti.tcpi_pmtu;
	if (len >= offsetof(struct tcp_info, tcpi_snd_wnd) + sizeof(ti.tcpi_snd_wnd))
		t->wnd = ti.tcpi_snd_wnd;
}

static void on_ready(void *ctx)
{
	struct cli *cl = ctx;

	snprintf(cl->rep.cookie, sizeof(cl->rep.cookie), "%s", cl->out->cookie);
	cl->rep.ctl_mss = cl->out->ctl_mss;
	if (cl->rep.blksize_auto) /* as the iperf3 client picks it */
		cl->rep.blksize = cl->rep.ctl_mss >= 16 && cl->rep.ctl_mss <= 65507 ?
				  cl->rep.ctl_mss : 1460;
	cl->rep.stage = 1;
	if (cl->mode == OUT_TEXT)
		xp_i3t_connecting(&cl->o, &cl->rep);
}

static void on_start(void *ctx, const struct xp_client_result *xr)
{
	struct cli *cl = ctx;
	struct xp_json j;

	xp_i3m_connected(&cl->rep, cl->out, xr);
	if (cl->mode == OUT_TEXT) {
		xp_i3t_connected(&cl->o, &cl->rep);
		fflush(cl->o.f);
	} else if (cl->mode == OUT_STREAM) {
		xp_json_init(&j, 0);
		xp_i3j_event_start(&j, &cl->rep);
		emit(cl, &j);
	}
}

static void on_interval(void *ctx, const struct xp_client_result *xr,
			const struct xp_interval *iv)
{
	struct cli *cl = ctx;
	uint32_t i;

	(void)xr;
	for (i = 0; cl->ti && i < cl->rep.nstreams; i++)
		if (cl->rep.st[i].sender && !cl->rep.udp)
			read_tcpi(cl->out->streams[i].fd, &cl->ti[i]);
	if (xp_i3m_interval(&cl->rep, iv, cl->ti) <= 0)
		return;
	/* the last interval of a timed test is printed after the results
	 * came, as iperf3 prints it (its header then knows the sender's
	 * retransmits, with -R too) */
	if (cl->rep.duration && iv->end > cl->rep.duration - cl->rep.interval / 2)
		return;
	print_intervals(cl);
}

/* The server's output (--get-server-output) from its results message. */
static void server_output(struct cli *cl)
{
	const struct xp_jval *root, *v;
	const char *s;
	size_t n;

	if (!cl->out->remote_json)
		return;
	cl->srv_doc = xp_jdoc_parse(cl->out->remote_json, strlen(cl->out->remote_json), NULL,
				    NULL);
	root = cl->srv_doc ? xp_jdoc_root(cl->srv_doc) : NULL;
	v = xp_jval_member(root, "server_output_text");
	if (!xp_jval_str(v, &s, &n))
		cl->rep.server_output_text = s;
	v = xp_jval_member(root, "server_output_json");
	if (xp_jval_type(v) == XP_JOBJ)
		cl->rep.server_output_json = v;
}

/* xperf's error as iperf3 words the common ones. */
static void i3_error(char *buf, size_t len, const char *msg, int connected)
{
	const char *sys = strrchr(msg, ':');

	if (strstr(msg, "busy running a test"))
		snprintf(buf, len, "the server is busy running a test. try again later");
	else if (!connected && !strncmp(msg, "connect ", 8) && sys)
		snprintf(buf, len, "unable to connect to server:%s", sys + 1);
	else if (strstr(msg, "SERVER_TERMINATE"))
		snprintf(buf, len, "the server has terminated");
	else if (strstr(msg, "connection closed by peer"))
		snprintf(buf, len, "control socket has closed unexpectedly");
	else
		snprintf(buf, len, "%s", msg);
}

/* The socket buffer sizes a stream gets (-w applied), as iperf3 reports. */
static void buffers(struct xp_i3_report *r, const struct xp_i3fe_cfg *c)
{
	int fd = socket(AF_INET, (c->udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
	int v = (int)c->window;
	socklen_t l = sizeof(v);

	if (fd < 0)
		return;
	if (c->window) {
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
	}
	if (!getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &l))
		r->sndbuf_actual = (uint64_t)v;
	l = sizeof(v);
	if (!getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &l))
		r->rcvbuf_actual = (uint64_t)v;
	close(fd);
}

static void finish_error(struct cli *cl, const char *msg)
{
	i3_error(cl->rep.error, sizeof(cl->rep.error), msg, cl->rep.stage >= 2);
	if (cl->mode == OUT_TEXT) {
		struct xp_i3out e = cl->o;

		e.f = cl->c->logfile ? cl->o.f : stderr; /* as iperf3's iperf_err */
		e.title = NULL;
		xp_i3out_printf(&e, "iperf3: error - %s\n", cl->rep.error);
		fflush(e.f);
		return;
	}
	emit_end(cl);
}

static void finish(struct cli *cl, const struct xp_client_result *xr)
{
	xp_i3m_end(&cl->rep, cl->out, xr);
	cl->xr = xr;
	cl->rep.extra = xperf_extra;
	cl->rep.extra_ctx = cl;
	server_output(cl);
	print_intervals(cl);
	if (cl->mode == OUT_TEXT) {
		xp_i3t_summary(&cl->o, &cl->rep);
		if (xr->interrupted)
			xp_i3out_printf(&cl->o, "iperf3: interrupt - the client has terminated\n");
		else
			xp_i3out_printf(&cl->o, "\niperf Done.\n");
		fflush(cl->o.f);
		return;
	}
	if (xr->interrupted)
		snprintf(cl->rep.error, sizeof(cl->rep.error), "interrupt - the client has "
			 "terminated");
	emit_end(cl);
}

static int setup(struct cli *cl, const struct xp_i3fe_cfg *c, FILE *f)
{
	memset(cl, 0, sizeof(*cl));
	cl->c = c;
	cl->mode = c->json_stream ? OUT_STREAM : c->json ? OUT_JSON : OUT_TEXT;
	cl->o.f = f;
	cl->o.title = c->title;
	cl->o.tsfmt = c->timestamps;
	cl->o.flush = c->forceflush || c->logfile;
	cl->out = calloc(1, sizeof(*cl->out));
	if (!cl->out || xp_i3m_setup(&cl->rep, c))
		return -1;
	cl->ti = calloc(cl->rep.nstreams, sizeof(*cl->ti));
	xp_i3r_system_info(cl->rep.system_info, sizeof(cl->rep.system_info));
	cl->rep.timesecs = (int64_t)time(NULL);
	buffers(&cl->rep, c);
	return cl->ti ? 0 : -1;
}

static void cleanup(struct cli *cl)
{
	if (cl->out)
		free(cl->out->remote_json);
	free(cl->out);
	free(cl->ti);
	xp_jdoc_free(cl->srv_doc);
	xp_i3r_free(&cl->rep);
}

int xp_i3fe_client(const struct xp_i3fe_cfg *c, struct xp_i3fe_run *run)
{
	struct xp_client_hooks hooks = { 0 };
	struct xp_client_result xr;
	struct xp_err err = { "" };
	FILE *f = c->logfile ? fopen(c->logfile, "ae") : stdout;
	struct cli cl;
	int rc;

	if (!f) {
		fprintf(stderr, "iperf3: error - unable to open log file: %s\n", strerror(errno));
		return XP_I3FE_EXIT_FAIL;
	}
	if (setup(&cl, c, f)) {
		fprintf(stderr, "iperf3: error - out of memory\n");
		cleanup(&cl);
		return XP_I3FE_EXIT_FAIL;
	}
	cl.opts = &run->o;
	hooks.ctx = &cl;
	hooks.on_ready = on_ready;
	hooks.on_start = on_start;
	hooks.on_interval = on_interval;
	run->i3.hooks = &hooks;
	rc = xp_i3_client_run(&run->i3, c->host, c->port, xp_signal_fd(), &xr, cl.out, &err);
	if (rc) {
		finish_error(&cl, err.msg);
	} else {
		finish(&cl, &xr);
	}
	rc = rc || xr.interrupted ? XP_I3FE_EXIT_FAIL : XP_I3FE_EXIT_OK;
	xp_client_result_free(&xr);
	cleanup(&cl);
	if (f != stdout)
		fclose(f);
	return rc;
}
