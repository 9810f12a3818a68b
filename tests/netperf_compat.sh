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

# verify NAME 'python over lines L (list of str)' MESSAGE: an expression,
# or statements that set ok
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
try:
    ok = eval(sys.argv[2])
except SyntaxError:
    exec(sys.argv[2])
sys.exit(0 if ok else 1)
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

# -K: the congestion control on both ends, reported as each end's sockets say
cc=reno
grep -qw reno /proc/sys/net/ipv4/tcp_available_congestion_control || cc=cubic
run kcc -P 0 -t TCP_RR -- -K $cc -k LOCAL_CONG_CONTROL,REMOTE_CONG_CONTROL
verify kcc "L == ['LOCAL_CONG_CONTROL=$cc', 'REMOTE_CONG_CONTROL=$cc']" "-K $cc"

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

# options xperf cannot honour: exit 1 and one line that says so, never
# accepted and dropped
for bad in "-a 8,8" "-A 8" "-b 4" "-d" "-k 1,1" "-K 1" "-o 4" "-O 4" "-S" "-w 1" "-W 2" \
	"-y 3,3" "-- -a" "-- -B" "-- -C" "-- -f" "-- -g" "-- -I" "-- -j 2" "-- -l 8" \
	"-- -p 5000" "-- -q 1000" "-- -U" "-- -V" "-- -w 1" "-- -W 2" "-- -R 0"; do
	# shellcheck disable=SC2086
	NP $bad >"$TMP/bad.out" 2>"$TMP/bad.err"; rc=$?
	[ $rc = 1 ] || fail "'$bad': exit $rc, want 1"
	[ -s "$TMP/bad.out" ] && fail "'$bad': printed on stdout"
	[ "$(wc -l <"$TMP/bad.err")" = 1 ] && grep -q "not supported by xperf" "$TMP/bad.err" ||
		fail "'$bad': $(cat "$TMP/bad.err")"
done
for bad in "-Z pass:--auth-file" "-F /dev/zero,/etc/passwd:does not open files a client names" \
	"-t TCP_RR -- -e 1:applies to UDP_RR" "-- -F:TCP_CRR and TCP_CC" \
	"-t UDP_STREAM -- -G 1000:TCP tests" "-- -H 127.0.0.2:sends data to the control host" \
	"-L 127.0.0.1 -- -L 127.0.0.2:one local address" "-- -P 5000,5001:the control port"; do
	# shellcheck disable=SC2086
	NP ${bad%%:*} >"$TMP/bad.out" 2>"$TMP/bad.err"; rc=$?
	[ $rc = 1 ] && grep -q -- "${bad#*:}" "$TMP/bad.err" ||
		fail "'${bad%%:*}': exit $rc, $(cat "$TMP/bad.err")"
done
# flent's probe for -e: refused for TCP_STREAM, not as getopt's unknown option
NP -l 1 -D -0.2 -- -e 1 >"$TMP/probe.out" 2>"$TMP/probe.err"; rc=$?
[ $rc = 1 ] && ! grep -q "invalid option -- 'e'" "$TMP/probe.err" ||
	fail "flent's -e probe: exit $rc, $(cat "$TMP/probe.err")"

# what the mapped options do, in runs that work: -L and -p's lport bind
# the control connection, -P's lport the data's (SOURCE_PORT), -G sets the
# MSS, -e the UDP_RR timeout
LP=$(free_port)
DP=$(free_port)
run mapped -P 0 -L 127.0.0.1 -p "$PORT,$LP" -- -P "$DP,$PORT" -G 1000 -H 127.0.0.1 \
	-k SOURCE_ADDR,SOURCE_PORT,DEST_PORT,TRANSPORT_MSS,THROUGHPUT
verify mapped "L[:3] == ['SOURCE_ADDR=127.0.0.1', 'SOURCE_PORT=$DP', 'DEST_PORT=$PORT'] and 0 < int(L[3].split('=')[1]) <= 1000 and num(L[4].split('=')[1]) > 0" "-L, -p lport, -P, -G"
run udp_e -P 0 -t UDP_RR -- -e 1 -r 64 -k THROUGHPUT
verify udp_e 'num(L[0].split("=")[1]) > 0' "UDP_RR -e 1"

