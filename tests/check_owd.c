/* SPDX-License-Identifier: BSD-2-Clause */
/* One-way delays: the clock offset from NTP-style exchanges and the delay
 * arithmetic (common/owd.h), and the wire of the clock exchange, OFFSET
 * and HIST (proto/msg.h). */
#include "common/owd.h"
#include "proto/msg.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* An exchange over a path of `out` and `back` ns, the server `hold` ns,
 * its clock `offset` ns ahead, sent at t1. */
static struct xp_clock_sample sample(uint64_t t1, uint64_t out, uint64_t back, uint64_t hold,
				     int64_t offset)
{
	struct xp_clock_sample s = { .t1 = t1 };

	s.t2 = (uint64_t)((int64_t)(t1 + out) + offset);
	s.t3 = s.t2 + hold;
	s.t4 = t1 + out + hold + back;
	return s;
}

START_TEST(test_symmetric_exact)
{
	struct xp_clock_sample s[3] = {
		sample(1000000, 5000, 5000, 300, -123456),
		sample(2000000, 900, 900, 100, -123456),
		sample(3000000, 7000, 7000, 50, -123456),
	};
	struct xp_clock_est e;

	ck_assert_int_eq(xp_clock_estimate(s, 3, &e), 0);
	ck_assert_int_eq(e.offset_ns, -123456);
	ck_assert_uint_eq(e.rtt_ns, 1800); /* the smallest round trip, hold excluded */
	ck_assert_uint_eq(e.unc_ns, 900);
	ck_assert_uint_eq(e.samples, 3);
}
END_TEST

/* However lopsided the path, the true offset is within the uncertainty. */
START_TEST(test_asymmetric_within_bound)
{
	static const uint64_t outs[] = { 1, 10, 1000, 5000, 99999 };
	static const int64_t offsets[] = { 0, 1, -1, 1000000000000ll, -1000000000000ll };
	struct xp_clock_est e;
	size_t i, k;

	for (i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		for (k = 0; k < sizeof(offsets) / sizeof(offsets[0]); k++) {
			struct xp_clock_sample s = sample(1ull << 50, outs[i], 100000 - outs[i], 7,
							  offsets[k]);
			int64_t d;

			ck_assert_int_eq(xp_clock_estimate(&s, 1, &e), 0);
			d = e.offset_ns - offsets[k];
			ck_assert_msg((uint64_t)(d < 0 ? -d : d) <= e.unc_ns,
				      "offset %lld est %lld unc %llu", (long long)offsets[k],
				      (long long)e.offset_ns, (unsigned long long)e.unc_ns);
		}
	}
}
END_TEST

/* Samples whose stamps go backwards (a stepped clock) are left out. */
/* Stamps a hostile server might send: an estimate, no overflow. */
START_TEST(test_extreme_stamps)
{
	struct xp_clock_sample s = { .t1 = 0, .t2 = UINT64_MAX / 2, .t3 = UINT64_MAX / 2, .t4 = 0 };
	struct xp_clock_est e;

	ck_assert_int_eq(xp_clock_estimate(&s, 1, &e), 0);
	ck_assert_int_eq(e.offset_ns, INT64_MAX);
	s.t2 = s.t3 = (uint64_t)INT64_MIN;
	ck_assert_int_eq(xp_clock_estimate(&s, 1, &e), 0);
	ck_assert_int_eq(e.offset_ns, INT64_MIN);
}
END_TEST

START_TEST(test_inconsistent_skipped)
{
	struct xp_clock_sample s[2] = {
		{ .t1 = 100, .t2 = 50, .t3 = 40, .t4 = 200 },   /* t3 < t2 */
		{ .t1 = 300, .t2 = 500, .t3 = 900, .t4 = 400 }, /* holds longer than the trip */
	};
	struct xp_clock_sample good = sample(1000, 20, 30, 5, 0);
	struct xp_clock_est e;

	ck_assert_int_eq(xp_clock_estimate(s, 2, &e), -1);
	ck_assert_uint_eq(e.samples, 0);
	ck_assert_int_eq(xp_clock_estimate(&good, 1, &e), 0);
	ck_assert_int_eq(xp_clock_estimate(s, 0, &e), -1);
}
END_TEST

