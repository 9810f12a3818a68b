/* SPDX-License-Identifier: BSD-2-Clause */
/* The delay line's thread: it enters the middle namespace, pins itself,
 * binds one packet socket to each inner end and runs both directions in
 * one ppoll loop, waking when a frame arrives or shortly before the next
 * one is due (timer slack 1 ns; see LEAD_INIT). */
#include "lab/wan/line.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include "common/clock.h"
#include "common/cpu.h"
#include "lab/wan/pump.h"

#define SOCKBUF (32 << 20)
#define STATS_NS 100000000ull /* the kernel's drop counts read every 100 ms */
#define IDLE_NS 100000000ull
/* A wake-up from ppoll's timer comes late, in a VM by about 125 us on
 * average here.  The line learns by how much (a moving average of the
 * timer wake-ups' lateness, at most LEAD_MAX), sleeps until that long
 * before a release and polls without sleeping for the few microseconds
 * left.  Polling for long would not do: a thread that never sleeps loses
 * its CPU to any busy thread there for a whole time slice (milliseconds),
 * while one that wakes from sleep is let in at once. */
#define LEAD_INIT 50000ull
#define LEAD_MAX 300000ull

struct xp_wan_line {
	struct xp_wan_line_cfg cfg;
	struct xp_wan wan;
	pthread_t thr;
	int stopfd;
	int sock[XP_WAN_DIRS];            /* [0] on the client's side, [1] the server's */
	struct xp_wan_pump pump[XP_WAN_DIRS];
	struct xp_wan_stats pub;          /* published: atomic loads and stores */
	int bypass, mark;                 /* atomic */
	uint64_t lead_ns;                 /* how early to wake for a release */
	uint64_t wake_at;                 /* the timer's target, 0: none set */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int ready;                        /* under mu: 1 running, -1 failed */
	struct xp_err err;
};

/* The virtio-net header on, bound to dev for every protocol. */
static int bind_sock(int fd, const char *dev, struct xp_err *err)
{
	struct sockaddr_ll sll;
	unsigned idx = if_nametoindex(dev);
	int one = 1;

	if (!idx)
		return xp_err_sys(err, errno, "delay line: link %s", dev);
	if (setsockopt(fd, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof(one)))
		return xp_err_sys(err, errno, "delay line: PACKET_VNET_HDR on %s", dev);
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = (int)idx;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)))
		return xp_err_sys(err, errno, "delay line: bind a packet socket to %s", dev);
	return 0;
}

static int open_sock(const char *dev, struct xp_err *err)
{
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int one = 1, size = SOCKBUF;

	if (fd < 0)
		return xp_err_sys(err, errno, "delay line: packet socket");
	if (bind_sock(fd, dev, err)) {
		close(fd);
		return -1;
	}
	/* Hints: without them the line still works, with smaller bursts. */
	setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	return fd;
}

/* In the thread: namespace, CPU, sockets, the two directions. */
static int setup(struct xp_wan_line *l, struct xp_err *err)
{
	int d;

	if (setns(l->cfg.nsfd, CLONE_NEWNET))
		return xp_err_sys(err, errno, "delay line: setns(CLONE_NEWNET)");
	if (l->cfg.cpu >= 0 && xp_cpu_pin_self(l->cfg.cpu, err))
		return -1;
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	for (d = 0; d < XP_WAN_DIRS; d++)
		if ((l->sock[d] = open_sock(l->cfg.dev[d], err)) < 0)
			return -1;
	for (d = 0; d < XP_WAN_DIRS; d++)
		if (xp_wan_pump_init(&l->pump[d], l->sock[d], l->sock[!d], &l->wan.d[d],
				     l->wan.seed, (unsigned)d, err))
			return -1;
	return 0;
}

