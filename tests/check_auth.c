/* SPDX-License-Identifier: BSD-2-Clause */
/* Key files (forms, limits, permissions) and the challenge-response MACs
 * (right key, wrong key, swapped roles, replayed nonces). */
#include "common/auth.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int parse(const char *text, struct xp_auth_key *k, struct xp_err *err)
{
	err->msg[0] = '\0';
	return xp_auth_key_parse(text, strlen(text), "/etc/xperf.key", k, err);
}

static void assert_err_has(const struct xp_err *err, const char *part)
{
	ck_assert_msg(strstr(err->msg, part) != NULL, "'%s' not in '%s'", part,
		      err->msg);
}

/* `head -c 32 /dev/urandom | xxd -p`: 60 digits, a newline, 4 digits. */
START_TEST(test_key_hex_xxd)
{
	const char *text = "000102030405060708090a0b0c0d0e0f101112131415161718"
			   "191a1b1c1d\n1e1f\n";
	struct xp_auth_key k;
	struct xp_err err;
	int i;

	ck_assert_int_eq(parse(text, &k, &err), 0);
	ck_assert_int_eq(k.hex, 1);
	ck_assert_uint_eq(k.len, 32);
	for (i = 0; i < 32; i++)
		ck_assert_uint_eq(k.key[i], i);
	ck_assert_int_eq(parse("AbCdEf0123456789 abcdef0123456789\r\n", &k,
			       &err), 0);
	ck_assert_uint_eq(k.len, 16);
	ck_assert_uint_eq(k.key[0], 0xab);
	ck_assert_uint_eq(k.key[15], 0x89);
}
END_TEST

START_TEST(test_key_text)
{
	struct xp_auth_key k;
	struct xp_err err;

	ck_assert_int_eq(parse("correct horse battery staple\n", &k, &err), 0);
	ck_assert_int_eq(k.hex, 0);
	ck_assert_uint_eq(k.len, 28);
	ck_assert(memcmp(k.key, "correct horse battery staple", 28) == 0);
	ck_assert_int_eq(parse("  leading space kept \r\n\n", &k, &err), 0);
	ck_assert_uint_eq(k.len, 20);
	ck_assert(memcmp(k.key, "  leading space kept", 20) == 0);
	/* all hex digits but an odd count: text */
	ck_assert_int_eq(parse("0123456789abcdef0\n", &k, &err), 0);
	ck_assert_int_eq(k.hex, 0);
	ck_assert_uint_eq(k.len, 17);
	/* raw binary with a NUL */
	ck_assert_int_eq(xp_auth_key_parse("\x01\x00\xff zzzzzzzzzzzzzzzz", 20,
					   "k", &k, &err), 0);
	ck_assert_uint_eq(k.len, 20);
	ck_assert_uint_eq(k.key[1], 0);
}
END_TEST

START_TEST(test_key_rejected)
{
	char big[XP_AUTH_KEY_MAX + 2];
	struct xp_auth_key k;
	struct xp_err err;

	ck_assert_int_eq(parse("", &k, &err), -1);
	assert_err_has(&err, "'/etc/xperf.key' is empty");
	ck_assert_int_eq(parse(" \n\r\n\t", &k, &err), -1);
	assert_err_has(&err, "empty");
	ck_assert_int_eq(parse("fifteen bytes!!\n", &k, &err), -1);
	assert_err_has(&err, "'/etc/xperf.key': the key is 15 bytes, at least 16");
	ck_assert_int_eq(parse("0123456789abcdef0123456789abcd\n", &k, &err), -1);
	assert_err_has(&err, "15 bytes (hex-decoded)");
	memset(big, 'k', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(parse(big, &k, &err), -1);
	assert_err_has(&err, "1025 bytes, at most 1024");
	big[XP_AUTH_KEY_MAX] = '\0';
	ck_assert_int_eq(parse(big, &k, &err), 0);
	ck_assert_uint_eq(k.len, XP_AUTH_KEY_MAX);
}
END_TEST

START_TEST(test_mode_check)
{
	struct xp_err err;

	ck_assert_int_eq(xp_auth_mode_check("k", S_IFREG | 0600, 1000, &err), 0);
	ck_assert_int_eq(xp_auth_mode_check("k", S_IFREG | 0400, 1000, &err), 0);
	/* root-owned, group may read: a Kubernetes Secret with an fsGroup */
	ck_assert_int_eq(xp_auth_mode_check("k", S_IFREG | 0440, 0, &err), 0);
	ck_assert_int_eq(xp_auth_mode_check("k", S_IFREG | 0440, 1000, &err), -1);
	ck_assert_int_eq(xp_auth_mode_check("k", S_IFREG | 0460, 0, &err), -1);
	ck_assert_int_eq(xp_auth_mode_check("k", S_IFREG | 0444, 0, &err), -1);
	ck_assert_int_eq(xp_auth_mode_check("/tmp/k", S_IFREG | 0644, 1000, &err), -1);
	assert_err_has(&err, "Permissions 0644 for '/tmp/k' are too open");
	ck_assert_int_eq(xp_auth_mode_check("k", S_IFREG | 0640, 1000, &err), -1);
	assert_err_has(&err, "0640");
	ck_assert_int_eq(xp_auth_mode_check("k", S_IFREG | 0602, 1000, &err), -1);
	assert_err_has(&err, "0602");
	ck_assert_int_eq(xp_auth_mode_check("k", S_IFDIR | 0700, 1000, &err), -1);
	assert_err_has(&err, "'k' is not a regular file");
}
END_TEST

static void write_file(const char *path, const char *text, size_t n, int mode)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(path, (mode_t)mode), 0);
}

