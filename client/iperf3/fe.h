/* SPDX-License-Identifier: BSD-2-Clause */
/* iperf3 compatibility, the command-line half: xperf run as `iperf3` (a
 * link installed by ./configure --enable-iperf3-name) or as
 * `xperf --iperf3-args ...` takes iperf3 3.x's options and prints
 * iperf3's text, JSON (-J) or JSON stream (--json-stream, 3.17's).
 *
 * The parts:
 *   client/iperf3/args.c     iperf3 argv -> struct xp_i3fe_cfg; pure.
 *   client/iperf3/optab.c    the option table (names, arguments, help)
 *                            and the usage text.
 *   client/iperf3/map.c      struct xp_i3fe_cfg -> the xperf options and
 *                            the iperf3 client's configuration; pure.
 *   client/iperf3/report.h   the report both ends print, and its printers
 *                            (client/iperf3/text.c, client/iperf3/jsonout.c, ...).
 *   client/iperf3/main.c     glue: client and server mode, exit status.
 * `iperf3 -c` always speaks iperf3's protocol (client/iperf3/client.h):
 * it works against stock iperf3 servers and against xperf's, which answer
 * it on the same port.  `iperf3 -s` is an xperf server printing iperf3's
 * server output for each iperf3 client.  What differs from iperf3 is in
 * xperf(1), IPERF3 COMPATIBILITY. */
#ifndef XP_IPERF3_FE_H
#define XP_IPERF3_FE_H

#include <stdint.h>
#include <stdio.h>

#include "client/iperf3/client.h"
#include "common/err.h"
#include "common/opts.h"

#define XP_I3FE_VERSION "3.12"      /* the iperf3 whose output is followed */
#define XP_I3FE_PORT 5201
#define XP_I3FE_UDP_RATE (1u << 20) /* -u without -b: 1 Mbit/s (1048576) */
#define XP_I3FE_TCP_LEN (128u << 10)
#define XP_I3FE_MAX_TIME 86400
#define XP_I3FE_MAX_BUF (512u << 20) /* -w */
#define XP_I3FE_MAX_BLOCK (1u << 20) /* -l (TCP) */
#define XP_I3FE_MAX_MSS 9216
#define XP_I3FE_MAX_BURST 1000

/* iperf3's exit statuses: 0 done (also -h, -v), 1 any error (also with
 * -J, where iperf3 3.12 exits 0 and only the "error" key says why). */
#define XP_I3FE_EXIT_OK 0
#define XP_I3FE_EXIT_FAIL 1

enum xp_i3fe_action { XP_I3FE_RUN = 0, XP_I3FE_HELP, XP_I3FE_VERSION_ACT };

/* The parsed iperf3 command line.  Strings point into argv or into the
 * buffers here.  Numbers are as iperf3 takes them. */
struct xp_i3fe_cfg {
	int action;
	int server;              /* -s */
	char host[256];          /* -c HOST (its %DEV part in bind_dev) */
	char bind_addr[256];     /* -B HOST (its %DEV part in bind_dev) */
	char bind_dev[64];       /* --bind-dev, -c HOST%DEV, -B HOST%DEV */
	int has_host, has_bind;
	uint16_t port;           /* -p (5201) */
	uint16_t cport;          /* --cport (0: any) */
	int family;              /* -4 / -6: AF_INET / AF_INET6, else AF_UNSPEC */
	char format;             /* -f: 'a' (adaptive), kmgtKMGT */
	double interval;         /* -i seconds (1), 0: none */
	int verbose, json, json_stream, forceflush, debug;
	const char *logfile, *pidfile;
	const char *timestamps;  /* --timestamps[=FMT]: the format, or NULL */
	int affinity, server_affinity; /* -A n[,m]; -1: not given */
	/* server */
	int daemon, one_off;
	uint32_t idle_timeout;   /* --idle-timeout seconds, 0: none */
	/* client: the test */
	int udp, reverse, bidir;
	uint32_t time_s;         /* -t (10), 0: until -n/-k, else no end */
	int time_given;
	uint64_t bytes, blocks;  /* -n, -k (0: none) */
	uint32_t len;            /* -l (0: iperf3's default) */
	uint32_t parallel;       /* -P (1) */
	uint64_t rate;           /* -b bits/s per stream; UDP default 1 Mbit/s */
	int rate_given;
	uint32_t burst;          /* -b RATE/BURST */
	uint64_t fqrate;         /* --fq-rate bits/s */
	uint32_t pacing_timer;   /* --pacing-timer us (1000) */
	uint64_t window;         /* -w */
	const char *congestion;  /* -C */
	uint32_t mss;            /* -M */
	int nodelay;             /* -N */
	int tos;                 /* -S / --dscp; -1: not given */
	uint32_t flowlabel;      /* -L */
	int zerocopy;            /* -Z */
	uint32_t omit;           /* -O seconds */
	const char *title;       /* -T */
	const char *extra_data;  /* --extra-data */
	int get_server_output, udp64, repeating_payload, dont_fragment;
	uint32_t connect_timeout_ms; /* --connect-timeout (0: the default) */
	uint32_t rcv_timeout_ms;     /* --rcv-timeout (120000) */
	uint32_t snd_timeout_ms;     /* --snd-timeout (0: the kernel's) */
	int argc;
	char **argv;
};

/* Parse argv (argv[0] is the program, or "--iperf3-args", skipped).
 * 0, or -1 with iperf3's message in err ("parameter error - ..." text
 * without the "iperf3: " prefix) and *usage set when iperf3 would print
 * its usage after it. */
int xp_i3fe_parse(struct xp_i3fe_cfg *c, int argc, char **argv, int *usage,
		  struct xp_err *err);

/* iperf3's usage text, naming xperf's front end. */
void xp_i3fe_usage(FILE *f);

/* What the parsed command line runs: xperf's options (the client's
 * test, its socket and path options; the server's port, CPUs, daemon
 * settings) and the iperf3 client's configuration (i3.o is &o: do not
 * copy the struct). */
struct xp_i3fe_run {
	struct xp_opts o;
	struct xp_i3_client_cfg i3;
	char cpus[16], tos[16], bind[300];
};

/* Fill r from c.  0, or -1 with err (a value xperf cannot take). */
int xp_i3fe_to_run(const struct xp_i3fe_cfg *c, struct xp_i3fe_run *r, struct xp_err *err);

/* Every option's spellings, space-separated (-c --client ...), for bash
 * completion. */
void xp_i3fe_option_words(FILE *f);

/* The whole front end: the exit status. */
int xp_i3fe_main(int argc, char **argv);

#endif
