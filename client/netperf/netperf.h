/* SPDX-License-Identifier: BSD-2-Clause */
/* netperf compatibility: xperf accepts netperf 2.7's command line and
 * prints what netperf prints, so scripts written for netperf keep working
 * against an `xperf -s` server.
 *
 * The parts:
 *   client/netperf/args.c    netperf argv -> struct xp_np_cfg (which holds
 *                            the struct xp_opts of the run); pure.
 *   client/netperf/options.c the global option table (letter, argument,
 *                            effect, help) it uses, and its helpers;
 *   client/netperf/options_test.c the test-specific one (after --).
 *   client/netperf/map.c     the options that become xperf options whose
 *                            use depends on the test (-e, -G, -F, -P, -H,
 *                            -L, -p's lport, -F lfill), checked and set.
 *   client/netperf/calc.c    throughput units, CPU, service demand, the
 *                            -i/-I confidence loop and the value of every
 *                            selector; pure.
 *   client/netperf/omni.c    test names, omni's -d/-T/-c, and which xperf
 *                            test each one runs; pure.
 *   client/netperf/omni_sel.c the output selectors in netperf's order (one
 *                            table: name, header lines, format, value),
 *                            their parsing and default lists.
 *   client/netperf/out.c     the -o/-k/-O printers and the banner.
 *   client/netperf/classic.c the per-test tables netperf prints by default.
 *   client/netperf/demo.c    -D: parsing, the interim lines (three formats).
 *   client/netperf/sockmap.c -Y, -K, -s/-S 0 and TCP_SENDFILE onto xperf's
 *                            socket options.
 *   client/netperf/main.c    glue: socket-buffer probe, signals,
 *                            iterations, exit status.
 * What netperf options mean here, and which are refused, is in xperf(1),
 * section NETPERF COMPATIBILITY. */
#ifndef XP_NETPERF_H
#define XP_NETPERF_H

#include <stdint.h>
#include <stdio.h>

#include "client/client.h"
#include "common/err.h"
#include "common/opts.h"

/* netperf's exit statuses. */
#define XP_NP_EXIT_OK 0
#define XP_NP_EXIT_USAGE 1
#define XP_NP_EXIT_FAIL 255

#define XP_NP_PORT 12865   /* netperf's default control port */
#define XP_NP_MAX_SECS 86400 /* -l at most, and what -l 0 asks the server for */
#define XP_NP_BLOCKS 4     /* output lines (';'-separated groups) */
#define XP_NP_PER_BLOCK 64 /* selectors per line */

enum xp_np_mode {
	XP_NP_CLASSIC = 0, /* the per-test tables of netperf's legacy tests */
	XP_NP_CSV,         /* -o */
	XP_NP_KEYVAL,      /* -k */
	XP_NP_COLUMNS,     /* -O */
};

/* What to do after parsing, besides running a test. */
enum xp_np_action {
	XP_NP_RUN = 0,
	XP_NP_HELP,     /* global -h: usage on stderr, exit 1 as netperf does */
	XP_NP_VERSION,  /* -V: exit 0 */
	XP_NP_LIST_CSV, /* -o ? / -k ?: selectors comma-separated, exit 1 */
	XP_NP_LIST_COLUMNS, /* -O ?: one selector a line, exit 1 */
	XP_NP_TEST_HELP, /* test option -h: test usage on stdout, exit 1 */
	XP_NP_UNKNOWN_TEST, /* -t NAME netperf does not know: exit 1 */
	XP_NP_UUID,     /* -t uuid: a UUID without a newline */
	XP_NP_CPU_RATE, /* -t LOC_CPU / REM_CPU: the CPU rate, "100" */
};

/* What -t named (netperf's test families); the xperf test is in cfg->test. */
enum xp_np_kind {
	XP_NP_K_MIGRATED = 0, /* TCP_STREAM ... UDP_RR: omni, classic output */
	XP_NP_K_OMNI,         /* -t omni: direction and protocol from -d -T -c */
	XP_NP_K_SENDFILE,     /* TCP_SENDFILE: TCP_STREAM with sendfile(2) */
	XP_NP_K_CC,           /* TCP_CC: connect/close (xperf: TCP_CRR) */
	XP_NP_K_LOC_CPU,
	XP_NP_K_REM_CPU,
};

/* Omni directions (-d), netperf's bits. */
#define XP_NP_DIR_SEND 2
#define XP_NP_DIR_RECV 4