# a refused connection: exit 255, no banner
P2=$(free_port)
"$XPERF" --netperf-args -H 127.0.0.1 -p "$P2" -l 1 >"$TMP/ref.out" 2>"$TMP/ref.err"; rc=$?
[ $rc = 255 ] || fail "refused: exit $rc, want 255"
[ -s "$TMP/ref.out" ] && fail "refused: printed on stdout: $(cat "$TMP/ref.out")"
grep -q "Connection refused" "$TMP/ref.err" || fail "refused message: $(cat "$TMP/ref.err")"

# ---- netperf 2.7's -V, -h, unknown tests, -t uuid ----
NP -V >"$TMP/v.out" || fail "-V: exit $?"
verify v 'L == ["Netperf version 2.7.1"]' "-V"
NP -h >"$TMP/h.out" 2>"$TMP/h.err"; rc=$?
[ $rc = 1 ] && [ ! -s "$TMP/h.out" ] && grep -q "Usage:" "$TMP/h.err" ||
	fail "-h: exit $rc, usage belongs on stderr"
NP -t FOO_BAR >"$TMP/foo.out"; rc=$?
[ $rc = 1 ] || fail "-t FOO_BAR: exit $rc, want 1"
verify foo 'L[0] == "The test you requested (FOO_BAR) is unknown to this netperf." and len(L) == 3' "unknown test"
NP -t uuid >"$TMP/uuid.out" || fail "-t uuid: exit $?"
grep -Eqx '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}' "$TMP/uuid.out" ||
	fail "-t uuid: $(cat "$TMP/uuid.out")"