START_TEST(test_key_load)
{
	char dir[] = "/tmp/xperf-auth-XXXXXX", path[64], big[XP_AUTH_FILE_MAX + 1];
	struct xp_auth_key k;
	struct xp_err err;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/key", dir);
	ck_assert_int_eq(xp_auth_key_load(path, &k, &err), -1);
	assert_err_has(&err, "open key file");
	assert_err_has(&err, "No such file");
	write_file(path, "a sixteen byte key!\n", 20, 0600);
	ck_assert_int_eq(xp_auth_key_load(path, &k, &err), 0);
	ck_assert_uint_eq(k.len, 19);
	ck_assert_int_eq(chmod(path, 0644), 0);
	ck_assert_int_eq(xp_auth_key_load(path, &k, &err), -1);
	assert_err_has(&err, "Permissions 0644 for '");
	assert_err_has(&err, path);
	memset(big, 'x', sizeof(big));
	write_file(path, big, sizeof(big), 0600);
	ck_assert_int_eq(xp_auth_key_load(path, &k, &err), -1);
	assert_err_has(&err, "larger than 4096 bytes");
	ck_assert_int_eq(xp_auth_key_load(dir, &k, &err), -1);
	assert_err_has(&err, "not a regular file");
	xp_auth_key_wipe(&k);
	ck_assert_uint_eq(k.len, 0);
	unlink(path);
	rmdir(dir);
}
END_TEST

struct session {
	struct xp_auth_key key;
	uint8_t sn[XP_AUTH_NONCE_LEN], cn[XP_AUTH_NONCE_LEN];
};

static void session(struct session *s, const char *key)
{
	struct xp_err err;

	ck_assert_int_eq(xp_auth_key_parse(key, strlen(key), "k", &s->key, &err), 0);
	ck_assert_int_eq(xp_auth_nonce(s->sn, &err), 0);
	ck_assert_int_eq(xp_auth_nonce(s->cn, &err), 0);
}

/* Pins the construction: computed with Python's hmac module. */
START_TEST(test_mac_known_answer)
{
	static const uint8_t want_client[4] = { 0x49, 0xdb, 0x52, 0xc5 };
	static const uint8_t want_server[4] = { 0x83, 0x78, 0xda, 0xce };
	struct xp_auth_key k = { .len = 32 };
	uint8_t sn[32], cn[32], mac[32];
	int i;

	for (i = 0; i < 32; i++) {
		k.key[i] = (uint8_t)i;
		sn[i] = (uint8_t)(0x40 + i);
		cn[i] = (uint8_t)(0x80 + i);
	}
	xp_auth_mac(&k, XP_AUTH_CLIENT, sn, cn, mac);
	ck_assert(memcmp(mac, want_client, 4) == 0);
	ck_assert_uint_eq(mac[31], 0xf9);
	xp_auth_mac(&k, XP_AUTH_SERVER, sn, cn, mac);
	ck_assert(memcmp(mac, want_server, 4) == 0);
	ck_assert_uint_eq(mac[31], 0x22);
}
END_TEST

