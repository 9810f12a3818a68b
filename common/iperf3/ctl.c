/* SPDX-License-Identifier: BSD-2-Clause */
/* iperf3's control connection I/O (common/iperf3/ctl.h). */
#include "common/iperf3/ctl.h"

#include <stdlib.h>
#include <string.h>

#include "common/sock.h"
#include "proto/iperf3.h"

#define SEND_MS 5000

int xp_i3_send_state(int fd, int state, const char *peer, struct xp_err *err)
{
	uint8_t b = (uint8_t)(int8_t)state;

	return xp_send_all(fd, &b, 1, SEND_MS, peer, err);
}

int xp_i3_recv_state(int fd, int timeout_ms, int *state, const char *peer,
		     struct xp_err *err)
{
	uint8_t b;

	if (xp_recv_all(fd, &b, 1, timeout_ms, peer, err))
		return -1;
	*state = (int8_t)b;
	return 0;
}

int xp_i3_send_json(int fd, const struct xp_json *j, const char *peer, struct xp_err *err)
{
	const char *s = xp_json_str(j);
	size_t n = strlen(s);
	uint8_t hdr[4];

	if (j->oom || !n)
		return xp_err_set(err, "iperf3 JSON for %s: out of memory", peer);
	if (s[n - 1] == '\n')
		n--;
	xp_i3_len_encode(hdr, (uint32_t)n);
	if (xp_send_all(fd, hdr, sizeof(hdr), SEND_MS, peer, err))
		return -1;
	return xp_send_all(fd, s, n, SEND_MS, peer, err);
}

int xp_i3_recv_json(int fd, uint32_t max, int timeout_ms, char **text, uint32_t *len,
		    const char *peer, struct xp_err *err)
{
	uint8_t hdr[4];
	struct xp_why why;

	*text = NULL;
	if (xp_recv_all(fd, hdr, sizeof(hdr), timeout_ms, peer, err))
		return -1;
	if (xp_i3_len_decode(hdr, max, len, &why))
		return xp_err_set(err, "%s: %s", peer, why.msg);
	*text = malloc((size_t)*len + 1);
	if (!*text)
		return xp_err_set(err, "%s: out of memory for %u bytes of JSON", peer, *len);
	if (xp_recv_all(fd, *text, *len, timeout_ms, peer, err)) {
		free(*text);
		*text = NULL;
		return -1;
	}
	(*text)[*len] = '\0';
	return 0;
}

void xp_i3_send_error(int fd, int i3_errno, int sys_errno)
{
	uint8_t b[9];

	xp_i3_error_encode(b, i3_errno, sys_errno);
	xp_send_all(fd, b, sizeof(b), 1000, "iperf3 client", NULL);
}

int xp_i3_recv_error(int fd, const char *peer, struct xp_err *err)
{
	uint8_t b[8];
	int32_t code, sys;

	if (xp_recv_all(fd, b, sizeof(b), 2000, peer, err))
		return -1;
	xp_i3_error_decode(b, &code, &sys);
	if (sys > 0 && sys < 4096)
		return xp_err_set(err, "%s: iperf3 server error %d (%s): %s", peer, code,
				  xp_i3_errno_text(code), strerror(sys));
	return xp_err_set(err, "%s: iperf3 server error %d (%s)", peer, code,
			  xp_i3_errno_text(code));
}
