/* SPDX-License-Identifier: BSD-2-Clause */
/* Worker threads: each pinned to one CPU, owning one epoll set, its flows,
 * its counters and its latency histogram.  Nothing on the per-send or
 * per-transaction path is shared with another thread: the controlling
 * thread talks to a worker through an eventfd plus an atomic command, the
 * server's accept loop hands it new connections through a pipe, and totals
 * are read only after the worker has been joined. */
#ifndef XP_WORKER_H
#define XP_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "common/err.h"
#include "common/hist.h"
#include "common/sock.h"
#include "common/tests.h"
#include "proto/result.h"

enum xp_role { XP_ROLE_CLIENT = 0, XP_ROLE_SERVER = 1 };
enum xp_cmd { XP_CMD_WAIT = 0, XP_CMD_GO, XP_CMD_STOP, XP_CMD_ABORT };

/* Parameters of one test on one side, shared read-only by its workers. */
struct xp_run {
	int test;           /* enum xp_test_type */
	int role;           /* enum xp_role */
	uint32_t req, rsp;  /* stream: req is the send size */
	struct xp_sockopts so;
	uint64_t rr_timeout_ns;
	uint64_t cookie;
	struct xp_addr peer; /* client: the server (TCP_CRR connects per transaction) */
	uint32_t flows, threads;
	int spin;            /* poll instead of sleeping */
	int gso;             /* UDP_STREAM: GSO on send, GRO on receive */
	int zerocopy;        /* stream senders: MSG_ZEROCOPY */
	uint32_t burst;      /* RR: outstanding transactions per flow */
	uint64_t rate_bps;   /* stream senders: per-flow pacing target, 0 = none */
	uint32_t pace_burst; /* UDP pacing: most datagrams back to back */
	uint64_t sched_ns;   /* RR --rate: interval between one flow's requests */
	uint64_t rcvlowat;   /* TCP stream receivers: 0 auto, 1 kernel default, else bytes */
	uint64_t read_size;  /* TCP stream receivers: bytes per read, 0 = the buffer */
	int fastopen;        /* TCP_CRR: TCP Fast Open (so.fastopen on the client) */
	int sendfile;        /* TCP stream senders: sendfile(2), not send(2) */
	const uint8_t *fill; /* client --fill: the send buffer repeats these bytes */
	size_t fill_len;     /* ... (0: the buffer stays zeroed) */
	int note_mptcp;      /* count the data connections that are MPTCP */
	uint64_t connect_timeout_ns; /* client TCP_CRR: a connect() taking longer fails */
	/* UDP receivers after STOP: the control connection's round trip (its
	 * bound, common/sockpath.h), set before STOP is given to the workers.
	 * A STOP may arrive ahead of datagrams still on the path (a path that
	 * reorders, or a slower way for data), by at most the data's one-way
	 * time: the receivers count on for that long before they judge the
	 * socket quiet (common/engine/udp.c). */
	uint64_t drain_grace_ns;
	_Atomic uint32_t registered; /* server: persistent flows taken in by workers */
	/* NULL: the test table's engine for test and role; else these
	 * callbacks (iperf3 tests, common/iperf3/engine.h) */
	const struct xp_side_ops *side;
	uint8_t bidir;       /* flows from flows/2 on run the reverse twin's engines */
	uint8_t omit;        /* --omit: UDP senders mark measured datagrams and
			      * receivers count only those (xp_worker_measure) */
	uint64_t quota;      /* -n/-k: units each direction's senders send in all */
	uint32_t quota_flows; /* this side's flows with a share of it (xp_run_quota_flows) */
	_Atomic uint32_t quota_done; /* ... that have finished */
	int done_fd;         /* eventfd written when they all have; -1: none */
	uint8_t stamps;      /* XP_STAMP_* (proto/msg.h): one-way delays */
	int64_t owd_peer_lead_ns; /* ... the peer's clock ahead of this end's */
	/* TCP bulk: the stream carries self probes (common/engine/stream_self.c);
	 * the client sends one on each flow every self_probe_ns (0: none) */
	uint8_t self_probes;
	uint64_t self_probe_ns;
	uint64_t owd_bias_ns;     /* ... added to every delay (common/owd.h) */
};

