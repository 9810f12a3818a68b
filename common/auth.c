/* SPDX-License-Identifier: BSD-2-Clause */
/* Pre-shared key loading and the challenge-response MACs (common/auth.h). */
#include "common/auth.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sha256.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

static int hex_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Number of hex digits if buf is hex digits and white space only, an even
 * number of them; else 0 (the text form). */
static size_t hex_digits(const char *buf, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (hex_val(buf[i]) >= 0)
			n++;
		else if (!is_space(buf[i]))
			return 0;
	}
	return n % 2 ? 0 : n;
}

static void hex_decode(const char *buf, size_t len, uint8_t *out)
{
	size_t i, n = 0;
	int v;

	for (i = 0; i < len; i++) {
		v = hex_val(buf[i]);
		if (v < 0)
			continue;
		if (n % 2)
			out[n / 2] = (uint8_t)(out[n / 2] | v);
		else
			out[n / 2] = (uint8_t)(v << 4);
		n++;
	}
}

int xp_auth_key_parse(const char *buf, size_t len, const char *path,
		      struct xp_auth_key *key, struct xp_err *err)
{
	size_t n, digits;

	memset(key, 0, sizeof(*key));
	while (len && is_space(buf[len - 1]))
		len--;
	if (!len)
		return xp_err_set(err, "key file '%s' is empty", path);
	digits = hex_digits(buf, len);
	key->hex = digits > 0;
	n = key->hex ? digits / 2 : len;
	if (n < XP_AUTH_KEY_MIN)
		return xp_err_set(err, "key file '%s': the key is %zu bytes%s, "
				  "at least %d needed", path, n,
				  key->hex ? " (hex-decoded)" : "",
				  XP_AUTH_KEY_MIN);
	if (n > XP_AUTH_KEY_MAX)
		return xp_err_set(err, "key file '%s': the key is %zu bytes%s, "
				  "at most %d allowed", path, n,
				  key->hex ? " (hex-decoded)" : "",
				  XP_AUTH_KEY_MAX);
	if (key->hex)
		hex_decode(buf, len, key->key);
	else
		memcpy(key->key, buf, len);
	key->len = n;
	return 0;
}

/* Group read is allowed only on a file root owns (0440 root:GROUP, as
 * Kubernetes writes a Secret for a pod's fsGroup): root chose who reads
 * it.  Anything else for group, and anything for others, is refused. */
int xp_auth_mode_check(const char *path, mode_t mode, uid_t owner, struct xp_err *err)
{
	mode_t open_bits = owner == 0 ? 037 : 077;

	if (!S_ISREG(mode))
		return xp_err_set(err, "key file '%s' is not a regular file", path);
	if (mode & open_bits)
		return xp_err_set(err, "Permissions 0%03o for '%s' are too open: "
				  "a key file must not be accessible by others, nor by its "
				  "group unless root owns it and the group may only read "
				  "(chmod 600 '%s')", (unsigned)(mode & 0777), path, path);
	return 0;
}

/* Up to cap bytes of fd into buf; *n the count.  -1 if more than cap. */
static int read_all(int fd, char *buf, size_t cap, size_t *n)
{
	ssize_t r;

	*n = 0;
	for (;;) {
		r = read(fd, buf + *n, cap + 1 - *n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return (int)r;
		*n += (size_t)r;
		if (*n > cap)
			return -1;
	}
}

int xp_auth_key_load(const char *path, struct xp_auth_key *key,
		     struct xp_err *err)
{
	char buf[XP_AUTH_FILE_MAX + 1];
	struct stat st;
	size_t n = 0;
	int fd, rc, e;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return xp_err_sys(err, errno, "open key file '%s'", path);
	if (fstat(fd, &st) < 0) {
		e = errno;
		close(fd);
		return xp_err_sys(err, e, "stat key file '%s'", path);
	}
	rc = xp_auth_mode_check(path, st.st_mode, st.st_uid, err);
	if (rc == 0) {
		rc = read_all(fd, buf, XP_AUTH_FILE_MAX, &n);
		e = errno;
		if (rc < 0 && n > XP_AUTH_FILE_MAX)
			xp_err_set(err, "key file '%s' is larger than %d bytes",
				   path, XP_AUTH_FILE_MAX);
		else if (rc < 0)
			xp_err_sys(err, e, "read key file '%s'", path);
	}
	close(fd);
	if (rc == 0)
		rc = xp_auth_key_parse(buf, n, path, key, err);
	xp_wipe(buf, sizeof(buf));
	return rc;
}

void xp_auth_key_wipe(struct xp_auth_key *key)
{
	xp_wipe(key, sizeof(*key));
}

int xp_auth_nonce(uint8_t nonce[XP_AUTH_NONCE_LEN], struct xp_err *err)
{
	size_t n = 0;
	ssize_t r;

	while (n < XP_AUTH_NONCE_LEN) {
		r = getrandom(nonce + n, XP_AUTH_NONCE_LEN - n, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return xp_err_sys(err, errno, "getrandom %d bytes",
					  XP_AUTH_NONCE_LEN);
		n += (size_t)r;
	}
	return 0;
}

void xp_auth_mac(const struct xp_auth_key *key, enum xp_auth_role role,
		 const uint8_t server_nonce[XP_AUTH_NONCE_LEN],
		 const uint8_t client_nonce[XP_AUTH_NONCE_LEN],
		 uint8_t mac[XP_AUTH_MAC_LEN])
{
	struct xp_hmac_sha256 h;
	const char *label = role == XP_AUTH_SERVER ? "server" : "client";

	xp_hmac_sha256_init(&h, key->key, key->len);
	xp_hmac_sha256_update(&h, XP_AUTH_LABEL, strlen(XP_AUTH_LABEL));
	xp_hmac_sha256_update(&h, label, 6);
	xp_hmac_sha256_update(&h, server_nonce, XP_AUTH_NONCE_LEN);
	xp_hmac_sha256_update(&h, client_nonce, XP_AUTH_NONCE_LEN);
	xp_hmac_sha256_final(&h, mac);
}

int xp_auth_verify(const struct xp_auth_key *key, enum xp_auth_role role,
		   const uint8_t server_nonce[XP_AUTH_NONCE_LEN],
		   const uint8_t client_nonce[XP_AUTH_NONCE_LEN],
		   const uint8_t mac[XP_AUTH_MAC_LEN])
{
	uint8_t want[XP_AUTH_MAC_LEN];
	int ok;

	xp_auth_mac(key, role, server_nonce, client_nonce, want);
	ok = xp_ct_equal(want, mac, XP_AUTH_MAC_LEN);
	xp_wipe(want, sizeof(want));
	return ok;
}