/* cfg->bufs_set: which of -s/-S were given (0 is a request too). */
#define XP_NP_LSS 1
#define XP_NP_LSR 2
#define XP_NP_RSS 4
#define XP_NP_RSR 8

/* The parsed netperf command line.  Strings point into argv or into buf;
 * sizes of 0 mean "netperf's default" (filled by xp_np_fill_defaults). */
struct xp_np_cfg {
	int action;              /* enum xp_np_action */
	/* global options */
	const char *host;        /* -H (or the test's -H), default "localhost"
				  * (or ::1 with -6): control and data */
	const char *local_host;  /* -L (global or test): the local address of
				  * control and data (xperf -B), or NULL */
	const char *ctl_local, *data_local; /* the global -L, the test's -L */
	int ctl_local_family, data_local_family; /* their ",family", or AF_UNSPEC */
	const char *data_host;   /* the test's -H, or NULL */
	int data_family;         /* its ",family", or AF_UNSPEC */
	char host_buf[256], local_buf[256], data_host_buf[256], data_local_buf[256];
	int family;              /* AF_UNSPEC, AF_INET, AF_INET6 */
	uint16_t port;           /* -p port[,lport] */
	int lport;               /* ... the control connection's source port, 0 any */
	int test;                /* the xperf test run (common/tests.def) */
	int kind;                /* enum xp_np_kind */
	char test_name[32];      /* -t as given, upper-cased */
	uint64_t length_ns;      /* -l; with until_signal the longest run */
	int until_signal;        /* -l 0: run until SIGINT or SIGALRM */
	/* -D [-]interval[,units]: interim results */
	int demo;                /* 0 off, 1 interval (netperf's units mode),
				  * 2 negative interval (every interval) */
	uint64_t demo_ns;        /* the interval */
	uint64_t demo_units;     /* netperf's first guess of units (unused) */
	int tos[2];              /* -Y local,remote: TOS byte, -1 unset */
	char fill[256];          /* -F lfill: the data sent repeats it, "" none */
	char fmt;                /* -f: x (transactions) m k g b M K G B */
	int local_cpu, remote_cpu;   /* -c, -C */
	int local_bind, remote_bind; /* -T l,r; -1 = not bound */
	int verbosity;           /* -v */
	int headers;             /* -P */
	const char *brand;       /* -B */
	int iter_min, iter_max;  /* -i max,min (1,1 = no confidence loop) */
	int conf_level;          /* -I level (95/99; 0 = not asked) */
	double conf_width;       /* -I ,width as a fraction (0.05 = 5%) */
	int result_conf_only;    /* -r */
	int ncpus;               /* -n: local CPU count for service demand */
	unsigned wait_secs;      /* -s: sleep before the test */
	/* test-specific options (after --) */
	uint64_t send_size, remote_send_size; /* -m local[,remote] send sizes */
	uint64_t remote_recv_size, local_recv_size; /* -M (reported only) */
	uint64_t req, rsp;       /* -r req,rsp */
	uint64_t lss, lsr, rss, rsr; /* -s/-S requested socket buffers */
	int bufs_set;            /* XP_NP_LSS ... : which were given */
	int nodelay;             /* -D */
	int burst;               /* -b: requests beyond the first in flight */
	char cong_buf[2][32];    /* -K local,remote */
	int omni_dir;            /* -d: XP_NP_DIR_* bits; -1 not given */
	int implied_dir;         /* XP_NP_DIR_* implied by -m, -M, -r */
	int omni_udp;            /* -T udp */
	int omni_conn;           /* -c: a connection test */
	int connect_only;        /* TCP_CC, or -c -d 0: connections, no data */
	char data_port[2][12];   /* -P local,remote as given, for the banner */
	int data_lport, data_rport; /* ... as numbers, 0: any */
	const char *rcv_timeout; /* -e as given, or NULL */
	uint64_t rcv_timeout_ns; /* ... (xperf --rr-timeout) */
	int mss;                 /* -G: TCP_MAXSEG (xperf --set-mss), 0 none */
	int fastopen;            /* -F: TCP Fast Open (xperf --fastopen) */
	const char *uuid;        /* -u */
	/* output */
	enum xp_np_mode mode;
	const char *sel_spec;    /* argument of -o/-k/-O; NULL = per-test default */
	uint16_t sel[XP_NP_BLOCKS][XP_NP_PER_BLOCK];
	int nsel[XP_NP_BLOCKS];
	char command_line[1024]; /* argv joined by spaces (COMMAND_LINE) */
	/* the xperf run */
	struct xp_opts opts;
	char cpus_buf[2][16];    /* --cpus / --remote-cpus from -T */
	/* what the socket options map to (client/netperf/sockmap.c) */
	int tos_applied[2];      /* TOS byte set on each end, -1 none */
	char cong_applied[32];   /* congestion control set on both ends, "" */
	int sendfile;            /* the sender uses sendfile(2) */
	char sockarg[1][16];     /* --tos's value, which struct xp_opts points to */
	char bind_buf[300];      /* -B's value ([local]:lport), the same */
};