/* The callbacks flow `idx` of this side runs: the test's, or with --bidir
 * for the second half of the flows its reverse twin's (common/engine/table.c). */
const struct xp_side_ops *xp_run_flow_side(const struct xp_run *r, uint32_t idx);
/* The callbacks this side runs for `test` in run r (its own, or the self
 * probes' twins of the stream engines); NULL for an unknown test. */
const struct xp_side_ops *xp_run_test_side(const struct xp_run *r, int test);
/* Flows of the side `role` (enum xp_role) that send a share of -n/-k
 * (bulk senders, RR clients); for its own role, the number whose
 * finishing xp_run.quota_done counts. */
uint32_t xp_run_quota_flows(const struct xp_run *r, int role);
/* Flow idx's share of the quota: split exactly over its direction's flows. */
uint64_t xp_run_flow_quota(const struct xp_run *r, uint32_t idx);
/* 1 if flow idx sends server to client (the test's direction, or the
 * reverse half of --bidir). */
int xp_run_flow_s2c(const struct xp_run *r, uint32_t idx);

/* A worker's counters at one moment, for interval reports: taken by the
 * worker itself when asked (xp_worker_snap_request), then read by the
 * controlling thread once snap_done says so, before it asks again. */
struct xp_flow_snap {
	uint32_t idx;
	uint64_t bytes, trans, retrans;
	uint64_t jitter_ns; /* UDP receiver: jitter so far, if jitter_n */
	uint32_t jitter_n;
};

struct xp_snap {
	uint64_t t;              /* when taken */
	struct xp_counters c;
	struct xp_hist *hist;    /* copy of the worker's histogram */
	struct xp_hist *fwd, *ret; /* --one-way: copies of its one-way delays */
	struct xp_flow_snap *flows;
	uint32_t nflows, capflows;
};

struct xp_flow;
struct xp_owd;
struct xp_worker;
typedef void (*xp_io_fn)(struct xp_flow *f, uint32_t events);

/* One flow: what every engine shares.  An engine keeps its own state
 * behind it (xp_flow_state, side->state bytes, zeroed when the flow is
 * taken), so a stream flow carries no request/response fields. */
struct xp_flow {
	int fd;
	uint32_t idx;       /* flow index within the test */
	uint32_t slot;      /* position in the worker's live array */
	uint32_t events;    /* epoll events currently registered */
	struct xp_worker *w;
	xp_io_fn on_io;     /* swapped as the flow changes state */
	uint8_t stopping;   /* STOP seen: finish what is under way */
	uint8_t quota;      /* -n/-k: `left` bounds what the flow sends */
	const struct xp_side_ops *side; /* this flow's engine (per flow: --bidir) */
	uint64_t bytes, trans; /* for per-flow reports */
	uint64_t next_send; /* pacing and --rate: earliest time of the next send */
	uint64_t left;      /* -n/-k: units still to send */
	uint64_t omitted;   /* bytes before --omit ended */
	uint64_t omitted_trans; /* RR: transactions before --warmup ended */
	uint64_t dgrams;    /* UDP bulk: datagrams sent; a receiver's unique at close */
	uint64_t out_of_order, duplicates; /* UDP bulk receiver, at close */
	uint64_t jitter_ns; /* UDP bulk receiver: RFC 3550 jitter so far ... */
	uint32_t jitter_n;  /* ... over this many transit differences */
	struct xp_flow *next_free;
	unsigned char state[] __attribute__((aligned(16)));
};

static inline void *xp_flow_state(struct xp_flow *f)
{
	return f->state;
}

