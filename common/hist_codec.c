/* SPDX-License-Identifier: BSD-2-Clause */
/* Text codec for histograms; the format is described in hist_codec.h.
 * Both directions stream: the encoder turns bytes into base64url as it
 * goes (no temporary buffer, and a size query costs the same pass), the
 * decoder reads bytes out of the text on demand, once to validate and
 * once to fill the histogram, so a refused text leaves it untouched. */
#include "common/hist_codec.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define PREFIX "xph1:"
#define UNIT "ns"
#define FNV_OFFSET UINT32_C(2166136261)
#define FNV_PRIME UINT32_C(16777619)
#define VARINT_MAX 10

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* ---- encoder ---- */

struct sink {
	char *out;
	size_t size, len; /* len counts every character, written or not */
	uint32_t acc, fnv;
	int nacc;
};

static void put_char(struct sink *s, char c)
{
	if (s->len + 1 < s->size)
		s->out[s->len] = c;
	s->len++;
}

static void put_text(struct sink *s, const char *t)
{
	while (*t)
		put_char(s, *t++);
}

static void put_byte(struct sink *s, uint8_t b)
{
	s->fnv = (s->fnv ^ b) * FNV_PRIME;
	s->acc = s->acc << 8 | b;
	if (++s->nacc < 3)
		return;
	put_char(s, b64[s->acc >> 18 & 63]);
	put_char(s, b64[s->acc >> 12 & 63]);
	put_char(s, b64[s->acc >> 6 & 63]);
	put_char(s, b64[s->acc & 63]);
	s->acc = 0;
	s->nacc = 0;
}

/* The last 1 or 2 bytes: 2 or 3 characters, unused low bits zero. */
static void flush_b64(struct sink *s)
{
	uint32_t a = s->acc << (8 * (3 - s->nacc));
	int i;

	if (!s->nacc)
		return;
	for (i = 0; i <= s->nacc; i++)
		put_char(s, b64[a >> (18 - 6 * i) & 63]);
}

static void put_varint(struct sink *s, uint64_t v)
{
	while (v >= 0x80) {
		put_byte(s, (uint8_t)(v | 0x80));
		v >>= 7;
	}
	put_byte(s, (uint8_t)v);
}

static void put_moments(struct sink *s, const struct xp_hist *h)
{
	struct xp_hist_sums m;

	put_varint(s, xp_hist_count(h));
	if (!xp_hist_count(h))
		return;
	xp_hist_get_sums(h, &m);
	put_varint(s, m.min);
	put_varint(s, m.max - m.min);
	put_varint(s, m.sum[0]);
	put_varint(s, m.sum[1]);
	put_varint(s, m.sumsq[0]);
	put_varint(s, m.sumsq[1]);
	put_varint(s, m.sumsq[2]);
}

static void put_buckets(struct sink *s, const struct xp_hist *h)
{
	uint32_t i, n = 0, next = 0;

	for (i = 0; i < xp_hist_buckets(); i++)
		n += xp_hist_bucket_count(h, i) != 0;
	put_varint(s, n);
	for (i = 0; i < xp_hist_buckets(); i++) {
		if (!xp_hist_bucket_count(h, i))
			continue;
		put_varint(s, i - next);
		put_varint(s, xp_hist_bucket_count(h, i));
		next = i + 1;
	}
}

size_t xp_hist_encode(const struct xp_hist *h, char *buf, size_t size)
{
	struct sink s = { buf, buf ? size : 0, 0, 0, FNV_OFFSET, 0 };
	char params[32];
	uint32_t fnv;
	int i;

	snprintf(params, sizeof(params), "%d:%s:", XP_HIST_SUB_BITS, UNIT);
	put_text(&s, PREFIX);
	put_text(&s, params);
	put_moments(&s, h);
	put_buckets(&s, h);
	fnv = s.fnv;
	for (i = 3; i >= 0; i--)
		put_byte(&s, (uint8_t)(fnv >> (8 * i)));
	flush_b64(&s);
	if (s.len < s.size)
		buf[s.len] = '\0';
	else if (s.size)
		buf[0] = '\0';
	return s.len;
}

/* Every bucket non-empty, each count needing 10 bytes, each gap 1. */
size_t xp_hist_encoded_max(void)
{
	size_t bytes = VARINT_MAX * 9 + 4 + (size_t)xp_hist_buckets() *
					    (1 + VARINT_MAX);

	return 32 + (bytes * 4 + 2) / 3 + 1;
}

/* ---- decoder ---- */

