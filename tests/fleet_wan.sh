#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The fleet over a WAN bottleneck: seven senders (agents) on a bridge
# reach one receiver through xperf's delay line (xperf lab --line-between)
# with 10 ms each way and 1 Gbit/s each way, so their 14 flows (two from
# each) share one 20 ms, 1 Gbit/s path.  Not 64 as in tests/fleet.sh: a
# flow's frames are as large as its rate makes them (TCP sizes a GSO frame
# to about 1 ms of its pacing rate), so 64 flows of 15 Mbit/s send frames
# of two segments, and the delay line's ceiling is frames per second
# (40-60 thousand here): 64 flows measured the line at 520-660 Mbit/s,
# 15 ms late, 14 flows the link.  One controller command runs them; checked
# against the bottleneck, which xperf's result does not compute:
#   - the merged received rate is at most the link rate and at least 85 %
#     of what TCP carries of it (1448 of every 1514 bytes), lossless or
#     not (14 flows keep a shared link full);
#   - the merged bytes equal the sum of the hosts', and the delay line
#     forwarded at least as many wire bytes towards the receiver;
#   - a TCP_RR across it has its round trip at 20 ms plus the zero-delay
#     path's (within 1 ms + 3 %).
# Needs root, namespaces and packet sockets (skip 77 otherwise).  ~25 s.
XP_ALONE=1
. "${srcdir:-.}/tests/lib.sh"
skip_sanitized fleet_wan

[ "$(id -u)" = 0 ] || skip "fleet_wan: needs root"
command -v ip >/dev/null || skip "fleet_wan: needs iproute2"
P=fw$$
N=7
EXTRA_CLEANUP="for i in \$(seq 0 $N) br m; do ip netns del $P-\$i 2>/dev/null; done"
for i in $(seq 0 $N) br m; do
	ip netns add "$P-$i" || skip "fleet_wan: cannot create namespaces"
	ip -n "$P-$i" link set lo up
done
ip -n "$P-m" link set lo up
ip netns exec "$P-m" python3 -c 'import socket; socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)' \
	2>/dev/null || skip "fleet_wan: no packet sockets (AF_PACKET) for the delay line"
ip -n "$P-br" link add br0 type bridge || skip "fleet_wan: no bridge support"
ip -n "$P-br" link set br0 up
# the senders on the bridge
for i in $(seq 1 $N); do
	ip link add "e$i" netns "$P-$i" type veth peer name "s$i" netns "$P-br" || fail "veth $i"
	ip -n "$P-br" link set "s$i" master br0 up
	ip -n "$P-$i" addr add "10.242.0.$((i + 1))/24" dev "e$i"
	ip -n "$P-$i" link set "e$i" up
done
# the receiver behind the delay line: bridge - wb [line] wr - receiver
ip link add e0 netns "$P-0" type veth peer name wr netns "$P-m" || fail "veth receiver"
ip link add wb netns "$P-m" type veth peer name s0 netns "$P-br" || fail "veth bridge"
ip -n "$P-br" link set s0 master br0 up
ip -n "$P-0" addr add 10.242.0.1/24 dev e0
ip -n "$P-0" link set e0 up
ip netns exec "$P-m" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
ip -n "$P-m" link set wr up
ip -n "$P-m" link set wb up
ip netns exec "$P-m" "$XPERF" lab --line-between wb,wr --delay 10 --link-rate 1g --json \
	>"$TMP/line.json" 2>"$TMP/line.err" &
