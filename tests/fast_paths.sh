#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Each fast path works (not how fast): UDP GSO/GRO and its fallback, spin
# mode, MSG_ZEROCOPY completions, pacing within 5% at a low rate, RR burst.
. "${srcdir:-.}/tests/lib.sh"

start_server --allow-spin
run() { # NAME ARGS...
	name=$1; shift
	"$XPERF" -c 127.0.0.1 -p "$PORT" --json "$@" >"$TMP/$name.json" 2>"$TMP/$name.err" ||
		{ cat "$TMP/$name.err" >&2; fail "$name: exit status"; }
}

# UDP GSO on send and GRO on receive by default (where the kernel has
# them), per-datagram sendmmsg/recvmmsg with --no-gso; the accounting is
# exact per datagram either way.
run gso -t UDP_STREAM -l 1
check "$TMP/gso.json" 'e["udp"]["lost"] == e["udp"]["packets_sent"] - e["udp"]["packets_received"] and e["udp"]["packets_received"] > 0' "GSO accounting"
check "$TMP/gso.json" 'e["sum_received"]["bytes"] == e["udp"]["packets_received"] * 1472' "GRO split back into datagrams"
if python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["end"]["client"]["udp_gso"] else 1)' "$TMP/gso.json"; then
	echo "fast_paths: UDP GSO in use"
else
	echo "fast_paths: UDP GSO not available here: fallback path measured"
fi
run nogso -t UDP_STREAM -l 1 --no-gso
check "$TMP/nogso.json" 'not e["client"]["udp_gso"] and not e["server"]["udp_gro"]' "--no-gso turns both off"
check "$TMP/nogso.json" 'e["udp"]["lost"] == e["udp"]["packets_sent"] - e["udp"]["packets_received"] and e["udp"]["packets_received"] > 0' "no-GSO accounting"
# 40000-byte datagrams: one per GSO send, fragmented by IP: still exact
run big -t UDP_STREAM -l 1 -m 40000
check "$TMP/big.json" 'e["sum_received"]["bytes"] == e["udp"]["packets_received"] * 40000' "large datagrams"

# spin mode runs and says so
run spin -t TCP_RR -l 1 --spin
check "$TMP/spin.json" 'd["start"]["test_start"]["mode"] == "spin" and e["rr"]["transactions"] == e["rr"]["server_transactions"] > 0' "spin mode"
run busy -t UDP_RR -l 1 --busy-poll 20
check "$TMP/busy.json" 'e["rr"]["transactions"] > 0 and d["start"]["test_start"]["busy_poll_us"] == 20' "busy poll"

# MSG_ZEROCOPY: every completion reaped (over loopback the kernel copies)
run zc -t TCP_STREAM -l 1 -Z
check "$TMP/zc.json" 'e["client"]["zerocopy"]["completions"] > 0' "zerocopy completions reaped"
check "$TMP/zc.json" 'e["sum_sent"]["bytes"] == e["sum_received"]["bytes"]' "zerocopy stream exact"
run zcm -t TCP_MAERTS -l 1 -Z
check "$TMP/zcm.json" 'e["server"]["zerocopy"]["completions"] > 0' "server zerocopy completions"

# pacing within 5% at low rates, TCP and UDP
run tpace -t TCP_STREAM -l 2 -b 20M -m 16K
check "$TMP/tpace.json" 'abs(e["sum_received"]["bits_per_second"] / 20e6 - 1) < 0.05' "TCP paced at 20 Mbit/s"
run upace -t UDP_STREAM -l 2 -b 30M --pace-burst 4
# the pacer is judged by what it sent; a starved receiver may drop some
check "$TMP/upace.json" 'abs(e["sum_sent"]["bits_per_second"] / 30e6 - 1) < 0.05' "UDP paced at 30 Mbit/s"
check "$TMP/upace.json" 'e["sum_received"]["bytes"] <= e["sum_sent"]["bytes"]' "UDP paced: received <= sent"