struct src {
	const char *t; /* the base64url part */
	size_t nchars;
	size_t nbytes, pos; /* decoded length, next byte */
	size_t hashed;	    /* bytes covered by the hash */
	uint32_t fnv;
	struct xp_err *err;
	int prefix_len;	    /* for offsets in messages */
};

static int b64_val(char c)
{
	const char *p = c ? memchr(b64, c, 64) : NULL;

	return p ? (int)(p - b64) : -1;
}

static int corrupt(struct src *s, const char *what)
{
	return xp_err_set(s->err, "histogram: corrupt encoding: %s "
			  "(at payload byte %zu)", what, s->pos);
}

/* Byte k of the payload, from characters [4k/3, ...]. */
static int get_byte(struct src *s, uint8_t *b)
{
	size_t g = s->pos / 3 * 4, k = s->pos % 3;
	uint32_t acc = 0;
	size_t i;

	if (s->pos >= s->nbytes)
		return corrupt(s, "ends too early");
	for (i = 0; i < 4; i++)
		acc = acc << 6 | (g + i < s->nchars ?
				  (uint32_t)b64_val(s->t[g + i]) : 0);
	*b = (uint8_t)(acc >> (16 - 8 * k));
	if (s->pos < s->hashed)
		s->fnv = (s->fnv ^ *b) * FNV_PRIME;
	s->pos++;
	return 0;
}

static int get_varint(struct src *s, uint64_t *v)
{
	uint8_t b;
	int i;

	*v = 0;
	for (i = 0; i < VARINT_MAX; i++) {
		if (get_byte(s, &b) < 0)
			return -1;
		if (i == VARINT_MAX - 1 && b > 1)
			return corrupt(s, "varint above 2^64");
		*v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			return b || !i ? 0 : corrupt(s, "overlong varint");
	}
	return corrupt(s, "varint longer than 10 bytes");
}

struct moments {
	uint64_t count, n, total;
	uint32_t first, last;
	struct xp_hist_sums m;
};

static int get_moments(struct src *s, struct moments *mo)
{
	uint64_t *w[] = { &mo->m.min, &mo->m.max, &mo->m.sum[0], &mo->m.sum[1],
			  &mo->m.sumsq[0], &mo->m.sumsq[1], &mo->m.sumsq[2] };
	size_t i;

	memset(mo, 0, sizeof(*mo));
	mo->m.min = UINT64_MAX;
	if (get_varint(s, &mo->count) < 0)
		return -1;
	for (i = 0; mo->count && i < sizeof(w) / sizeof(w[0]); i++)
		if (get_varint(s, w[i]) < 0)
			return -1;
	if (mo->count && mo->m.max > UINT64_MAX - mo->m.min)
		return corrupt(s, "max above 2^64");
	mo->m.max += mo->count ? mo->m.min : 0;
	return get_varint(s, &mo->n);
}

/* One pass over the payload; adds the buckets to h unless it is NULL. */
static int walk(struct src *s, struct moments *mo, struct xp_hist *h)
{
	uint64_t gap, cnt, next = 0, k;

	s->pos = 0;
	s->fnv = FNV_OFFSET;
	if (get_moments(s, mo) < 0)
		return -1;
	if (mo->n > xp_hist_buckets())
		return corrupt(s, "more buckets than the layout has");
	for (k = 0; k < mo->n; k++) {
		if (get_varint(s, &gap) < 0 || get_varint(s, &cnt) < 0)
			return -1;
		if (gap >= xp_hist_buckets() - next)
			return corrupt(s, "bucket index beyond the layout");
		if (!cnt)
			return corrupt(s, "empty bucket listed");
		if (cnt > UINT64_MAX - mo->total)
			return corrupt(s, "bucket counts add up above 2^64");
		next += gap;
		mo->first = k ? mo->first : (uint32_t)next;
		mo->last = (uint32_t)next;
		mo->total += cnt;
		if (h)
			xp_hist_add_n(h, xp_hist_bucket_low((uint32_t)next), cnt);
		next++;
	}
	return 0;
}

static int check_end(struct src *s)
{
	uint32_t want = s->fnv, got = 0;
	uint8_t b;
	int i;

	if (s->pos != s->hashed)
		return corrupt(s, "data after the last bucket");
	for (i = 0; i < 4; i++) {
		if (get_byte(s, &b) < 0)
			return -1;
		got = got << 8 | b;
	}
	if (got != want)
		return xp_err_set(s->err, "histogram: corrupt encoding: hash "
				  "%08x does not match the content's %08x",
				  (unsigned)got, (unsigned)want);
	return 0;
}

