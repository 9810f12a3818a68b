/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef XP_REPORT_HIST_H
#define XP_REPORT_HIST_H

#include "common/hist.h"
#include "common/json.h"

/* key: "xph1:7:ns:..." (common/hist_codec.h), or null if out of memory. */
void xp_json_hist(struct xp_json *j, const char *key, const struct xp_hist *h);

#endif