# RR burst: N outstanding, every one timed and answered
run burst -t TCP_RR -l 1 --burst 8 -m 32
check "$TMP/burst.json" 'e["rr"]["transactions"] == e["rr"]["server_transactions"] > 0' "TCP_RR burst counts agree"
run uburst -t UDP_RR -l 1 --burst 8
check "$TMP/uburst.json" 'e["udp"]["packets_sent"] == e["rr"]["transactions"] + e["udp"]["lost"]' "UDP_RR burst accounting"
# SO_RCVLOWAT: auto on a receiver that shares its CPU with the sender's
# packet processing (both ends on CPU 0): a lone flow times two marks and
# keeps one, several flows on a worker take the larger untimed; off with
# --rcvlowat 1, forced with a size; the stream stays exact either way
run lowat -t TCP_STREAM -l 1 --cpus 0 --remote-cpus 0
check "$TMP/lowat.json" 'e["server"]["rcvlowat_flows"] == 1 and e["server"]["rcvlowat_probed_flows"] == 1 and e["sum_sent"]["bytes"] == e["sum_received"]["bytes"] > 0' "auto SO_RCVLOWAT on a shared CPU, timed"
run lowatm -t TCP_MAERTS -l 1 --cpus 0 --remote-cpus 0
check "$TMP/lowatm.json" 'e["client"]["rcvlowat_flows"] == 1 and e["client"]["rcvlowat_probed_flows"] == 1 and e["sum_sent"]["bytes"] == e["sum_received"]["bytes"] > 0' "auto SO_RCVLOWAT, client receiving"
run lowat2 -t TCP_STREAM -l 1 -P 2 --cpus 0 --remote-cpus 0
check "$TMP/lowat2.json" 'e["server"]["rcvlowat_flows"] == 2 and e["server"]["rcvlowat_probed_flows"] == 0 and e["sum_sent"]["bytes"] == e["sum_received"]["bytes"] > 0' "auto SO_RCVLOWAT on a shared CPU, 2 flows on a worker: untimed"
run lowatoff -t TCP_STREAM -l 1 --cpus 0 --remote-cpus 0 --rcvlowat 1
check "$TMP/lowatoff.json" 'e["server"]["rcvlowat_flows"] == 0' "--rcvlowat 1 leaves the kernel default"
run lowatset -t TCP_STREAM -l 1 -P 2 --rcvlowat 64K
check "$TMP/lowatset.json" 'e["server"]["rcvlowat_flows"] == 2 and e["sum_sent"]["bytes"] == e["sum_received"]["bytes"]' "--rcvlowat SIZE on every flow"
# --read-size: each receiver reads at most SIZE per call, on either end;
# by default far more (up to 1 MiB) per call
run rsize -t TCP_STREAM -n 4M -m 64K --read-size 1K
check "$TMP/rsize.json" 'e["server"]["recv_calls"] >= e["sum_received"]["bytes"] // 1024 == 4096 and e["client"]["send_calls"] >= 64' "--read-size on the server's receiver"
run rsizem -t TCP_MAERTS -n 4M -m 64K --read-size 1000
check "$TMP/rsizem.json" 'e["client"]["recv_calls"] >= -(-e["sum_received"]["bytes"] // 1000) > 4000' "--read-size on the client's receiver"
run rsized -t TCP_STREAM -n 4M -m 64K
check "$TMP/rsized.json" '0 < e["server"]["recv_calls"] < 4096 and e["sum_received"]["bytes"] == 4194304' "default reads take more than 1K per call"
if [ "$(nproc)" -ge 2 ]; then
	# across CPUs a lone flow times its first reads with and without the
	# mark and keeps what moved more (with a fixed receive buffer too, the
	# mark 4K); several flows on a worker get none
	run lowatx -t TCP_STREAM -l 1 --cpus 0 --remote-cpus 1
	check "$TMP/lowatx.json" 'e["server"]["rcvlowat_probed_flows"] == 1 and e["server"]["rcvlowat_flows"] in (0, 1) and e["client"]["rcvlowat_probed_flows"] == 0 and e["sum_sent"]["bytes"] == e["sum_received"]["bytes"] > 0' "auto SO_RCVLOWAT across CPUs: probed"
	run lowatxm -t TCP_MAERTS -l 1 --cpus 0 --remote-cpus 1
	check "$TMP/lowatxm.json" 'e["client"]["rcvlowat_probed_flows"] == 1 and e["client"]["rcvlowat_flows"] in (0, 1) and e["sum_sent"]["bytes"] == e["sum_received"]["bytes"] > 0' "auto SO_RCVLOWAT across CPUs, client receiving: probed"
	run lowatx2 -t TCP_STREAM -l 1 -P 2 --cpus 0 --remote-cpus 1
	check "$TMP/lowatx2.json" 'e["server"]["rcvlowat_probed_flows"] == 0 and e["server"]["rcvlowat_flows"] == 0' "no auto SO_RCVLOWAT across CPUs for 2 flows on a worker"
	run lowatxw -t TCP_STREAM -l 1 -w 256K --cpus 0 --remote-cpus 1
	check "$TMP/lowatxw.json" 'e["server"]["rcvlowat_probed_flows"] == 1 and e["server"]["rcvlowat_flows"] in (0, 1) and e["server"]["rcvbuf_granted_bytes"] == 2 * 262144 and e["sum_sent"]["bytes"] == e["sum_received"]["bytes"] > 0' "auto SO_RCVLOWAT across CPUs with -w: probed, the buffer as set"
fi
echo "fast_paths: ok"
