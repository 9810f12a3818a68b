#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Automake's test driver, timed: runs build-aux/test-driver (the first
# argument, with its own arguments after), then writes the test's wall
# time in seconds to LOG.time beside its LOG.log and onto the result line
# ("PASS: tests/foo.sh (12.3 s)").  tests/times.sh lists them at the end.
# usage: timed-driver.sh DRIVER --test-name N --log-file L --trs-file T ... -- CMD
driver=$1
shift
log=
prev=
for a in "$@"; do
	[ "$prev" = --log-file ] && log=$a
	[ "$a" = -- ] && break
	prev=$a
done
start=$(date +%s.%N)
out=$(${CONFIG_SHELL:-/bin/sh} "$driver" "$@")
rc=$?
end=$(date +%s.%N)
secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
[ -n "$log" ] && echo "$secs" >"${log%.log}.time"
printf '%s (%s s)\n' "$out" "$secs"
exit $rc
