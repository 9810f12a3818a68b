#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Collect a fleet test: wait for the indexed client Job to finish, save
# each client's JSON result (its pod log) as DIR/INDEX.json, and add them
# up with `xperf merge` (DIR/merged.json and the table on stdout).
#
#   deploy/collect.sh [-n NAMESPACE] [-j JOB] [-o DIR] [-w SECONDS]
#
# -j the Job (xperf-client), -o the folder for the results
# (xperf-results), -w how long to wait for the Job (900).  XPERF names the
# xperf that merges (default: xperf on PATH).  Exit status 0 when every
# client succeeded and the merge did; 1 otherwise (a failed client's log
# is shown and the others are still merged).
set -euo pipefail

ns=
job="xperf-client"
out="xperf-results"
wait_s=900
xperf=${XPERF:-xperf}

usage() { sed -n '3,14s/^# \{0,1\}//p' "$0"; exit 2; }
while getopts n:j:o:w:h opt; do
	case $opt in
	n) ns=$OPTARG ;;
	j) job=$OPTARG ;;
	o) out=$OPTARG ;;
	w) wait_s=$OPTARG ;;
	*) usage ;;
	esac
done
# xperf merge reads a word that starts with - as an option, wherever it is
case $out in -*) out=./$out ;; esac

kc() { kubectl ${ns:+-n "$ns"} "$@"; }
say() { echo "collect.sh: $*" >&2; }

# The Job is done when it has the condition Complete or Failed.
wait_job() {
	local deadline=$((SECONDS + wait_s)) conds
	while :; do
		conds=$(kc get job "$job" \
			-o jsonpath='{.status.conditions[?(@.status=="True")].type}')
		case " $conds " in
		*" Complete "* | *" Failed "*) return 0 ;;
		esac
		if [ "$SECONDS" -ge "$deadline" ]; then
			say "job/$job not finished after ${wait_s}s"
			return 1
		fi
		sleep 5
	done
}

# One line per pod: completion index, name, phase.
list_pods() {
	kc get pods -l "job-name=$job" -o jsonpath='{range .items[*]}{.metadata.annotations.batch\.kubernetes\.io/job-completion-index} {.metadata.name} {.status.phase}{"\n"}{end}' |
		sort -n
}

# Save each succeeded client's result; show each failed client's log.
fetch() {
	local idx pod phase failed=0 seen=" "
	while read -r idx pod phase; do
		[ -n "$pod" ] || continue
		case $seen in *" $idx "*)
			say "index $idx ran more than once ($pod): a retried client did not run with the others; left out"
			failed=1
			continue ;;
		esac
		seen="$seen$idx "
		if [ "$phase" = Succeeded ]; then
			kc logs "$pod" >"$out/$idx.json"
		else
			say "index $idx ($pod) $phase:"
			kc logs "$pod" >&2 || true
			failed=1
		fi
	done
	return "$failed"
}

# How far apart the clients started (whole seconds, from each result).
skew() {
	local t lo="" hi=""
	for f in "$out"/[0-9]*.json; do
		t=$(sed -n 's/^ *"timestamp_s": *\([0-9][0-9]*\).*/\1/p' "$f" | head -n 1)
		[ -n "$t" ] || continue
		if [ -z "$lo" ] || [ "$t" -lt "$lo" ]; then lo=$t; fi
		if [ -z "$hi" ] || [ "$t" -gt "$hi" ]; then hi=$t; fi
	done
	[ -z "$lo" ] || say "clients started within $((hi - lo)) s of each other"
}

wait_job
mkdir -p "$out"
rm -f "$out"/[0-9]*.json "$out/merged.json"
status=0
list_pods | fetch || status=1
set -- "$out"/[0-9]*.json
if [ ! -e "$1" ]; then
	say "no client succeeded: nothing to merge"
	exit 1
fi
say "$# results in $out/"
skew
"$xperf" merge --json "$@" >"$out/merged.json" || status=1
"$xperf" merge "$@" || status=1
exit "$status"
