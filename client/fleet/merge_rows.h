/* SPDX-License-Identifier: BSD-2-Clause */
/* The rows of client/fleet/merge.def as a table: read and added in
 * client/fleet/merge.c, written in client/fleet/merge_json.c. */
#ifndef XP_MERGE_ROWS_H
#define XP_MERGE_ROWS_H

#include <stddef.h>

#include "client/fleet/merge.h"

enum { XP_MT_U64, XP_MT_DBL };
enum { XP_MR_SUM, XP_MR_MAX };
enum { XP_MN_ALL, XP_MN_RR, XP_MN_ANY };

struct xp_merge_row {
	const char *obj, *key;          /* at end.OBJ.KEY */
	unsigned char type, rule, need; /* XP_MT_*, XP_MR_*, XP_MN_* */
	size_t off;                     /* the field in struct xp_merge_in */
};

extern const struct xp_merge_row xp_merge_rows[XP_MERGE_N];

#endif
