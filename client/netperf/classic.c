/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf's classic output: the table each legacy test name prints when
 * no -o/-k/-O is given.  Column headings, widths and even trailing blanks
 * are reproduced because scripts cut fields out of these lines.  -v 0
 * prints the bare number (service demand when -c/-C asked for CPU).
 * The brand (-B) ends the result line only when headers are off. */
#include "client/netperf/netperf.h"

#include "proto/msg.h"

struct classic {
	FILE *f;
	const struct xp_np_cfg *c;
	const struct xp_np_vals *v;
	const char *units;  /* "10^6bits", "Trans" ... */
	const char *brand;  /* "" unless -P 0 and -B */
	int cpu;            /* -c or -C */
};

static int d(long long x)
{
	return (int)x;
}

/* -v 0: the number alone. */
static void print_bare(const struct classic *k, int crr_or_udp)
{
	const struct xp_np_vals *v = k->v;
	double sd = k->c->local_cpu ? v->local_sd : v->remote_sd;

	if (k->cpu && (xp_test(k->c->test)->udp && !xp_test(k->c->test)->rr))
		fprintf(k->f, "%6.2f %c\n", sd, 'S');
	else if (k->cpu && crr_or_udp)
		fprintf(k->f, "%6.3f\n", sd);
	else if (k->cpu)
		fprintf(k->f, "%6.3f %c %s\n", sd, 'S', k->brand);
	else if ((xp_test(k->c->test)->udp && !xp_test(k->c->test)->rr))
		fprintf(k->f, "%7.2f\n", v->local_send_tput);
	else if (crr_or_udp)
		fprintf(k->f, "%7.2f\n", v->thruput);
	else
		fprintf(k->f, "%7.2f %s\n", v->thruput, k->brand);
}

/* TCP_STREAM and TCP_MAERTS. */
static void print_stream(const struct classic *k)
{
	const struct xp_np_vals *v = k->v;
	int maerts = xp_test(k->c->test)->server_sends;
	int recv_buf = d(maerts ? v->lsr : v->rsr), send_buf = d(maerts ? v->rss : v->lss);
	int msg = d(maerts ? v->remote_send_size : v->local_send_size);

	if (!k->cpu) {
		if (k->c->headers)
			fprintf(k->f, "Recv   Send    Send                          \n"
				"Socket Socket  Message  Elapsed              \n"
				"Size   Size    Size     Time     Throughput  \n"
				"bytes  bytes   bytes    secs.    %s/sec  \n\n", k->units);
		fprintf(k->f, "%6d %6d %6d    %-6.2f   %7.2f   %s\n", recv_buf, send_buf,
			msg, v->elapsed, v->thruput, k->brand);
		return;
	}
	if (k->c->headers)
		fprintf(k->f, "Recv   Send    Send                          Utilization"
			"       Service Demand\n"
			"Socket Socket  Message  Elapsed              %s\n"
			"Size   Size    Size     Time     Throughput  local    remote   "
			"local   remote\n"
			"bytes  bytes   bytes    secs.    %-8.8s/s  %% %c      %% %c      "
			"us/KB   us/KB\n\n",
			maerts ? "Recv     Send     Recv    Send"
			       : "Send     Recv     Send    Recv", k->units, 'S', 'S');
	/* netperf prints the remote receive and local send buffers here for
	 * both directions when CPU is measured */
	fprintf(k->f, "%6d %6d %6d    %-6.2f     %7.2f   %-6.2f   %-6.2f   %-6.3f  "
		"%-6.3f %s\n", d(v->rsr), d(v->lss), msg, v->elapsed, v->thruput,
		v->local_cpu, v->remote_cpu, v->local_sd, v->remote_sd, k->brand);
}

static void print_udp_stream(const struct classic *k)
{
	const struct xp_np_vals *v = k->v;

	if (!k->cpu) {
		if (k->c->headers)
			fprintf(k->f, "Socket  Message  Elapsed      Messages                \n"
				"Size    Size     Time         Okay Errors   Throughput\n"
				"bytes   bytes    secs            #      #   %s/sec\n\n",
				k->units);
		fprintf(k->f, "%6d  %6d   %-7.2f   %7llu %6d    %7.2f\n"
			"%6d           %-7.2f   %7llu           %7.2f\n\n", d(v->lss),
			d(v->local_send_size), v->elapsed, v->local_send_calls,
			d(v->local_errors), v->local_send_tput, d(v->rsr), v->elapsed,
			v->remote_recv_calls, v->remote_recv_tput);
		return;
	}
	if (k->c->headers)
		fprintf(k->f, "Socket  Message  Elapsed      Messages                   "
			"CPU      Service\n"
			"Size    Size     Time         Okay Errors   Throughput   Util     "
			"Demand\n"
			"bytes   bytes    secs            #      #   %s/sec %% %c%c     "
			"us/KB\n\n", k->units, 'S', 'S');
	fprintf(k->f, "%6d  %6d   %-7.2f   %7llu %6d    %7.1f     %-6.2f   %-6.3f\n"
		"%6d           %-7.2f   %7llu           %7.1f     %-6.2f   %-6.3f\n\n",
		d(v->lss), d(v->local_send_size), v->elapsed, v->local_send_calls,
		d(v->local_errors), v->local_send_tput, v->local_cpu, v->local_sd,
		d(v->rsr), v->elapsed, v->remote_recv_calls, v->remote_recv_tput,
		v->remote_cpu, v->remote_sd);
}

