/* SPDX-License-Identifier: BSD-2-Clause */
/* One measurement inside a lab: an xperf server in one namespace, the
 * client in another, each in threads of its own that entered their
 * namespace with setns() (threads they start inherit it), while the
 * calling thread stays in the root namespace and watches the signals. */
#ifndef XP_LAB_RUN_H
#define XP_LAB_RUN_H

#include "client/client.h"
#include "common/err.h"
#include "common/opts.h"

struct xp_lab_where {
	int client_ns, server_ns;  /* namespace file descriptors */
	const char *server_addr;   /* the server binds here, the client dials it */
};

/* Run test o.  sigfd (a signalfd, or -1): when readable the test ends
 * early and *interrupted is set (the signal is left unread for the
 * caller).  0 with r filled (free it with xp_client_result_free), or -1
 * with err.  *stuck is set when a test thread did not finish in time: its
 * memory is then abandoned, and the caller should tear down and exit. */
int xp_lab_measure(const struct xp_opts *o, const struct xp_lab_where *w,
		   int sigfd, struct xp_client_result *r, int *interrupted,
		   int *stuck, struct xp_err *err);

#endif
