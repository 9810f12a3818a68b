/* SPDX-License-Identifier: BSD-2-Clause */
/* Knobs that are not rtnetlink: interface index and ethtool offloads
 * through ioctls on a socket of the namespace, RPS/XPS masks through the
 * namespace's sysfs, sysctls through its /proc/sys/net. */
#ifndef XP_LAB_DEV_H
#define XP_LAB_DEV_H

#include "common/err.h"
#include "lab/plan.h"

/* sk: any AF_INET datagram socket created inside the namespace. */
int xp_lab_ifindex(int sk, const char *dev, struct xp_err *err);
/* ethtool -K DEV FEATURE on|off (legacy ETHTOOL_S* commands, which every
 * kernel since 2.6.39 maps onto its feature bits). */
int xp_lab_offload(int sk, const char *dev, enum xp_lab_offload f, int on,
		   struct xp_err *err);
/* Write mask to rps_cpus of every rx queue (tx: xps_cpus of every tx
 * queue) of dev in namespace nsfd. */
int xp_lab_queues(int nsfd, const char *dev, int tx, const char *mask,
		  struct xp_err *err);
/* sysctl -w key=value in namespace nsfd; key must start with "net."
 * (only those are per namespace) and is checked again here. */
int xp_lab_sysctl(int nsfd, const char *key, const char *value,
		  struct xp_err *err);
/* 0 if key is a plausible per-namespace sysctl name, else -1 with why. */
int xp_lab_sysctl_check(const char *key, struct xp_err *err);

#endif
