/* SPDX-License-Identifier: BSD-2-Clause */
/* The client's part in one-way delays (client/owd.h, proto/PROTOCOL.md
 * section 11). */
#include "client/owd.h"

#include <stdlib.h>
#include <string.h>

#include "client/client_int.h"
#include "common/clock.h"
#include "common/ctl.h"
#include "common/hist_codec.h"
#include "common/engine/engines.h"

void xp_cl_owd_run(struct client *cl)
{
	xp_run_set_stamps(&cl->run, (cl->o->one_way ? XP_STAMP_ONE_WAY : 0) |
				    (cl->o->kernel_ts ? XP_STAMP_KERNEL : 0));
}

/* One CLOCK exchange. */
static int exchange(struct client *cl, struct xp_clock_sample *s, struct xp_err *err)
{
	struct xp_msg m;

	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_CLOCK;
	s->t1 = m.u.clock.t1 = xp_wall_ns();
	if (xp_ctl_send(cl->ctl, &m, xp_cl_ms_left(cl, 5000), cl->peer, err) ||
	    xp_ctl_expect(cl->ctl, &m, XP_MSG_CLOCK_OK, xp_cl_ms_left(cl, 5000), cl->who, err))
		return -1;
	s->t4 = xp_wall_ns();
	if (m.u.clock.t1 != s->t1)
		return xp_err_set(err, "%s: CLOCK_OK answers another CLOCK", cl->who);
	s->t2 = m.u.clock.t2;
	s->t3 = m.u.clock.t3;
	return 0;
}

int xp_cl_owd_clock(struct client *cl, struct xp_client_result *r, struct xp_err *err)
{
	struct xp_clock_sample s[XP_CLOCK_EXCHANGES];
	struct xp_msg m;
	int i;

	if (!cl->run.stamps)
		return 0;
	if (!cl->server_clock)
		return xp_err_set(err, "%s knows no stamps (an older xperf): --one-way and "
				  "--kernel-timestamps need a newer server", cl->who);
	if (!(r->owd = calloc(1, sizeof(*r->owd))) ||
	    !(r->owd->sum = xp_owd_new(cl->run.stamps & XP_STAMP_KERNEL)))
		return xp_err_set(err, "out of memory for one-way delays");
	if (!(cl->run.stamps & XP_STAMP_ONE_WAY))
		return 0;
	for (i = 0; i < XP_CLOCK_EXCHANGES; i++)
		if (exchange(cl, &s[i], err))
			return -1;
	if (xp_clock_estimate(s, XP_CLOCK_EXCHANGES, &r->owd->est))
		return xp_err_set(err, "%s: no CLOCK exchange was consistent (a clock stepped?)",
				  cl->who);
	/* the workers read it from GO on (the GO command orders it before) */
	cl->run.owd_peer_lead_ns = r->owd->est.offset_ns;
	cl->run.owd_bias_ns = r->owd->est.unc_ns;
	memset(&m, 0, sizeof(m));
	m.type = XP_MSG_OFFSET;
	m.u.offset.offset_ns = (uint64_t)r->owd->est.offset_ns;
	m.u.offset.bias_ns = r->owd->est.unc_ns;
	return xp_ctl_send(cl->ctl, &m, xp_cl_ms_left(cl, 5000), cl->peer, err);
}

void xp_cl_owd_collect(struct client *cl, struct xp_client_result *r)
{
	int i;

	for (i = 0; r->owd && i < cl->g.n; i++)
		xp_owd_merge(r->owd->sum, cl->g.w[i].owd);
}

int xp_cl_owd_hist(struct client *cl, struct xp_client_result *r, const struct xp_msg_hist *h,
		   struct xp_err *err)
{
	size_t n = strlen(h->text);
	char *t;

	if (!r->owd || h->kind != XP_HIST_OWD_FWD)
		return xp_err_set(err, "%s: a HIST nobody asked for", cl->who);
	if (r->owd->len + n >= xp_hist_encoded_max())
		return xp_err_set(err, "%s: HIST longer than any histogram", cl->who);
	if (!(t = realloc(r->owd->text, r->owd->len + n + 1)))
		return xp_err_set(err, "out of memory for the server's histogram");
	memcpy(t + r->owd->len, h->text, n + 1);
	r->owd->sum->neg += h->clamped;
	r->owd->text = t;
	r->owd->len += n;
	return 0;
}

int xp_cl_owd_finish(struct client *cl, struct xp_client_result *r, struct xp_err *err)
{
	struct xp_hist *h;
	struct xp_err why;
	int rc;

	if (!r->owd || !r->owd->len)
		return 0;
	if (!(h = xp_hist_new()))
		return xp_err_set(err, "out of memory for the server's histogram");
	rc = xp_hist_decode(h, r->owd->text, r->owd->len, &why);
	if (rc)
		xp_err_set(err, "%s: its one-way histogram: %s", cl->who, why.msg);
	else
		xp_hist_merge(r->owd->sum->fwd, h);
	xp_hist_free(h);
	return rc;
}

void xp_owd_result_free(struct xp_client_result *r)
{
	if (!r->owd)
		return;
	xp_owd_free(r->owd->sum);
	free(r->owd->text);
	free(r->owd);
	r->owd = NULL;
}