START_TEST(test_handshake)
{
	struct session s, other;
	uint8_t cmac[XP_AUTH_MAC_LEN], smac[XP_AUTH_MAC_LEN];
	int i;

	session(&s, "the shared secret key\n");
	/* right key: both directions verify */
	xp_auth_mac(&s.key, XP_AUTH_CLIENT, s.sn, s.cn, cmac);
	xp_auth_mac(&s.key, XP_AUTH_SERVER, s.sn, s.cn, smac);
	ck_assert_int_eq(xp_auth_verify(&s.key, XP_AUTH_CLIENT, s.sn, s.cn, cmac), 1);
	ck_assert_int_eq(xp_auth_verify(&s.key, XP_AUTH_SERVER, s.sn, s.cn, smac), 1);
	/* swapped roles: neither MAC passes as the other's */
	ck_assert(memcmp(cmac, smac, sizeof(cmac)) != 0);
	ck_assert_int_eq(xp_auth_verify(&s.key, XP_AUTH_SERVER, s.sn, s.cn, cmac), 0);
	ck_assert_int_eq(xp_auth_verify(&s.key, XP_AUTH_CLIENT, s.sn, s.cn, smac), 0);
	/* swapped nonces */
	ck_assert_int_eq(xp_auth_verify(&s.key, XP_AUTH_CLIENT, s.cn, s.sn, cmac), 0);
	/* every single-bit change of the MAC is refused */
	for (i = 0; i < 8 * XP_AUTH_MAC_LEN; i++) {
		cmac[i / 8] ^= (uint8_t)(1 << (i % 8));
		ck_assert_int_eq(xp_auth_verify(&s.key, XP_AUTH_CLIENT, s.sn,
						s.cn, cmac), 0);
		cmac[i / 8] ^= (uint8_t)(1 << (i % 8));
	}
	/* wrong key (one byte off), either side */
	session(&other, "the shared secret kez\n");
	ck_assert_int_eq(xp_auth_verify(&other.key, XP_AUTH_CLIENT, s.sn, s.cn,
					cmac), 0);
	ck_assert_int_eq(xp_auth_verify(&other.key, XP_AUTH_SERVER, s.sn, s.cn,
					smac), 0);
}
END_TEST

/* A recorded answer is useless in a session with a fresh nonce. */
START_TEST(test_replay)
{
	struct session s;
	uint8_t cmac[XP_AUTH_MAC_LEN], smac[XP_AUTH_MAC_LEN];
	uint8_t sn2[XP_AUTH_NONCE_LEN], cn2[XP_AUTH_NONCE_LEN];
	struct xp_err err;

	session(&s, "the shared secret key");
	xp_auth_mac(&s.key, XP_AUTH_CLIENT, s.sn, s.cn, cmac);
	xp_auth_mac(&s.key, XP_AUTH_SERVER, s.sn, s.cn, smac);
	ck_assert_int_eq(xp_auth_nonce(sn2, &err), 0);
	ck_assert_int_eq(xp_auth_nonce(cn2, &err), 0);
	ck_assert(memcmp(sn2, s.sn, sizeof(sn2)) != 0);
	/* attacker replays the client's nonce and MAC to a new server nonce */
	ck_assert_int_eq(xp_auth_verify(&s.key, XP_AUTH_CLIENT, sn2, s.cn, cmac), 0);
	/* a fake server replays its old server nonce and MAC to a new client */
	ck_assert_int_eq(xp_auth_verify(&s.key, XP_AUTH_SERVER, s.sn, cn2, smac), 0);
	ck_assert_int_eq(xp_auth_verify(&s.key, XP_AUTH_CLIENT, s.sn, s.cn, cmac), 1);
}
END_TEST

START_TEST(test_nonce)
{
	uint8_t a[XP_AUTH_NONCE_LEN], b[XP_AUTH_NONCE_LEN], z[XP_AUTH_NONCE_LEN] = { 0 };
	struct xp_err err;

	ck_assert_int_eq(xp_auth_nonce(a, &err), 0);
	ck_assert_int_eq(xp_auth_nonce(b, &err), 0);
	ck_assert(memcmp(a, b, sizeof(a)) != 0);
	ck_assert(memcmp(a, z, sizeof(a)) != 0);
}
END_TEST

static Suite *auth_suite(void)
{
	Suite *s = suite_create("auth");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_key_hex_xxd);
	tcase_add_test(tc, test_key_text);
	tcase_add_test(tc, test_key_rejected);
	tcase_add_test(tc, test_mode_check);
	tcase_add_test(tc, test_key_load);
	tcase_add_test(tc, test_mac_known_answer);
	tcase_add_test(tc, test_handshake);
	tcase_add_test(tc, test_replay);
	tcase_add_test(tc, test_nonce);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(auth_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
