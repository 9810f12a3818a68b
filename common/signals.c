/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/signals.h"

#include <pthread.h>
#include <signal.h>
#include <sys/signalfd.h>

int xp_signal_fd(void)
{
	sigset_t set;
	int fd;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (fd < 0)
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	return fd;
}