struct xp_side_ops {
	size_t state;                     /* bytes of engine state per flow */
	uint8_t sends;                    /* originates the data: bulk sender, RR client */
	void (*add)(struct xp_flow *f);   /* flow given to the worker */
	void (*go)(struct xp_flow *f);    /* test starts (may be NULL) */
	void (*stop)(struct xp_flow *f);  /* duration over: finish gracefully */
	void (*tick)(struct xp_flow *f);  /* every few ms, if not NULL */
	/* The flow is finishing (may be NULL): release what add took and
	 * fold the flow's own counts into the worker's. */
	void (*close)(struct xp_flow *f);
	/* The warm-up is over (may be NULL): what the flow has under way
	 * completes in the measured part, so count its sending there. */
	void (*measure)(struct xp_flow *f);
	/* Direct mode for a bulk flow alone on its worker (may be NULL): one
	 * blocking send or receive, as the plainest loop would do it
	 * (common/engine/direct.c).  An interrupted call just returns. */
	void (*direct)(struct xp_flow *f);
};

/* The callbacks a side of a test runs (the engine column of
 * common/tests.def); NULL for an unknown test. */
const struct xp_side_ops *xp_engine_side(int test, int role);

struct xp_worker {
	int id, cpu, ran_cpu;
	pthread_t thr;
	int started;
	int epfd, evfd, mbox[2];
	char tag_cmd, tag_mbox; /* their epoll tags: only their addresses count */
	_Atomic int cmd;
	_Atomic int in_direct; /* blocked reads possible: wake with xp_worker_kick */
	_Atomic int fds_state;  /* FDS_*: own descriptor table yet? (worker_fds.c) */
	int *handed;            /* ... its flows' descriptors, for the giver to close */
	uint32_t nhanded;
	struct xp_run *run;
	const struct xp_test *t;   /* facts about the test (common/tests.h) */
	const struct xp_side_ops *side; /* the test's; a flow runs f->side */
	const struct xp_side_ops *rev;  /* --bidir: the second half of the flows' */
	size_t state;              /* engine state per flow: the largest of its sides' */
	struct xp_flow **live;
	uint32_t nlive, caplive, active;
	struct xp_flow *free_flows;
	struct xp_counters c;
	struct xp_hist *hist;     /* RR: round trips (--rate: from intended send) */
	struct xp_hist *raw_hist; /* --rate: round trips from the actual send */
	/* client, --bidir with self probes: the up (client to server) and the
	 * down flows' self probes apart (each is in hist too) */
	struct xp_hist *self_way[2];
	struct xp_owd *owd;       /* run->stamps: one-way delays (common/engine/owd.h) */
	char *buf;   /* receive buffer, buflen bytes */
	char *txbuf; /* send buffer, txlen bytes: zeros, or run->fill repeated */
	size_t buflen, txlen;
	uint64_t now, t_go, t_stop, t_end, t_last_rx, drain_deadline;
	int going, stopping, ticking;
	int direct;          /* ran in direct mode (blocking recv, no epoll) */
	uint32_t offloads;   /* XP_OFFLOAD_* actually used */
	struct xp_tcp_totals tcp;      /* TCP_INFO of finished flows */
	struct xp_flow_result *fres;   /* each finished persistent flow's result */
	uint32_t nfres, capfres;
	struct xp_snap snap;
	_Atomic uint32_t snap_req, snap_done;
	_Atomic int measure_req; /* xp_worker_measure asked */
	_Atomic uint32_t asks;   /* requests posted (any kind): xp_worker_ask */
	uint32_t asks_seen;      /* ... as of the worker's last on_cmd */
	_Atomic int warmed;      /* ... and the worker did it */
	struct xp_counters warm; /* what the warm-up did, not in c */
	uint32_t snap_seen;
	struct xp_timer *timers; /* min-heap of paced flows waiting to send */
	uint32_t ntimers, captimers;
	uint64_t wake_late_ns;   /* its precise timers' lateness, a high estimate */
	struct xp_mmsg *mm; /* UDP batches: common/engine_udp.c */
	int sf_fd;          /* --sendfile: a memory file holding one send, or -1 */
	char cc[XP_CC_NAME_MAX]; /* congestion control of its first TCP data socket */
	char errmsg[XP_ERR_MAX];
};