START_TEST(test_delay_bias_and_clamp)
{
	uint64_t neg = 0;

	/* receiver 1000 ahead: arrival 6000 of a send at 0 is 5000 */
	ck_assert_uint_eq(xp_owd_delay(6000, 0, 1000, 0, &neg), 5000);
	ck_assert_uint_eq(xp_owd_delay(6000, 0, 1000, 250, &neg), 5250);
	ck_assert_uint_eq(neg, 0);
	/* an offset error of up to the bias stays above 0 */
	ck_assert_uint_eq(xp_owd_delay(100, 0, 300, 250, &neg), 50);
	ck_assert_uint_eq(neg, 0);
	ck_assert_uint_eq(xp_owd_delay(100, 0, 400, 250, &neg), 0);
	ck_assert_uint_eq(neg, 1);
	/* clocks far apart (a lead of days), and a lead behind */
	ck_assert_uint_eq(xp_owd_delay(86400000000000ull + 77, 0, 86400000000000ull, 0, &neg), 77);
	ck_assert_uint_eq(xp_owd_delay(1000, 5000, (uint64_t)-4500ll, 0, &neg), 500);
	/* whatever a hostile peer sent: no overflow, only a value */
	xp_owd_delay(0, UINT64_MAX, (uint64_t)INT64_MIN, UINT64_MAX, &neg);
}
END_TEST

static void round_trip(const struct xp_msg *in, struct xp_msg *out)
{
	uint8_t buf[XP_MSG_HDR_LEN + XP_MSG_BODY_MAX];
	struct xp_why why = { "" };
	size_t n = xp_msg_encode(in, buf, sizeof(buf)), k;

	ck_assert_uint_gt(n, XP_MSG_HDR_LEN);
	ck_assert_msg(xp_msg_decode(buf, n, out, &why) == 0, "%s", why.msg);
	/* every truncation is refused */
	for (k = 0; k < n; k++)
		ck_assert_int_eq(xp_msg_decode(buf, k, out, &why), -1);
	ck_assert_int_eq(xp_msg_decode(buf, n, out, &why), 0);
}

START_TEST(test_wire_clock_ready_hist)
{
	static const uint16_t clocks[] = { XP_MSG_CLOCK, XP_MSG_CLOCK_OK };
	struct xp_msg in, out;
	size_t i;

	for (i = 0; i < 2; i++) {
		memset(&in, 0, sizeof(in));
		in.type = clocks[i];
		in.u.clock.t1 = UINT64_MAX;
		in.u.clock.t2 = 0x0102030405060708ull;
		in.u.clock.t3 = 1;
		round_trip(&in, &out);
		ck_assert_uint_eq(out.type, clocks[i]);
		ck_assert_mem_eq(&out.u.clock, &in.u.clock, sizeof(in.u.clock));
	}
	memset(&in, 0, sizeof(in));
	in.type = XP_MSG_OFFSET;
	in.u.offset.offset_ns = (uint64_t)-123456789ll;
	in.u.offset.bias_ns = 4242;
	round_trip(&in, &out);
	ck_assert_int_eq((int64_t)out.u.offset.offset_ns, -123456789ll);
	ck_assert_uint_eq(out.u.offset.bias_ns, 4242);
	memset(&in, 0, sizeof(in));
	in.type = XP_MSG_HIST;
	in.u.hist.kind = XP_HIST_OWD_FWD;
	in.u.hist.clamped = 9;
	memset(in.u.hist.text, 'A', XP_MSG_TEXT_MAX); /* the longest piece */
	round_trip(&in, &out);
	ck_assert_uint_eq(strlen(out.u.hist.text), XP_MSG_TEXT_MAX);
	ck_assert_uint_eq(out.u.hist.clamped, 9);
}
END_TEST

/* READY stays empty; SETUP's stamps and SETUP_OK's clock travel. */
START_TEST(test_wire_defaults)
{
	uint8_t buf[64];
	struct xp_msg in, out;

	memset(&in, 0, sizeof(in));
	in.type = XP_MSG_READY;
	ck_assert_uint_eq(xp_msg_encode(&in, buf, sizeof(buf)), XP_MSG_HDR_LEN);
	memset(&in, 0, sizeof(in));
	in.type = XP_MSG_SETUP;
	in.u.setup.stamps = XP_STAMP_ONE_WAY;
	round_trip(&in, &out);
	ck_assert_uint_eq(out.u.setup.stamps, XP_STAMP_ONE_WAY);
	memset(&in, 0, sizeof(in));
	in.type = XP_MSG_SETUP_OK;
	in.u.setup_ok.clock = 1;
	round_trip(&in, &out);
	ck_assert_uint_eq(out.u.setup_ok.clock, 1);
	ck_assert_str_eq(xp_msg_type_name(XP_MSG_CLOCK_OK), "CLOCK_OK");
	ck_assert_str_eq(xp_msg_type_name(XP_MSG_HIST), "HIST");
}
END_TEST

static Suite *owd_suite(void)
{
	Suite *s = suite_create("owd");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_symmetric_exact);
	tcase_add_test(tc, test_asymmetric_within_bound);
	tcase_add_test(tc, test_inconsistent_skipped);
	tcase_add_test(tc, test_extreme_stamps);
	tcase_add_test(tc, test_delay_bias_and_clamp);
	tcase_add_test(tc, test_wire_clock_ready_hist);
	tcase_add_test(tc, test_wire_defaults);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(owd_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
