/* SPDX-License-Identifier: BSD-2-Clause */
/* The command-line scanner: GNU getopt_long's permutation, "--", prefixes,
 * grouped letters, and errors that name the argument. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/argscan.h"

static const struct xp_argdef defs[] = {
	{ 'J', "json", XP_ARG_NONE },
	{ 'p', "port", XP_ARG_REQ },
	{ 0, "timestamps", XP_ARG_OPT },
	{ 0, NULL, XP_ARG_NONE }, /* a section row: never matched */
	{ 's', "server", XP_ARG_NONE },
	{ 0, "sndbuf", XP_ARG_REQ },
};
#define NDEFS (sizeof(defs) / sizeof(defs[0]))

/* Scan argv into "J,p=7,@file,..." (@: an operand); an error returns its
 * message instead. */
static const char *scan(char *out, size_t len, char **argv)
{
	static struct xp_err err;
	struct xp_argscan s;
	const char *val;
	int argc = 0, k;
	size_t off = 0;

	while (argv[argc])
		argc++;
	out[0] = 0;
	xp_argscan_init(&s, argc, argv);
	while ((k = xp_argscan_next(&s, defs, NDEFS, &val, &err)) != XP_ARGS_END) {
		if (k == XP_ARGS_ERROR)
			return err.msg;
		if (k == XP_ARGS_OPERAND)
			off += (size_t)snprintf(out + off, len - off, "@%s,", val);
		else
			off += (size_t)snprintf(out + off, len - off, "%s%s%s,", defs[k].lname,
						val ? "=" : "", val ? val : "");
	}
	return out;
}

#define SCAN(...) scan(buf, sizeof(buf), (char *[]){ "prog", __VA_ARGS__, NULL })

START_TEST(permutes)
{
	char buf[256];

	ck_assert_str_eq(SCAN("a.json", "b.json", "--json"), "@a.json,@b.json,json,");
	ck_assert_str_eq(SCAN("a", "-p", "7", "b", "-J"), "@a,port=7,@b,json,");
	ck_assert_str_eq(SCAN("-", "-p7"), "@-,port=7,");
	ck_assert_str_eq(SCAN("--port=8", "--port", "-J"), "port=8,port=-J,");
}
END_TEST

START_TEST(double_dash_ends_options)
{
	char buf[256];

	ck_assert_str_eq(SCAN("-J", "--", "-x", "--json", "--"), "json,@-x,@--json,@--,");
	ck_assert_str_eq(SCAN("a", "--"), "@a,");
}
END_TEST

START_TEST(groups_and_prefixes)
{
	char buf[256];

	ck_assert_str_eq(SCAN("-Jsp", "9"), "json,server,port=9,");
	ck_assert_str_eq(SCAN("-Jp9", "x"), "json,port=9,@x,");
	ck_assert_str_eq(SCAN("--js", "--po", "1", "--serv"), "json,port=1,server,");
	ck_assert_str_eq(SCAN("--timestamps", "x"), "timestamps,@x,");
	ck_assert_str_eq(SCAN("--time=%T"), "timestamps=%T,");
}
END_TEST

START_TEST(errors_name_the_argument)
{
	char buf[256];

	ck_assert_str_eq(SCAN("a.json", "--bogus"), "unknown option '--bogus'");
	ck_assert_str_eq(SCAN("--bogus=1"), "unknown option '--bogus'");
	ck_assert_str_eq(SCAN("-Jx"), "unknown option '-x'");
	ck_assert_str_eq(SCAN("-J", "-p"), "option '-p' needs an argument");
	ck_assert_str_eq(SCAN("--po"), "option '--po' needs an argument");
	ck_assert_str_eq(SCAN("--json=yes"), "option '--json' takes no argument");
	ck_assert_str_eq(SCAN("--s"), "option '--s' is ambiguous (--server, --sndbuf)");
	ck_assert_str_eq(SCAN("--=1"), "unknown option '--'");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("argscan");
	TCase *tc = tcase_create("argscan");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, permutes);
	tcase_add_test(tc, double_dash_ends_options);
	tcase_add_test(tc, groups_and_prefixes);
	tcase_add_test(tc, errors_name_the_argument);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
