#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# xperf lab: every topology this kernel supports is built, measured and
# torn down without leftovers; a killed run is cleaned by --cleanup; an
# unsupported topology fails its own row only; --dry-run output run by
# hand gives a working pair; without root, one clear line and exit 1.
# Only this run's names (xperf-<pid>-*) are checked, so a lab run by
# someone else on the same machine does not disturb the test.
. "${srcdir:-.}/tests/lib.sh"

NOBODY_RUN=
if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	NOBODY_RUN="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups --inh-caps=-all"
fi
if [ -n "$NOBODY_RUN" ] && [ "$(id -u)" = 0 ]; then
	$NOBODY_RUN "$XPERF" lab -t TCP_RR -l 1 >"$TMP/nr.out" 2>"$TMP/nr.err"
	st=$?
	[ "$st" = 1 ] || fail "lab as nobody: exit $st, want 1"
	[ "$(cat "$TMP/nr.err")" = "xperf lab: needs root (CAP_NET_ADMIN)" ] ||
		fail "lab as nobody: '$(cat "$TMP/nr.err")'"
fi
[ "$(id -u)" = 0 ] || skip "lab: needs root"
command -v ip >/dev/null || skip "lab: needs iproute2 (ip) to check for leftovers"
probe=xperf-labprobe-$$
ip netns add "$probe" 2>/dev/null || skip "lab: cannot create network namespaces here"
ip netns del "$probe"

leftovers() { # ID: this run's namespaces and root-namespace links
	ip netns list 2>/dev/null | grep "^xperf-$1-"
	ip -o link show | grep -E "^[0-9]+: xp$1[a-z]"
}
no_leftovers() { # ID WHAT
	left=$(leftovers "$1")
	[ -z "$left" ] || fail "$2: left behind: $left"
}
lab_id() { jget "$1" start.lab | sed 's/^xperf-//'; }

# Each topology alone, TCP_RR for 1 s: measured or unsupported.
supported=
for t in veth bridge macvlan ipvlan ipvlan-l3 vxlan; do
	"$XPERF" lab --topology "$t" -t TCP_RR -l 1 --json >"$TMP/$t.json" 2>"$TMP/$t.err"
	st=$?
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/$t.json" ||
		fail "$t: not one JSON document: $(cat "$TMP/$t.json" "$TMP/$t.err")"
	no_leftovers "$(lab_id "$TMP/$t.json")" "$t"
	status=$(jget "$TMP/$t.json" end.rows.0.status)
	case "$status" in
	ok)
		[ "$st" = 0 ] || fail "$t: measured but exit $st"
		check "$TMP/$t.json" 'e["rows"][0]["transactions"] > 0 and e["rows"][0]["p99_us"] > 0' \
			"$t: TCP_RR transactions"
		supported="$supported $t" ;;
	unsupported)
		[ "$st" = 1 ] || fail "$t: unsupported but exit $st"
		grep -q "unsupported: this kernel lacks the ${t%-l3} link type" "$TMP/$t.err" ||
			fail "$t: message does not name the feature: $(cat "$TMP/$t.err")" ;;
	*)
		cat "$TMP/$t.err" >&2; fail "$t: status $status" ;;
	esac
done
echo "lab: supported here:$supported"
case "$supported" in *veth*) ;; *) fail "lab: not even veth works" ;; esac

# -I runs and --plot: the median and its spread per row, and the chart
# (one bar group per topology; panels for stream and RR tests)
"$XPERF" lab --topology veth -t TCP_STREAM,TCP_RR -l 0.3 -I 3 --multi 0 \
	--plot "$TMP/lab.svg" --json >"$TMP/runs.json" 2>"$TMP/runs.err" ||
	fail "lab -I 3 --plot: $(cat "$TMP/runs.err")"
check "$TMP/runs.json" 'all(r["runs"] == 3 and r["spread_min"] <= r["spread_max"] for r in e["rows"])' \
	"lab -I 3: runs and spread per row"
check "$TMP/runs.json" 'e["rows"][0]["spread_min"] <= e["rows"][0]["throughput_gbps"] <= e["rows"][0]["spread_max"]' \
	"lab -I 3: the median within its spread"
python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); assert len([e for e in r if e.tag.endswith("svg")]) == 2' \
	"$TMP/lab.svg" || fail "lab --plot: not two panels"
no_leftovers "$(lab_id "$TMP/runs.json")" "lab -I 3"

