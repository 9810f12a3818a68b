/* SPDX-License-Identifier: BSD-2-Clause */
/* The automatic receive low-water mark's verdict (common/engine/rcvlowat.h). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/engine/rcvlowat.h"

static int keep(uint64_t off_bytes, uint64_t off_ns, uint64_t on_bytes, uint64_t on_ns)
{
	uint64_t bytes[2] = { off_bytes, on_bytes }, ns[2] = { off_ns, on_ns };

	return xp_lowat_keep(bytes, ns);
}

START_TEST(verdict)
{
	/* rates compared, not bytes: equal slots of time, then unequal */
	ck_assert_int_eq(keep(1000, 200, 1100, 200), 1);  /* 10% more: kept */
	ck_assert_int_eq(keep(1000, 200, 1040, 200), 0);  /* 4%: not enough */
	ck_assert_int_eq(keep(1000, 200, 1060, 200), 1);  /* 6% */
	ck_assert_int_eq(keep(1000, 200, 900, 200), 0);   /* slower */
	ck_assert_int_eq(keep(1000, 100, 1500, 200), 0);  /* more bytes, lower rate */
	ck_assert_int_eq(keep(1000, 200, 600, 100), 1);   /* fewer bytes, higher rate */
	/* a side never timed decides nothing */
	ck_assert_int_eq(keep(0, 0, 1000, 200), 0);
	ck_assert_int_eq(keep(1000, 200, 0, 0), 0);
	/* large counts do not overflow (a minute at 400 Gbit/s a side) */
	ck_assert_int_eq(keep(3000000000000ull, 60000000000ull, 3300000000000ull,
			      60000000000ull), 1);
	/* a stalled side: no bytes with the mark */
	ck_assert_int_eq(keep(1000, 200, 0, 200), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lowat");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, verdict);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