LINE=$!
(umask 077; head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$TMP/key")
ip netns exec "$P-0" "$XPERF" -s -p 5310 --auth-file "$TMP/key" >"$TMP/recv.log" 2>&1 &
PIDS="$LINE $!"
for i in $(seq 1 $N); do
	ip netns exec "$P-$i" "$XPERF" -s -p 5310 --agent --auth-file "$TMP/key" \
		>"$TMP/agent$i.log" 2>&1 &
	PIDS="$PIDS $!"
done
EXTRA_CLEANUP="kill $PIDS 2>/dev/null; $EXTRA_CLEANUP"
sleep 0.5
kill -0 $LINE 2>/dev/null || fail "the delay line did not start: $(cat "$TMP/line.err")"
AGENTS=$(for i in $(seq 1 $N); do printf '10.242.0.%d,' $((i + 1)); done | sed 's/,$//')
CTL="ip netns exec $P-1 $XPERF --auth-file $TMP/key --from $AGENTS -c 10.242.0.1"

# the zero-delay part of a round trip: the ends and the bridge, measured
# the same way over the same bridge from a sender to another sender
ip netns exec "$P-2" "$XPERF" -s -p 5311 >/dev/null 2>&1 &
PIDS="$PIDS $!"
EXTRA_CLEANUP="kill $PIDS 2>/dev/null; $EXTRA_CLEANUP"
sleep 0.3
ip netns exec "$P-1" "$XPERF" -c 10.242.0.3 -p 5311 -t TCP_RR -l 1 --json >"$TMP/base.json" ||
	fail "zero-delay TCP_RR"

$CTL -t TCP_STREAM -P 14 -l 4 -O 1 --cpus 0 --remote-cpus 0 --json >"$TMP/stream.json" 2>"$TMP/stream.err" ||
	fail "fleet TCP_STREAM over the bottleneck: $(cat "$TMP/stream.err")"
$CTL -t TCP_RR -P 7 -l 2 --json >"$TMP/rr.json" 2>"$TMP/rr.err" ||
	fail "fleet TCP_RR over the bottleneck: $(cat "$TMP/rr.err")"
kill $LINE
wait $LINE 2>/dev/null
python3 - "$TMP/stream.json" "$TMP/rr.json" "$TMP/base.json" "$TMP/line.json" <<'PY' ||
import json, sys
d, rr, base, line = (json.load(open(f)) for f in sys.argv[1:5])
for k in ("c2s", "s2c"):
    c = line["line"][k]
    print("fleet_wan: delay line %s: %d frames, %.1f MB, late by %.0f us on average (at most %.1f ms), "
          "queue at most %d B, kernel-dropped %d" % (k, c["frames"], c["bytes"] / 1e6,
          c["slip_ns"] / max(c["forwarded"], 1) / 1e3, c["slip_max_ns"] / 1e6,
          c["queue_max_bytes"], c["rx_drops"]))
for h in d["hosts"]:
    print("fleet_wan:   %s: %d flows, %.1f Mbit/s" % (h["host"], h["flows"],
          h["end"]["sum_received"]["bits_per_second"] / 1e6))
hosts = d["hosts"]
assert len(hosts) == 7 and all(h["ok"] for h in hosts), hosts
e = d["end"]["sum_received"]
mbps = e["bits_per_second"] / 1e6
goodput = 1000 * 1448 / 1514
per = sum(h["end"]["sum_received"]["bytes"] for h in hosts)
fwd = line["line"]["c2s"]["forwarded_bytes"]
print("fleet_wan: 14 flows from 7 agents over 20 ms and 1 Gbit/s: %.1f Mbit/s received "
      "(%.3f of the %.1f TCP carries), %d retransmissions; the line forwarded %d wire bytes "
      "towards the receiver, dropped %d frames at its queue"
      % (mbps, mbps / goodput, goodput, d["end"]["sum_sent"]["retransmits"], fwd,
         line["line"]["c2s"]["dropped"]))
assert e["bytes"] == per > 0, (e["bytes"], per)
assert fwd >= e["bytes"], (fwd, e["bytes"])
assert mbps <= 1000, mbps
assert mbps >= 0.85 * goodput, mbps
b = base["end"]["rr"]["latency_us"]["mean"]
m = rr["end"]["rr"]["latency_us"]["mean"]
want = 20000 + b
print("fleet_wan: TCP_RR from 7 agents: mean %.0f us, p99 %.0f us; oracle 20000 + %.0f = %.0f us"
      % (m, rr["end"]["rr"]["latency_us"]["p99"], b, want))
assert abs(m - want) <= 1000 + 0.03 * 20000, (m, want)
PY
	fail "fleet_wan: the merged result against the bottleneck"
echo "fleet_wan: ok"
