/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/cpu.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <sys/resource.h>

#include "common/clock.h"

int xp_cpu_allowed(int *cpus, int cap)
{
	cpu_set_t set;
	int i, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		cpus[0] = 0;
		return 1;
	}
	for (i = 0; i < CPU_SETSIZE && n < cap; i++)
		if (CPU_ISSET(i, &set))
			cpus[n++] = i;
	if (!n)
		cpus[n++] = 0;
	return n;
}

int xp_cpu_check(const int *cpus, int n, const char *what, struct xp_err *err)
{
	cpu_set_t set;
	int i;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (i = 0; i < n; i++)
		if (cpus[i] >= CPU_SETSIZE || !CPU_ISSET(cpus[i], &set))
			return xp_err_set(err, "%s: CPU %d is not available to this "
					  "process", what, cpus[i]);
	return 0;
}

int xp_cpu_pin_self(int cpu, struct xp_err *err)
{
	cpu_set_t set;
	int rc;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (rc)
		return xp_err_sys(err, rc, "pin worker to CPU %d", cpu);
	return 0;
}

static void host_ticks(uint64_t *busy, uint64_t *total)
{
	unsigned long long v[10] = { 0 };
	FILE *f = fopen("/proc/stat", "re");
	int i;

	*busy = *total = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &v[8], &v[9]) >= 4) {
		/* guest time is already included in user and nice */
		for (i = 0; i < 8; i++)
			*total += v[i];
		*busy = *total - v[3] - v[4]; /* minus idle and iowait */
	}
	fclose(f);
}

void xp_cpu_snap(struct xp_cpu_snap *s)
{
	struct rusage ru;

	host_ticks(&s->host_busy, &s->host_total);
	getrusage(RUSAGE_SELF, &ru);
	s->proc_user_us = (uint64_t)ru.ru_utime.tv_sec * 1000000u +
			  (uint64_t)ru.ru_utime.tv_usec;
	s->proc_sys_us = (uint64_t)ru.ru_stime.tv_sec * 1000000u +
			 (uint64_t)ru.ru_stime.tv_usec;
	s->wall_ns = xp_now_ns();
}

void xp_cpu_fill(struct xp_side_result *r, const struct xp_cpu_snap *a,
		 const struct xp_cpu_snap *b)
{
	uint64_t total = b->host_total - a->host_total;

	r->cpu_user_us = b->proc_user_us - a->proc_user_us;
	r->cpu_sys_us = b->proc_sys_us - a->proc_sys_us;
	r->host_busy_ppm = total ? (b->host_busy - a->host_busy) * 1000000u / total : 0;
	r->cpu_wall_us = (b->wall_ns - a->wall_ns) / 1000;
	r->max_rss_kb = xp_max_rss_kb();
	r->ncpus = (uint64_t)sysconf(_SC_NPROCESSORS_ONLN);
}

/* VmHWM, the high-water mark of this process's own memory: getrusage's
 * ru_maxrss also counts the memory of whatever exec'ed it (a Python
 * harness that spawned xperf made a 3 MiB client report 16 MiB). */
uint64_t xp_max_rss_kb(void)
{
	struct rusage ru;
	char line[128];
	unsigned long long kb = 0;
	FILE *f = fopen("/proc/self/status", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	if (kb)
		return kb;
	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (uint64_t)ru.ru_maxrss; /* Linux: KiB */
}
