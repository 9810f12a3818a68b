#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The tests' wall times from this make check (the LOG.time files
# tests/timed-driver.sh wrote), slowest first, and their sum; so that a
# slow test is seen.  usage: times.sh FILE.time...  (missing ones skipped)
for f in "$@"; do
	[ -r "$f" ] && printf '%s %s\n' "$(cat "$f")" "${f%.time}"
done | sort -rn | awk '
	{ t += $1; n++; line[n] = sprintf("%8.1f s  %s", $1, $2) }
	END {
		if (!n) exit
		print "test times, slowest first:"
		for (i = 1; i <= n; i++) print line[i]
		printf "%8.1f s  in all (%d tests; the wall clock is less: they run in parallel)\n", t, n
	}'
