/* SPDX-License-Identifier: BSD-2-Clause */
/* Signals are never handled asynchronously: SIGINT, SIGTERM and SIGHUP are
 * blocked (before any thread starts, so every thread inherits the mask)
 * and read from a signalfd by whoever waits; SIGPIPE is ignored. */
#ifndef XP_SIGNALS_H
#define XP_SIGNALS_H

/* The signalfd (non-blocking), or -1 with the signals left unblocked, so
 * that nobody waits on signals no one would read. */
int xp_signal_fd(void);

#endif
