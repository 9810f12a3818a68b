/* SPDX-License-Identifier: BSD-2-Clause */
#include "lab/wan/frame.h"

#include <string.h>

#include "proto/be.h"
#include "proto/hello.h"
#include "proto/msg.h"

#define ETH_HLEN 14
#define ETH_P_IP 0x0800
#define ETH_P_IPV6 0x86dd
#define ETH_P_8021Q 0x8100
#define ETH_P_8021AD 0x88a8
#define PROTO_TCP 6
#define PROTO_UDP 17
#define PROBES 8

struct l4 {
	uint8_t proto;
	size_t off;      /* of the L4 header in the Ethernet frame */
	const uint8_t *saddr, *daddr;
	size_t alen;
};

/* The IP header at off: protocol, addresses, where L4 starts.  0, or -1
 * for anything else (ARP, fragments, extension headers ...). */
static int ip(const uint8_t *e, size_t len, size_t off, uint16_t type, struct l4 *l)
{
	const uint8_t *h = e + off;

	if (type == ETH_P_IP && len >= off + 20 && (h[0] >> 4) == 4) {
		size_t ihl = (size_t)(h[0] & 15) * 4;

		if (ihl < 20 || (xp_get16(h + 6) & 0x3fff))
			return -1;
		l->proto = h[9];
		l->saddr = h + 12;
		l->daddr = h + 16;
		l->alen = 4;
		l->off = off + ihl;
		return 0;
	}
	if (type == ETH_P_IPV6 && len >= off + 40 && (h[0] >> 4) == 6) {
		l->proto = h[6];
		l->saddr = h + 8;
		l->daddr = h + 24;
		l->alen = 16;
		l->off = off + 40;
		return 0;
	}
	return -1;
}

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
	while (n--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

static uint64_t flow_hash(const struct l4 *l, const uint8_t *ports)
{
	uint64_t h = fnv(0xcbf29ce484222325ull, &l->proto, 1);

	h = fnv(h, l->saddr, l->alen);
	h = fnv(h, l->daddr, l->alen);
	h = fnv(h, ports, 4);
	return h ? h : 1;
}

/* One of the UDP handshake's datagrams (not test data). */
static int handshake(const uint8_t *p, size_t n)
{
	uint32_t magic = n >= 4 ? xp_get32(p) : 0;

	return (n == XP_DATA_HELLO_LEN && magic == XP_DATA_MAGIC) ||
	       (n == XP_UDP_CHALLENGE_LEN && magic == XP_UDP_CHALLENGE_MAGIC) ||
	       (n == XP_UDP_CONFIRM_LEN && magic == XP_UDP_CONFIRM_MAGIC);
}

static size_t l4_header(const uint8_t *e, size_t len, const struct l4 *l)
{
	if (l->proto == PROTO_TCP && len >= l->off + 20)
		return (size_t)(e[l->off + 12] >> 4) * 4;
	if (l->proto == PROTO_UDP && len >= l->off + 8)
		return 8;
	return 0;
}

void xp_wan_frame_read(const uint8_t *p, size_t len, struct xp_wan_frame *f)
{
	const uint8_t *e = p + XP_WAN_VNET_LEN;
	uint16_t gso_size, type;
	size_t elen, off = ETH_HLEN, hl, payload;
	struct l4 l;

	memset(f, 0, sizeof(*f));
	f->segs = 1;
	f->wire = len > XP_WAN_VNET_LEN ? (uint32_t)(len - XP_WAN_VNET_LEN) : 0;
	if (len < XP_WAN_VNET_LEN + ETH_HLEN)
		return;
	elen = len - XP_WAN_VNET_LEN;
	memcpy(&gso_size, p + 4, sizeof(gso_size)); /* host order, as the kernel gives it */
	type = xp_get16(e + 12);
	if ((type == ETH_P_8021Q || type == ETH_P_8021AD) && elen >= 18) {
		type = xp_get16(e + 16);
		off = 18;
	}
	if (ip(e, elen, off, type, &l) || !(hl = l4_header(e, elen, &l)) ||
	    elen < l.off + hl)
		return;
	f->flow_hash = flow_hash(&l, e + l.off);
	f->tcp = l.proto == PROTO_TCP;
	payload = elen - l.off - hl;
	if (p[1] && gso_size) { /* gso_type set: GSO frame */
		f->segs = (uint32_t)((payload + gso_size - 1) / gso_size);
		if (!f->segs)
			f->segs = 1;
		f->wire += (uint32_t)((f->segs - 1) * (l.off + hl));
	} else if (l.proto == PROTO_UDP && xp_get16(e + l.off + 4) >= 8 &&
		   xp_get16(e + l.off + 4) - 8u < payload) {
		payload = xp_get16(e + l.off + 4) - 8u; /* Ethernet padding is not payload */
	}
	if (l.proto == PROTO_UDP && !(f->segs == 1 && handshake(e + l.off + hl, payload)))
		f->udp = f->segs;
}

uint32_t xp_wan_flow_slot(struct xp_wan_flows *t, uint64_t hash)
{
	uint32_t home = (uint32_t)(hash % XP_WAN_FLOWS), i;

	for (i = 0; i < PROBES; i++) {
		uint32_t s = (home + i) % XP_WAN_FLOWS;

		if (t->hash[s] == hash)
			return s;
		if (!t->hash[s]) {
			t->hash[s] = hash;
			return s;
		}
	}
	return home;
}

int xp_wan_flow_release(struct xp_wan_flows *t, uint32_t slot, uint64_t index)
{
	int late = index + 1 < t->newest[slot];

	if (!late)
		t->newest[slot] = index + 1;
	return late;
}
