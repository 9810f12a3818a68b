/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: iperf3's command line as the iperf3 front end reads
 * it (xp_i3fe_parse, client/iperf3/args.c and client/iperf3/optab.c) and
 * maps it (xp_i3fe_to_run, client/iperf3/map.c).  The input is the
 * argument list, one word per line, after an implicit "iperf3".  A parsed
 * command line keeps iperf3's ranges; an error names itself in a
 * terminated message. */
#include "tests/fuzz/fuzz.h"

#include "client/iperf3/fe.h"

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

static void check(const struct xp_i3fe_cfg *c)
{
	if (c->parallel < 1 || c->parallel > 128 || c->port < 1 || c->len > (1u << 20) ||
	    c->tos < -1 || c->tos > 255 || c->omit > 60 || c->time_s > 86400 ||
	    (c->interval != 0 && (c->interval < 0.1 || c->interval > 60)) ||
	    (c->server && c->has_host) || (c->reverse && c->bidir) ||
	    !memchr(c->host, '\0', sizeof(c->host)) ||
	    !memchr(c->bind_dev, '\0', sizeof(c->bind_dev)) ||
	    (c->udp && c->len && (c->len < 16 || c->len > 65507)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size), *argv[MAX_WORDS + 1];
	struct xp_i3fe_cfg *cfg = malloc(sizeof(*cfg));
	struct xp_i3fe_run *run = malloc(sizeof(*run));
	struct xp_err err = { .msg = "" };
	int argc, usage;

	if (!cfg || !run)
		abort();
	argv[0] = "iperf3";
	argc = size ? split(s, argv) : 1;
	argv[argc] = NULL;
	if (xp_i3fe_parse(cfg, argc, argv, &usage, &err) == 0 && cfg->action == XP_I3FE_RUN) {
		check(cfg);
		if (xp_i3fe_to_run(cfg, run, &err) == 0 && !cfg->server &&
		    (run->i3.o != &run->o || run->o.flows != cfg->parallel))
			abort();
	} else if (usage < 0 || usage > 2) {
		abort();
	}
	FUZZ_ERR_OK(err);
	free(run);
	free(cfg);
	free(s);
	return 0;
}
