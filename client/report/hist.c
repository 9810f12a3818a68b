/* SPDX-License-Identifier: BSD-2-Clause */
/* The latency histogram in JSON, losslessly (common/hist_codec.h), so that
 * results can be merged exactly later (`xperf merge`, fleet runs). */
#include "client/report/hist.h"

#include <stdlib.h>

#include "common/hist_codec.h"

void xp_json_hist(struct xp_json *j, const char *key, const struct xp_hist *h)
{
	size_t n = xp_hist_encode(h, NULL, 0) + 1;
	char *buf = malloc(n);

	if (!buf || xp_hist_encode(h, buf, n) >= n) {
		xp_json_null(j, key);
	} else {
		xp_json_str_val(j, key, buf);
	}
	free(buf);
}
