/* SPDX-License-Identifier: BSD-2-Clause */
/* SHA-256 against the FIPS 180-2 examples, HMAC-SHA-256 against the seven
 * RFC 4231 test cases, incremental against one-shot over random splits,
 * and the constant-time compare. */
#include "common/sha256.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static void hex(const uint8_t *p, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
}

static void assert_sha(const void *m, size_t n, const char *want)
{
	uint8_t d[XP_SHA256_LEN];
	char got[2 * XP_SHA256_LEN + 1];

	xp_sha256(m, n, d);
	hex(d, sizeof(d), got);
	ck_assert_str_eq(got, want);
}

START_TEST(test_fips_vectors)
{
	assert_sha("abc", 3, "ba7816bf8f01cfea414140de5dae2223"
			     "b00361a396177a9cb410ff61f20015ad");
	assert_sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		   56, "248d6a61d20638b8e5c026930c3e6039"
		       "a33ce45964ff2167f6ecedd419db06c1");
	assert_sha("", 0, "e3b0c44298fc1c149afbf4c8996fb924"
			  "27ae41e4649b934ca495991b7852b855");
}
END_TEST

/* One million 'a', fed 1000 at a time as the incremental API is used. */
START_TEST(test_fips_million_a)
{
	struct xp_sha256 c;
	uint8_t chunk[1000], d[XP_SHA256_LEN];
	char got[2 * XP_SHA256_LEN + 1];
	int i;

	memset(chunk, 'a', sizeof(chunk));
	xp_sha256_init(&c);
	for (i = 0; i < 1000; i++)
		xp_sha256_update(&c, chunk, sizeof(chunk));
	xp_sha256_final(&c, d);
	hex(d, sizeof(d), got);
	ck_assert_str_eq(got, "cdc76e5c9914fb9281a1c7e284d73e67"
			      "f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

/* Lengths around the padding boundaries (55 fits the length in the last
 * block, 56 needs another); values from Python's hashlib. */
START_TEST(test_padding_boundaries)
{
	static const struct { size_t n; const char *want; } cases[] = {
		{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
		{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
		{ 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb" },
		{ 120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c" },
	};
	char m[128];
	size_t i;

	memset(m, 'a', sizeof(m));
	for (i = 0; i < ARRAY_LEN(cases); i++)
		assert_sha(m, cases[i].n, cases[i].want);
}
END_TEST

struct hmac_case {
	uint8_t key[131];
	size_t klen;
	const char *data;
	size_t dlen;
	const char *want; /* hex; case 5 is truncated to 128 bits */
};

static void fill(uint8_t *p, uint8_t v, size_t n)
{
	memset(p, v, n);
}

/* RFC 4231 section 4: test cases 1 to 7. */
static void rfc4231(struct hmac_case *c)
{
	static char dd[50], cd[50];
	size_t i;

	memset(dd, 0xdd, sizeof(dd));
	memset(cd, 0xcd, sizeof(cd));
	memset(c, 0, 7 * sizeof(*c));
	fill(c[0].key, 0x0b, c[0].klen = 20);
	c[0].data = "Hi There";
	c[0].want = "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7";
	memcpy(c[1].key, "Jefe", c[1].klen = 4);
	c[1].data = "what do ya want for nothing?";
	c[1].want = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
	fill(c[2].key, 0xaa, c[2].klen = 20);
	c[2].data = dd;
	c[2].dlen = 50;
	c[2].want = "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe";
	for (i = 0; i < 25; i++)
		c[3].key[i] = (uint8_t)(i + 1);
	c[3].klen = 25;
	c[3].data = cd;
	c[3].dlen = 50;
	c[3].want = "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b";
	fill(c[4].key, 0x0c, c[4].klen = 20);
	c[4].data = "Test With Truncation";
	c[4].want = "a3b6167473100ee06e0c796c2955552b";
	fill(c[5].key, 0xaa, c[5].klen = 131);
	c[5].data = "Test Using Larger Than Block-Size Key - Hash Key First";
	c[5].want = "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54";
	fill(c[6].key, 0xaa, c[6].klen = 131);
	c[6].data = "This is a test using a larger than block-size key and a "
		    "larger than block-size data. The key needs to be hashed "
		    "before being used by the HMAC algorithm.";
	c[6].want = "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2";
}

START_TEST(test_rfc4231)
{
	struct hmac_case c[7];
	uint8_t mac[XP_SHA256_LEN];
	char got[2 * XP_SHA256_LEN + 1];
	size_t i, dlen;

	rfc4231(c);
	for (i = 0; i < ARRAY_LEN(c); i++) {
		dlen = c[i].dlen ? c[i].dlen : strlen(c[i].data);
		xp_hmac_sha256(c[i].key, c[i].klen, c[i].data, dlen, mac);
		hex(mac, strlen(c[i].want) / 2, got);
		ck_assert_msg(strcmp(got, c[i].want) == 0,
			      "RFC 4231 case %zu: got %s want %s", i + 1, got,
			      c[i].want);
	}
}
END_TEST

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Any split of the input into three updates gives the one-shot result,
 * for the hash and for HMAC. */
START_TEST(test_incremental_splits)
{
	uint8_t m[600], key[100], a[XP_SHA256_LEN], b[XP_SHA256_LEN];
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	size_t i, n, s1, s2, klen;
	int iter;

	for (i = 0; i < sizeof(m); i++)
		m[i] = (uint8_t)next_rand(&seed);
	memcpy(key, m + 17, sizeof(key));
	for (iter = 0; iter < 2000; iter++) {
		struct xp_sha256 c;
		struct xp_hmac_sha256 h;

		n = next_rand(&seed) % (sizeof(m) + 1);
		s1 = next_rand(&seed) % (n + 1);
		s2 = s1 + next_rand(&seed) % (n - s1 + 1);
		xp_sha256(m, n, a);
		xp_sha256_init(&c);
		xp_sha256_update(&c, m, s1);
		xp_sha256_update(&c, m + s1, s2 - s1);
		xp_sha256_update(&c, m + s2, n - s2);
		xp_sha256_final(&c, b);
		ck_assert_msg(memcmp(a, b, sizeof(a)) == 0,
			      "sha256 n=%zu split %zu,%zu", n, s1, s2);
		klen = next_rand(&seed) % (sizeof(key) + 1);
		xp_hmac_sha256(key, klen, m, n, a);
		xp_hmac_sha256_init(&h, key, klen);
		xp_hmac_sha256_update(&h, m, s1);
		xp_hmac_sha256_update(&h, m + s1, s2 - s1);
		xp_hmac_sha256_update(&h, m + s2, n - s2);
		xp_hmac_sha256_final(&h, b);
		ck_assert_msg(memcmp(a, b, sizeof(a)) == 0,
			      "hmac klen=%zu n=%zu split %zu,%zu", klen, n, s1, s2);
	}
}
END_TEST

/* A context can be used again after final. */
START_TEST(test_reinit)
{
	struct xp_sha256 c;
	uint8_t a[XP_SHA256_LEN], b[XP_SHA256_LEN];

	xp_sha256_init(&c);
	xp_sha256_update(&c, "something else", 14);
	xp_sha256_final(&c, a);
	xp_sha256_init(&c);
	xp_sha256_update(&c, "abc", 3);
	xp_sha256_final(&c, a);
	xp_sha256("abc", 3, b);
	ck_assert(memcmp(a, b, sizeof(a)) == 0);
}
END_TEST

START_TEST(test_ct_equal)
{
	uint8_t a[32], b[32];
	size_t i;

	for (i = 0; i < sizeof(a); i++)
		a[i] = b[i] = (uint8_t)(i * 7);
	ck_assert_int_eq(xp_ct_equal(a, b, sizeof(a)), 1);
	ck_assert_int_eq(xp_ct_equal(a, b, 0), 1);
	for (i = 0; i < sizeof(a); i++) {
		b[i] ^= 0x80;
		ck_assert_int_eq(xp_ct_equal(a, b, sizeof(a)), 0);
		b[i] ^= 0x81;
		ck_assert_int_eq(xp_ct_equal(a, b, sizeof(a)), 0);
		b[i] ^= 0x01;
	}
	ck_assert_int_eq(xp_ct_equal(a, b, sizeof(a)), 1);
}
END_TEST

static Suite *crypto_suite(void)
{
	Suite *s = suite_create("crypto");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_fips_vectors);
	tcase_add_test(tc, test_fips_million_a);
	tcase_add_test(tc, test_padding_boundaries);
	tcase_add_test(tc, test_rfc4231);
	tcase_add_test(tc, test_incremental_splits);
	tcase_add_test(tc, test_reinit);
	tcase_add_test(tc, test_ct_equal);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(crypto_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
