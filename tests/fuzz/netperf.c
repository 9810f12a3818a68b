/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: netperf's command line (xp_np_parse,
 * client/netperf/args.c and client/netperf/options.c).  The input is the
 * argument list, one word per line, after an implicit "netperf".  A
 * parsed run has sane sizes and defaults that fill without trouble. */
#include "tests/fuzz/fuzz.h"

#include "client/netperf/netperf.h"

#define MAX_WORDS 64

/* Split s in place at '\n' into argv[1..]; returns argc. */
static int split(char *s, char **argv)
{
	int argc = 1;

	while (argc < MAX_WORDS) {
		char *nl = strchr(s, '\n');

		argv[argc++] = s;
		if (!nl)
			break;
		*nl = '\0';
		s = nl + 1;
	}
	return argc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size), *argv[MAX_WORDS + 1];
	struct xp_np_cfg *cfg = malloc(sizeof(*cfg));
	struct xp_err err = { .msg = "" };
	int argc;

	if (!cfg)
		abort();
	argv[0] = "netperf";
	argc = size ? split(s, argv) : 1;
	argv[argc] = NULL;
	if (xp_np_parse(cfg, argc, argv, &err) == 0 &&
	    cfg->action == XP_NP_RUN) {
		xp_np_fill_defaults(cfg, 16384, 131072);
		if (!cfg->host || !memchr(cfg->command_line, '\0',
					  sizeof(cfg->command_line)))
			abort();
	}
	FUZZ_ERR_OK(err);
	free(cfg);
	free(s);
	return 0;
}
