#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netperf compatibility against a real `xperf -s` on loopback: command
# lines from netperf scripts run through `xperf --netperf-args` (and a
# `netperf` symlink), and their output is checked field by field against
# the shapes netperf documents: line counts, header labels, value counts,
# numbers that parse, units, and netperf's exit statuses 0, 1 and 255.
. "${srcdir:-.}/tests/lib.sh"

start_server
NP() { "$XPERF" --netperf-args -H 127.0.0.1 -p "$PORT" -l 0.5 "$@"; }

# run NAME ARGS...: output in $TMP/NAME.out; a failure names the command
run() {
	name=$1; shift
	NP "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" ||
		{ cat "$TMP/$name.err" >&2; fail "$name: exit $? for $*"; }
}

# verify NAME 'python over lines L (list of str)' MESSAGE
verify() {
	python3 - "$TMP/$1.out" "$2" <<'PY' || { echo "--- $1:" >&2; cat -A "$TMP/$1.out" >&2; fail "$1: $3"; }
import re, sys
L = open(sys.argv[1]).read().split("\n")
assert L[-1] == "", "output must end with a newline"
L = L[:-1]
def num(s):
    return float(s)
def ints(line, n):
    f = line.split()
    return len(f) == n and all(re.fullmatch(r"-?\d+", x) for x in f)
def banner(line, title, extra=""):
    return re.fullmatch(r"MIGRATED %s TEST from 0\.0\.0\.0 \(0\.0\.0\.0\) port 0 AF_INET "
                        r"to 127\.0\.0\.1 \(\) port 0 AF_INET%s : demo.*" % (title, extra), line)
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

# TCP_STREAM, classic table (-P 1): banner, four heading lines, a blank
# line, one result line of five numbers
run stream -t TCP_STREAM -- -m 64K -M 64K -s 256K,256K -S 256K,256K
verify stream 'len(L) == 7 and banner(L[0], "TCP STREAM") and L[0].endswith(" : demo")' "banner and line count"
verify stream 'L[1] == "Recv   Send    Send                          " and L[4] == "bytes  bytes   bytes    secs.    10^6bits/sec  " and L[5] == ""' "headings"
verify stream 'ints(" ".join(L[6].split()[:3]), 3) and len(L[6].split()) == 5 and int(L[6].split()[2]) == 65536 and num(L[6].split()[4]) > 0' "result line"

# TCP_RR: two result lines, the second the remote socket sizes
run rr -t TCP_RR
verify rr 'len(L) == 8 and banner(L[0], "TCP REQUEST/RESPONSE", "") and L[0].endswith(": first burst 0")' "banner"
verify rr 'L[1] == "Local /Remote" and L[4] == "bytes  Bytes  bytes    bytes   secs.    per sec   " and L[5] == ""' "headings"
verify rr 'len(L[6].split()) == 6 and L[6].split()[2:4] == ["1", "1"] and num(L[6].split()[5]) > 0 and ints(L[7], 2)' "result lines"

# UDP_STREAM: the sender's line, then the receiver's, then a blank line
run udp -t UDP_STREAM -- -m 1472
verify udp 'len(L) == 8 and banner(L[0], "UDP STREAM") and L[3].endswith("10^6bits/sec") and L[7] == ""' "shape"
verify udp 'L[5].split()[1] == "1472" and len(L[5].split()) == 6 and len(L[6].split()) == 4 and num(L[5].split()[5]) > 0 and num(L[6].split()[3]) > 0' "result lines"

# UDP_RR with -P 0: no banner, no headings
run udprr -t UDP_RR -P 0
verify udprr 'len(L) == 2 and len(L[0].split()) == 6 and num(L[0].split()[5]) > 0 and ints(L[1], 2)' "-P 0 lines"

# MAERTS and CRR classic tables
run maerts -t TCP_MAERTS
verify maerts 'len(L) == 7 and banner(L[0], "TCP MAERTS") and num(L[6].split()[4]) > 0' "TCP_MAERTS"
run crr -t TCP_CRR -P 0
verify crr 'len(L) == 2 and num(L[0].split()[5]) > 0' "TCP_CRR"

# -o: the banner, one line of labels, one line of values
run csv -t TCP_RR -- -r 64,1024 -o P50_LATENCY,P90_LATENCY,P99_LATENCY,THROUGHPUT
verify csv 'len(L) == 3 and banner(L[0], "TCP REQUEST/RESPONSE")' "line count"
verify csv 'L[1] == "50th Percentile Latency Microseconds,90th Percentile Latency Microseconds,99th Percentile Latency Microseconds,Throughput"' "labels"
verify csv 'len(L[2].split(",")) == 4 and all(re.fullmatch(r"\d+", x) for x in L[2].split(",")[:3]) and int(L[2].split(",")[0]) <= int(L[2].split(",")[2]) and num(L[2].split(",")[3]) > 0' "values"

# -o with units and unknown selectors (ignored), -P 0: values only
run csv0 -P 0 -t TCP_STREAM -- -o THROUGHPUT,NO_SUCH_THING,THROUGHPUT_UNITS,ELAPSED_TIME
verify csv0 'len(L) == 1 and len(L[0].split(",")) == 3 and num(L[0].split(",")[0]) > 0 and L[0].split(",")[1] == "10^6bits/s"' "-P 0 -o"

# -k: NAME=value lines, names as asked but in capitals
run kv -P 0 -t TCP_RR -- -k throughput,THROUGHPUT_UNITS,MEAN_LATENCY,RT_LATENCY
verify kv 'len(L) == 4 and [x.split("=")[0] for x in L] == ["THROUGHPUT", "THROUGHPUT_UNITS", "MEAN_LATENCY", "RT_LATENCY"] and L[1] == "THROUGHPUT_UNITS=Trans/s" and num(L[0][11:]) > 0 and num(L[2][13:]) > 0' "-k"

# -O: four heading lines then the values, columns aligned
run cols -t TCP_STREAM -- -O THROUGHPUT,THROUGHPUT_UNITS
verify cols 'len(L) == 6 and L[1].split() == ["Throughput", "Throughput"] and L[2].split() == ["Units"] and L[5].split()[1] == "10^6bits/s" and L[5].index("10^6") == L[1].index("Throughput", 1)' "-O"

# -f: stream units
run fg -P 0 -f g -- -k THROUGHPUT_UNITS
verify fg 'L == ["THROUGHPUT_UNITS=10^9bits/s"]' "-f g"
run fK -P 0 -f K -- -k THROUGHPUT_UNITS
verify fK 'L == ["THROUGHPUT_UNITS=KBytes/s"]' "-f K"

# -v 0: the number alone (after the banner unless -P 0)
run v0 -P 0 -v 0 -t TCP_RR
verify v0 'len(L) == 1 and len(L[0].split()) == 1 and num(L[0]) > 0' "-P 0 -v 0"
run v0b -v 0
verify v0b 'len(L) == 2 and banner(L[0], "TCP STREAM") and num(L[1]) > 0' "-v 0"

# CPU use and service demand, CPU binding
run cpu -P 0 -c -C -T 0,0 -t TCP_RR -- -o LOCAL_CPU_UTIL,REMOTE_CPU_UTIL,LOCAL_SD,SD_UNITS,LOCAL_CPU_BIND
verify cpu 'len(L) == 1 and 0 <= num(L[0].split(",")[0]) <= 100 and num(L[0].split(",")[2]) >= 0 and L[0].split(",")[3:] == ["usec/Tran", "0"]' "CPU"

# -i/-I: at least three iterations, their count reported
run conf -P 0 -i 3,3 -I 99,50 -t TCP_RR -- -o THROUGHPUT,CONFIDENCE_ITERATION,CONFIDENCE_LEVEL
verify conf 'len(L) == 1 and L[0].split(",")[1:] == ["3", "99"]' "iterations"

# under the name netperf
ln -s "$XPERF" "$TMP/netperf"
"$TMP/netperf" -H 127.0.0.1 -p "$PORT" -l 0.5 -P 0 -v 0 >"$TMP/name.out" || fail "netperf name: exit $?"
verify name 'len(L) == 1 and num(L[0]) > 0' "invoked as netperf"

# -o ?: the selector list, exit 1 as netperf
NP -- -o '?' >"$TMP/list.out"; rc=$?
[ $rc = 1 ] || fail "-o ?: exit $rc, want 1"
verify list 'len(L) == 1 and "P99_LATENCY" in L[0].split(",") and "THROUGHPUT_UNITS" in L[0].split(",")' "-o ?"

# usage errors: exit 1, nothing on stdout
for bad in "-Q" "-l -100" "-- -Z" "-f y" "-- -m 12q"; do
	# shellcheck disable=SC2086
	NP $bad >"$TMP/bad.out" 2>"$TMP/bad.err"; rc=$?
	[ $rc = 1 ] || fail "'$bad': exit $rc, want 1"
	[ -s "$TMP/bad.out" ] && fail "'$bad': printed on stdout"
	[ -s "$TMP/bad.err" ] || fail "'$bad': no message"
done

# a refused connection: exit 255, no banner
P2=$(free_port)
"$XPERF" --netperf-args -H 127.0.0.1 -p "$P2" -l 1 >"$TMP/ref.out" 2>"$TMP/ref.err"; rc=$?
[ $rc = 255 ] || fail "refused: exit $rc, want 255"
[ -s "$TMP/ref.out" ] && fail "refused: printed on stdout: $(cat "$TMP/ref.out")"
grep -q "Connection refused" "$TMP/ref.err" || fail "refused message: $(cat "$TMP/ref.err")"
echo "netperf_compat: ok"
