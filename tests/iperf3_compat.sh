#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# xperf as iperf3 (the iperf3 front end) beside a stock iperf3, between two
# network namespaces joined by a veth pair:
#   1. a stock iperf3 client against xperf's `iperf3 -s`, and xperf's
#      `iperf3 -c` against a stock `iperf3 -s`: TCP, UDP, -R and -P 4, the
#      byte counts of both ends' JSON compared;
#   2. the nine jq paths scripts read, on xperf's JSON and on a stock
#      client's (same path: numbers of the same order of magnitude);
#   3. the issue's commands as typed (-P 4 -l 256K, -u -b 10G -l 1400, -R,
#      -J | jq, -s --logfile, taskset -c 0 ... -A 0) and the 64-port server
#      loop (-D --logfile) unchanged;
#   4. the shape of the text (every line in order, its width, units; the
#      numbers masked: tests/iperf3_shape.py) of client and server against
#      stock iperf3's for the same test, and the JSON key paths and types;
#   5. --json-stream lines, exit statuses, -v.
# Needs root, `ip netns`, iperf3 (stock, Debian's) and jq; skipped (77)
# otherwise.  KEEP=DIR keeps the outputs there.
. "${srcdir:-.}/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip "iperf3_compat: needs root"
for t in ip iperf3 jq timeout taskset; do
	command -v $t >/dev/null || skip "iperf3_compat: needs $t"
done
SI3=$(command -v iperf3)
mkdir -p "$TMP/bin"
ln -s "$XPERF" "$TMP/bin/iperf3" # xperf under the name iperf3
XI3=$TMP/bin/iperf3
SHAPE="python3 $srcdir/tests/iperf3_shape.py"
A=iperf3fe-a-$$
B=iperf3fe-b-$$
EXTRA_CLEANUP="stop_b; ip netns del $A 2>/dev/null; ip netns del $B 2>/dev/null"
ip netns add "$A" 2>/dev/null || skip "iperf3_compat: cannot create network namespaces here"
ip netns add "$B" || fail "second namespace"
ip link add iperf3fe-va netns "$A" type veth peer name iperf3fe-vb netns "$B" ||
	skip "iperf3_compat: no veth support in this kernel"
ip -n "$A" addr add 10.241.0.1/24 dev iperf3fe-va
ip -n "$B" addr add 10.241.0.2/24 dev iperf3fe-vb
for n in "$A" "$B"; do ip -n "$n" link set lo up; done
ip -n "$A" link set iperf3fe-va up
ip -n "$B" link set iperf3fe-vb up
IP=10.241.0.2
INA="ip netns exec $A"
INB="ip netns exec $B"

# Every process left in B (servers, the 64 daemons): all started here.
stop_b() {
	for p in $(ip netns pids "$B" 2>/dev/null); do kill "$p" 2>/dev/null; done
	sleep 0.2
}

jqt() { # FILE FILTER MESSAGE: the filter (jq -e) holds
	jq -e "$2" "$1" >/dev/null || {
		echo "--- $1:" >&2; head -c 3000 "$1" >&2; fail "$3 [$2]"; }
}

keep() {
	[ -n "$KEEP" ] && mkdir -p "$KEEP" && cp "$@" "$KEEP/"
	return 0
}

listening() { # PORT: wait until something in B listens there
	for _ in $(seq 50); do
		$INB ss -ltnH "sport = :$1" | grep -q . && return 0
		sleep 0.1
	done
	fail "nothing listens on port $1 in $B"
}

