/* SPDX-License-Identifier: BSD-2-Clause */
/* The options of -t RRUL (latency under load, client/mixed/): the few it
 * takes, and its own four (--load, --load-flows, --probe-interval,
 * --idle), which no other test takes. */
#include <stdio.h>
#include <string.h>

#include "common/opts_int.h"
#include "common/tests.h"
#include "common/clock.h"

/* What -t RRUL takes besides its own: where the server is, how long, the
 * probe size, the outputs, and the security options. */
static int rrul_takes(int idx)
{
	static const int ok[] = {
		XP_OPTI_server, XP_OPTI_client, XP_OPTI_port, XP_OPTI_ipv4, XP_OPTI_ipv6,
		XP_OPTI_cpus, XP_OPTI_remote_cpus, XP_OPTI_verbose, XP_OPTI_logfile,
		XP_OPTI_test, XP_OPTI_length, XP_OPTI_msg_size, XP_OPTI_json,
		XP_OPTI_json_stream, XP_OPTI_interval, XP_OPTI_slo, XP_OPTI_plot,
		XP_OPTI_rr_timeout, XP_OPTI_congestion, XP_OPTI_window, XP_OPTI_auth_file,
		XP_OPTI_trust_server, XP_OPTI_connect_timeout, XP_OPTI_control_timeout, XP_OPTI_fill,
		XP_OPTI_load, XP_OPTI_load_flows, XP_OPTI_probe_interval, XP_OPTI_idle,
		XP_OPTI_one_way,
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (ok[i] == idx)
			return 1;
	return 0;
}

static const char *long_name(int idx)
{
	size_t i;

	for (i = 0; i < xp_opt_ndescs; i++)
		if (xp_opt_descs[i].idx == idx)
			return xp_opt_descs[i].lname;
	return "?";
}

static int check_values(const struct xp_opts *o, struct xp_err *err)
{
	if (!o->load || (strcmp(o->load, "up") && strcmp(o->load, "down") &&
			 strcmp(o->load, "both")))
		return xp_err_set(err, "--load: up, down or both, not '%s'",
				  o->load ? o->load : "");
	if (!o->load_flows)
		return xp_err_set(err, "--load-flows: at least 1");
	if (o->probe_interval < XP_NS_PER_MS)
		return xp_err_set(err, "--probe-interval: at least 0.001 s");
	if (!o->idle)
		return xp_err_set(err, "--idle: the idle phase needs at least 0.1 s");
	if (o->idle < 100 * XP_NS_PER_MS || o->length < XP_NS_PER_SEC)
		return xp_err_set(err, "RRUL: --idle at least 0.1 s and -l at least 1 s");
	if (o->msg_size > 65507)
		return xp_err_set(err, "-m: RRUL probes are UDP datagrams too: at most 65507 "
				  "bytes");
	return 0;
}

int xp_opts_validate_mixed(const struct xp_opts *o, struct xp_err *err)
{
	static const int own[] = { XP_OPTI_load, XP_OPTI_load_flows, XP_OPTI_probe_interval,
				   XP_OPTI_idle };
	size_t i;

	if (o->test != XP_RRUL) {
		for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
			if (o->given[own[i]])
				return xp_err_set(err, "--%s applies to -t RRUL only",
						  long_name(own[i]));
		return 0;
	}
	for (i = 0; i < XP_OPT_COUNT; i++)
		if (o->given[i] && !rrul_takes((int)i))
			return xp_err_set(err, "--%s does not apply to -t RRUL (it takes -l, "
					  "-m, -i, -w, -C, --fill, --one-way, --load, "
					  "--load-flows, --probe-interval, --idle and the output "
					  "options)",
					  long_name((int)i));
	return check_values(o, err);
}