# ---- -D: interim results as the test runs ----
# flent's form: four NETPERF_*[n] lines per interval, n from 0, the end
# in Unix seconds now, then the -k keys
run demo_k -P 0 -v 0 -D -0.20 -l 1 -f m -- -k THROUGHPUT,LOCAL_SOCKET_TOS,REMOTE_SOCKET_TOS
verify demo_k '
import time
I = [l for l in L if l.startswith("NETPERF_INTERIM_RESULT[")]
U = [l for l in L if l.startswith("NETPERF_UNITS[")]
D = [float(l.split("=")[1]) for l in L if l.startswith("NETPERF_INTERVAL[")]
E = [float(l.split("=")[1]) for l in L if l.startswith("NETPERF_ENDING[")]
# (a busy machine can make a worker answer late: a longer interval)
ok = 3 <= len(I) <= 6 and len(I) == len(U) == len(D) == len(E)
ok = ok and all(l.startswith("NETPERF_INTERIM_RESULT[%d]=" % i) for i, l in enumerate(I))
ok = ok and all(u.endswith("=10^6bits/s") for u in U) and 0.15 < sorted(D)[len(D) // 2] < 0.3
ok = ok and 0.8 < sum(D) < 2 and all(0 < d < 1.2 for d in D)
ok = ok and E == sorted(E) and abs(E[-1] - time.time()) < 30 and all(num(l.split("=")[1]) > 0 for l in I)
ok = ok and L[-3].startswith("THROUGHPUT=")
ok = ok and L[-2:] == ["LOCAL_SOCKET_TOS=0xffffffff", "REMOTE_SOCKET_TOS=0xffffffff"]' "-D -0.20 -k"
# classic: "Interim result:" lines after the banner, before the table
run demo_h -D 0.25 -l 1 -t TCP_RR
verify demo_h 're.fullmatch(r"Interim result: +[0-9.]+ Trans/s over 0\.2[0-9]{2} seconds ending at 1[0-9]{9}\.[0-9]{3}", L[1]) and L.index("Local /Remote") >= 4 and all(l.startswith("Interim result: ") for l in L[1:L.index("Local /Remote")])' "-D 0.25 classic"
# -o: CSV interim lines
run demo_o -P 0 -D -0.25 -l 1 -t UDP_RR -- -o THROUGHPUT
verify demo_o 're.fullmatch(r" *[0-9.]+,Trans/s,0\.2[0-9]{2},1[0-9]{9}\.[0-9]{3}", L[0]) and num(L[-1]) > 0' "-D -o"

# ---- signals: SIGALRM and SIGINT end a test with its results, exit 0 ----
# sig NAME SIGNAL AFTER ARGS...: start, signal after AFTER s, wait
sig() {
	name=$1 s=$2 after=$3
	shift 3
	"$XPERF" --netperf-args -H 127.0.0.1 -p "$PORT" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
	pid=$!
	sleep "$after"
	kill -s "$s" "$pid" || fail "$name: nothing to signal"
	for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$pid" 2>/dev/null && { kill -9 "$pid"; fail "$name: still running 5 s after SIG$s"; }
	wait "$pid"
	rc=$?
	[ $rc = 0 ] || { cat "$TMP/$name.err" >&2; fail "$name: exit $rc after SIG$s, want 0"; }
}
# -l 0: until the signal
sig l0 ALRM 1.5 -l 0 -t TCP_STREAM -P 0 -v 0
verify l0 'len(L) == 1 and num(L[0]) > 0' "-l 0 then SIGALRM"
# bloat.sh: a two-hour TCP_RR with interim results, ended by SIGALRM
sig bloat ALRM 1.5 -l 7200 -t TCP_RR -D -0.5 -v 2 -- -r 1
verify bloat 'len([l for l in L if l.startswith("Interim result:")]) >= 2 and num(L[-2].split()[5]) > 0' "TCP_RR -l 7200 then SIGALRM"
# flent's watchdog: SIGINT; ELAPSED_TIME is the time run
sig flent_int INT 1.5 -P 0 -v 0 -D -0.20 -l 7200 -t TCP_MAERTS -f m -- -k THROUGHPUT,ELAPSED_TIME,DIRECTION
verify flent_int 'L[-1] == "DIRECTION=Receive" and 1 <= num(L[-2].split("=")[1]) < 5 and num(L[-3].split("=")[1]) > 0' "SIGINT"
# runemomniaggdemo.sh: omni receive test ended by SIGALRM (netperf itself hangs there)
sig agg_in ALRM 1.5 -D 0.5 -c -C -f m -P 0 -t omni -l 7200 -v 2 -- -m ,64K -u 11111111-2222-3333-4444-555555555555 -o all
verify agg_in 'len(L[-1].split(",")) >= 173 and L[-1].split(",")[2] == "Receive" and num(L[-1].split(",")[4]) > 0 and ",11111111-2222-3333-4444-555555555555," in L[-1]' "omni -m ,64K then SIGALRM"

# ---- omni command lines from netperf's manual and doc/examples ----
run o_stream -t omni -P 0 -- -d stream -s 256K -S 256K -o throughput,direction
verify o_stream 'len(L) == 1 and L[0].split(",")[1] == "Send" and num(L[0].split(",")[0]) > 0' "-d stream"
run o_maerts -t omni -P 0 -- -d maerts -s 256K -S 256K -o throughput,direction
verify o_maerts 'len(L) == 1 and L[0].split(",")[1] == "Receive"' "-d maerts"
run o_rr_k -t omni -- -d rr -k THROUGHPUT,THROUGHPUT_UNITS
verify o_rr_k 'L[0].startswith("OMNI Send|Recv TEST from ") and L[2] == "THROUGHPUT_UNITS=Trans/s"' "-d rr -k"
run o_rr_O -t omni -- -d rr -O THROUGHPUT,THROUGHPUT_UNITS
verify o_rr_O 'L[1] == "Throughput Throughput " and L[2] == "           Units      " and L[5].split()[1] == "Trans/s"' "-d rr -O"
run o_default -t omni
verify o_default 'L[1].split() == ["Local", "Remote", "Local", "Elapsed", "Throughput", "Throughput"] and len(L) == 6' "-t omni"
run o_all -P 1 -T 0,0 -t omni -c -C -- -o all -H 127.0.0.1 -m 64K
verify o_all 'len(L) == 3 and len(L[1].split(",")) == 173 and len(L[2].split(",")) >= 173 and L[2].split(",")[18] == "65536" and L[2].split(",")[30] == "S"' "runemomni.sh stream"
run o_burst -P 0 -t omni -f m -c -C -- -o all -s 1M -S 1M -r 64K -b 12
verify o_burst 'len(L) == 1 and L[0].split(",")[2] == "Send|Recv" and L[0].split(",")[49] == "12" and L[0].split(",")[5] == "10^6bits/s"' "runemomni.sh burst"
run o_udp -P 0 -t omni -f m -c -C -- -o all -s 1M -S 1M -m 1472 -T udp
verify o_udp 'L[0].split(",")[1:3] == ["UDP", "Send"] and L[0].split(",")[18] == "1472" and int(L[0].split(",")[75]) > 0' "runemomni.sh UDP"
run o_cc -t omni -- -c -d 0 -k DIRECTION,THROUGHPUT_UNITS
verify o_cc 'L[0].startswith("OMNI Connection TEST") and L[1:] == ["DIRECTION=Connection", "THROUGHPUT_UNITS=Trans/s"]' "-c -d 0"
run t_cc -t TCP_CC -P 0
verify t_cc 'len(L) == 2 and num(L[0].split()[5]) > 0 and L[0].split()[2:4] == ["1", "1"]' "TCP_CC"
run t_sendfile -t TCP_SENDFILE
verify t_sendfile 'L[0].startswith("TCP SENDFILE TEST from ") and num(L[6].split()[4]) > 0' "TCP_SENDFILE"
NP -t LOC_CPU -v 2 >"$TMP/loc.out" || fail "LOC_CPU: exit $?"
verify loc 'L[0] == "100" and re.fullmatch(r"There are [0-9]+ local cpus", L[1])' "LOC_CPU -v 2"

# ---- netperf against xperf -s, and xperf against a netserver: at once ----
if [ -n "$REAL_NETPERF_DIR" ]; then
	timeout 5 "$REAL_NETPERF_DIR/netperf" -H 127.0.0.1 -p "$PORT" -l 1 >"$TMP/real.out" 2>"$TMP/real.err"; rc=$?
	[ $rc = 255 ] && grep -q "remote error 93" "$TMP/real.out" ||
		fail "real netperf against xperf -s: exit $rc, $(cat "$TMP/real.out" "$TMP/real.err")"
	NSP=$(free_port)
	"$REAL_NETPERF_DIR/netserver" -D -p "$NSP" -L 127.0.0.1 >"$TMP/netserver.log" 2>&1 &
	NS_PID=$!
	EXTRA_CLEANUP='kill $NS_PID 2>/dev/null'
	sleep 0.5
else
	# netperf's first message: 656 bytes, DO_OMNI (97), no CPU binding
	python3 - "$PORT" <<'PY' || fail "xperf -s did not answer netperf's request as a netserver would"
import socket, struct, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), 2)
s.settimeout(2)
s.sendall(struct.pack(">iI", 97, 0xffffffff) + bytes(648))
b = b""
while len(b) < 656:
    c = s.recv(656 - len(b))
    if not c:
        break
    b += c
