/* SPDX-License-Identifier: BSD-2-Clause */
/* The syscall floor's tcp_rr_epoll (floor.c's header says what it does):
 * many TCP_RR flows on a few epoll threads, the client's and the
 * server's.  Level-triggered EPOLLIN, one recv per readiness, sends that
 * never block (EPOLLOUT while one is short), per-flow state in the
 * socket's epoll data. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* sched_getaffinity, pthread_setaffinity_np */
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "floor.h"

#define EVENTS 256 /* per epoll_wait */

/* One tcp_rr_epoll connection, on either side: its socket's epoll data. */
struct flow {
	int fd, out;          /* out: EPOLLOUT armed */
	uint32_t id, size;    /* flow index, message size */
	uint32_t got;         /* bytes of the message being received */
	uint64_t unsent, n;   /* bytes owed to the peer; messages received whole */
};

/* An epoll thread: one of the server's pool, or a client thread (the
 * fields from idx on). */
struct worker {
	int efd, cpu;
	char *buf;            /* EPOLL_MAX bytes, received into and sent from */
	int idx, nf;          /* thread index; its flows: f[0..nf) */
	struct flow *f;
	struct run *run;
	uint64_t t0, t1;      /* measured from t0 to t1 */
};

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* The CPUs of the calling thread's affinity mask, in order: how many. */
static int cpu_list(int *cpus)
{
	cpu_set_t s;
	int i, n = 0;

	if (sched_getaffinity(0, sizeof(s), &s)) {
		perror("floor: sched_getaffinity");
		return -1;
	}
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &s))
			cpus[n++] = i;
	return n;
}

static void pin(int cpu)
{
	cpu_set_t s;
	int e;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	if ((e = pthread_setaffinity_np(pthread_self(), sizeof(s), &s)))
		fprintf(stderr, "floor: cannot pin a thread to CPU %d: %s\n", cpu, strerror(e));
}

/* 10000 flows need 10000 descriptors on each side. */
void raise_nofile(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
		r.rlim_cur = r.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &r))
			perror("floor: setrlimit(RLIMIT_NOFILE)");
	}
}

/* Send what f owes, as far as the socket takes it; EPOLLOUT is armed
 * while some is left. */
static int flow_flush(int efd, struct flow *f, const char *buf)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = f };
	ssize_t n;

	while (f->unsent) {
		n = send(f->fd, buf, f->unsent < EPOLL_MAX ? f->unsent : EPOLL_MAX, MSG_NOSIGNAL);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0)
			return -1;
		f->unsent -= (uint64_t)n;
	}
	if (!f->unsent == !f->out)
		return 0;
	f->out = f->unsent != 0;
	ev.events |= f->out ? EPOLLOUT : 0;
	return epoll_ctl(efd, EPOLL_CTL_MOD, f->fd, &ev);
}

/* One readiness event of f: receive what is there (one recv), owe the
 * peer a message of the same size for every message now whole, send.
 * Returns the number made whole, or -1 (errno 0 at the end of stream). */
static int flow_event(int efd, struct flow *f, uint32_t events, char *buf)
{
	ssize_t r = 0;
	uint64_t whole;

	if (events & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
		r = recv(f->fd, buf, EPOLL_MAX, 0);
		if (r == 0)
			errno = 0;
		if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK))
			return -1;
		r = r < 0 ? 0 : r;
	}
	whole = (f->got + (uint64_t)r) / f->size;
	f->got = (uint32_t)((f->got + (uint64_t)r) % f->size);
	f->n += whole;
	f->unsent += whole * f->size;
	return flow_flush(efd, f, buf) ? -1 : (int)whole;
}

/* ---- server side ---- */

/* A pool thread: serve its connections until they end. */
static void *pool_run(void *arg)
{
	struct worker *w = arg;
	struct epoll_event ev[EVENTS];
	int n, i;

	pin(w->cpu);
	for (;;) {
		n = epoll_wait(w->efd, ev, EVENTS, -1);
		for (i = 0; i < n; i++) {
			struct flow *f = ev[i].data.ptr;

			if (flow_event(w->efd, f, ev[i].events, w->buf) < 0) {
				close(f->fd);
				free(f);
			}
		}
	}
	return NULL;
}

