#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Run each libFuzzer harness that `make fuzz` built (all of
# $FUZZ_BUILD/bin/fuzz_NAME, or the NAMEs given) for SECONDS seconds, one
# after the other, starting from its seed corpus (tests/fuzz/corpus/NAME
# if there is one; never written to).  New inputs go to $FUZZ_BUILD/work/NAME, a
# crashing input to $FUZZ_BUILD/crash/NAME-crash-<sha1>, each log to
# $FUZZ_BUILD/work/NAME.log.  Exits 1 if any harness crashed, leaked,
# timed out (10 s per input) or is missing; 0 otherwise.
#
# Usage: tests/fuzz/run.sh SECONDS [NAME...]
#   FUZZ_BUILD  where make fuzz put bin/ (default: tests/fuzz/build)
set -u

usage="usage: $0 SECONDS [NAME...]"
secs=${1:?$usage}
case $secs in
''|*[!0-9]*) echo "$usage" >&2; exit 2 ;;
esac
shift
here=$(cd "$(dirname "$0")" && pwd)
build=${FUZZ_BUILD:-tests/fuzz/build}
names=$*
if [ -z "$names" ]; then
	for b in "$build"/bin/fuzz_*; do
		[ -x "$b" ] && names="$names ${b##*/fuzz_}"
	done
fi
if [ -z "$names" ]; then
	echo "run.sh: no harness in $build/bin (make fuzz builds them)" >&2
	exit 1
fi
fail=0

for n in $names; do
	bin=$build/bin/fuzz_$n
	log=$build/work/$n.log
	if [ ! -x "$bin" ]; then
		echo "FAIL $n: $bin missing (make fuzz builds it)"
		fail=1
		continue
	fi
	mkdir -p "$build/work/$n" "$build/crash"
	seeds=$here/corpus/$n
	[ -d "$seeds" ] || seeds=
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$build/crash/$n-" \
		"$build/work/$n" ${seeds:+"$seeds"} >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	if [ "$rc" -ne 0 ]; then
		echo "FAIL $n: exit $rc after ${execs:-?} executions; log $log"
		grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" |
			head -n 8
		fail=1
	else
		echo "ok   $n: ${execs:-?} executions in ${secs} s, $cov," \
			"corpus $(ls "$build/work/$n" | wc -l) new inputs"
	fi
done
exit $fail
