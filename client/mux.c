/* SPDX-License-Identifier: BSD-2-Clause */
/* The client's MUX connection (client/mux.h). */
#include "client/mux.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "client/auth.h"
#include "client/client_path.h"
#include "client/dial.h"
#include "common/clock.h"
#include "common/ctl.h"
#include "common/mux.h"

#define CTL_MS 15000
#define CLOSE_WAIT_NS (2 * XP_NS_PER_SEC) /* the last CLOSE frames' time */

struct xp_mux {
	struct xp_mux_pump pump;
	struct xp_dial d;
	int part[XP_MUX_CHANNELS_MAX + 1]; /* the tests' ends, until taken */
	unsigned n;
	pthread_t thr;
	int running;
	_Atomic int over;
	char why[XP_ERR_MAX];
};

static void *pump_main(void *arg)
{
	struct xp_mux *m = arg;

	if (xp_mux_pump_run(&m->pump))
		snprintf(m->why, sizeof(m->why), "%s", m->pump.err.msg);
	atomic_store(&m->over, 1);
	return NULL;
}

/* MUX, padded as SETUP is (a netserver answers at once), and MUX_OK. */
static int ask(struct xp_mux *m, struct xp_err *err)
{
	struct xp_msg msg = { .type = XP_MSG_MUX };

	msg.u.mux.channels = m->n;
	if (xp_ctl_send_min(m->d.fd, &msg, XP_CTL_NETPERF_LEN, CTL_MS, m->d.who, err) ||
	    xp_client_expect(m->d.fd, &msg, XP_MSG_MUX_OK, CTL_MS, m->d.who, err))
		return -1;
	if (msg.u.mux.channels != m->n)
		return xp_err_set(err, "%s: granted %llu channels, not %u", m->d.who,
				  (unsigned long long)msg.u.mux.channels, m->n);
	return 0;
}

static int channels(struct xp_mux *m, struct xp_err *err)
{
	unsigned k;

	if (xp_mux_pump_init(&m->pump, m->d.fd, m->n, m->d.who, err))
		return -1;
	for (k = 1; k <= m->n; k++) {
		int sv[2];

		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sv))
			return xp_err_sys(err, errno, "socketpair for a MUX channel");
		m->pump.fd[k] = sv[0];
		m->pump.used[k] = 1;
		m->part[k] = sv[1];
	}
	return 0;
}

static void free_mux(struct xp_mux *m)
{
	unsigned k;

	for (k = 1; k <= XP_MUX_CHANNELS_MAX; k++)
		if (m->part[k] >= 0)
			close(m->part[k]);
	xp_mux_pump_free(&m->pump);
	if (m->d.fd >= 0)
		close(m->d.fd);
	free(m);
}

struct xp_mux *xp_mux_open(const struct xp_opts *o, const char *host, uint16_t port,
			   unsigned n, struct xp_err *err)
{
	struct xp_mux *m = calloc(1, sizeof(*m));
	struct xp_auth_key key;
	unsigned k;
	int rc;

	if (!m) {
		xp_err_set(err, "MUX: out of memory");
		return NULL;
	}
	m->n = n;
	m->d.fd = -1;
	for (k = 0; k <= XP_MUX_CHANNELS_MAX; k++)
		m->part[k] = m->pump.fd[k] = -1;
	if (o->auth_file && xp_auth_key_load(o->auth_file, &key, err)) {
		free_mux(m);
		return NULL;
	}
	rc = xp_client_dial(o, host, port, xp_client_connect_ms(o), o->auth_file ? &key : NULL,
			    CTL_MS, &m->d, err);
	if (o->auth_file)
		xp_auth_key_wipe(&key);
	if (rc || ask(m, err) || channels(m, err)) {
		free_mux(m);
		return NULL;
	}
	rc = pthread_create(&m->thr, NULL, pump_main, m);
	if (rc) {
		xp_err_sys(err, rc, "MUX: start its thread");
		free_mux(m);
		return NULL;
	}
	m->running = 1;
	return m;
}

int xp_mux_take(struct xp_mux *m, unsigned k, struct xp_mux_chan *c, struct xp_err *err)
{
	if (k < 1 || k > m->n || m->part[k] < 0)
		return xp_err_set(err, "MUX channel %u: none to take", k);
	c->sock = fcntl(m->d.fd, F_DUPFD_CLOEXEC, 0);
	if (c->sock < 0)
		return xp_err_sys(err, errno, "MUX channel %u: copy of the connection", k);
	c->fd = m->part[k];
	m->part[k] = -1;
	return 0;
}

const char *xp_mux_error(struct xp_mux *m)
{
	return atomic_load(&m->over) ? m->why : "";
}

void xp_mux_close(struct xp_mux *m)
{
	uint64_t end = xp_now_ns() + CLOSE_WAIT_NS;
	unsigned k;

	if (!m)
		return;
	for (k = 1; k <= m->n; k++)
		if (m->part[k] >= 0) {
			close(m->part[k]);
			m->part[k] = -1;
		}
	while (m->running && !atomic_load(&m->over) && xp_now_ns() < end)
		usleep(1000);
	if (m->running) {
		shutdown(m->d.fd, SHUT_RDWR); /* a pump still waiting on the server ends now */
		pthread_join(m->thr, NULL);
	}
	free_mux(m);
}
