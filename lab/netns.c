/* SPDX-License-Identifier: BSD-2-Clause */
#include "lab/netns.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int ns_path(char *buf, size_t len, const char *name, struct xp_err *err)
{
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return xp_err_set(err, "bad namespace name '%s'", name);
	if ((size_t)snprintf(buf, len, "%s/%s", XP_NETNS_DIR, name) >= len)
		return xp_err_set(err, "namespace name too long: '%s'", name);
	return 0;
}

/* /run/netns exists and is a shared mount point (so a namespace mounted
 * here is seen from every mount namespace): what `ip netns add` ensures. */
static int run_dir(struct xp_err *err)
{
	int tried_bind = 0;

	if (mkdir(XP_NETNS_DIR, 0755) && errno != EEXIST)
		return xp_err_sys(err, errno, "mkdir %s", XP_NETNS_DIR);
	while (mount("", XP_NETNS_DIR, "none", MS_SHARED | MS_REC, NULL)) {
		if (errno != EINVAL || tried_bind)
			return xp_err_sys(err, errno, "mount --make-shared %s", XP_NETNS_DIR);
		/* Not a mount point yet: bind it onto itself, then retry. */
		if (mount(XP_NETNS_DIR, XP_NETNS_DIR, "none", MS_BIND | MS_REC, NULL))
			return xp_err_sys(err, errno, "mount --bind %s", XP_NETNS_DIR);
		tried_bind = 1;
	}
	return 0;
}

struct add_ctx {
	const char *path;
	int rc;
	struct xp_err err;
};

/* In its own thread: a new namespace for this thread only, pinned by a
 * bind mount of the thread's namespace file onto path. */
static void *add_thread(void *arg)
{
	struct add_ctx *c = arg;
	char self[64];

	c->rc = -1;
	if (unshare(CLONE_NEWNET)) {
		xp_err_sys(&c->err, errno, "unshare(CLONE_NEWNET)");
		return NULL;
	}
	snprintf(self, sizeof(self), "/proc/self/task/%ld/ns/net", (long)syscall(SYS_gettid));
	if (mount(self, c->path, "none", MS_BIND, NULL)) {
		xp_err_sys(&c->err, errno, "mount --bind %s %s", self, c->path);
		return NULL;
	}
	c->rc = 0;
	return NULL;
}

int xp_netns_add(const char *name, struct xp_err *err)
{
	char path[256];
	struct add_ctx c = { path, -1, { "" } };
	pthread_t thr;
	int fd;

	if (ns_path(path, sizeof(path), name, err) || run_dir(err))
		return -1;
	fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
	if (fd < 0)
		return xp_err_sys(err, errno, "create %s", path);
	close(fd);
	if (pthread_create(&thr, NULL, add_thread, &c)) {
		unlink(path);
		return xp_err_set(err, "namespace %s: cannot start a thread", name);
	}
	pthread_join(thr, NULL);
	if (c.rc) {
		unlink(path);
		return xp_err_set(err, "namespace %s: %s", name, c.err.msg);
	}
	return 0;
}

int xp_netns_del(const char *name, struct xp_err *err)
{
	char path[256];

	if (ns_path(path, sizeof(path), name, err))
		return -1;
	/* EINVAL: not mounted (a run killed half-way through creating it). */
	if (umount2(path, MNT_DETACH) && errno != EINVAL && errno != ENOENT)
		return xp_err_sys(err, errno, "umount %s", path);
	if (unlink(path) && errno != ENOENT)
		return xp_err_sys(err, errno, "unlink %s", path);
	return 0;
}

int xp_netns_open(const char *name, struct xp_err *err)
{
	char path[256];
	int fd;

	if (ns_path(path, sizeof(path), name, err))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return xp_err_sys(err, errno, "open %s", path);
	return fd;
}

int xp_netns_enter(int nsfd, struct xp_err *err)
{
	if (setns(nsfd, CLONE_NEWNET))
		return xp_err_sys(err, errno, "setns(CLONE_NEWNET)");
	return 0;
}

struct call_ctx {
	int nsfd;
	int (*fn)(void *arg, struct xp_err *err);
	void *arg;
	int rc;
	struct xp_err *err;
};

static void *call_thread(void *arg)
{
	struct call_ctx *c = arg;

	c->rc = xp_netns_enter(c->nsfd, c->err) ? -1 : c->fn(c->arg, c->err);
	return NULL;
}

int xp_netns_call(int nsfd, int (*fn)(void *arg, struct xp_err *err),
		  void *arg, struct xp_err *err)
{
	struct call_ctx c = { nsfd, fn, arg, -1, err };
	pthread_t thr;

	if (pthread_create(&thr, NULL, call_thread, &c))
		return xp_err_set(err, "cannot start a thread");
	pthread_join(thr, NULL);
	return c.rc;
}

int xp_netns_private_sys(struct xp_err *err)
{
	if (unshare(CLONE_NEWNS))
		return xp_err_sys(err, errno, "unshare(CLONE_NEWNS)");
	/* Keep our mounts from propagating back to the host's /sys. */
	if (mount(NULL, "/", NULL, MS_SLAVE | MS_REC, NULL))
		return xp_err_sys(err, errno, "mount --make-rslave /");
	if (mount("sysfs", "/sys", "sysfs", 0, NULL))
		return xp_err_sys(err, errno, "mount sysfs on /sys");
	return 0;
}

int xp_netns_each(const char *prefix, void (*fn)(const char *name, void *arg),
		  void *arg, struct xp_err *err)
{
	DIR *d = opendir(XP_NETNS_DIR);
	struct dirent *de;
	int n = 0;

	if (!d && errno == ENOENT)
		return 0;
	if (!d)
		return xp_err_sys(err, errno, "open %s", XP_NETNS_DIR);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix))) {
			fn(de->d_name, arg);
			n++;
		}
	closedir(d);
	return n;
}
