/* SPDX-License-Identifier: BSD-2-Clause */
/* The syscall floor: for each test, the leanest loop that moves its data
 * and nothing else (no timers, no per-message clock or bookkeeping beyond
 * a counter; blocking, without epoll, except where many flows share a
 * thread).  What a traffic generator measures below this floor is its own
 * overhead.  Built by `make bench`, driven by tests/bench/bench.py.
 *
 *   floor server [PORT]
 *   floor MODE HOST PORT SECS [SIZE]
 *   floor tcp_rr|tcp_rr_epoll HOST PORT SECS SIZE FLOWS [THREADS]
 *
 * MODE          client                            server
 * tcp_stream    send(SIZE) in a loop              recv(1 MiB) until end of stream
 * tcp_maerts    recv(1 MiB) until end of stream   send(SIZE) for SECS
 * tcp_rr        send(SIZE); recv(SIZE, WAITALL)   recv(SIZE, WAITALL); send(SIZE)
 * udp_rr        send(SIZE); recv (0.2 s timeout)  recv; send (connected socket)
 * udp_stream    send(SIZE) in a loop              recv until an empty datagram
 * tcp_rr_epoll  FLOWS flows on THREADS threads,   an epoll thread per CPU of its
 *               each one epoll set: a request     mask: a response of SIZE per
 *               in flight per flow                request of SIZE
 *
 * tcp_rr with FLOWS or THREADS above 1 is tcp_rr_epoll (whose THREADS
 * default to 1 and never exceed FLOWS).  Its thread t runs on the t-th
 * CPU (mod their number) of the client's affinity mask and owns flows t,
 * t + THREADS, ...; each flow sends its one request after every flow is
 * connected, and each response puts the next request on the wire.  Flow
 * i is served by the server's thread i % (its CPUs), on the i-th CPU of
 * its mask: with the same mask on both sides a flow's two ends share a
 * CPU, as xperf's do.  The clock is read once per epoll_wait; SIZE is at
 * most 64K.  Both sides raise their descriptor limit to the hard one.
 * The code is in floor_epoll.c.
 *
 * The client prints one line, "VALUE UNIT MODE": bit/s received (by the
 * server for tcp_stream and udp_stream, which reports its count and the
 * time from its first byte to the end), or trans/s (tcp_rr_epoll: all the
 * flows' transactions from the first thread's start to the last one's
 * stop, and a warning on stderr if a flow made none).  SIZE defaults to
 * 128K for TCP streams, 1472 for udp_stream and 1 for the RR modes.
 *
 * Wire: the client opens a TCP connection to PORT and sends a 16-byte
 * header, big-endian: "XPFL", mode, size, duration in ms (tcp_rr_epoll:
 * the flow's index; every flow is such a connection).  UDP modes get a
 * UDP port (4 bytes) back; stream modes end with 16 bytes from the
 * server: bytes received and nanoseconds. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "floor.h"

#define BIG (1u << 20)    /* receive size of the stream readers */
#define MAX_SIZE (16u << 20)
#define BACKLOG 4096      /* tcp_rr_epoll's flows connect back to back: a full
			   * accept queue drops them, for a 1 s SYN retry each */

static const char *const mode_names[NMODES] = {
	"tcp_stream", "tcp_maerts", "tcp_rr", "udp_rr", "udp_stream", "tcp_rr_epoll",
};

struct test {
	int fd;        /* TCP control (and, for TCP modes, data) socket */
	uint32_t mode, size, msecs;
	char *buf;
	struct pool *pool; /* server: where tcp_rr_epoll connections go */
};

uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * NS + (uint64_t)t.tv_nsec;
}

