#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Wire interoperability with a stock iperf3 (3.x), between two network
# namespaces joined by a veth pair: a stock `iperf3 -c` against
# `xperf -s -p 5201`, and xperf's iperf3 client (the iperf3 front end,
# `xperf --iperf3-args -c`) against a stock `iperf3 -s`; TCP, UDP, -R,
# -P 4 and --bidir.  The byte counts of the two
# ends are compared (the sender's sent bytes against the receiver's
# received bytes, each from its own side's JSON), and iperf3's -J output
# is read with jq where iperf3 users read it.  Needs root, `ip netns`,
# iperf3 and jq; skipped (77) otherwise.  KEEP=DIR keeps the JSON there.
. "${srcdir:-.}/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip "iperf3_interop: needs root"
for t in ip iperf3 jq timeout; do
	command -v $t >/dev/null || skip "iperf3_interop: needs $t"
done
A=iperf3wire-a-$$
B=iperf3wire-b-$$
EXTRA_CLEANUP="ip netns del $A 2>/dev/null; ip netns del $B 2>/dev/null"
ip netns add "$A" 2>/dev/null || skip "iperf3_interop: cannot create network namespaces here"
ip netns add "$B" || fail "second namespace"
# made inside the namespaces: the names never meet the host's
ip link add iperf3wire-va netns "$A" type veth peer name iperf3wire-vb netns "$B" ||
	skip "iperf3_interop: no veth support in this kernel"
ip -n "$A" addr add 10.239.0.1/24 dev iperf3wire-va
ip -n "$B" addr add 10.239.0.2/24 dev iperf3wire-vb
for n in "$A" "$B"; do ip -n "$n" link set lo up; done
ip -n "$A" link set iperf3wire-va up
ip -n "$B" link set iperf3wire-vb up
SRV=10.239.0.2
INA="ip netns exec $A"
INB="ip netns exec $B"

# jqt FILE FILTER MESSAGE: the filter (jq -e) must hold on the JSON.
jqt() {
	jq -e "$2" "$1" >/dev/null || {
		echo "--- $1:" >&2; head -c 4000 "$1" >&2; fail "$3 [$2]"; }
}

keep() {
	[ -n "$KEEP" ] && mkdir -p "$KEEP" && cp "$@" "$KEEP/"
	return 0
}

# ---- 1. a stock iperf3 client against xperf -s -p 5201 ----
: >"$TMP/server.log"
$INB "$XPERF" -s -p 5201 -v >>"$TMP/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 50); do
	grep -q "listening on port" "$TMP/server.log" && break
	sleep 0.1
done
grep -q "listening on port" "$TMP/server.log" || fail "xperf -s -p 5201 did not start"

stock() { # NAME IPERF3-ARGS...: a stock client's -J document in $TMP/NAME.json
	name=$1; shift
	timeout 30 $INA iperf3 -c $SRV -p 5201 -t 2 -J "$@" >"$TMP/$name.json" ||
		fail "stock iperf3 client $name: exit $?"
	jqt "$TMP/$name.json" '.error == null' "stock client $name: iperf3 reported an error"
	keep "$TMP/$name.json"
}

# The server's own count, from its log line for the test just done.
server_count() { # received|sent
	tail -n 1 "$TMP/server.log" | sed -n "s/.* $1 \([0-9]*\).*/\1/p"
}

stock s-tcp
jqt "$TMP/s-tcp.json" '.end.sum_sent.bytes == .end.sum_received.bytes and
	.end.sum_received.bytes > 0' "TCP: the server received every byte the client sent"
[ "$(server_count received)" = "$(jq .end.sum_received.bytes "$TMP/s-tcp.json")" ] ||
	fail "TCP: the server's own count differs from the client's JSON"
jqt "$TMP/s-tcp.json" '.end.sum_received.bits_per_second > 0 and
	(.end.sum_sent.retransmits | type == "number") and
	all(.end.streams[]; .sender.bits_per_second > 0) and
	(.start.connected | length == 1) and .start.connected[0].remote_port == 5201' \
	"TCP: iperf3's JSON paths"

