/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: a control message as a peer's first one reaches the
 * server's accept loop, or as a server's answers reach the client: the
 * decoder (proto/msg.h), the escaping of its strings (xp_ctl_clean), the
 * authentication MACs over its nonces and MACs (common/auth.h), and the
 * client's checks of a RESULT (client/verify.h, which parses the CPU
 * list).  No string keeps a control byte, the checks never overflow, and
 * an impossible CPU id is never shown as a number. */
#include "tests/fuzz/fuzz.h"

#include "client/verify.h"
#include "common/auth.h"
#include "common/ctl.h"
#include "common/opts.h"
#include "proto/msg.h"

static void no_controls(const char *s, size_t cap)
{
	size_t i;

	if (!memchr(s, 0, cap))
		abort();
	for (i = 0; s[i]; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			abort();
}

/* The MAC over a peer's nonce verifies, and only for its own role. */
static void check_auth(const struct xp_msg *m)
{
	struct xp_auth_key key;
	uint8_t mac[XP_AUTH_MAC_LEN];

	memset(&key, 0, sizeof(key));
	memcpy(key.key, "0123456789abcdef", 16);
	key.len = 16;
	xp_auth_mac(&key, XP_AUTH_CLIENT, m->u.auth.nonce, m->u.auth.mac, mac);
	if (!xp_auth_verify(&key, XP_AUTH_CLIENT, m->u.auth.nonce, m->u.auth.mac, mac) ||
	    xp_auth_verify(&key, XP_AUTH_SERVER, m->u.auth.nonce, m->u.auth.mac, mac))
		abort();
}

static void check_result(struct xp_msg *m)
{
	static struct xp_client_result r;
	struct xp_opts o;
	int i;

	xp_opts_defaults(&o);
	memset(&r, 0, sizeof(r));
	r.test = 1;
	r.local.active_ns = r.local.elapsed_ns = 1000000000;
	r.remote = m->u.result;
	xp_verify_result(&o, &r);
	no_controls(r.remote.cpus, sizeof(r.remote.cpus));
	if (strchr(r.remote.cpus, '-'))
		abort();
	for (i = 0; i < r.nwarnings; i++)
		no_controls(r.warnings[i], sizeof(r.warnings[i]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xp_msg m;
	struct xp_why why;

	if (xp_msg_decode(data, size, &m, &why))
		return 0;
	xp_ctl_clean(&m);
	switch (m.type) {
	case XP_MSG_ERROR:
		no_controls(m.u.error.text, sizeof(m.u.error.text));
		break;
	case XP_MSG_SETUP:
		no_controls(m.u.setup.cpus, sizeof(m.u.setup.cpus));
		no_controls(m.u.setup.congestion, sizeof(m.u.setup.congestion));
		break;
	case XP_MSG_RESULT:
		no_controls(m.u.result.warning, sizeof(m.u.result.warning));
		no_controls(m.u.result.congestion, sizeof(m.u.result.congestion));
		check_result(&m);
		break;
	case XP_MSG_AUTH_HELLO:
	case XP_MSG_AUTH_CHALLENGE:
	case XP_MSG_AUTH_RESPONSE:
	case XP_MSG_AUTH_OK:
		check_auth(&m);
		break;
	}
	return 0;
}
