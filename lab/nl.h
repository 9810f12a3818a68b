/* SPDX-License-Identifier: BSD-2-Clause */
/* Minimal rtnetlink: a message builder with nested attributes (pure, so
 * unit-tested byte for byte), the parser of the kernel's acknowledgement
 * (with its extended-ack text when present), and one blocking exchange on
 * a NETLINK_ROUTE socket.  libc sockets only; no libmnl, no spawning ip. */
#ifndef XP_LAB_NL_H
#define XP_LAB_NL_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"

#define XP_NL_BUF 2048
#define XP_NL_NEST_MAX 8

/* One request under construction.  An overflow is remembered and makes
 * xp_nl_talk fail, so builders need not check every call. */
struct xp_nl_msg {
	union {
		uint8_t buf[XP_NL_BUF];
		uint32_t align;
	} u;
	size_t len;
	size_t nest[XP_NL_NEST_MAX];
	int depth;
	int overflow;
};

/* Start a request: netlink header of type/flags (NLM_F_REQUEST|NLM_F_ACK
 * are added), then hdrlen bytes of family header (copied from hdr). */
void xp_nl_init(struct xp_nl_msg *m, uint16_t type, uint16_t flags,
		const void *hdr, size_t hdrlen);
/* Raw bytes, padded to 4 (e.g. the ifinfomsg inside a veth peer). */
void xp_nl_put(struct xp_nl_msg *m, const void *data, size_t len);
void xp_nl_attr(struct xp_nl_msg *m, uint16_t type, const void *data,
		size_t len);
void xp_nl_attr_u8(struct xp_nl_msg *m, uint16_t type, uint8_t v);
void xp_nl_attr_u16(struct xp_nl_msg *m, uint16_t type, uint16_t v);
void xp_nl_attr_u32(struct xp_nl_msg *m, uint16_t type, uint32_t v);
void xp_nl_attr_u64(struct xp_nl_msg *m, uint16_t type, uint64_t v);
void xp_nl_attr_str(struct xp_nl_msg *m, uint16_t type, const char *s);
void xp_nl_nest_open(struct xp_nl_msg *m, uint16_t type);
void xp_nl_nest_close(struct xp_nl_msg *m);
/* The finished message (length fields filled in). */
const void *xp_nl_data(const struct xp_nl_msg *m, size_t *len);

/* Look for the acknowledgement of seq in one received datagram.
 * Returns 1 if found (*error: 0 or a positive errno; ext: the kernel's
 * extended-ack message or ""), 0 if the datagram holds no ack for seq,
 * -1 if it is malformed. */
int xp_nl_parse_ack(const void *buf, size_t len, uint32_t seq, int *error,
		    char *ext, size_t extlen);

/* NETLINK_ROUTE socket with extended acks asked for (and the echo of the
 * request capped).  The socket belongs to the namespace of the calling
 * thread.  fd or -1. */
int xp_nl_open(struct xp_err *err);
/* Send m (seq assigned here) and wait up to 5 s for its ack.  0, or -1
 * with err "what: reason (kernel's extended message)" and errno set to
 * the kernel's error (EOPNOTSUPP for an unknown link type, ...). */
int xp_nl_talk(int fd, struct xp_nl_msg *m, uint32_t *seq, const char *what,
	       struct xp_err *err);

#endif