/* Parse netperf's argv (argv[0] is the program name; test options after
 * "--").  0, or -1 with a usage message in err (exit status 1).  An
 * option xperf cannot honour is such an error (it says so); see xperf(1).
 * Fills cfg->opts for xp_client_run (client = host, port, test, sizes,
 * buffers, CPUs, nodelay, burst, the local address and ports, ...).  Does
 * not resolve selector files, nor (see xp_np_bind) a local port without a
 * local address or address family. */
int xp_np_parse(struct xp_np_cfg *cfg, int argc, char **argv,
		struct xp_err *err);

/* netperf's size syntax: decimal, optional K/M/G (x1024) or k/m/g
 * (x1000) suffix.  0 or -1. */
int xp_np_parse_size(const char *s, const char *what, uint64_t *out,
		     struct xp_err *err);

/* Parse a selector list ("A,B;C D", case-insensitive, unknown names
 * ignored, ';' or a newline starts the next output line, "all" = every
 * selector) into cfg->sel.  Returns the number of known selectors. */
int xp_np_select(struct xp_np_cfg *cfg, const char *spec);
/* True if spec is a selector list rather than a file name, by netperf's
 * rule: it holds ',' or ';', is "all", or is one known selector. */
int xp_np_spec_is_list(const char *spec);
/* netperf's default selection for the test (with -c/-C: CPU columns). */
void xp_np_select_default(struct xp_np_cfg *cfg);

/* Send size when -m is absent: netperf uses the sender's send socket
 * buffer (capped at 65507 for UDP); lss/rss are what the kernel reports
 * for the local/remote one. */
void xp_np_fill_defaults(struct xp_np_cfg *cfg, uint64_t lss, uint64_t rss);
/* TCP streams: the receiver reads -M's size per call (xperf's
 * --read-size).  Without -M xperf's default reads stay (netperf's default,
 * the receive socket buffer, lsr or rsr, read flent's 8-flow rrul_be at
 * 0.63-0.72 of native xperf clients). */
void xp_np_fill_read_size(struct xp_np_cfg *cfg, uint64_t lsr, uint64_t rsr);

/* Per-iteration figures, the ones netperf averages over -i iterations. */
struct xp_np_measure {
	double elapsed_s;
	double thruput;          /* in cfg->fmt units per second */
	double local_cpu, remote_cpu; /* host busy %, -1 when not asked */
	double local_sd, remote_sd;   /* us per KB or per transaction, or -1 */
};

/* Environment a run's values depend on, found by the glue. */
struct xp_np_env {
	int ncpus_local, ncpus_remote;
	uint64_t lss, lsr, rss, rsr; /* socket buffer sizes as reported */
	const char *cong;            /* local default congestion control */
	const char *uuid;            /* -u, or a random one */
	const char *dest_numeric;    /* the server's address, numeric */
	int dest_family;             /* AF_INET or AF_INET6 */
};

/* The outcome of all iterations. */
struct xp_np_summary {
	struct xp_np_measure mean;   /* of the iterations */
	int iterations;
	int confident;               /* the interval was reached (or not asked) */
	double thruput_confid, local_cpu_confid, remote_cpu_confid; /* % width */
	uint64_t transactions;       /* summed over iterations */
	double elapsed_total_s;      /* summed over iterations */
};

/* netperf's unit names ("10^6bits", "KBytes", "Trans") and the rate of
 * bytes over secs in those units. */
const char *xp_np_units(char fmt);
double xp_np_rate(char fmt, double bytes, double secs);

/* The run's elapsed seconds as netperf reports them: the -l length on
 * the client's clock, or the workers' time when a signal ended it. */
double xp_np_elapsed(const struct xp_np_cfg *cfg, const struct xp_client_result *r);

/* One iteration's figures from its result.  Pure. */
void xp_np_measure(const struct xp_np_cfg *cfg, const struct xp_np_env *env,
		   const struct xp_client_result *r, struct xp_np_measure *m);