static void publish(struct xp_wan_line *l)
{
	int d;

	if (__atomic_exchange_n(&l->mark, 0, __ATOMIC_RELAXED))
		for (d = 0; d < XP_WAN_DIRS; d++) {
			l->pump[d].cut_at = l->wan.cut_ns ? xp_now_ns() + l->wan.cut_ns : 0;
			l->pump[d].c.slip_max_ns = 0;
			l->pump[d].c.queue_max_bytes = l->pump[d].ring.held_bytes;
			l->pump[d].c.queue_max_frames = l->pump[d].ring.held;
		}
	for (d = 0; d < XP_WAN_DIRS; d++) {
		const struct xp_wan_counters *c = &l->pump[d].c;
		struct xp_wan_counters *p = &l->pub.d[d];

#define XP_WAN_CTR(field, merge, help) __atomic_store_n(&p->field, c->field, __ATOMIC_RELAXED);
#include "lab/wan/counters.def"
#undef XP_WAN_CTR
	}
}

/* The kernel's drops at each socket, into the direction it feeds. */
static void kernel_drops(struct xp_wan_line *l)
{
	int d;

	for (d = 0; d < XP_WAN_DIRS; d++) {
		struct tpacket_stats st;
		socklen_t len = sizeof(st);

		if (!getsockopt(l->sock[d], SOL_PACKET, PACKET_STATISTICS, &st, &len))
			l->pump[d].c.rx_drops += st.tp_drops;
	}
}

/* How long to sleep: until lead_ns before the next frame a free socket
 * can send is due (0: poll and come back at once). */
static struct timespec *timeout(struct xp_wan_line *l, uint64_t now, struct timespec *ts)
{
	uint64_t due = now + IDLE_NS, t;
	int d;

	for (d = 0; d < XP_WAN_DIRS; d++)
		if (!l->pump[d].blocked && (t = xp_wan_pump_due(&l->pump[d])) < due)
			due = t;
	t = due > now + l->lead_ns ? due - now - l->lead_ns : 0;
	l->wake_at = t ? now + t : 0;
	ts->tv_sec = (time_t)(t / 1000000000ull);
	ts->tv_nsec = (long)(t % 1000000000ull);
	return ts;
}

/* After a wake-up by the timer: how late it was, into the average. */
static void learn(struct xp_wan_line *l, int n)
{
	uint64_t now, late;

	if (n || !l->wake_at)
		return;
	now = xp_now_ns();
	late = now > l->wake_at ? now - l->wake_at : 0;
	if (late > LEAD_MAX)
		late = LEAD_MAX;
	l->lead_ns = (l->lead_ns * 7 + late) / 8;
}

static int loop(struct xp_wan_line *l, struct xp_err *err)
{
	uint64_t stats_at = 0;
	int d, n;

	for (;;) {
		struct pollfd p[3];
		struct timespec ts;
		uint64_t now = xp_now_ns();

		for (d = 0; d < XP_WAN_DIRS; d++)
			xp_wan_pump_tx(&l->pump[d], now);
		if (now >= stats_at) {
			kernel_drops(l);
			stats_at = now + STATS_NS;
		}
		publish(l);
		for (d = 0; d < XP_WAN_DIRS; d++) {
			p[d].fd = l->sock[d];
			/* socket d sends what the other direction carries */
			p[d].events = (short)(POLLIN | (l->pump[!d].blocked ? POLLOUT : 0));
		}
		p[2].fd = l->stopfd;
		p[2].events = POLLIN;
		n = ppoll(p, 3, timeout(l, now, &ts), NULL);
		if (n < 0 && errno != EINTR)
			return xp_err_sys(err, errno, "delay line: ppoll");
		learn(l, n);
		if (p[2].revents)
			return 0;
		for (d = 0; d < XP_WAN_DIRS; d++)
			if ((p[d].revents & POLLIN) &&
			    xp_wan_pump_rx(&l->pump[d], __atomic_load_n(&l->bypass, __ATOMIC_RELAXED),
					   err) < 0)
				return -1;
	}
}