static void rr_title(const struct classic *k)
{
	if (!k->c->headers)
		return;
	if (k->c->fmt == 'x' || !xp_test(k->c->test)->persistent)
		fputs("Local /Remote\n"
		      "Socket Size   Request  Resp.   Elapsed  Trans.\n"
		      "Send   Recv   Size     Size    Time     Rate         \n"
		      "bytes  Bytes  bytes    bytes   secs.    per sec   \n\n", k->f);
	else
		fprintf(k->f, "Local /Remote\n"
			"Socket Size   Request  Resp.   Elapsed  \n"
			"Send   Recv   Size     Size    Time     Throughput \n"
			"bytes  Bytes  bytes    bytes   secs.    %s/sec   \n\n", k->units);
}

static void rr_cpu_title(const struct classic *k)
{
	int crr = !xp_test(k->c->test)->persistent;

	if (!k->c->headers)
		return;
	fputs("Local /Remote\n", k->f);
	if (k->c->fmt == 'x' || crr)
		fputs("Socket Size   Request Resp.  Elapsed Trans.   CPU    CPU    S.dem   "
		      "S.dem\n"
		      "Send   Recv   Size    Size   Time    Rate     local  remote local   "
		      "remote\n", k->f);
	else
		fprintf(k->f, "Socket Size   Request Resp.  Elapsed Tput     CPU    CPU    "
			"S.dem   S.dem\n"
			"Send   Recv   Size    Size   Time    %-8.8s local  remote local   "
			"remote\n", k->units);
	if (crr)
		fputs("bytes  bytes  bytes   bytes  secs.   per sec  %      %      us/Tr   "
		      "us/Tr\n\n", k->f);
	else
		fprintf(k->f, "bytes  bytes  bytes   bytes  secs.   per sec  %% %c    %% %c    "
			"%s   %s\n\n", 'S', 'S', k->c->fmt == 'x' ? "us/Tr" : "us/KB",
			k->c->fmt == 'x' ? "us/Tr" : "us/KB");
}

/* TCP_RR, UDP_RR and TCP_CRR: two lines, local then remote buffers. */
static void print_rr(const struct classic *k)
{
	const struct xp_np_vals *v = k->v;
	int crr = !xp_test(k->c->test)->persistent;

	if (!k->cpu) {
		rr_title(k);
		if (crr)
			fprintf(k->f, "%-6d %-6d %-6d   %-6d  %-6.2f   %7.2f   \n", d(v->lss),
				d(v->lsr), d(v->req), d(v->rsp), v->elapsed, v->thruput);
		else
			fprintf(k->f, "%-6d %-6d %-6d   %-6d  %-6.2f   %7.2f   %s\n", d(v->lss),
				d(v->lsr), d(v->req), d(v->rsp), v->elapsed, v->thruput,
				k->brand);
	} else {
		rr_cpu_title(k);
		if (!xp_test(k->c->test)->udp && xp_test(k->c->test)->persistent)
			fprintf(k->f, "%-6d %-6d %-6d  %-6d %-6.2f  %-6.2f  %-6.2f %-6.2f "
				"%-6.3f  %-6.3f %s\n", d(v->lss), d(v->lsr), d(v->req),
				d(v->rsp), v->elapsed, v->thruput, v->local_cpu, v->remote_cpu,
				v->local_sd, v->remote_sd, k->brand);
		else
			fprintf(k->f, "%-6d %-6d %-6d  %-6d %-6.2f  %-6.2f   %-6.2f %-6.2f "
				"%-6.3f  %-6.3f%s%s\n", d(v->lss), d(v->lsr), d(v->req),
				d(v->rsp), v->elapsed, v->thruput, v->local_cpu, v->remote_cpu,
				v->local_sd, v->remote_sd, crr ? "" : " ", crr ? "" : k->brand);
	}
	fprintf(k->f, "%-6d %-6d\n", d(v->rss), d(v->rsr));
}

/* Printed before the table when -i/-I did not reach the interval:
 * netperf's words, and each interval's full width in percent of its
 * mean. */
static void not_confident(const struct classic *k)
{
	fprintf(k->f, "!!! WARNING\n"
		"!!! Desired confidence was not achieved within the specified iterations.\n"
		"!!! This implies that there was variability in the test environment that\n"
		"!!! must be investigated before going further.\n"
		"!!! Confidence intervals: Throughput      : %4.3f%%\n"
		"!!!                       Local CPU util  : %4.3f%%\n"
		"!!!                       Remote CPU util : %4.3f%%\n\n",
		k->v->thruput_confid, k->v->local_cpu_confid < 0 ? 0 : k->v->local_cpu_confid,
		k->v->remote_cpu_confid < 0 ? 0 : k->v->remote_cpu_confid);
}

void xp_np_print_classic(FILE *f, const struct xp_np_run *run,
			 const struct xp_np_vals *v)
{
	const struct xp_np_cfg *c = run->cfg;
	struct classic k = { f, c, v, xp_np_units(c->fmt), "",
			     c->local_cpu || c->remote_cpu };
	const struct xp_test *t = xp_test(c->test);
	int crr_or_udp = !t->persistent || (t->udp && !t->rr);

	if (!c->headers && c->brand)
		k.brand = c->brand;
	if (c->iter_max > 1 && !run->sum->confident)
		not_confident(&k);
	if (c->verbosity == 0)
		print_bare(&k, crr_or_udp);
	else if (t->bulk && !t->udp)
		print_stream(&k);
	else if (t->bulk)
		print_udp_stream(&k);
	else
		print_rr(&k);
}
