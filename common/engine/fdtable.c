/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/engine/fdtable.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Close [lo, hi]; close_range(2) where the kernel has it (5.9), else one
 * by one up to the descriptor limit. */
static void close_span(unsigned lo, unsigned hi)
{
	struct rlimit rl;
	unsigned fd;

	if (lo > hi)
		return;
#ifdef SYS_close_range
	if (syscall(SYS_close_range, lo, hi, 0) == 0)
		return;
#endif
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    hi >= rl.rlim_cur)
		hi = (unsigned)rl.rlim_cur - 1;
	for (fd = lo; fd <= hi && fd >= lo; fd++)
		close((int)fd);
}

int xp_fdtable_private(const int *keep, size_t n)
{
	int *k = malloc((n ? n : 1) * sizeof(*k));
	unsigned next = 3;
	size_t i;

	if (!k)
		return -1;
	for (i = 0; i < n; i++)
		k[i] = keep[i];
	qsort(k, n, sizeof(*k), cmp_int);
	if (unshare(CLONE_FILES)) {
		free(k);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (k[i] < (int)next)
			continue; /* stdio, or a repeat */
		close_span(next, (unsigned)k[i] - 1);
		next = (unsigned)k[i] + 1;
	}
	close_span(next, ~0u);
	free(k);
	return 0;
}
