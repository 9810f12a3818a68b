/* SPDX-License-Identifier: BSD-2-Clause */
/* Named network namespaces, kept the way iproute2 keeps them so that
 * `ip netns` sees them: /run/netns/NAME is a bind mount of the namespace
 * (made by unshare(CLONE_NEWNET) in a short-lived helper thread), and
 * /run/netns itself is a shared mount so other mount namespaces see new
 * entries.  A network namespace is a per-thread attribute on Linux and a
 * thread inherits it from the thread that creates it; the lab enters a
 * namespace only in threads of its own, never in the caller's thread. */
#ifndef XP_LAB_NETNS_H
#define XP_LAB_NETNS_H

#include "common/err.h"

#define XP_NETNS_DIR "/run/netns"

/* Create namespace name (must not exist).  0 or -1. */
int xp_netns_add(const char *name, struct xp_err *err);
/* Unmount and unlink it (the kernel frees the namespace, and every link
 * in it, once nothing else holds it).  A missing name is not an error. */
int xp_netns_del(const char *name, struct xp_err *err);
/* File descriptor for setns() or IFLA_NET_NS_FD, or -1. */
int xp_netns_open(const char *name, struct xp_err *err);

/* Move the calling thread into the namespace nsfd.  0 or -1.  A thread
 * whose setns failed must not go on: it would act in the root namespace. */
int xp_netns_enter(int nsfd, struct xp_err *err);
/* Run fn(arg, err) in a new thread inside nsfd and return its result;
 * -1 without calling fn if the thread could not enter the namespace. */
int xp_netns_call(int nsfd, int (*fn)(void *arg, struct xp_err *err),
		  void *arg, struct xp_err *err);
/* Only inside an xp_netns_call function: give the thread a private mount
 * namespace whose /sys is a sysfs of its network namespace (what
 * `ip netns exec` does), so /sys/class/net shows the namespace's links.
 * The mounts vanish with the thread. */
int xp_netns_private_sys(struct xp_err *err);

/* Call fn for every namespace whose name starts with prefix.  Returns the
 * number found, or -1 if the directory cannot be read (a missing
 * directory means none). */
int xp_netns_each(const char *prefix, void (*fn)(const char *name, void *arg),
		  void *arg, struct xp_err *err);

#endif