static int check_moments(struct src *s, const struct moments *mo)
{
	if (mo->total != mo->count)
		return xp_err_set(s->err, "histogram: corrupt encoding: "
			"buckets hold %llu values, count says %llu",
			(unsigned long long)mo->total,
			(unsigned long long)mo->count);
	if (mo->count && (xp_hist_index(mo->m.min) != mo->first ||
			  xp_hist_index(mo->m.max) != mo->last))
		return xp_err_set(s->err, "histogram: corrupt encoding: "
			"min %llu or max %llu outside the first and last "
			"non-empty buckets", (unsigned long long)mo->m.min,
			(unsigned long long)mo->m.max);
	return 0;
}

/* Decimal number up to ':' at *p; -1 if none or too large. */
static long field_num(const char **p, const char *end)
{
	long v = 0;
	const char *s = *p;

	while (s < end && *s >= '0' && *s <= '9' && v < 100000)
		v = v * 10 + (*s++ - '0');
	if (s == *p || s >= end || *s != ':')
		return -1;
	*p = s + 1;
	return v;
}

/* "xphV:B:U:" up to the payload, checking version and layout. */
static int parse_params(const char *text, size_t len, const char **payload,
			struct xp_err *err)
{
	const char *p, *end = text + len;
	long version, bits;

	if (len < 3 || memcmp(text, "xph", 3) != 0)
		return xp_err_set(err, "histogram: not an xperf histogram "
				  "encoding (expected \"xph1:...\", got "
				  "\"%.*s\")", len < 8 ? (int)len : 8, text);
	p = text + 3;
	version = field_num(&p, end);
	if (version != XP_HIST_CODEC_VERSION)
		return xp_err_set(err, "histogram: encoding version %ld is not "
				  "supported (this xperf reads version %d)",
				  version, XP_HIST_CODEC_VERSION);
	bits = field_num(&p, end);
	if (bits != XP_HIST_SUB_BITS)
		return xp_err_set(err, "histogram: layout with %ld sub-bucket "
				  "bits, this xperf uses %d: cannot be merged",
				  bits, XP_HIST_SUB_BITS);
	if ((size_t)(end - p) < sizeof(UNIT) ||
	    memcmp(p, UNIT ":", sizeof(UNIT)) != 0)
		return xp_err_set(err, "histogram: unit is not \"" UNIT "\"");
	*payload = p + sizeof(UNIT);
	return 0;
}

/* Checks the characters and sets up the byte reader. */
static int open_payload(struct src *s, const char *p, size_t n,
			struct xp_err *err)
{
	size_t i, rem = n % 4;

	memset(s, 0, sizeof(*s));
	s->t = p;
	s->nchars = n;
	s->err = err;
	for (i = 0; i < n; i++)
		if (b64_val(p[i]) < 0)
			return xp_err_set(err, "histogram: corrupt encoding: "
					  "character 0x%02x at payload offset "
					  "%zu is not base64url",
					  (unsigned char)p[i], i);
	/* A lone last character, or unused low bits set, is not what the
	 * encoder writes. */
	if (rem == 1 || (rem == 2 && (b64_val(p[n - 1]) & 15)) ||
	    (rem == 3 && (b64_val(p[n - 1]) & 3)))
		return xp_err_set(err, "histogram: corrupt encoding: payload "
				  "of %zu characters is truncated", n);
	s->nbytes = n / 4 * 3 + (rem ? rem - 1 : 0);
	if (s->nbytes < 6)
		return xp_err_set(err, "histogram: corrupt encoding: payload "
				  "of %zu bytes is too short", s->nbytes);
	s->hashed = s->nbytes - 4;
	return 0;
}

int xp_hist_decode(struct xp_hist *h, const char *text, size_t len,
		   struct xp_err *err)
{
	const char *payload = NULL;
	struct moments mo;
	struct src s;

	if (!text)
		return xp_err_set(err, "histogram: no text");
	if (parse_params(text, len, &payload, err) < 0 ||
	    open_payload(&s, payload, len - (size_t)(payload - text), err) < 0)
		return -1;
	if (walk(&s, &mo, NULL) < 0 || check_end(&s) < 0 ||
	    check_moments(&s, &mo) < 0)
		return -1;
	xp_hist_reset(h);
	walk(&s, &mo, h);
	xp_hist_set_sums(h, &mo.m);
	return 0;
}