/* An epoll thread per CPU of the mask, each pinned to its CPU: how many. */
static int pool_make(struct pool *p)
{
	int cpus[CPU_SETSIZE], n = cpu_list(cpus), i, e = ENOMEM;
	pthread_t thr;

	if (n <= 0 || !(p->w = calloc((size_t)n, sizeof(*p->w))))
		return -1;
	for (i = 0; i < n; i++) {
		p->w[i].cpu = cpus[i];
		p->w[i].efd = epoll_create1(EPOLL_CLOEXEC);
		p->w[i].buf = malloc(EPOLL_MAX);
		if (p->w[i].efd < 0 || !p->w[i].buf ||
		    (e = pthread_create(&thr, NULL, pool_run, &p->w[i]))) {
			fprintf(stderr, "floor: epoll thread for CPU %d: %s\n", cpus[i],
				strerror(p->w[i].efd < 0 ? errno : e));
			return -1;
		}
		pthread_detach(thr);
	}
	return n;
}

/* Hand connection fd (flow index id) to pool thread id % n, making the
 * threads on first use; epoll_ctl on another thread's set is safe. */
int pool_add(struct pool *p, int fd, uint32_t size, uint32_t id)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct flow *f;
	int n;

	pthread_mutex_lock(&p->lock);
	if (!p->n)
		p->n = pool_make(p);
	n = p->n;
	pthread_mutex_unlock(&p->lock);
	if (n < 0 || !(f = calloc(1, sizeof(*f))))
		return -1;
	*f = (struct flow){ .fd = fd, .id = id, .size = size };
	ev.data.ptr = f;
	nodelay(fd);
	if (set_nonblock(fd) || epoll_ctl(p->w[id % (uint32_t)n].efd, EPOLL_CTL_ADD, fd, &ev)) {
		perror("floor: tcp_rr_epoll connection to its thread");
		free(f);
		return -1;
	}
	return 0;
}

/* ---- client side ---- */

/* Connect w's flows (flow j of thread t is flow t + j * threads), each
 * announced by its header and left non-blocking in w's epoll set. */
static int flows_connect(struct worker *w)
{
	struct run *r = w->run;
	struct epoll_event ev = { .events = EPOLLIN };
	uint8_t h[16];
	int j;

	if ((w->efd = epoll_create1(EPOLL_CLOEXEC)) < 0) {
		perror("floor: epoll_create1");
		return -1;
	}
	for (j = 0; j < w->nf; j++) {
		struct flow *f = &w->f[j];

		f->id = (uint32_t)(w->idx + j * r->threads);
		f->size = r->size;
		f->fd = connect_to(r->host, r->port, SOCK_STREAM);
		put32(h, MAGIC);
		put32(h + 4, TCP_RR_EPOLL);
		put32(h + 8, r->size);
		put32(h + 12, f->id);
		ev.data.ptr = f;
		if (f->fd < 0 || send_all(f->fd, h, sizeof(h)) || set_nonblock(f->fd) ||
		    epoll_ctl(w->efd, EPOLL_CTL_ADD, f->fd, &ev)) {
			fprintf(stderr, "floor: flow %u: cannot reach %s port %s: %s\n", f->id, r->host,
				r->port, strerror(errno));
			return -1;
		}
		nodelay(f->fd);
	}
	return 0;
}

