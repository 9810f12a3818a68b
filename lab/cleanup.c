/* SPDX-License-Identifier: BSD-2-Clause */
#include "lab/cleanup.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "lab/netns.h"

struct found {
	char name[XP_LAB_CLEAN_MAX][XP_LAB_NSNAME];
	int n;
};

static void collect(const char *name, void *arg)
{
	struct found *f = arg;

	if (f->n < XP_LAB_CLEAN_MAX && strlen(name) < XP_LAB_NSNAME)
		snprintf(f->name[f->n++], XP_LAB_NSNAME, "%s", name);
}

/* The pid in "xperf-<pid>-<letter>", or 0 if the name is not ours. */
static unsigned name_pid(const char *name)
{
	const char *p = name + strlen(XP_LAB_PREFIX);
	char *end;
	unsigned long v = strtoul(p, &end, 10);

	if (end == p || *end != '-' || !end[1] || v == 0 || v > 4194304)
		return 0;
	return (unsigned)v;
}

/* A live process whose name says xperf: a running lab.  A zombie is
 * dead already, and a recycled pid running another program is not ours. */
static int live_xperf(unsigned pid)
{
	char path[64], stat[256] = "";
	const char *close_paren;
	FILE *f;

	if (kill((pid_t)pid, 0) && errno != EPERM)
		return 0;
	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	if (!(f = fopen(path, "re")))
		return 0;
	if (!fgets(stat, sizeof(stat), f))
		stat[0] = 0;
	fclose(f);
	/* "pid (comm) S ...": comm may hold spaces and parentheses. */
	close_paren = strrchr(stat, ')');
	if (!close_paren || close_paren[1] != ' ' || close_paren[2] == 'Z' ||
	    close_paren[2] == 'X')
		return 0;
	return strstr(stat, "(xperf") != NULL;
}

int xp_lab_cleanup(struct xp_lab_clean *r, unsigned only_pid)
{
	struct found *f = calloc(1, sizeof(*f));
	int i, rc = 0;

	memset(r, 0, sizeof(*r));
	if (!f)
		return xp_err_set(&r->err, "out of memory");
	/* Collect first: deleting while reading the directory may skip some. */
	if (xp_netns_each(XP_LAB_PREFIX, collect, f, &r->err) < 0) {
		free(f);
		return -1;
	}
	for (i = 0; i < f->n; i++) {
		unsigned pid = name_pid(f->name[i]);
		struct xp_err e;

		if (!pid || (only_pid && pid != only_pid))
			continue;
		if (!only_pid && live_xperf(pid)) {
			snprintf(r->in_use[r->nin_use++], XP_LAB_NSNAME, "%s", f->name[i]);
			continue;
		}
		if (xp_netns_del(f->name[i], &e)) {
			if (!r->failed++)
				r->err = e;
			rc = -1;
			continue;
		}
		snprintf(r->removed[r->nremoved++], XP_LAB_NSNAME, "%s", f->name[i]);
	}
	free(f);
	return rc;
}
