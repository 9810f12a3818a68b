#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# -t RRUL (latency under load) between two namespaces over a veth pair
# whose two ends each send through tbf at RATE (50 Mbit/s, its queue up
# to 50 ms: a bloated bottleneck each way).  Checks:
#  1. idle: the RRUL idle phase's TCP probes (10 ms schedule) against plain
#     TCP_RR at the same schedule (--rate 100), RUNS runs: the idle P50
#     lies within the plain runs' 95% confidence interval of P50 (Student
#     t over the runs), widened by 20 us (timer and wake-up noise a run
#     cannot average away on a 2-CPU VM).
#  2. bufferbloat: the loaded TCP and UDP probe P50s are at least 5 ms and
#     5x above idle (the tbf queues fill), and the load reaches 70% of RATE
#     each way.
#  3. agreement with flent rrul on the same path (4 TCP flows each way
#     through xperf's netperf drop-in, ICMP pings by fping, UDP pings by
#     irtt when present): flent's ping samples split at its -d delay into
#     idle and loaded, against RRUL's idle and loaded P50/P99: idle within
#     1 ms (both are sub-millisecond on veth), loaded P50 within 35% and
#     P99 within 50% (P99 of a few hundred pings is a tail), throughput per
#     direction within 15%.  The agreement table is printed.
# Needs root, ip, tc with tbf; flent and fping for 3 (else 1 and 2 only).
# About 70 s.
. "${srcdir:-.}/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip "rrul: needs root (network namespaces)"
command -v ip >/dev/null || skip "rrul: needs iproute2 (ip)"
command -v tc >/dev/null || skip "rrul: needs tc"

XPERF=$(cd "$(dirname "$XPERF")" && pwd)/$(basename "$XPERF")
P=${RRUL_NS_PREFIX:-xprr$$}
A=$P-a
B=$P-b
IPA=10.234.0.1
IPB=10.234.0.2
RATE=50mbit
RATE_BPS=50000000
RUNS=5
LEN=10		# seconds of load (xperf -l, flent -l)
IDLE=4		# seconds idle before it (xperf --idle, flent -d)
NP_SERVER=
IRTT_SERVER=
EXTRA_CLEANUP='[ -n "$NP_SERVER" ] && kill $NP_SERVER 2>/dev/null;
	[ -n "$IRTT_SERVER" ] && kill $IRTT_SERVER 2>/dev/null; sleep 0.2;
	ip netns del $A 2>/dev/null; ip netns del $B 2>/dev/null; rm -rf /etc/netns/$A'

ip netns add "$A" 2>/dev/null || skip "rrul: cannot create network namespaces here"
ip netns add "$B" || fail "second namespace"
ip link add "$P-va" netns "$A" type veth peer name "$P-vb" netns "$B" ||
	skip "rrul: no veth support in this kernel"
ip -n "$A" addr add $IPA/24 dev "$P-va"
ip -n "$B" addr add $IPB/24 dev "$P-vb"
for n in "$A" "$B"; do ip -n "$n" link set lo up; done
ip -n "$A" link set "$P-va" up
ip -n "$B" link set "$P-vb" up
for end in "$A $P-va" "$B $P-vb"; do
	set -- $end
	tc -n "$1" qdisc add dev "$2" root tbf rate $RATE burst 16k latency 50ms ||
		skip "rrul: no tbf qdisc in this kernel"
done
mkdir -p "/etc/netns/$A" && echo "nameserver 127.0.0.1" >"/etc/netns/$A/resolv.conf"

ip netns exec "$B" "$XPERF" -s -p 12871 >"$TMP/server.log" 2>&1 &
SERVER_PID=$!
sleep 0.5
kill -0 $SERVER_PID 2>/dev/null || fail "server did not start"
C="ip netns exec $A $XPERF -c $IPB -p 12871"

# 1. plain TCP_RR at the probes' schedule, unpinned as RRUL's parts are
i=0
while [ $i -lt $RUNS ]; do
	$C -t TCP_RR --rate 100 -l 2 --cpus none --remote-cpus none --json \
		>"$TMP/rr.$i.json" 2>"$TMP/rr.err" || { cat "$TMP/rr.err" >&2; fail "TCP_RR run $i"; }
	i=$((i + 1))
done
$C -t RRUL --idle $IDLE -l $LEN --load both --load-flows 4 --json >"$TMP/rrul.json" \
	2>"$TMP/rrul.err" || { cat "$TMP/rrul.err" >&2; fail "RRUL run"; }
$C -t RRUL --idle $IDLE -l $LEN --load both --load-flows 4 --json >"$TMP/rrul.json" \
	2>"$TMP/rrul.err" || { cat "$TMP/rrul.err" >&2; fail "RRUL run"; }