/* A request on every flow, then a new one for each response, for msecs. */
static int flows_run(struct worker *w)
{
	struct epoll_event ev[EVENTS];
	uint64_t end;
	int i, n;

	w->t0 = w->t1 = now_ns();
	end = w->t0 + (uint64_t)w->run->msecs * 1000000;
	for (i = 0; i < w->nf; i++) {
		w->f[i].unsent = w->f[i].size;
		if (flow_flush(w->efd, &w->f[i], w->buf))
			return -1;
	}
	while (w->t1 < end) {
		n = epoll_wait(w->efd, ev, EVENTS, (int)((end - w->t1) / 1000000) + 1);
		if (n < 0 && errno != EINTR)
			return -1;
		for (i = 0; i < n; i++)
			if (flow_event(w->efd, ev[i].data.ptr, ev[i].events, w->buf) < 0) {
				fprintf(stderr, "floor: flow %u: %s\n", ((struct flow *)ev[i].data.ptr)->id,
					errno ? strerror(errno) : "closed by the server");
				return -1;
			}
		w->t1 = now_ns();
	}
	return 0;
}

/* A client thread: on its CPU, connect; when every thread has, run; when
 * every thread has stopped, close. */
static void *client_thread(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->run;
	int j;

	pin(w->cpu);
	if (flows_connect(w))
		__atomic_store_n(&r->failed, 1, __ATOMIC_RELAXED);
	pthread_barrier_wait(&r->barrier);
	if (!__atomic_load_n(&r->failed, __ATOMIC_RELAXED) && flows_run(w))
		__atomic_store_n(&r->failed, 1, __ATOMIC_RELAXED);
	pthread_barrier_wait(&r->barrier);
	for (j = 0; j < w->nf; j++)
		if (w->f[j].fd >= 0)
			close(w->f[j].fd);
	if (w->efd >= 0)
		close(w->efd);
	return NULL;
}

/* All the flows' transactions over the first start to the last stop. */
static double flows_rate(const struct worker *w, const struct run *r, const struct flow *f)
{
	uint64_t t0 = w[0].t0, t1 = w[0].t1, n = 0;
	int i, idle = 0;

	for (i = 1; i < r->threads; i++) {
		t0 = w[i].t0 < t0 ? w[i].t0 : t0;
		t1 = w[i].t1 > t1 ? w[i].t1 : t1;
	}
	for (i = 0; i < r->flows; i++) {
		n += f[i].n;
		idle += !f[i].n;
	}
	if (idle)
		fprintf(stderr, "floor: %d flows made no transaction\n", idle);
	return t1 > t0 ? (double)n * NS / (double)(t1 - t0) : -1;
}

double client_tcp_rr_epoll(struct run *r)
{
	int cpus[CPU_SETSIZE], ncpu = cpu_list(cpus), i, e = 0, off = 0;
	struct worker *w = calloc((size_t)r->threads, sizeof(*w));
	struct flow *f = calloc((size_t)r->flows, sizeof(*f));
	pthread_t *thr = calloc((size_t)r->threads, sizeof(*thr));
	double v;

	if (ncpu <= 0 || !w || !f || !thr ||
	    pthread_barrier_init(&r->barrier, NULL, (unsigned)r->threads)) {
		fprintf(stderr, "floor: tcp_rr_epoll: cannot set up %d threads\n", r->threads);
		return -1;
	}
	for (i = 0; i < r->flows; i++)
		f[i].fd = -1;
	for (i = 0; i < r->threads; i++) {
		w[i] = (struct worker){ .efd = -1, .cpu = cpus[i % ncpu], .buf = malloc(EPOLL_MAX),
					.idx = i, .nf = r->flows / r->threads + (i < r->flows % r->threads),
					.f = f + off, .run = r };
		off += w[i].nf;
		if (!w[i].buf || (e = pthread_create(&thr[i], NULL, client_thread, &w[i]))) {
			/* the threads already made would wait forever at the barrier */
			fprintf(stderr, "floor: thread %d: %s\n", i, strerror(w[i].buf ? e : ENOMEM));
			exit(1);
		}
	}
	for (i = 0; i < r->threads; i++) {
		pthread_join(thr[i], NULL);
		free(w[i].buf);
	}
	v = r->failed ? -1 : flows_rate(w, r, f);
	free(thr);
	free(f);
	free(w);
	return v;
}
