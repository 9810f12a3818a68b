/* SPDX-License-Identifier: BSD-2-Clause */
/* The client's side of the mutual challenge-response (client/auth.h). */
#include "client/auth.h"

#include <string.h>

#include "common/ctl.h"
#include "common/sha256.h"

/* A refusal the user can act on, from the server's ERROR code. */
static int refusal(const struct xp_msg *m, const char *who, struct xp_err *err)
{
	switch (m->u.error.code) {
	case XP_ERRC_AUTH_REQUIRED:
		return xp_err_set(err, "%s requires authentication (--auth-file)", who);
	case XP_ERRC_AUTH_FAILED:
		return xp_err_set(err, "authentication failed: wrong key (%s does not "
				  "accept this --auth-file)", who);
	case XP_ERRC_AUTH_UNSUPPORTED:
		return xp_err_set(err, "%s does not use authentication (it was started "
				  "without --auth-file): run without --auth-file", who);
	}
	return xp_err_set(err, "%s: %s", who, m->u.error.text);
}

int xp_client_expect(int fd, struct xp_msg *m, int type, int timeout_ms,
		     const char *who, struct xp_err *err)
{
	memset(m, 0, sizeof(*m));
	if (xp_ctl_expect(fd, m, type, timeout_ms, who, err) == 0)
		return 0;
	return m->type == XP_MSG_ERROR ? refusal(m, who, err) : -1;
}

static int send_auth(int fd, int type, const uint8_t *v, int timeout_ms,
		     const char *who, struct xp_err *err)
{
	struct xp_msg m;

	memset(&m, 0, sizeof(m));
	m.type = (uint16_t)type;
	if (type == XP_MSG_AUTH_HELLO)
		memcpy(m.u.auth.nonce, v, XP_AUTH_NONCE_LEN);
	else
		memcpy(m.u.auth.mac, v, XP_AUTH_MAC_LEN);
	return xp_ctl_send(fd, &m, timeout_ms, who, err);
}

int xp_client_auth(int fd, const struct xp_auth_key *key, const char *who,
		   int timeout_ms, struct xp_err *err)
{
	uint8_t cn[XP_AUTH_NONCE_LEN], sn[XP_AUTH_NONCE_LEN], mac[XP_AUTH_MAC_LEN];
	struct xp_msg m;

	if (xp_auth_nonce(cn, err) ||
	    send_auth(fd, XP_MSG_AUTH_HELLO, cn, timeout_ms, who, err) ||
	    xp_client_expect(fd, &m, XP_MSG_AUTH_CHALLENGE, timeout_ms, who, err))
		return -1;
	memcpy(sn, m.u.auth.nonce, sizeof(sn));
	xp_auth_mac(key, XP_AUTH_CLIENT, sn, cn, mac);
	if (send_auth(fd, XP_MSG_AUTH_RESPONSE, mac, timeout_ms, who, err) ||
	    xp_client_expect(fd, &m, XP_MSG_AUTH_OK, timeout_ms, who, err))
		return -1;
	if (!xp_auth_verify(key, XP_AUTH_SERVER, sn, cn, m.u.auth.mac))
		return xp_err_set(err, "authentication failed: %s accepted our key but could "
				  "not prove it holds it (not the server you meant?)", who);
	xp_wipe(mac, sizeof(mac));
	return 0;
}