stock s-udp -u -b 100M
jqt "$TMP/s-udp.json" '.end.sum_sent.packets == .end.sum_received.packets and
	.end.sum_received.bytes == (.end.sum_sent.packets - .end.sum_received.lost_packets) *
	.start.test_start.blksize and .end.sum_received.bytes > 0' \
	"UDP: received + lost datagrams = sent"
[ "$(server_count received)" = "$(jq .end.sum_received.bytes "$TMP/s-udp.json")" ] ||
	fail "UDP: the server's own count differs from the client's JSON"
jqt "$TMP/s-udp.json" '(.end.sum.jitter_ms | type == "number") and .end.sum.jitter_ms >= 0 and
	(.end.sum.lost_percent | type == "number") and
	all(.end.streams[]; .udp.bits_per_second > 0)' "UDP: iperf3's JSON paths"

# -R: the stock client stops counting at TEST_END, what was in flight is
# not in its count (as with a stock server); the server's is all it sent.
stock s-rev -R
jqt "$TMP/s-rev.json" '.end.sum_sent.bytes >= .end.sum_received.bytes and
	.end.sum_received.bytes > 0.5 * .end.sum_sent.bytes and
	(.end.sum_sent.retransmits | type == "number")' "-R: sent and received"
[ "$(server_count sent)" = "$(jq .end.sum_sent.bytes "$TMP/s-rev.json")" ] ||
	fail "-R: the server's own count differs from the client's JSON"

# -w and -M go on the listener before the streams connect (as iperf3
# sets them on its own), so the handshake offers that window: set after
# accept, -w 8K -l 4K moved 1.5 Mbit/s (a 200 ms stall per send).  Then the
# server listens afresh: no later connection inherits the locked buffers.
stock s-win -w 8K -l 4K
jqt "$TMP/s-win.json" '.end.sum_sent.bytes == .end.sum_received.bytes and
	.end.sum_received.bits_per_second > 50e6' "-w 8K -l 4K: no stall"
rb=
for _ in $(seq 30); do
	rb=$($INB ss -Htlmn "sport = :5201" | sed -n 's/.*skmem:(r[0-9]*,rb\([0-9]*\),.*/\1/p' | head -n 1)
	[ -n "$rb" ] && [ "$rb" != 16384 ] && break
	sleep 0.1
done
[ -n "$rb" ] && [ "$rb" != 16384 ] ||
	fail "-w 8K: the listener still has the test's receive buffer ($rb) 3 s after"

stock s-p4 -P 4
jqt "$TMP/s-p4.json" '.end.sum_sent.bytes == .end.sum_received.bytes and
	all(.end.streams[]; .sender.bytes == .receiver.bytes and .receiver.bytes > 0) and
	(.start.connected | length == 4) and
	([.end.streams[].sender.socket] | unique | length == 4)' "-P 4: every stream exact"

stock s-bidir --bidir
jqt "$TMP/s-bidir.json" '.end.sum_sent.bytes == .end.sum_received.bytes and
	.end.sum_received.bytes > 0 and .end.sum_received_bidir_reverse.bytes > 0 and
	.end.sum_sent_bidir_reverse.bytes >= .end.sum_received_bidir_reverse.bytes' \
	"--bidir: client to server exact, server to client counted"

# one iperf3 test at a time: a second client is told the server is busy
timeout 30 $INA iperf3 -c $SRV -p 5201 -t 3 >/dev/null 2>&1 &
first=$!
sleep 1
timeout 10 $INA iperf3 -c $SRV -p 5201 -t 1 -J >"$TMP/s-busy.json"
wait $first || fail "busy: the first client failed"
jqt "$TMP/s-busy.json" '.error | test("busy")' "busy: the second client hears ACCESS_DENIED"
# what xperf cannot serve is refused with iperf3's error, which it prints
timeout 10 $INA iperf3 -c $SRV -p 5201 -t 1 -C xperf-no-such-cc -J >"$TMP/s-refused.json"
jqt "$TMP/s-refused.json" '.error | test("TCP_CONGESTION")' "refused: iperf3's error state"
stop_server