/* Means and confidence over the first n iterations' figures (the caller
 * adds transactions and elapsed_total_s).  Returns 1 while netperf would
 * run another iteration: fewer than iter_min, or the interval is wider
 * than conf_width and fewer than iter_max have run. */
int xp_np_summarize(const struct xp_np_cfg *cfg, const struct xp_np_measure *m,
		    int n, struct xp_np_summary *s);

/* Everything printed, from the parsed options, the environment, the
 * last iteration's result (hist merged over all) and the summary. */
struct xp_np_run {
	const struct xp_np_cfg *cfg;
	const struct xp_np_env *env;
	const struct xp_client_result *r;
	const struct xp_np_summary *sum;
};

/* The value of every output selector for one run (the constant ones
 * are in the selector table). */
struct xp_np_vals {
	const char *socket_type, *protocol, *direction, *units, *sd_units;
	const char *local_cpu_method, *remote_cpu_method;
	const char *local_cong, *remote_cong, *brand, *uuid, *command_line;
	const char *source_port, *source_addr, *dest_port, *dest_addr;
	const char *local_fill, *remote_fill;
	long long source_family, dest_family;
	long long lss_req, lss, lsr_req, lsr, rss_req, rss, rsr_req, rsr;
	long long local_send_size, local_recv_size, remote_send_size,
		remote_recv_size, req, rsp, burst;
	long long conf_level, conf_iterations;
	long long mss, local_retrans, remote_retrans;
	long long local_bind, remote_bind, local_ncpus, remote_ncpus;
	long long local_peak_id, remote_peak_id;
	long long local_nodelay, remote_nodelay;
	long long local_send_width, local_recv_width, remote_send_width,
		remote_recv_width;
	long long local_prio, remote_prio, local_tos, remote_tos;
	long long local_errors; /* failed sends (UDP_STREAM "Errors") */
	long long min_lat, max_lat, p50_lat, p90_lat, p99_lat; /* us, -1: none */
	unsigned long long local_send_calls, local_recv_calls,
		remote_send_calls, remote_recv_calls;
	unsigned long long local_bytes_sent, local_bytes_recvd,
		remote_bytes_sent, remote_bytes_recvd;
	double elapsed, thruput, local_send_tput, local_recv_tput,
		remote_send_tput, remote_recv_tput;
	double local_bytes_xferd, remote_bytes_xferd;
	double local_bytes_per_send, local_bytes_per_recv,
		remote_bytes_per_send, remote_bytes_per_recv;
	double conf_interval, thruput_confid, local_cpu_confid, remote_cpu_confid;
	double rt_latency, trans_rate;
	double local_cpu, remote_cpu, local_sd, remote_sd;
	double local_cpu_part, remote_cpu_part; /* user/system/...: not split */
	double local_peak, remote_peak;
	double mean_lat, stddev_lat;
};
void xp_np_vals_fill(const struct xp_np_run *run, struct xp_np_vals *v);

/* The "MIGRATED TCP STREAM TEST from ..." line (-P 1). */
void xp_np_print_banner(FILE *f, const struct xp_np_cfg *cfg,
			const struct xp_np_env *env);
/* The classic per-test table (client/netperf/classic.c). */
void xp_np_print_classic(FILE *f, const struct xp_np_run *run,
			 const struct xp_np_vals *v);
/* The selected values in cfg->mode: -o, -k or -O (nothing for CLASSIC). */
void xp_np_print_vals(FILE *f, const struct xp_np_cfg *c, const struct xp_np_vals *v);
/* The result in cfg->mode (and the not-confident warning, classic). */
void xp_np_print_result(FILE *f, const struct xp_np_run *run);
/* Known selector names: CSV on one line, or one per line. */
void xp_np_list_selectors(FILE *f, int csv);
void xp_np_usage(FILE *f, const char *prog);
/* The test options alone (netperf -t omni -- -h). */
void xp_np_test_usage(FILE *f, const char *prog);
/* A random (version 4) UUID, 36 characters. */
void xp_np_make_uuid(char *buf, size_t len);
/* What is done instead of a test (usage, version, -t uuid, an unknown
 * test name, LOC_CPU/REM_CPU): the exit status, or -1 to run the test. */
int xp_np_act(struct xp_np_cfg *c, const char *prog, int sigfd);

/* Selector table lookups (case-insensitive); -1 if unknown.  Ids run
 * from 0 in netperf's order (SOCKET_TYPE first, COMMAND_LINE last). */