# srv1 NAME SERVER ARGS...: a one-off server in B (-1 -p 5301) writing
# $TMP/NAME.srv; then run_client NAME CLIENT ARGS... writes $TMP/NAME.cli
srv1() {
	name=$1; bin=$2; shift 2
	$INB timeout 30 "$bin" -s -1 -p 5301 "$@" >"$TMP/$name.srv" 2>&1 &
	SPID=$!
	listening 5301
}
run_client() {
	name=$1; bin=$2; shift 2
	timeout 30 $INA "$bin" -c $IP -p 5301 "$@" >"$TMP/$name.cli" 2>"$TMP/$name.err" ||
		{ cat "$TMP/$name.err" >&2; fail "$name: $bin -c $* exited $?"; }
	wait $SPID || fail "$name: the server (-1) failed"
	keep "$TMP/$name.cli" "$TMP/$name.srv"
}
pair() { # NAME SERVER-BIN CLIENT-BIN CLIENT-ARGS... (JSON at both ends)
	name=$1; s=$2; c=$3; shift 3
	srv1 "$name" "$s" -J
	run_client "$name" "$c" -t 1 -J "$@"
	jqt "$TMP/$name.cli" '.error == null' "$name: the client reported an error"
	jqt "$TMP/$name.srv" '.error == null' "$name: the server reported an error"
}

# ---- 1. interop, both ways, byte counts of both ends ----
for dir in s2x x2s; do
	if [ $dir = s2x ]; then S=$XI3; C=$SI3; else S=$SI3; C=$XI3; fi
	pair $dir-tcp "$S" "$C"
	jq -s '{c: .[0].end, s: .[1].end}' "$TMP/$dir-tcp.cli" "$TMP/$dir-tcp.srv" >"$TMP/t.json"
	jqt "$TMP/t.json" '.c.sum_sent.bytes == .s.sum_received.bytes and .c.sum_sent.bytes > 0' \
		"$dir TCP: the server received every byte the client sent"
	pair $dir-udp "$S" "$C" -u -b 100M
	jq -s '{c: .[0], s: .[1]}' "$TMP/$dir-udp.cli" "$TMP/$dir-udp.srv" >"$TMP/t.json"
	jqt "$TMP/t.json" '.c.end.sum_sent.packets == .s.end.sum_received.packets and
		.s.end.sum_received.bytes == (.s.end.sum_received.packets -
		.s.end.sum_received.lost_packets) * .c.start.test_start.blksize' \
		"$dir UDP: every datagram sent was received or counted lost"
	pair $dir-rev "$S" "$C" -R
	jq -s '{c: .[0].end, s: .[1].end}' "$TMP/$dir-rev.cli" "$TMP/$dir-rev.srv" >"$TMP/t.json"
	jqt "$TMP/t.json" '.c.sum_sent.bytes == .s.sum_sent.bytes and .c.sum_received.bytes > 0 and
		.c.sum_received.bytes <= .c.sum_sent.bytes' "$dir -R: both ends count the sent bytes"
	pair $dir-p4 "$S" "$C" -P 4
	jq -s '{c: .[0].end, s: .[1].end}' "$TMP/$dir-p4.cli" "$TMP/$dir-p4.srv" >"$TMP/t.json"
	jqt "$TMP/t.json" '[.c.streams[].sender.bytes] == [.s.streams[].receiver.bytes] and
		(.c.streams | length == 4)' "$dir -P 4: every stream exact"
done
# xperf's servers read what was in flight at TEST_END: receiver = sender
jqt "$TMP/s2x-tcp.cli" '.end.sum_received.bytes == .end.sum_sent.bytes' \
	"s2x TCP: xperf's receiver holds every byte"
# xperf's client reads until the stock server closes: all it sent
jqt "$TMP/x2s-rev.cli" '.end.sum_received.bytes == .end.sum_sent.bytes' \
	"x2s -R: xperf's client received every byte the stock server sent"
echo "iperf3_compat: interop both ways, byte counts agree"

