/* SPDX-License-Identifier: BSD-2-Clause */
#include "lab/wan/pump.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "common/clock.h"

#define RX_BURST 64  /* frames read per wake-up and direction */
#define TX_BATCH 32  /* frames per sendmmsg */
#define RING_PAD (8ull * XP_WAN_FRAME_MAX)

int xp_wan_pump_init(struct xp_wan_pump *p, int rx, int tx, const struct xp_wan_dir *cfg,
		     uint64_t seed, unsigned dir, struct xp_err *err)
{
	memset(p, 0, sizeof(*p));
	p->rx = rx;
	p->tx = tx;
	p->cfg = cfg;
	xp_wan_sched_init(&p->sched, cfg, seed, dir);
	p->scratch = malloc(XP_WAN_FRAME_MAX);
	/* The limit counts frame bytes; the ring also holds their records,
	 * wrap waste and frames released ahead of older ones. */
	if (!p->scratch || xp_wan_ring_init(&p->ring, cfg->limit_bytes + RING_PAD)) {
		free(p->scratch);
		p->scratch = NULL;
		return xp_err_set(err, "delay line: out of memory for a %llu-byte queue",
				  (unsigned long long)cfg->limit_bytes);
	}
	return 0;
}

void xp_wan_pump_free(struct xp_wan_pump *p)
{
	xp_wan_ring_free(&p->ring);
	free(p->scratch);
	p->scratch = NULL;
}

static void high_water(struct xp_wan_pump *p)
{
	if (p->ring.held_bytes > p->c.queue_max_bytes)
		p->c.queue_max_bytes = p->ring.held_bytes;
	if (p->ring.held > p->c.queue_max_frames)
		p->c.queue_max_frames = p->ring.held;
}

static void drop(struct xp_wan_pump *p, const struct xp_wan_frame *f, uint64_t *ctr)
{
	++*ctr;
	p->c.udp_dropped += f->udp;
}

static struct xp_wan_rec *keep(struct xp_wan_pump *p, int q, uint32_t len,
			       const struct xp_wan_frame *f, uint64_t release_ns,
			       uint64_t index)
{
	struct xp_wan_rec *rec = xp_wan_ring_push(&p->ring, q, len);

	rec->segs = (uint16_t)(f->segs > UINT16_MAX ? UINT16_MAX : f->segs);
	rec->wire = f->wire;
	rec->udp = f->udp;
	rec->flow = f->flow_hash ? xp_wan_flow_slot(&p->flows, f->flow_hash) + 1 : 0;
	rec->release_ns = release_ns;
	rec->index = index;
	return rec;
}

/* The copy goes right behind its original, if there is room for it. */
static void duplicate(struct xp_wan_pump *p, int q, const struct xp_wan_rec *orig,
		      const struct xp_wan_frame *f, uint64_t release_ns)
{
	uint8_t *buf;
	struct xp_wan_rec *rec;

	if (p->ring.held_bytes + orig->len > p->cfg->limit_bytes ||
	    !(buf = xp_wan_ring_space(&p->ring, orig->len)))
		return;
	memcpy(buf, xp_wan_rec_data((struct xp_wan_rec *)orig), orig->len);
	rec = keep(p, q, orig->len, f, release_ns, orig->index);
	rec->flags |= XP_WAN_REC_DUP;
}

/* Judge one frame of len bytes, read at buf (in the ring, or scratch). */
static void judge(struct xp_wan_pump *p, uint8_t *buf, uint32_t len, int bypass,
		  uint64_t now)
{
	struct xp_wan_draws d = { 0, 0, 0, 0 };
	struct xp_wan_frame f;
	struct xp_wan_when w;
	struct xp_wan_rec *rec;
	int q;

	xp_wan_frame_read(buf, len, &f);
	p->c.frames++;
	p->c.bytes += f.wire;
	p->c.packets += f.segs;
	p->c.udp += f.udp;
	if (!bypass && p->cut_at && now >= p->cut_at)
		return drop(p, &f, &p->c.cut);
	if (!bypass && !(p->cfg->spare_tcp && f.tcp))
		xp_wan_draw(&p->sched, &d);
	if (d.lost)
		return drop(p, &f, &p->c.lost);
	if (buf == p->scratch || p->ring.held_bytes + len > p->cfg->limit_bytes)
		return drop(p, &f, &p->c.dropped);
	if (bypass) {
		w.release_ns = now > p->sched.last_delayed_ns ? now : p->sched.last_delayed_ns;
		w.overtakes = 0;
	} else {
		xp_wan_when(&p->sched, &d, now, f.wire,
			    xp_wan_ring_first(&p->ring, XP_WAN_Q_DELAYED) != NULL, &w);
	}
	q = d.ahead ? XP_WAN_Q_AHEAD : XP_WAN_Q_DELAYED;
	rec = keep(p, q, len, &f, w.release_ns, p->index++);
	p->c.reordered += (uint64_t)w.overtakes;
	if (d.dup)
		duplicate(p, q, rec, &f, w.dup_release_ns);
	high_water(p);
}

