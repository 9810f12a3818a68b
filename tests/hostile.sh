#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Hostile peers: each finding of the server-hardening issue as a test that
# asserts the fixed behaviour, with the figure it measured printed on one
# line ("finding N: ...").  Five network namespaces on one bridge: the
# server S (10.213.7.1), an attacker A (.2), a victim B (.3-.6) whose
# address A forges, a normal client C (.7), and the switch.  Tools in
# tests/hostile/ (Python 3, stdlib only).
#
#   FINDING=3 tests/hostile.sh     one finding (or a list: FINDING="1 4")
#   HOSTILE_FULL=1 tests/hostile.sh  the issue's full sizes: default idle
#                                  timeout (30 s), 16 grabbers, 40 s patience
#                                  (minutes, several GB of memory)
# Keeps going after an unmet expectation; exits 1 at the end if any.
# Needs root and network namespaces (exit 77 otherwise).
. "${srcdir:-.}/tests/lib.sh"

HT="$srcdir/tests/hostile"
# the interpreter itself, not a wrapper script (pyenv's shims cost 0.3 s a call)
PY=$(python3 -c 'import sys; print(sys.executable)')
PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in the source tree
export PYTHONDONTWRITEBYTECODE
[ "$(id -u)" = 0 ] || skip "hostile: needs root (network namespaces)"
command -v ip >/dev/null || skip "hostile: needs iproute2 (ip)"
FINDINGS=${FINDING:-1 2 3 4 5 6 7 8}
FULL=${HOSTILE_FULL:-}
NET=10.213.7
SRV=$NET.1
ATT=$NET.2
VIC=$NET.3
CLI=$NET.7
W=hostile-sw-$$
S=hostile-srv-$$
A=hostile-att-$$
V=hostile-vic-$$
C=hostile-cli-$$
FAILED=

# ---- bookkeeping: every process started here is killed by its id ----
track() { echo "$1" >>"$TMP/pids"; }
tree() { # PID: it and its descendants
	for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do tree "$c"; done
	echo "$1"
}
kill_tracked() {
	[ -s "$TMP/pids" ] || return 0
	all=$(for p in $(cat "$TMP/pids"); do tree "$p"; done)
	for p in $all; do kill -CONT "$p" 2>/dev/null; kill "$p" 2>/dev/null; done
	sleep 0.2
	for p in $all; do kill -9 "$p" 2>/dev/null; done
	: >"$TMP/pids"
}
teardown() {
	kill_tracked
	for n in $C $V $A $S $W; do ip netns del "$n" 2>/dev/null; done
}
EXTRA_CLEANUP=teardown
trap 'exit 1' INT TERM HUP # through the EXIT trap: nothing left behind

T_START=$(date +%s.%N)
report() { # N TEXT; HOSTILE_TIMES=1 adds the seconds since the start
	echo "finding $1: $2${HOSTILE_TIMES:+ [+$(num %.1f "$(date +%s.%N) - $T_START") s]}"
}
unmet() {
	echo "FAIL finding $1: $2" >&2
	case " $FAILED " in *" $1 "*) ;; *) FAILED="$FAILED $1" ;; esac
}
# jv FILE KEY[.KEY...]: a value of a JSON document, "" when absent
jv() {
	"$PY" -c '
import json, sys
try:
    d = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
    for k in sys.argv[2].split("."):
        d = d[int(k)] if isinstance(d, list) else d[k]
    print("" if d is None else d)
except Exception:
    print("")' "$1" "$2"
}

# num FORMAT EXPR: awk arithmetic, printed with FORMAT; is EXPR: its truth
num() { awk "BEGIN { printf \"$1\", $2 }"; }
is() { awk "BEGIN { exit !($*) }"; }
ns() { n=$1; shift; ip netns exec "$n" "$@"; }

# ---- topology ----
plug() { # NS SHORT ADDR...: a veth from NS (hostile-SHORT) to the bridge
	n=$1 d=hostile-$2 pd=hostile-p$2
	shift 2
	ip link add "$d" netns "$n" type veth peer name "$pd" netns "$W" || return 1
	ip -n "$W" link set "$pd" master hostile-br up
	ip -n "$n" link set "$d" up
	for a; do ip -n "$n" addr add "$a/24" dev "$d"; done
}
topology() {
	for n in $W $S $A $V $C; do
		ip netns add "$n" 2>/dev/null || skip "hostile: cannot create network namespaces"
		ip -n "$n" link set lo up
	done
	ip -n "$W" link add hostile-br type bridge || skip "hostile: no bridge support"
	ip -n "$W" link set hostile-br up
	plug "$S" srv $SRV || skip "hostile: no veth support"
	plug "$A" att $ATT
	plug "$V" vic $VIC $NET.4 $NET.5 $NET.6
	plug "$C" cli $CLI
	ns "$V" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	# reachable: a connection to a closed port is refused (not timed out)
	ns "$C" "$PY" -c '
import socket, sys, time
for _ in range(30):
    try:
        socket.create_connection((sys.argv[1], 9), timeout=0.5)
    except ConnectionRefusedError:
        sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit(1)' $SRV || fail "hostile: the bridge does not forward (client cannot reach the server)"
}

