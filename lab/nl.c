/* SPDX-License-Identifier: BSD-2-Clause */
#include "lab/nl.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netlink.h>

#define TALK_MS 5000

static void *reserve(struct xp_nl_msg *m, size_t len)
{
	size_t pad = NLMSG_ALIGN(len);
	void *p;

	if (m->overflow || m->len + pad > sizeof(m->u.buf)) {
		m->overflow = 1;
		return NULL;
	}
	p = m->u.buf + m->len;
	memset(p, 0, pad);
	m->len += pad;
	return p;
}

void xp_nl_init(struct xp_nl_msg *m, uint16_t type, uint16_t flags,
		const void *hdr, size_t hdrlen)
{
	struct nlmsghdr h;

	memset(m, 0, sizeof(*m));
	memset(&h, 0, sizeof(h));
	h.nlmsg_type = type;
	h.nlmsg_flags = (uint16_t)(flags | NLM_F_REQUEST | NLM_F_ACK);
	xp_nl_put(m, &h, sizeof(h));
	xp_nl_put(m, hdr, hdrlen);
}

void xp_nl_put(struct xp_nl_msg *m, const void *data, size_t len)
{
	void *p = reserve(m, len);

	if (p && len)
		memcpy(p, data, len);
}

void xp_nl_attr(struct xp_nl_msg *m, uint16_t type, const void *data,
		size_t len)
{
	struct nlattr a;
	uint8_t *p;

	if (len > 0xffff - NLA_HDRLEN) {
		m->overflow = 1;
		return;
	}
	p = reserve(m, NLA_HDRLEN + len);
	if (!p)
		return;
	a.nla_len = (uint16_t)(NLA_HDRLEN + len);
	a.nla_type = type;
	memcpy(p, &a, sizeof(a));
	if (len)
		memcpy(p + NLA_HDRLEN, data, len);
}

void xp_nl_attr_u8(struct xp_nl_msg *m, uint16_t type, uint8_t v)
{
	xp_nl_attr(m, type, &v, sizeof(v));
}

void xp_nl_attr_u16(struct xp_nl_msg *m, uint16_t type, uint16_t v)
{
	xp_nl_attr(m, type, &v, sizeof(v));
}

void xp_nl_attr_u32(struct xp_nl_msg *m, uint16_t type, uint32_t v)
{
	xp_nl_attr(m, type, &v, sizeof(v));
}

void xp_nl_attr_u64(struct xp_nl_msg *m, uint16_t type, uint64_t v)
{
	xp_nl_attr(m, type, &v, sizeof(v));
}

void xp_nl_attr_str(struct xp_nl_msg *m, uint16_t type, const char *s)
{
	xp_nl_attr(m, type, s, strlen(s) + 1);
}

void xp_nl_nest_open(struct xp_nl_msg *m, uint16_t type)
{
	if (m->depth >= XP_NL_NEST_MAX) {
		m->overflow = 1;
		return;
	}
	m->nest[m->depth++] = m->len;
	xp_nl_attr(m, (uint16_t)(type | NLA_F_NESTED), NULL, 0);
}

void xp_nl_nest_close(struct xp_nl_msg *m)
{
	struct nlattr a;
	size_t at;

	if (m->depth <= 0) {
		m->overflow = 1;
		return;
	}
	at = m->nest[--m->depth];
	if (m->overflow)
		return;
	memcpy(&a, m->u.buf + at, sizeof(a));
	a.nla_len = (uint16_t)(m->len - at);
	memcpy(m->u.buf + at, &a, sizeof(a));
}

const void *xp_nl_data(const struct xp_nl_msg *m, size_t *len)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(void *)m->u.buf;

	h->nlmsg_len = (uint32_t)m->len;
	*len = m->len;
	return m->u.buf;
}