sys.exit(0 if len(b) == 656 and struct.unpack(">ii", b[:8]) == (98, 93) else 1)
PY
	# a listener that behaves as netserver: reads 656 bytes, answers an
	# unknown request with response 0, serv_errno 998, reads on
	NSP=$(free_port)
	python3 - "$NSP" "$TMP/ns.ready" <<'PY' &
import socket, struct, sys
l = socket.socket()
l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
l.bind(("127.0.0.1", int(sys.argv[1])))
l.listen(8)
open(sys.argv[2], "w").close()
l.settimeout(20)
for _ in range(2):
    c, _ = l.accept()
    try:
        b = b""
        while len(b) < 656:
            d = c.recv(656 - len(b))
            if not d:
                break
            b += d
        if len(b) == 656:
            c.sendall(struct.pack(">ii", 0, 998) + bytes(648))
        c.recv(1)
    except OSError:
        pass
    c.close()
PY
	NS_PID=$!
	EXTRA_CLEANUP='kill $NS_PID 2>/dev/null'
	# listening once it says so (python alone may take a second to start)
	for _ in $(seq 100); do
		[ -e "$TMP/ns.ready" ] && break
		sleep 0.1
	done
	[ -e "$TMP/ns.ready" ] || fail "the netserver stand-in did not start listening"
fi
# the stand-in (or netserver) listening: python3 can take seconds to start
for _ in $(seq 100); do
	ss -Htln "sport = :$NSP" 2>/dev/null | grep -q . && break
	sleep 0.1
done
start=$(date +%s)
timeout 10 "$XPERF" --netperf-args -H 127.0.0.1 -p "$NSP" -l 1 >"$TMP/ns.out" 2>"$TMP/ns.err"; rc=$?
[ $rc = 255 ] && grep -q "is a netperf netserver" "$TMP/ns.err" ||
	fail "drop-in against a netserver: exit $rc, $(cat "$TMP/ns.err")"
timeout 10 "$XPERF" -c 127.0.0.1 -p "$NSP" -l 1 >"$TMP/ns2.out" 2>"$TMP/ns2.err"
grep -q "is a netperf netserver" "$TMP/ns2.err" || fail "xperf -c against a netserver: $(cat "$TMP/ns2.err")"
[ $(($(date +%s) - start)) -le 3 ] || fail "telling a netserver apart took $(($(date +%s) - start)) s"
echo "netperf_compat: ok"