# ---- servers and clients ----
# server NAME PORT [ARGS]: xperf -s in S; log $TMP/NAME.log, pid in SPID
server() {
	name=$1 port=$2
	shift 2
	ip netns exec "$S" "$XPERF" -s -p "$port" --pidfile "$TMP/$name.pid" "$@" >"$TMP/$name.log" 2>&1 &
	SPID=$!
	track $SPID
	echo "$SPID $name" >>"$TMP/servers"
	for _ in $(seq 50); do
		grep -q "listening on port" "$TMP/$name.log" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "server $name did not start: $(cat "$TMP/$name.log")"
}
stop() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }
# sstop N PID: stop a server of finding N; a server that died on its own,
# or whose log shows a sanitizer report, is an unmet expectation
sstop() {
	name=$(awk -v p="$2" '$1 == p { print $2 }' "$TMP/servers")
	kill -0 "$2" 2>/dev/null ||
		unmet "$1" "server $name died: $(tail -3 "$TMP/$name.log" | tr '\n' ' ')"
	grep -q "runtime error\|Sanitizer" "$TMP/$name.log" &&
		unmet "$1" "server $name: $(grep -m1 "runtime error\|Sanitizer" "$TMP/$name.log")"
	stop "$2"
}
# bgtool NAME NS TOOL ARGS: a tests/hostile tool in the background, stdout
# to $TMP/NAME.out; waits for its "ready" line (at most BGWAIT=15 s); pid in TPID
bgtool() {
	name=$1 n=$2 tool=$3
	shift 3
	ip netns exec "$n" "$PY" "$HT/$tool" "$@" >"$TMP/$name.out" 2>&1 &
	TPID=$!
	track $TPID
	for _ in $(seq $((${BGWAIT:-15} * 10))); do
		grep -q "^ready" "$TMP/$name.out" 2>/dev/null && return 0
		kill -0 $TPID 2>/dev/null || break
		sleep 0.1
	done
	echo "hostile: $tool $* not ready: $(tail -3 "$TMP/$name.out")" >&2
	return 1
}
# normal NAME NS PORT LIMIT [CLIENT ARGS]: one xperf client run through
# runclient.py; its summary JSON in $TMP/NAME.run, stdout NAME.out, stderr
# NAME.err (NAME is f<finding>...: a sanitizer report fails that finding)
normal() {
	name=$1 n=$2 port=$3 limit=$4
	shift 4
	ns "$n" "$PY" "$HT/runclient.py" --limit "$limit" --out "$TMP/$name.out" \
		--err "$TMP/$name.err" -- "$XPERF" -c "${HOST:-$SRV}" -p "$port" "$@" >"$TMP/$name.run"
	! grep -q "runtime error\|Sanitizer" "$TMP/$name.err" ||
		unmet "$(echo "$name" | cut -c2)" "client $name: $(grep -m1 "runtime error\|Sanitizer" "$TMP/$name.err")"
}
# started NAME: true if that normal test began within 2 s and succeeded
started() {
	"$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if r["exit"] == 0 and r["start"] is not None and r["start"] <= 2.0 else 1)' "$TMP/$1.run"
}
# how NAME: one-line account of a normal test
how() {
	"$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))
if r["killed"]:
    print("still running after %.1f s (killed)" % r["elapsed"])
elif r["exit"] == 0:
    print("started after %.2f s, exit 0" % r["start"] if r["start"] is not None else "exit 0")
else:
    print("exit %s after %.2f s: %s" % (r["exit"], r["elapsed"], r["stderr"]))' "$TMP/$1.run"
}
proc_field() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

for f in $FINDINGS; do
	[ -f "$HT/finding$f.sh" ] || fail "no finding $f (FINDING=1..8)"
done
topology
for f in $FINDINGS; do
	. "$HT/finding$f.sh"
	kill_tracked
done
if [ -n "$FAILED" ]; then
	echo "hostile: unmet expectations in finding(s):$FAILED" >&2
	exit 1
fi
echo "hostile: every finding fixed"