# ---- 2. xperf's iperf3 client against a stock iperf3 -s ----
stock_server() { # NAME: a one-off stock server writing $TMP/NAME-server.json
	$INB iperf3 -s -1 -p 5202 -J >"$TMP/$1-server.json" 2>&1 &
	SPID=$!
	for _ in $(seq 50); do
		$INB ss -ltnH "sport = :5202" | grep -q . && return 0
		sleep 0.1
	done
	fail "stock iperf3 -s did not start"
}

xp() { # NAME IPERF3-ARGS...: xperf's JSON in $TMP/NAME.json, the server's beside
	name=$1; shift
	stock_server "$name"
	timeout 30 $INA "$XPERF" --iperf3-args -c $SRV -p 5202 -t 2 -J "$@" \
		>"$TMP/$name.json" 2>"$TMP/$name.err" ||
		{ cat "$TMP/$name.err" >&2; kill $SPID 2>/dev/null; fail "xperf --iperf3-args $name"; }
	wait $SPID || fail "$name: the stock server failed"
	jqt "$TMP/$name-server.json" '.error == null' "$name: the stock server reported an error"
	keep "$TMP/$name.json" "$TMP/$name-server.json"
}

# both documents in one: .[0] xperf's, .[1] the stock server's
both() { jq -s . "$TMP/$1.json" "$TMP/$1-server.json" >"$TMP/$1-both.json"; }

xp x-tcp
both x-tcp
jqt "$TMP/x-tcp-both.json" '.[0].end.sum_sent.bytes == .[1].end.sum_received.bytes and
	.[1].end.sum_received.bytes > 0' "TCP: the stock server received every byte"

xp x-udp -u -b 100M -l 1472
both x-udp
jqt "$TMP/x-udp-both.json" '.[0].end.sum_sent.packets == .[1].end.sum_received.packets and
	.[1].end.sum_received.bytes == (.[1].end.sum_received.packets -
	.[1].end.sum_received.lost_packets) * 1472 and
	.[0].end.sum_received.bytes == .[1].end.sum_received.bytes' \
	"UDP: every datagram sent was received or counted lost"

xp x-rev -R
both x-rev
jqt "$TMP/x-rev-both.json" '.[0].end.sum_received.bytes == .[1].end.sum_sent.bytes and
	.[1].end.sum_sent.bytes > 0' "-R: xperf received every byte the server sent"

xp x-p4 -P 4
both x-p4
jqt "$TMP/x-p4-both.json" '.[0].end.sum_sent.bytes == .[1].end.sum_received.bytes and
	([.[0].end.streams[].sender.bytes] == [.[1].end.streams[].receiver.bytes]) and
	(.[1].end.streams | length == 4)' "-P 4: every stream exact"

xp x-bidir --bidir
both x-bidir
# --bidir: each direction's receiver counted what its sender sent, less at
# most a tail still in flight when the stock server's TEST_END stopped the
# streams (exact in almost every run; once, under a loaded distcheck, not:
# the stock server ends both directions at once, as iperf3 itself reports
# a bidir receiver below its sender).  At least 95% and never more.
jqt "$TMP/x-bidir-both.json" '.[0].end.streams[0].sender.bytes as $f |
	.[1].end.sum_received.bytes as $fr |
	.[1].end.sum_sent_bidir_reverse.bytes as $r |
	.[0].end.streams[1].receiver.bytes as $rr |
	$fr > 0 and $fr <= $f and $fr >= 0.95 * $f and
	$rr > 0 and $rr <= $r and $rr >= 0.95 * $r' \
	"--bidir: both directions counted (at most a tail short)"

# an xperf client (not in iperf3 mode) is told at once what it reached
stock_server x-detect
start=$(date +%s)
timeout 30 $INA "$XPERF" -c $SRV -p 5202 -l 1 >"$TMP/x-detect.out" 2>&1 &&
	fail "xperf client against a stock iperf3 server succeeded"
[ $(($(date +%s) - start)) -le 5 ] || fail "detection took more than 5 s"
grep -q "is an iperf3 server" "$TMP/x-detect.out" || { cat "$TMP/x-detect.out" >&2;
	fail "detection message"; }
kill $SPID 2>/dev/null
wait $SPID 2>/dev/null
echo "iperf3_interop: stock client -> xperf -s and xperf -> stock iperf3 -s agree"