/* The NLMSGERR_ATTR_MSG string among the TLVs after the error header. */
static void ext_msg(const uint8_t *p, size_t len, char *ext, size_t extlen)
{
	while (len >= NLA_HDRLEN) {
		struct nlattr a;
		size_t alen;

		memcpy(&a, p, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > len)
			return;
		alen = a.nla_len - NLA_HDRLEN;
		if ((a.nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG && alen) {
			size_t n = strnlen((const char *)p + NLA_HDRLEN, alen);

			if (n >= extlen)
				n = extlen - 1;
			memcpy(ext, p + NLA_HDRLEN, n);
			ext[n] = 0;
			return;
		}
		if ((size_t)NLA_ALIGN(a.nla_len) >= len)
			return;
		len -= NLA_ALIGN(a.nla_len);
		p += NLA_ALIGN(a.nla_len);
	}
}

static int parse_error(const struct nlmsghdr *h, const uint8_t *data,
		       int *error, char *ext, size_t extlen)
{
	size_t dlen = h->nlmsg_len - NLMSG_HDRLEN, off;
	struct nlmsgerr e;

	if (dlen < sizeof(e))
		return -1;
	memcpy(&e, data, sizeof(e));
	*error = -e.error;
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return 1;
	off = sizeof(e);
	if (!(h->nlmsg_flags & NLM_F_CAPPED)) {
		if (e.msg.nlmsg_len < NLMSG_HDRLEN)
			return 1;
		off += e.msg.nlmsg_len - NLMSG_HDRLEN;
	}
	off = NLMSG_ALIGN(off);
	if (off < dlen)
		ext_msg(data + off, dlen - off, ext, extlen);
	return 1;
}

int xp_nl_parse_ack(const void *buf, size_t len, uint32_t seq, int *error,
		    char *ext, size_t extlen)
{
	const uint8_t *p = buf;

	if (extlen)
		ext[0] = 0;
	while (len >= NLMSG_HDRLEN) {
		struct nlmsghdr h;

		memcpy(&h, p, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len)
			return -1;
		if (h.nlmsg_type == NLMSG_ERROR && h.nlmsg_seq == seq)
			return parse_error(&h, p + NLMSG_HDRLEN, error, ext, extlen);
		if (NLMSG_ALIGN(h.nlmsg_len) >= len)
			break;
		len -= NLMSG_ALIGN(h.nlmsg_len);
		p += NLMSG_ALIGN(h.nlmsg_len);
	}
	return 0;
}

int xp_nl_open(struct xp_err *err)
{
	struct sockaddr_nl sa;
	int fd, one = 1;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return xp_err_sys(err, errno, "netlink socket");
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		xp_err_sys(err, errno, "netlink bind");
		close(fd);
		return -1;
	}
	/* Both are hints: older kernels lack them and still answer. */
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	return fd;
}

static int send_msg(int fd, struct xp_nl_msg *m, uint32_t seq, const char *what,
		    struct xp_err *err)
{
	struct sockaddr_nl sa;
	struct nlmsghdr *h = (struct nlmsghdr *)(void *)m->u.buf;
	const void *data;
	size_t len;

	if (m->overflow || m->depth) {
		errno = EMSGSIZE;
		return xp_err_set(err, "%s: internal: netlink request too large", what);
	}
	h->nlmsg_seq = seq;
	data = xp_nl_data(m, &len);
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	if (sendto(fd, data, len, 0, (struct sockaddr *)&sa, sizeof(sa)) != (ssize_t)len)
		return xp_err_sys(err, errno, "%s: netlink send", what);
	return 0;
}

static int recv_ack(int fd, uint32_t seq, const char *what, struct xp_err *err)
{
	uint8_t buf[16384] __attribute__((aligned(4)));
	char ext[160];
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int error, rc;

	for (;;) {
		ssize_t n;

		if (poll(&p, 1, TALK_MS) <= 0) {
			errno = ETIMEDOUT;
			return xp_err_set(err, "%s: no netlink answer in %d ms", what, TALK_MS);
		}
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return xp_err_sys(err, errno, "%s: netlink receive", what);
		rc = xp_nl_parse_ack(buf, (size_t)n, seq, &error, ext, sizeof(ext));
		if (rc < 0) {
			errno = EPROTO;
			return xp_err_set(err, "%s: malformed netlink answer", what);
		}
		if (rc == 0)
			continue;
		if (!error)
			return 0;
		if (ext[0])
			xp_err_set(err, "%s: %s (%s)", what, strerror(error), ext);
		else
			xp_err_set(err, "%s: %s", what, strerror(error));
		errno = error;
		return -1;
	}
}

int xp_nl_talk(int fd, struct xp_nl_msg *m, uint32_t *seq, const char *what,
	       struct xp_err *err)
{
	++*seq;
	if (send_msg(fd, m, *seq, what, err))
		return -1;
	return recv_ack(fd, *seq, what, err);
}