# A matrix with an unsupported topology, if this kernel has one: the rest
# is still measured, only that row fails, and the exit status is 1.
missing=
for t in ipvlan macvlan vxlan bridge; do
	case "$supported" in *" $t"*) ;; *) missing=$t; break ;; esac
done
if [ -n "$missing" ]; then
	"$XPERF" lab --topology "veth,$missing" -t TCP_RR -l 1 --json >"$TMP/mix.json" 2>"$TMP/mix.err"
	st=$?
	[ "$st" = 1 ] || fail "veth,$missing: exit $st, want 1"
	check "$TMP/mix.json" 'e["rows"][0]["status"] == "ok" and e["rows"][0]["transactions"] > 0' \
		"veth,$missing: veth still measured"
	check "$TMP/mix.json" "e['rows'][1]['status'] == 'unsupported' and '$missing' in e['rows'][1]['unsupported'] and e['rows_failed'] == 1" \
		"veth,$missing: only the $missing row fails"
	no_leftovers "$(lab_id "$TMP/mix.json")" "veth,$missing"
fi

# The human table: a stream test has both throughput columns.
"$XPERF" lab --topology veth -t TCP_STREAM -l 1 --multi 2 >"$TMP/table.out" 2>"$TMP/table.err" ||
	{ cat "$TMP/table.err" >&2; fail "veth TCP_STREAM table"; }
grep -Eq '^veth +TCP_STREAM +[0-9.]+ +[0-9.]+ +- +- +- +ok$' "$TMP/table.out" ||
	fail "table row: $(cat "$TMP/table.out")"

# Killed mid-test (SIGKILL: no chance to clean up), then --cleanup.
"$XPERF" lab --topology bridge -t TCP_STREAM -l 20 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 50); do
	[ "$(ip netns list 2>/dev/null | grep -c "^xperf-$pid-")" = 3 ] && break
	sleep 0.1
done
sleep 1
kill -9 "$pid"
wait "$pid" 2>/dev/null
[ -n "$(leftovers "$pid")" ] || fail "killed lab left nothing to clean (was it running?)"
"$XPERF" lab --cleanup >"$TMP/clean.out" 2>&1 || fail "cleanup: $(cat "$TMP/clean.out")"
grep -q "removed namespace xperf-$pid-a" "$TMP/clean.out" || fail "cleanup output: $(cat "$TMP/clean.out")"
no_leftovers "$pid" "after --cleanup"

# SIGTERM mid-test: the run removes what it made and exits 1.
"$XPERF" lab --topology veth -t TCP_RR -l 20 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 50); do
	ip netns list 2>/dev/null | grep -q "^xperf-$pid-b" && break
	sleep 0.1
done
sleep 1
kill -TERM "$pid"
wait "$pid"
st=$?
[ "$st" = 1 ] || fail "SIGTERM: exit $st, want 1"
no_leftovers "$pid" "after SIGTERM"

# --dry-run: the commands, run by hand, build a pair xperf can cross.
"$XPERF" lab --dry-run --topology veth -t TCP_RR >"$TMP/dry.sh" || fail "dry-run"
id=$(sed -n 's/^ip netns add xperf-\([0-9]*\)-a$/\1/p' "$TMP/dry.sh")
[ -n "$id" ] || fail "dry-run output: $(cat "$TMP/dry.sh")"
[ -z "$(leftovers "$id")" ] || fail "dry-run changed something"
EXTRA_CLEANUP="ip netns del xperf-$id-a 2>/dev/null; ip netns del xperf-$id-b 2>/dev/null"
while read -r line; do
	case "$line" in '#'*|'') continue ;; esac
	sh -c "$line" || fail "dry-run line failed: $line"
done <"$TMP/dry.sh"
PORT=$(free_port)
ip netns exec "xperf-$id-b" "$XPERF" -s -1 -B 10.231.0.2 -p "$PORT" >>"$TMP/server.log" 2>&1 &
SERVER_PID=$!
sleep 0.5
ip netns exec "xperf-$id-a" "$XPERF" -c 10.231.0.2 -p "$PORT" -t TCP_RR -l 1 --json \
	>"$TMP/dry.json" 2>"$TMP/dry.err" || fail "xperf across the dry-run pair: $(cat "$TMP/dry.err")"
check "$TMP/dry.json" 'e["rr"]["transactions"] > 0' "xperf across the dry-run pair"
stop_server
"$XPERF" lab --cleanup >/dev/null 2>&1 || fail "cleanup of the dry-run pair"
no_leftovers "$id" "dry-run pair after --cleanup"
echo "lab: ok"
