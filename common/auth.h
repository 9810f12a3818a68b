/* SPDX-License-Identifier: BSD-2-Clause */
/* Optional pre-shared-key authentication of the control connection.
 *
 * The key file (--auth-file FILE) holds the key in one of two forms:
 *   - hex: only hex digits and white space (line breaks anywhere), an
 *     even number of digits; decoded to bytes.  This is what
 *     `head -c 32 /dev/urandom | xxd -p > FILE` writes (two lines).
 *   - text: anything else; the key is the file's bytes with trailing
 *     white space (the newline an editor or `echo` adds) removed.
 * The key must be at least XP_AUTH_KEY_MIN bytes after decoding, the file
 * at most XP_AUTH_FILE_MAX bytes, a regular file, and not accessible to
 * group or others (mode & 077 == 0), as ssh demands of private keys.
 *
 * Mutual challenge-response, both directions, keyed by the same key:
 *   server -> client  server_nonce (32 random bytes)
 *   client -> server  client_nonce (32 random bytes), client MAC
 *   server -> client  server MAC
 * MAC(role) = HMAC-SHA-256(key, "xperf-auth-v1" || role || server_nonce ||
 *                               client_nonce)
 * role is the 6 bytes "client" or "server" (same length, so the input
 * is unambiguous).  The server's fresh nonce makes a recorded client
 * answer useless in another session; the client's makes a recorded
 * server answer useless; the role label stops either side reflecting the
 * other's MAC back.  The functions here are pure except xp_auth_nonce
 * (getrandom) and xp_auth_key_load (reads the file). */
#ifndef XP_AUTH_H
#define XP_AUTH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/err.h"

#define XP_AUTH_KEY_MIN 16    /* bytes, after hex decoding */
#define XP_AUTH_KEY_MAX 1024  /* bytes */
#define XP_AUTH_FILE_MAX 4096 /* bytes in the key file */
#define XP_AUTH_NONCE_LEN 32
#define XP_AUTH_MAC_LEN 32
#define XP_AUTH_LABEL "xperf-auth-v1"

enum xp_auth_role { XP_AUTH_CLIENT = 1, XP_AUTH_SERVER = 2 };

struct xp_auth_key {
	uint8_t key[XP_AUTH_KEY_MAX];
	size_t len;
	int hex; /* 1 if decoded from hex */
};

/* Read, check and parse the key file: not a regular file, group/other
 * permissions ("Permissions 0644 for 'FILE' are too open: ..."), too
 * large, or a bad key (see xp_auth_key_parse) are errors naming FILE.
 * 0 or -1. */
int xp_auth_key_load(const char *path, struct xp_auth_key *key,
		     struct xp_err *err);

/* 0 if a file of this st_mode may hold a key, else -1 naming path and
 * the mode in octal. */
int xp_auth_mode_check(const char *path, mode_t mode, uid_t owner, struct xp_err *err);

/* The key from the file's contents buf[0..len) (any bytes, not NUL-
 * terminated); path only names the file in errors: empty, or shorter than
 * XP_AUTH_KEY_MIN, or longer than XP_AUTH_KEY_MAX.  0 or -1. */
int xp_auth_key_parse(const char *buf, size_t len, const char *path,
		      struct xp_auth_key *key, struct xp_err *err);

/* Zero the key. */
void xp_auth_key_wipe(struct xp_auth_key *key);

/* XP_AUTH_NONCE_LEN bytes from getrandom(2).  0 or -1. */
int xp_auth_nonce(uint8_t nonce[XP_AUTH_NONCE_LEN], struct xp_err *err);

/* The MAC that the side `role` sends (see above). */
void xp_auth_mac(const struct xp_auth_key *key, enum xp_auth_role role,
		 const uint8_t server_nonce[XP_AUTH_NONCE_LEN],
		 const uint8_t client_nonce[XP_AUTH_NONCE_LEN],
		 uint8_t mac[XP_AUTH_MAC_LEN]);

/* 1 if mac is what `role` must send for these nonces, else 0; compared in
 * constant time. */
int xp_auth_verify(const struct xp_auth_key *key, enum xp_auth_role role,
		   const uint8_t server_nonce[XP_AUTH_NONCE_LEN],
		   const uint8_t client_nonce[XP_AUTH_NONCE_LEN],
		   const uint8_t mac[XP_AUTH_MAC_LEN]);

#endif