void put32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)(v >> 24);
	b[1] = (uint8_t)(v >> 16);
	b[2] = (uint8_t)(v >> 8);
	b[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static void put64(uint8_t *b, uint64_t v)
{
	put32(b, (uint32_t)(v >> 32));
	put32(b + 4, (uint32_t)v);
}

static uint64_t get64(const uint8_t *b)
{
	return (uint64_t)get32(b) << 32 | get32(b + 4);
}

int send_all(int fd, const void *p, size_t n)
{
	return send(fd, p, n, MSG_NOSIGNAL) == (ssize_t)n ? 0 : -1;
}

static int recv_all(int fd, void *p, size_t n)
{
	return recv(fd, p, n, MSG_WAITALL) == (ssize_t)n ? 0 : -1;
}

void nodelay(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* ---- server side ---- */

static void report_count(int fd, uint64_t bytes, uint64_t ns)
{
	uint8_t b[16];

	put64(b, bytes);
	put64(b + 8, ns);
	send_all(fd, b, sizeof(b));
}

static void serve_tcp_stream(struct test *t)
{
	uint64_t bytes = 0, t0 = 0;
	ssize_t n;

	while ((n = recv(t->fd, t->buf, BIG, 0)) > 0) {
		if (!bytes)
			t0 = now_ns();
		bytes += (uint64_t)n;
	}
	report_count(t->fd, bytes, bytes ? now_ns() - t0 : 0);
}

static void serve_tcp_maerts(struct test *t)
{
	uint64_t end = now_ns() + (uint64_t)t->msecs * 1000000, since = 0;

	for (;;) {
		if (send(t->fd, t->buf, t->size, MSG_NOSIGNAL) < 0)
			break;
		since += t->size;
		if (since >= BIG) { /* a clock read per megabyte */
			since = 0;
			if (now_ns() >= end)
				break;
		}
	}
	shutdown(t->fd, SHUT_WR);
}

static void serve_tcp_rr(struct test *t)
{
	nodelay(t->fd);
	while (recv(t->fd, t->buf, t->size, MSG_WAITALL) == (ssize_t)t->size)
		if (send(t->fd, t->buf, t->size, MSG_NOSIGNAL) != (ssize_t)t->size)
			break;
}

/* A UDP socket on the control connection's address, any port, whose
 * number goes back to the client. */
static int udp_open(struct test *t)
{
	struct sockaddr_storage a;
	socklen_t len = sizeof(a);
	uint8_t b[4];
	int fd;

	if (getsockname(t->fd, (struct sockaddr *)&a, &len))
		return -1;
	if (a.ss_family == AF_INET)
		((struct sockaddr_in *)&a)->sin_port = 0;
	else
		((struct sockaddr_in6 *)&a)->sin6_port = 0;
	fd = socket(a.ss_family, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, len) ||
	    getsockname(fd, (struct sockaddr *)&a, &len)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	put32(b, ntohs(a.ss_family == AF_INET ? ((struct sockaddr_in *)&a)->sin_port
					       : ((struct sockaddr_in6 *)&a)->sin6_port));
	if (send_all(t->fd, b, sizeof(b))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void serve_udp_rr(struct test *t, int u)
{
	struct sockaddr_storage peer;
	socklen_t len = sizeof(peer);
	ssize_t n = recvfrom(u, t->buf, MAX_SIZE, 0, (struct sockaddr *)&peer, &len);

	if (n <= 0 || connect(u, (struct sockaddr *)&peer, len))
		return;
	do {
		if (send(u, t->buf, (size_t)n, 0) < 0 && errno != ECONNREFUSED)
			return;
	} while ((n = recv(u, t->buf, MAX_SIZE, 0)) > 0);
}

static void serve_udp_stream(struct test *t, int u)
{
	uint64_t bytes = 0, t0 = 0;
	ssize_t n;

	while ((n = recv(u, t->buf, MAX_SIZE, 0)) > 0) {
		if (!bytes)
			t0 = now_ns();
		bytes += (uint64_t)n;
	}
	report_count(t->fd, bytes, bytes ? now_ns() - t0 : 0);
}

static void serve_test(struct test *t)
{
	int u;

	if (t->mode == TCP_STREAM)
		serve_tcp_stream(t);
	else if (t->mode == TCP_MAERTS)
		serve_tcp_maerts(t);
	else if (t->mode == TCP_RR)
		serve_tcp_rr(t);
	else if ((u = udp_open(t)) >= 0) {
		if (t->mode == UDP_RR)
			serve_udp_rr(t, u);
		else
			serve_udp_stream(t, u);
		close(u);
	}
}

static void *serve(void *arg)
{
	struct test *t = arg;
	uint8_t h[16];

	if (recv_all(t->fd, h, sizeof(h)) == 0 && get32(h) == MAGIC && get32(h + 4) < NMODES &&
	    get32(h + 8) >= 1 && get32(h + 8) <= MAX_SIZE) {
		t->mode = get32(h + 4);
		t->size = get32(h + 8);
		t->msecs = get32(h + 12);
		if (t->mode != TCP_RR_EPOLL) {
			if ((t->buf = calloc(1, MAX_SIZE)) != NULL)
				serve_test(t);
		} else if (t->size <= EPOLL_MAX && pool_add(t->pool, t->fd, t->size, t->msecs) == 0)
			t->fd = -1; /* the pool's now */
	}
	if (t->fd >= 0)
		close(t->fd);
	free(t->buf);
	free(t);
	return NULL;
}

static int listen_family(int family, const char *port)
{
	struct addrinfo hints = { .ai_family = family, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE }, *ai;
	int fd, one = 1, zero = 0;

	if (getaddrinfo(NULL, port, &hints, &ai))
		return -1;
	fd = socket(ai->ai_family, SOCK_STREAM, 0);
	if (fd >= 0) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (family == AF_INET6) /* IPv4 clients too */
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, BACKLOG)) {
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(ai);
	return fd;
}

static int listen_any(const char *port)
{
	int fd = listen_family(AF_INET6, port);

	return fd >= 0 ? fd : listen_family(AF_INET, port);
}

/* The pool lives in this frame, which never returns, and reaches the
 * connection threads through their struct test: no global. */
static int run_server(const char *port)
{
	struct pool pool = { .lock = PTHREAD_MUTEX_INITIALIZER };
	int l = listen_any(port);

	if (l < 0) {
		perror("floor: listen");
		return 1;
	}
	printf("floor: listening on port %s\n", port);
	fflush(stdout);
	for (;;) {
		struct test *t;
		pthread_t thr;
		int fd = accept(l, NULL, NULL);

		if (fd < 0)
			continue;
		t = calloc(1, sizeof(*t));
		if (!t) {
			close(fd);
			continue;
		}
		t->fd = fd;
		t->pool = &pool;
		if (pthread_create(&thr, NULL, serve, t)) {
			close(fd);
			free(t);
			continue;
		}
		pthread_detach(thr);
	}
}

/* ---- client side ---- */

int connect_to(const char *host, const char *port, int type)
{
	struct addrinfo hints = { .ai_socktype = type }, *ai;
	int fd;

	if (getaddrinfo(host, port, &hints, &ai))
		return -1;
	fd = socket(ai->ai_family, type, 0);
	if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen)) {
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	return fd;
}

static double client_tcp_stream(struct test *t)
{
	uint64_t end = now_ns() + (uint64_t)t->msecs * 1000000, since = 0;
	uint8_t r[16];

	for (;;) {
		if (send(t->fd, t->buf, t->size, MSG_NOSIGNAL) < 0)
			return -1;
		since += t->size;
		if (since >= BIG) { /* a clock read per megabyte */
			since = 0;
			if (now_ns() >= end)
				break;
		}
	}
	shutdown(t->fd, SHUT_WR);
	if (recv_all(t->fd, r, sizeof(r)) || !get64(r + 8))
		return -1;
	return (double)get64(r) * 8 * NS / (double)get64(r + 8);
}

static double client_tcp_maerts(struct test *t)
{
	uint64_t bytes = 0, t0 = 0;
	ssize_t n;

	while ((n = recv(t->fd, t->buf, BIG, 0)) > 0) {
		if (!bytes)
			t0 = now_ns();
		bytes += (uint64_t)n;
	}
	if (n < 0 || !bytes)
		return -1;
	return (double)bytes * 8 * NS / (double)(now_ns() - t0);
}

/* RR: the clock is read every 16 transactions. */
static double client_tcp_rr(struct test *t)
{
	uint64_t t0 = now_ns(), end = t0 + (uint64_t)t->msecs * 1000000, n = 0, t1 = t0;

	nodelay(t->fd);
	for (;;) {
		if (send(t->fd, t->buf, t->size, MSG_NOSIGNAL) != (ssize_t)t->size ||
		    recv(t->fd, t->buf, t->size, MSG_WAITALL) != (ssize_t)t->size)
			return -1;
		if (++n % 16 == 0 && (t1 = now_ns()) >= end)
			break;
	}
	return (double)n * NS / (double)(t1 - t0);
}

static int udp_connect(struct test *t, const char *host)
{
	uint8_t b[4];
	char port[16];

	if (recv_all(t->fd, b, sizeof(b)))
		return -1;
	snprintf(port, sizeof(port), "%u", get32(b));
	return connect_to(host, port, SOCK_DGRAM);
}

/* A lost datagram costs one 0.2 s wait and is not counted. */
static double client_udp_rr(struct test *t, int u)
{
	struct timeval tv = { 0, 200000 };
	uint64_t t0 = now_ns(), end = t0 + (uint64_t)t->msecs * 1000000, n = 0, i = 0, t1 = t0;

	setsockopt(u, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	for (;;) {
		if (send(u, t->buf, t->size, 0) < 0 && errno != ECONNREFUSED)
			return -1;
		if (recv(u, t->buf, t->size, 0) > 0)
			n++;
		if (++i % 16 == 0 && (t1 = now_ns()) >= end)
			break;
	}
	return (double)n * NS / (double)(t1 - t0);
}

static double client_udp_stream(struct test *t, int u)
{
	uint64_t end = now_ns() + (uint64_t)t->msecs * 1000000, since = 0;
	uint8_t r[16];
	int i;

	for (;;) {
		send(u, t->buf, t->size, 0); /* ENOBUFS and the like: the datagram is lost */
		since += t->size;
		if (since >= BIG) {
			since = 0;
			if (now_ns() >= end)
				break;
		}
	}
	for (i = 0; i < 5; i++) { /* end of stream: empty datagrams */
		send(u, t->buf, 0, 0);
		usleep(1000);
	}
	if (recv_all(t->fd, r, sizeof(r)) || !get64(r + 8))
		return -1;
	return (double)get64(r) * 8 * NS / (double)get64(r + 8);
}

static double run_client(struct test *t, const char *host)
{
	double v = -1;
	int u;

	if (t->mode == TCP_STREAM)
		return client_tcp_stream(t);
	if (t->mode == TCP_MAERTS)
		return client_tcp_maerts(t);
	if (t->mode == TCP_RR)
		return client_tcp_rr(t);
	u = udp_connect(t, host);
	if (u < 0)
		return -1;
	v = t->mode == UDP_RR ? client_udp_rr(t, u) : client_udp_stream(t, u);
	if (t->mode == UDP_RR)
		send(u, t->buf, 0, 0); /* the server's loop ends on an empty datagram */
	close(u);
	return v;
}

static int parse_mode(const char *s)
{
	int i;

	for (i = 0; i < NMODES; i++)
		if (!strcmp(s, mode_names[i]))
			return i;
	return -1;
}

static int usage(void)
{
	fprintf(stderr, "usage: floor server [PORT]\n"
			"       floor tcp_stream|tcp_maerts|tcp_rr|udp_rr|udp_stream "
			"HOST PORT SECS [SIZE]\n"
			"       floor tcp_rr|tcp_rr_epoll HOST PORT SECS SIZE FLOWS [THREADS]"
			" (SIZE at most 64K)\n");
	return 2;
}

/* tcp_rr_epoll: no control connection, every flow brings its header. */
static int main_epoll(struct test *t, char **argv, int flows, int threads)
{
	struct run r = { .host = argv[2], .port = argv[3], .size = t->size, .msecs = t->msecs,
			 .flows = flows, .threads = threads < flows ? threads : flows };
	double v;

	if (t->size > EPOLL_MAX)
		return usage();
	v = client_tcp_rr_epoll(&r);
	if (v < 0) {
		fprintf(stderr, "floor: %s failed\n", argv[1]);
		return 1;
	}
	printf("%.6g trans/s %s\n", v, argv[1]);
	return 0;
}

int main(int argc, char **argv)
{
	struct test t = { .fd = -1 };
	uint8_t h[16];
	int mode, flows, threads;
	double v;

	raise_nofile();
	if (argc >= 2 && !strcmp(argv[1], "server"))
		return run_server(argc > 2 ? argv[2] : "5399");
	if (argc < 5 || (mode = parse_mode(argv[1])) < 0 || atof(argv[4]) <= 0)
		return usage();
	t.mode = (uint32_t)mode;
	t.size = argc > 5 ? (uint32_t)atoi(argv[5])
			  : mode <= TCP_MAERTS ? 131072 : mode == UDP_STREAM ? 1472 : 1;
	t.msecs = (uint32_t)(atof(argv[4]) * 1000);
	flows = argc > 6 ? atoi(argv[6]) : 1;
	threads = argc > 7 ? atoi(argv[7]) : 1;
	if (flows < 1 || threads < 1 ||
	    ((flows > 1 || threads > 1) && mode != TCP_RR && mode != TCP_RR_EPOLL))
		return usage();
	if (t.size >= 1 && (mode == TCP_RR_EPOLL || flows > 1 || threads > 1))
		return main_epoll(&t, argv, flows, threads);
	if (t.size < 1 || t.size > MAX_SIZE || !(t.buf = calloc(1, MAX_SIZE > BIG ? MAX_SIZE : BIG)))
		return usage();
	t.fd = connect_to(argv[2], argv[3], SOCK_STREAM);
	put32(h, MAGIC);
	put32(h + 4, t.mode);
	put32(h + 8, t.size);
	put32(h + 12, t.msecs);
	if (t.fd < 0 || send_all(t.fd, h, sizeof(h))) {
		fprintf(stderr, "floor: cannot reach %s port %s\n", argv[2], argv[3]);
		return 1;
	}
	v = run_client(&t, argv[2]);
	if (v < 0) {
		fprintf(stderr, "floor: %s failed\n", argv[1]);
		return 1;
	}
	printf("%.6g %s %s\n", v, mode == TCP_RR || mode == UDP_RR ? "trans/s" : "bit/s", argv[1]);
	return 0;
}
