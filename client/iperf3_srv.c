/* SPDX-License-Identifier: BSD-2-Clause */
#include "client/iperf3_cli.h"

int xp_i3fe_server(const struct xp_i3fe_cfg *c, struct xp_i3fe_run *run)
{
	(void)c;
	(void)run;
	return 1;
}