# ---- 2. the nine jq paths: xperf's JSON and a stock client's, same path ----
pair st-path "$SI3" "$SI3" -P 2 -i 0.5
pair xt-path "$SI3" "$XI3" -P 2 -i 0.5
pair su-path "$SI3" "$SI3" -u -b 100M
pair xu-path "$SI3" "$XI3" -u -b 100M
paths=".end.sum_received.bits_per_second .end.sum_sent.bits_per_second
.end.sum_sent.retransmits .end.streams[].sender.bits_per_second .start.connected[]
.intervals[].sum.bits_per_second .end.cpu_utilization_percent.host_total"
: >"$TMP/jq.txt"
for p in $paths .end.sum.jitter_ms .end.sum.lost_percent; do
	case $p in .end.sum.*) s=su-path; x=xu-path ;; *) s=st-path; x=xt-path ;; esac
	sv=$(jq -c "$p" "$TMP/$s.cli" | tr '\n' ' ')
	xv=$(jq -c "$p" "$TMP/$x.cli" | tr '\n' ' ')
	printf '%s\n  iperf3: %s\n  xperf:  %s\n' "$p" "$sv" "$xv" >>"$TMP/jq.txt"
	# numbers (objects for connected[]), as many on both, bit rates within 10x
	python3 - "$p" "$sv" "$xv" <<'PY' || { cat "$TMP/jq.txt" >&2; fail "jq path $p"; }
import json, sys
p, s, x = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
s, x = [json.loads(v) for v in s], [json.loads(v) for v in x]
assert len(s) == len(x) and x, "%d values from iperf3, %d from xperf" % (len(s), len(x))
for a, b in zip(s, x):
    if p.startswith('.start.connected'):
        assert sorted(a) == sorted(b), (a, b)
        continue
    assert isinstance(b, (int, float)) and not isinstance(b, bool), b
    if 'bits_per_second' in p:
        assert b > 0 and 0.1 < b / a < 10, "%s vs %s" % (a, b)
    else:
        assert b >= 0
PY
done
keep "$TMP/jq.txt"
echo "iperf3_compat: the nine jq paths give numbers on xperf as on iperf3"

# ---- 3. the issue's commands, as typed, with xperf as iperf3 ----
$INB "$SI3" -s -p 5302 >"$TMP/stock-5302.log" 2>&1 &
listening 5302
typed() { # NAME ARGS...: xperf as iperf3 against the stock server
	name=$1; shift
	timeout 30 $INA "$@" >"$TMP/$name.out" 2>&1 || { cat "$TMP/$name.out" >&2;
		fail "typed $name: $* exited $?"; }
	keep "$TMP/$name.out"
}
typed p4 "$XI3" -c $IP -p 5302 -t 2 -i 1 -P 4 -l 256K
grep -q '^\[SUM\].*receiver$' "$TMP/p4.out" || fail "-P 4 -l 256K: no [SUM] receiver line"
typed udp10g "$XI3" -c $IP -p 5302 -t 2 -u -b 10G -l 1400
grep -q ' ms .*receiver$' "$TMP/udp10g.out" || fail "-u -b 10G -l 1400: no UDP receiver line"
typed rev "$XI3" -c $IP -p 5302 -t 2 -i 1 -R
grep -q '^Reverse mode, remote host' "$TMP/rev.out" || fail "-R: no reverse line"
timeout 30 $INA "$XI3" -c $IP -p 5302 -t 2 -i 1 -J | jq .end.sum_received.bits_per_second \
	>"$TMP/jq1.out" || fail "-J | jq"
grep -Eq '^[0-9.e+]+$' "$TMP/jq1.out" || fail "-J | jq .end.sum_received.bits_per_second: $(cat "$TMP/jq1.out")"
typed taskset taskset -c 0 "$XI3" -c $IP -p 5302 -t 2 -P 8 -A 0
grep -q '^\[SUM\].*sender$' "$TMP/taskset.out" || fail "taskset -c 0 ... -P 8 -A 0"
grep -q 'iperf Done\.' "$TMP/taskset.out" || fail "-P 8 -A 0: not done"
# iperf3 -s -p 5201 --logfile FILE, a stock client against it
$INB "$XI3" -s -p 5201 --logfile "$TMP/server-5201.log" &
listening 5201
timeout 30 $INA "$SI3" -c $IP -p 5201 -t 1 >/dev/null || fail "stock client -> iperf3 -s --logfile"
sleep 0.3
grep -q '^Server listening on 5201 (test #1)' "$TMP/server-5201.log" &&
	grep -q 'receiver$' "$TMP/server-5201.log" &&
	grep -q '^Server listening on 5201 (test #2)' "$TMP/server-5201.log" ||
	{ cat "$TMP/server-5201.log" >&2; fail "-s --logfile: iperf3's lines in the file"; }
