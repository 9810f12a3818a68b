/* SPDX-License-Identifier: BSD-2-Clause */
#include "lab/dev.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "lab/netns.h"

int xp_lab_ifindex(int sk, const char *dev, struct xp_err *err)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	if (ioctl(sk, SIOCGIFINDEX, &ifr))
		return xp_err_sys(err, errno, "link %s", dev);
	return ifr.ifr_ifindex;
}

int xp_lab_offload(int sk, const char *dev, enum xp_lab_offload f, int on,
		   struct xp_err *err)
{
	static const uint32_t cmd[XP_OFF_COUNT] = {
		ETHTOOL_SGRO, ETHTOOL_SGSO, ETHTOOL_STSO, ETHTOOL_STXCSUM, ETHTOOL_SRXCSUM,
	};
	struct ethtool_value ev = { .cmd = cmd[f], .data = on ? 1 : 0 };
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	ifr.ifr_data = (void *)&ev;
	if (ioctl(sk, SIOCETHTOOL, &ifr))
		return xp_err_sys(err, errno, "ethtool -K %s %s %s", dev,
				  xp_lab_offload_name(f), on ? "on" : "off");
	return 0;
}

static int write_file(const char *path, const char *value, struct xp_err *err)
{
	char line[256];
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int n = snprintf(line, sizeof(line), "%s\n", value);
	ssize_t w;

	if (fd < 0)
		return xp_err_sys(err, errno, "open %s", path);
	w = n > 0 && (size_t)n < sizeof(line) ? write(fd, line, (size_t)n) : -1;
	if (w != n) {
		int e = w < 0 ? errno : EIO;

		xp_err_sys(err, e, "write '%s' to %s", value, path);
		close(fd);
		errno = e;
		return -1;
	}
	close(fd);
	return 0;
}

struct queues_ctx {
	const char *dev, *mask;
	int tx;
};

/* Runs in a thread inside the namespace (lab/netns.h). */
static int queues_fn(void *arg, struct xp_err *err)
{
	const struct queues_ctx *c = arg;
	const char *pre = c->tx ? "tx-" : "rx-";
	char dir[128], path[400];
	struct dirent *de;
	DIR *d;
	int n = 0, rc = 0;

	if (xp_netns_private_sys(err))
		return -1;
	snprintf(dir, sizeof(dir), "/sys/class/net/%s/queues", c->dev);
	if (!(d = opendir(dir)))
		return xp_err_sys(err, errno, "open %s", dir);
	while (!rc && (de = readdir(d))) {
		if (strncmp(de->d_name, pre, 3))
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s", dir, de->d_name,
			 c->tx ? "xps_cpus" : "rps_cpus");
		rc = write_file(path, c->mask, err);
		if (rc && errno == EOVERFLOW)
			xp_err_set(err, "%s: mask %s names CPUs this machine does not have",
				   path, c->mask);
		n++;
	}
	closedir(d);
	if (!rc && !n)
		return xp_err_set(err, "%s: no %squeues", dir, pre);
	return rc;
}

int xp_lab_queues(int nsfd, const char *dev, int tx, const char *mask,
		  struct xp_err *err)
{
	struct queues_ctx c = { dev, mask, tx };

	return xp_netns_call(nsfd, queues_fn, &c, err);
}

int xp_lab_sysctl_check(const char *key, struct xp_err *err)
{
	const char *ok = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-";

	if (strncmp(key, "net.", 4))
		return xp_err_set(err, "--sysctl %s: only net.* settings are per "
				  "namespace", key);
	if (strspn(key, ok) != strlen(key) || strstr(key, "..") ||
	    key[strlen(key) - 1] == '.')
		return xp_err_set(err, "--sysctl: bad name '%s'", key);
	return 0;
}

struct sysctl_ctx {
	const char *key, *value;
};

static int sysctl_fn(void *arg, struct xp_err *err)
{
	const struct sysctl_ctx *c = arg;
	char path[160];
	size_t i, n;

	n = (size_t)snprintf(path, sizeof(path), "/proc/sys/%s", c->key);
	if (n >= sizeof(path))
		return xp_err_set(err, "sysctl %s: name too long", c->key);
	for (i = strlen("/proc/sys/"); i < n; i++)
		if (path[i] == '.')
			path[i] = '/';
	/* /proc/sys/net resolves against the opening thread's namespace. */
	if (access(path, F_OK))
		return xp_err_sys(err, errno, "sysctl %s (not per namespace on this "
				  "kernel?)", c->key);
	return write_file(path, c->value, err);
}

int xp_lab_sysctl(int nsfd, const char *key, const char *value,
		  struct xp_err *err)
{
	struct sysctl_ctx c = { key, value };

	if (xp_lab_sysctl_check(key, err))
		return -1;
	return xp_netns_call(nsfd, sysctl_fn, &c, err);
}