static void report(struct xp_wan_line *l, int ready, const struct xp_err *err)
{
	pthread_mutex_lock(&l->mu);
	l->ready = ready;
	if (err)
		l->err = *err;
	pthread_cond_signal(&l->cv);
	pthread_mutex_unlock(&l->mu);
}

static void *line_main(void *arg)
{
	struct xp_wan_line *l = arg;
	struct xp_err err = { "" };

	if (setup(l, &err)) {
		report(l, -1, &err);
		return NULL;
	}
	report(l, 1, NULL);
	if (loop(l, &err))
		report(l, -1, &err); /* xp_wan_line_failed says so */
	kernel_drops(l);
	publish(l);
	return NULL;
}

static void release(struct xp_wan_line *l)
{
	int d;

	for (d = 0; d < XP_WAN_DIRS; d++) {
		xp_wan_pump_free(&l->pump[d]);
		if (l->sock[d] >= 0)
			close(l->sock[d]);
	}
	if (l->stopfd >= 0)
		close(l->stopfd);
	pthread_mutex_destroy(&l->mu);
	pthread_cond_destroy(&l->cv);
	free(l);
}

int xp_wan_line_start(struct xp_wan_line **out, const struct xp_wan_line_cfg *c,
		      struct xp_err *err)
{
	struct xp_wan_line *l = calloc(1, sizeof(*l));

	*out = NULL;
	if (!l)
		return xp_err_set(err, "delay line: out of memory");
	l->cfg = *c;
	l->wan = *c->wan;
	l->lead_ns = LEAD_INIT;
	l->sock[0] = l->sock[1] = -1;
	pthread_mutex_init(&l->mu, NULL);
	pthread_cond_init(&l->cv, NULL);
	l->stopfd = eventfd(0, EFD_CLOEXEC);
	if (l->stopfd < 0 || pthread_create(&l->thr, NULL, line_main, l)) {
		xp_err_sys(err, errno, "delay line: cannot start its thread");
		release(l);
		return -1;
	}
	pthread_mutex_lock(&l->mu);
	while (!l->ready)
		pthread_cond_wait(&l->cv, &l->mu);
	pthread_mutex_unlock(&l->mu);
	if (l->ready < 0) {
		pthread_join(l->thr, NULL);
		*err = l->err;
		release(l);
		return -1;
	}
	*out = l;
	return 0;
}

void xp_wan_line_stop(struct xp_wan_line *l)
{
	uint64_t one = 1;

	if (!l)
		return;
	if (write(l->stopfd, &one, sizeof(one)) != sizeof(one))
		abort(); /* an eventfd write of 1 cannot fail */
	pthread_join(l->thr, NULL);
	release(l);
}

void xp_wan_line_read(struct xp_wan_line *l, struct xp_wan_stats *s)
{
	int d;

	for (d = 0; d < XP_WAN_DIRS; d++) {
		const struct xp_wan_counters *p = &l->pub.d[d];
		struct xp_wan_counters *c = &s->d[d];

#define XP_WAN_CTR(field, merge, help) c->field = __atomic_load_n(&p->field, __ATOMIC_RELAXED);
#include "lab/wan/counters.def"
#undef XP_WAN_CTR
	}
}

void xp_wan_line_mark(struct xp_wan_line *l)
{
	__atomic_store_n(&l->mark, 1, __ATOMIC_RELAXED);
}

void xp_wan_line_bypass(struct xp_wan_line *l, int on)
{
	__atomic_store_n(&l->bypass, on, __ATOMIC_RELAXED);
}

int xp_wan_line_failed(struct xp_wan_line *l, struct xp_err *err)
{
	int failed;

	pthread_mutex_lock(&l->mu);
	failed = l->ready < 0;
	if (failed && err)
		*err = l->err;
	pthread_mutex_unlock(&l->mu);
	return failed;
}

int xp_wan_line_cpu(const struct xp_wan_line *l)
{
	return l->cfg.cpu;
}