stop_b

# the 64-port server loop, unchanged (bash's {5201..5264} spelled for sh)
(cd "$TMP" && for p in $(seq 5201 5264); do
	$INB "$XI3" -s -p $p -D --logfile iperf_server_$p.log; done) ||
	fail "64 servers: iperf3 -s -D --logfile"
listening 5264
for batch in 0 1 2 3; do
	pids=
	for k in $(seq 0 15); do
		p=$((5201 + batch * 16 + k))
		timeout 20 $INA "$SI3" -c $IP -p $p -t 1 --json >"$TMP/c_$p.json" 2>&1 &
		pids="$pids $!"
	done
	for q in $pids; do wait "$q" || fail "a client of the 64 servers failed"; done
done
python3 - "$TMP" <<'PY' || fail "64 servers: summing the clients' JSON"
import glob, json, sys
files = sorted(glob.glob(sys.argv[1] + '/c_*.json'))
total = 0
for f in files:
    data = json.load(open(f))
    total += data['end']['sum_received']['bits_per_second']
assert len(files) == 64 and total > 0, (len(files), total)
print('iperf3_compat: 64 servers, %d clients, sum_received %.3g bits/s' % (len(files), total))
PY
for p in 5201 5232 5264; do
	grep -q "^Server listening on $p (test #2)" "$TMP/iperf_server_$p.log" ||
		{ cat "$TMP/iperf_server_$p.log" >&2; fail "server $p: its log"; }
done
stop_b
echo "iperf3_compat: the issue's commands and the 64-port loop work with xperf as iperf3"

# ---- 4. the shape of the text and of the JSON ----
$INB "$SI3" -s -p 5302 >/dev/null 2>&1 &
listening 5302
cshape() { # NAME ARGS...: stock and xperf clients, same stock server, same lines
	name=$1; shift
	timeout 30 $INA "$SI3" -c $IP -p 5302 "$@" >"$TMP/sh-$name.stock" 2>&1 ||
		fail "shape $name: the stock client"
	timeout 30 $INA "$XI3" -c $IP -p 5302 "$@" >"$TMP/sh-$name.xperf" 2>&1 ||
		fail "shape $name: xperf as iperf3"
	keep "$TMP/sh-$name.stock" "$TMP/sh-$name.xperf"
}
ccmp() { # NAME [SHAPE-OPTIONS]: compare them (-V: xperf names itself on line 1)
	name=$1; shift
	sed -i '1s/^iperf \(3\.[0-9]*\) .*/iperf \1/' "$TMP/sh-$name.xperf"
	$SHAPE "$@" "$TMP/sh-$name.stock" "$TMP/sh-$name.xperf" >&2 ||
		fail "shape $name: xperf's text differs from iperf3's"
}
cshape tcp -t 1 -P 2
ccmp tcp
cshape rev -t 1 -R
ccmp rev
cshape udp -t 1 -u -b 10M
ccmp udp
cshape bidir -t 1 --bidir
ccmp bidir
cshape verbose -t 1 -V -u -b 10M
ccmp verbose
cshape ts -t 1 --timestamps -T title -f m
ccmp ts --timestamps
grep -q '^[A-Z][a-z][a-z] .* title:  iperf Done\.' "$TMP/sh-ts.xperf" ||
	fail "--timestamps -T: the prefix"