/* The worker's epoll set, command eventfd and (server) mailbox; its
 * buffers and histograms come with its thread, at xp_worker_start, so a
 * test that never starts costs little. */
int xp_worker_init(struct xp_worker *w, int id, int cpu, struct xp_run *run,
		   struct xp_err *err);
/* Client: give a connected socket (or -1 for a TCP_CRR slot) before start;
 * from xp_worker_start on, the socket is the worker's alone. */
int xp_worker_add_flow(struct xp_worker *w, int fd, uint32_t idx,
		       struct xp_err *err);
int xp_worker_start(struct xp_worker *w, struct xp_err *err);
void xp_worker_cmd(struct xp_worker *w, int cmd);
void xp_worker_join(struct xp_worker *w);
/* The same, giving up at deadline (xp_now_ns time).  1: joined (or never
 * started); 0: still running. */
int xp_worker_join_until(struct xp_worker *w, uint64_t deadline);
/* Closes everything, including sockets still waiting in the mailbox. */
void xp_worker_destroy(struct xp_worker *w);
/* Ask for a snapshot (any thread); it is ready when xp_worker_snap_ready
 * returns the number returned here. */
uint32_t xp_worker_snap_request(struct xp_worker *w);
/* --warmup over (any thread): the worker moves what it counted so far to
 * w->warm, clears its counters, histograms and flow totals, and measures
 * from then on (w->t_go); xp_worker_measured says when it has (`unused`:
 * the shape xp_worker_await wants). */
void xp_worker_measure(struct xp_worker *w);
int xp_worker_measured(struct xp_worker *w, uint32_t unused);
/* Wait (any thread) until ready(w, arg) or `deadline` (xp_now_ns time),
 * kicking the worker every 10 ms in case a kick was lost.  1: ready. */
int xp_worker_await(struct xp_worker *w, int (*ready)(struct xp_worker *, uint32_t),
		    uint32_t arg, uint64_t deadline);
/* Interrupt a worker blocked in a direct-mode recv so it looks at its
 * commands (done by xp_worker_cmd and xp_worker_snap_request; a kick that
 * lands just before the recv is lost, so whoever waits on the worker
 * kicks again now and then, as xp_worker_join does). */
void xp_worker_kick(struct xp_worker *w);
int xp_worker_snap_ready(struct xp_worker *w, uint32_t ticket);
/* Server accept loop: hand a data socket to the worker (any thread).
 * 0: handed over, the socket is the worker's now; -1: not, fd is still
 * the caller's. */
int xp_worker_mail(struct xp_worker *w, int fd, uint32_t idx);
/* Server, once all the worker's flows have arrived by mail (a persistent
 * test): the worker takes a descriptor table of its own with them, and
 * this closes the caller's copies.  Waits for the worker (microseconds
 * before the test starts); one that does not answer keeps sharing. */
void xp_worker_own_fds(struct xp_worker *w);

struct xp_timer {
	uint64_t when;
	struct xp_flow *f;
	int precise; /* xp_flow_sleep_precise's: its lateness is sampled */
};

/* For the test engines. */
/* RR --rate: the flow's next intended send time after `prev` (its first:
 * prev == 0), spread so flows do not start together. */