int xp_np_selector_find(const char *name);
const char *xp_np_selector_name(int id);
int xp_np_selector_count(void);
/* Header line 0..3 of a selector ("" when it has fewer). */
const char *xp_np_selector_header(int id, int line);
/* Selector id's value as netperf prints it, in buf; NULL for a string
 * that is unset (netperf then prints nothing for it). */
const char *xp_np_format_value(int id, const struct xp_np_vals *v, char *buf, size_t len);

/* ---- test names and omni (client/netperf/omni.c) ---- */

/* -t NAME, any case: sets kind and test, or the action for uuid and for a
 * name netperf does not know.  Always 0. */
int xp_np_set_test_name(struct xp_np_cfg *c, const char *arg);
/* -d: "send", "recv|maerts", "rr", "send|recv", 2, 0x6 ... into XP_NP_DIR_*
 * bits.  0 or -1. */
int xp_np_parse_direction(const char *arg, int *dir, struct xp_err *err);
/* -T tcp|udp (test option), and -t stream|dgram. */
int xp_np_parse_protocol(const char *arg, int *udp, struct xp_err *err);
/* After parsing: the xperf test for omni's direction and protocol, the
 * default -f.  0 or -1 (a combination xperf cannot run). */
int xp_np_resolve_test(struct xp_np_cfg *c, struct xp_err *err);
/* DIRECTION's value: "Send", "Receive", "Send|Recv", "Connection" ... */
const char *xp_np_direction(const struct xp_np_cfg *c);
/* The banner's test title: "MIGRATED TCP STREAM TEST", "OMNI Send TEST". */
const char *xp_np_title(const struct xp_np_cfg *c, char *buf, size_t len);

/* ---- -D, interim results (client/netperf/demo.c) ---- */

/* -D [-]interval[,units]. */
int xp_np_parse_demo(struct xp_np_cfg *c, const char *arg, struct xp_err *err);
/* One interim result as netperf prints it in mode (CLASSIC: "Interim
 * result: ..."; CSV; KEYVAL: the four NETPERF_*[n] lines), with the
 * interval's end as Unix seconds and milliseconds.  snprintf's return. */
int xp_np_demo_format(char *buf, size_t len, enum xp_np_mode mode, unsigned n,
		      double value, const char *units, double secs, int64_t end_s,
		      int end_ms);
/* The interval's rate in cfg->fmt units per second, of what netperf
 * counts for the test. */
double xp_np_demo_value(const struct xp_np_cfg *c, const struct xp_interval *iv);
/* Interim results of a process: how many were printed, and the
 * intervals not printed yet. */
struct xp_np_demo {
	unsigned n;
	int pending;
	struct xp_interval acc;  /* gathered, not printed yet */
	struct xp_interval done; /* printed in this run: counts, last end */
};
/* The client's interval iv: printed (and flushed) as interim result d->n
 * once at least 3/4 of the -D interval has gathered, else kept for the
 * next. */
void xp_np_demo_emit(FILE *f, const struct xp_np_cfg *c, struct xp_np_demo *d,
		     const struct xp_interval *iv);
/* At the end of a run (r its result): one more line for what the lines
 * printed did not cover, if anything. */
void xp_np_demo_flush(FILE *f, const struct xp_np_cfg *c, struct xp_np_demo *d,
		      const struct xp_client_result *r);

/* ---- socket options (client/netperf/sockmap.c) ---- */

/* The xperf options -Y, -K and TCP_SENDFILE map to (--tos, -C, --sendfile)
 * into c->opts; records what was applied in c->tos_applied and
 * c->cong_applied.  0 or -1. */
int xp_np_map_sockopts(struct xp_np_cfg *c, struct xp_err *err);
/* -Y's value: a TOS name (af11..af43, cs0..cs7, ef, lowdelay,
 * throughput, reliability) or a number 0..255; -1 for anything else, as
 * netperf ignores it. */
int xp_np_parse_tos(const char *s);

/* ---- the local end (client/netperf/map.c) ---- */

/* -L's address and -p's lport as xperf's -B ADDR[:PORT] in c->opts.bind:
 * an lport without a local address binds the wildcard address of family
 * (AF_UNSPEC: not yet known, nothing is set; the caller asks again once
 * the server's address is).  Always 0. */
int xp_np_bind(struct xp_np_cfg *c, int family);

/* Entry point from main(): argv as given to main (argv[1] may be
 * "--netperf-args").  Returns the process exit status. */
int xp_netperf_main(int argc, char **argv);

#endif
