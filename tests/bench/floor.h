/* SPDX-License-Identifier: BSD-2-Clause */
/* What the syscall floor's two files share: floor.c (every mode, the
 * command line, the wire) and floor_epoll.c (tcp_rr_epoll, the many-flow
 * TCP_RR of both sides).  floor.c's header comment describes them. */
#ifndef FLOOR_H
#define FLOOR_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define MAGIC 0x5850464cu     /* "XPFL" */
#define NS 1000000000ull
#define EPOLL_MAX (64u << 10) /* tcp_rr_epoll's largest message: one recv buffer */

enum mode { TCP_STREAM, TCP_MAERTS, TCP_RR, UDP_RR, UDP_STREAM, TCP_RR_EPOLL, NMODES };

struct worker;

/* The server's epoll threads, one per CPU of its mask, made on the first
 * tcp_rr_epoll connection and kept for the life of the process. */
struct pool {
	pthread_mutex_t lock;
	int n;                /* threads; 0: not made yet, -1: making them failed */
	struct worker *w;
};

/* A client's tcp_rr_epoll run, shared by its threads. */
struct run {
	const char *host, *port;
	uint32_t size, msecs;
	int flows, threads, failed; /* failed: written with atomics */
	pthread_barrier_t barrier;
};

/* floor.c */
uint64_t now_ns(void);
void put32(uint8_t *b, uint32_t v);
int send_all(int fd, const void *p, size_t n);
void nodelay(int fd);
int connect_to(const char *host, const char *port, int type);

/* floor_epoll.c */
void raise_nofile(void);
/* Serve connection fd (flow id, messages of size bytes) from now on: 0,
 * or -1 and fd is still the caller's. */
int pool_add(struct pool *p, int fd, uint32_t size, uint32_t id);
/* trans/s of all the flows, or -1 (said on stderr). */
double client_tcp_rr_epoll(struct run *r);

#endif