int xp_wan_pump_rx(struct xp_wan_pump *p, int bypass, struct xp_err *err)
{
	int n;

	for (n = 0; n < RX_BURST; n++) {
		uint8_t *buf = xp_wan_ring_space(&p->ring, XP_WAN_FRAME_MAX);
		ssize_t len;

		if (!buf)
			buf = p->scratch;
		len = recv(p->rx, buf, XP_WAN_FRAME_MAX, MSG_DONTWAIT | MSG_TRUNC);
		if (len < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		if (len < 0)
			return xp_err_sys(err, errno, "delay line: recv");
		if (len > XP_WAN_FRAME_MAX) {
			p->c.frames++;
			p->c.dropped++;
			continue;
		}
		judge(p, buf, (uint32_t)len, bypass, xp_now_ns());
	}
	return n;
}

uint64_t xp_wan_pump_due(const struct xp_wan_pump *p)
{
	int q = xp_wan_ring_next_q(&p->ring);

	return q < 0 ? UINT64_MAX : xp_wan_ring_first(&p->ring, q)->release_ns;
}

/* A frame left at now (sent is 1) or was refused (0); release its record. */
static void done(struct xp_wan_pump *p, int q, int sent, uint64_t now)
{
	struct xp_wan_rec *rec = xp_wan_ring_first(&p->ring, q);
	uint64_t slip = now > rec->release_ns ? now - rec->release_ns : 0;

	if (!sent) {
		p->c.tx_errors++;
		p->c.udp_dropped += rec->udp;
	} else {
		p->c.forwarded++;
		p->c.forwarded_bytes += rec->wire;
		p->c.slip_ns += slip;
		if (slip > p->c.slip_max_ns)
			p->c.slip_max_ns = slip;
		if (rec->flags & XP_WAN_REC_DUP) {
			p->c.duplicated++;
			p->c.udp_duplicated += rec->udp;
		} else if (rec->flow && xp_wan_flow_release(&p->flows, rec->flow - 1, rec->index)) {
			p->c.late++;
			p->c.udp_late += rec->udp;
		}
	}
	xp_wan_ring_pop(&p->ring, q);
}

/* Up to TX_BATCH due frames in release order, without taking them. */
static int gather(struct xp_wan_pump *p, uint64_t now, struct mmsghdr *m,
		  struct iovec *iov, int *qs)
{
	struct xp_wan_rec *cur[XP_WAN_QUEUES];
	int n = 0, q;

	for (q = 0; q < XP_WAN_QUEUES; q++)
		cur[q] = xp_wan_ring_first(&p->ring, q);
	while (n < TX_BATCH) {
		struct xp_wan_rec *r;

		if (cur[0] && (!cur[1] || cur[0]->release_ns <= cur[1]->release_ns))
			q = 0;
		else if (cur[1])
			q = 1;
		else
			break;
		r = cur[q];
		if (r->release_ns > now)
			break;
		iov[n].iov_base = xp_wan_rec_data(r);
		iov[n].iov_len = r->len;
		memset(&m[n], 0, sizeof(m[n]));
		m[n].msg_hdr.msg_iov = &iov[n];
		m[n].msg_hdr.msg_iovlen = 1;
		qs[n++] = q;
		cur[q] = xp_wan_ring_after(&p->ring, r);
	}
	return n;
}

void xp_wan_pump_tx(struct xp_wan_pump *p, uint64_t now_ns)
{
	struct mmsghdr m[TX_BATCH];
	struct iovec iov[TX_BATCH];
	int qs[TX_BATCH], n, sent, i;

	p->blocked = 0;
	for (;;) {
		now_ns = xp_now_ns(); /* when they leave: the slip is measured to here */
		if ((n = gather(p, now_ns, m, iov, qs)) <= 0)
			return;
		sent = sendmmsg(p->tx, m, (unsigned)n, MSG_DONTWAIT);
		if (sent < 0 && errno == EINTR)
			continue;
		if (sent < 0 && errno == EAGAIN) {
			p->blocked = 1; /* its socket buffer is full: wait to write */
			return;
		}
		if (sent <= 0) { /* the first one refused (ENOBUFS: the peer dropped it) */
			done(p, qs[0], 0, now_ns);
			continue;
		}
		for (i = 0; i < sent; i++)
			done(p, qs[i], 1, now_ns);
	}
}
