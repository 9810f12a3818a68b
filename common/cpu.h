/* SPDX-License-Identifier: BSD-2-Clause */
/* CPU placement and CPU-time accounting. */
#ifndef XP_CPU_H
#define XP_CPU_H

#include <stdint.h>

#include "common/err.h"
#include "proto/result.h"

/* A CPU list that pins nothing: the workers run where the scheduler puts
 * them (--cpus none, --remote-cpus none), as netperf's processes do. */
#define XP_CPUS_NONE "none"

/* CPUs this process may run on, ascending.  Returns count (>= 1). */
int xp_cpu_allowed(int *cpus, int cap);
/* Check that every cpus[i] is allowed; -1 names the first that is not. */
int xp_cpu_check(const int *cpus, int n, const char *what, struct xp_err *err);
/* Pin the calling thread to one CPU. */
int xp_cpu_pin_self(int cpu, struct xp_err *err);

struct xp_cpu_snap {
	uint64_t host_busy, host_total; /* /proc/stat ticks, all CPUs */
	uint64_t proc_user_us, proc_sys_us; /* this process, getrusage */
	uint64_t wall_ns;
};
void xp_cpu_snap(struct xp_cpu_snap *s);

/* The process's CPU time and the host's busy share between a and b, the
 * wall time between them, the peak memory and the CPUs online, into r. */
void xp_cpu_fill(struct xp_side_result *r, const struct xp_cpu_snap *a,
		 const struct xp_cpu_snap *b);

/* Peak resident memory of this process (VmHWM), KiB; 0 if unknown. */
uint64_t xp_max_rss_kb(void);

#endif