uint64_t xp_flow_next_slot(const struct xp_flow *f, uint64_t prev);
/* Stop watching EPOLLOUT and call f->on_io(f, EPOLLOUT) at `when`. */
void xp_flow_sleep_until(struct xp_flow *f, uint64_t when);
/* The same, but waking early and spinning to `when`, for sends that must
 * leave on time.  How early is learnt: a timer wakes a thread late by
 * what the kernel and the machine add (a virtual CPU's exit from idle
 * costs 100-200 us on some hosts, a few us on bare metal), so each
 * worker keeps a high estimate of how late its sleeps end when a precise
 * timer ends them (xp_wake_late_update; only sleeps, so a worker busy
 * spinning does not teach itself to spin longer) and wakes that much
 * plus XP_WAKE_MARGIN_NS early, between XP_WAKE_EARLY_MIN_NS and
 * XP_WAKE_EARLY_MAX_NS. */
#define XP_WAKE_EARLY_NS 100000ull     /* the estimate's start */
#define XP_WAKE_MARGIN_NS 20000ull
#define XP_WAKE_EARLY_MIN_NS 20000ull
#define XP_WAKE_EARLY_MAX_NS 500000ull /* a spin's bound, per sleep */
void xp_flow_sleep_precise(struct xp_flow *f, uint64_t when);
/* The estimate after one more wake `late` ns after its time: up a
 * quarter of the way to a later one, down a 64th of the way to an
 * earlier one, so it rides high (a late wake weighs 16 times an early
 * one) and never leaves the range of what it has seen.  Pure. */
uint64_t xp_wake_late_update(uint64_t est, uint64_t late);
void xp_spin_until(uint64_t when);
/* Pacing (-b): 1 if the flow may send a burst of `bytes` now; 0 if it was
 * put to sleep until its slot (gaps under 20 us are spun instead).  The
 * first slot comes after half a burst's time, so the bytes sent by any
 * moment t stay within half a burst of rate x t.  After sending, advance
 * f->next_send by xp_pace_ns(bytes sent). */
int xp_flow_pace(struct xp_flow *f, uint64_t bytes);
/* Watch the flow's socket for `events` (0: take it out of the epoll set).
 * -1 with errno when epoll_ctl fails: the caller decides (fail the flow,
 * or for TCP_CRR retry), so the result must be looked at. */
int xp_flow_watch(struct xp_flow *f, uint32_t events) __attribute__((warn_unused_result));
void xp_flow_finish(struct xp_flow *f);   /* close, mark done */
void xp_flow_fail(struct xp_flow *f, int errnum);
/* A data socket the worker takes (persistent flows as they are added,
 * each TCP_CRR connection once connected): note its congestion control
 * (the worker's first), and count it if it is MPTCP (run->note_mptcp). */
void xp_flow_note(struct xp_worker *w, int fd);
/* Note a recoverable problem (the first one is reported; `what` may be
 * NULL); the flow goes on. */
void xp_flow_warn(struct xp_flow *f, const char *what, int errnum);
/* At the end of the warm-up: `bytes` and `dgrams` the flow sent in it
 * belong to requests that complete in the measured part: count them
 * there (side->measure). */
void xp_worker_move_sent(struct xp_flow *f, uint64_t bytes, uint64_t dgrams);
struct xp_flow *xp_flow_alloc(struct xp_worker *w, int fd, uint32_t idx);
/* -n/-k: of `want` units, how many the flow may still send (all of them
 * when it has no quota). */
static inline uint64_t xp_flow_allow(const struct xp_flow *f, uint64_t want)
{
	return f->quota && f->left < want ? f->left : want;
}
/* -n/-k: `n` units sent; 1 when that was the last of the flow's share
 * (the engine then finishes the flow as at STOP). */
static inline int xp_flow_spend(struct xp_flow *f, uint64_t n)
{
	if (!f->quota)
		return 0;
	f->left -= n < f->left ? n : f->left;
	return f->left == 0;
}

/* 1 when a socket buffer fixed at sndbuf or rcvbuf (0: the kernel's) keeps
 * the TCP window small enough not to be scaled (64 KiB or less): a lone
 * stream flow then runs in direct mode (common/engine/direct.c). */
int xp_window_bounded(uint64_t sndbuf, uint64_t rcvbuf);

#endif