# JSON: the same key paths and types, xperf's own under keys iperf3 lacks
cshape json -t 1 -J -P 2
cshape jsonu -t 1 -J -u -b 10M --bidir
for n in json jsonu; do
	$SHAPE --json "$TMP/sh-$n.stock" "$TMP/sh-$n.xperf" --extra \
		.start.test_start.bidir,.start.test_start.fqrate,.start.test_start.interval,.xperf >&2 ||
		fail "JSON $n: key paths or types differ from iperf3's"
done
stop_b
sshape() { # NAME ARGS...: stock client against each server, server lines compared
	sn=$1; shift
	srv1 "ss-$sn" "$SI3" $SERVER_ARGS
	run_client "ss-$sn" "$SI3" "$@"
	srv1 "sx-$sn" "$XI3" $SERVER_ARGS
	run_client "sx-$sn" "$SI3" "$@"
	sed -i '1s/^iperf \(3\.[0-9]*\) .*/iperf \1/' "$TMP/sx-$sn.srv"
	$SHAPE --drop-short "$TMP/ss-$sn.srv" "$TMP/sx-$sn.srv" >&2 ||
		fail "server shape $sn: xperf's iperf3 -s text differs from iperf3's"
}
SERVER_ARGS=
sshape tcp -t 2
sshape udprev -t 2 -u -b 10M -R
sshape bidir -t 2 --bidir -P 2
SERVER_ARGS=-V
sshape verbose -t 2
SERVER_ARGS=-J
srv1 ss-json "$SI3" -J
run_client ss-json "$SI3" -t 1
srv1 sx-json "$XI3" -J
run_client sx-json "$SI3" -t 1
$SHAPE --json "$TMP/ss-json.srv" "$TMP/sx-json.srv" --extra \
	.start.test_start.bidir,.start.test_start.fqrate,.start.test_start.interval >&2 ||
	fail "server JSON: key paths or types differ from iperf3's"
echo "iperf3_compat: text and JSON shapes as iperf3's, client and server"

# ---- 5. --json-stream, exit statuses, -v ----
$INB "$SI3" -s -p 5302 >/dev/null 2>&1 &
listening 5302
timeout 30 $INA "$XI3" -c $IP -p 5302 -t 2 --json-stream >"$TMP/stream.out" ||
	fail "--json-stream"
jq -s -e 'length >= 4 and .[0].event == "start" and .[1].event == "interval" and
	.[-1].event == "end" and (.[-1].data.sum_received.bits_per_second > 0)' \
	"$TMP/stream.out" >/dev/null || { cat "$TMP/stream.out" >&2; fail "--json-stream events"; }
stop_b
timeout 10 $INA "$XI3" -c $IP -p 5309 -t 1 2>"$TMP/refused.err" && fail "closed port: exit 0"
grep -q '^iperf3: error - unable to connect to server: Connection refused' "$TMP/refused.err" ||
	fail "closed port: iperf3's message"
timeout 10 $INA "$XI3" -c $IP -p 5309 -t 1 -J >"$TMP/refused.json" &&
	fail "closed port with -J: exit 0 (iperf3 3.12 exits 0 here; xperf does not)"
jqt "$TMP/refused.json" '.error | test("unable to connect")' "closed port: the JSON error"
"$XI3" -c $IP --sctp >/dev/null 2>"$TMP/sctp.err" && fail "--sctp accepted"
grep -q 'no SCTP support available' "$TMP/sctp.err" || fail "--sctp: the message"
"$XI3" -c $IP -P 129 >/dev/null 2>&1 && fail "-P 129 accepted"
"$XI3" -v | head -n 1 | grep -q '^iperf 3\.[0-9]* (xperf ' || fail "-v: the first line"
"$XPERF" --iperf3-args -v | head -n 1 | grep -q '^iperf 3\.' || fail "--iperf3-args -v"
echo "iperf3_compat: xperf as iperf3 prints and exits as iperf3 does"
