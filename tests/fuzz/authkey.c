/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: the key-file parser (xp_auth_key_parse,
 * common/auth.h).  The input is the file's contents.  An accepted key is
 * within the length limits and MACs verify with it. */
#include "tests/fuzz/fuzz.h"

#include "common/auth.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xp_auth_key *key = malloc(sizeof(*key));
	struct xp_err err = { .msg = "" };
	uint8_t sn[XP_AUTH_NONCE_LEN] = { 1 }, cn[XP_AUTH_NONCE_LEN] = { 2 };
	uint8_t mac[XP_AUTH_MAC_LEN];

	if (!key)
		abort();
	if (xp_auth_key_parse((const char *)data, size, "fuzz.key", key,
			      &err) == 0) {
		if (key->len < XP_AUTH_KEY_MIN || key->len > XP_AUTH_KEY_MAX ||
		    key->len > size)
			abort();
		xp_auth_mac(key, XP_AUTH_CLIENT, sn, cn, mac);
		if (!xp_auth_verify(key, XP_AUTH_CLIENT, sn, cn, mac) ||
		    xp_auth_verify(key, XP_AUTH_SERVER, sn, cn, mac))
			abort();
	}
	FUZZ_ERR_OK(err);
	free(key);
	return 0;
}
