#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --kernel-timestamps and --one-way between two network namespaces joined
# by a veth pair (one host, so one clock): the kernel-timestamp parts of
# TCP_RR and UDP_RR add up to the application's round trip of the same transactions
# (sum of the means within 1 % + 1 us: the parts are read off
# CLOCK_REALTIME, the round trip off CLOCK_MONOTONIC, a few tens of ns
# apart) and cover nearly every transaction (95 %); the one-way offset is 0
# within its uncertainty and forward + hold + return is the round trip
# (5 % + 5 us).  Needs root and `ip netns`; skipped (77) otherwise.
XP_ALONE=1
. "${srcdir:-.}/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip "kernel_ts: needs root"
command -v ip >/dev/null || skip "kernel_ts: needs iproute2 (ip)"
A=xpk-a-$$
B=xpk-b-$$
EXTRA_CLEANUP="ip netns del $A 2>/dev/null; ip netns del $B 2>/dev/null"
ip netns add "$A" 2>/dev/null || skip "kernel_ts: cannot create network namespaces here"
ip netns add "$B" || fail "second namespace"
ip link add xpk$$a netns "$A" type veth peer name xpk$$b netns "$B" ||
	skip "kernel_ts: no veth support in this kernel"
ip -n "$A" addr add 10.232.0.1/24 dev xpk$$a
ip -n "$B" addr add 10.232.0.2/24 dev xpk$$b
for n in "$A" "$B"; do ip -n "$n" link set lo up; done
ip -n "$A" link set xpk$$a up
ip -n "$B" link set xpk$$b up

NS_EXEC="ip netns exec $B"
start_server
# A run the host stalled (a few transactions in 2 s: a virtual CPU not
# scheduled for seconds, which the split shows as a stack time) is run
# once more: its means and medians are one transaction's.
cli() { # NAME ARGS...
	name=$1
	shift
	for try in 1 2; do
		ip netns exec "$A" "$XPERF" -c 10.232.0.2 -p "$PORT" -l 2 --json "$@" \
			>"$TMP/$name.json" 2>"$TMP/$name.err" ||
			{ cat "$TMP/$name.err" >&2; fail "$name over veth"; }
		n=$(jget "$TMP/$name.json" end.rr.transactions)
		[ "$n" -ge 1000 ] && return 0
		echo "kernel_ts: $name: $n transactions in 2 s (the host stalled), once more"
	done
	fail "$name over veth: $n transactions in 2 s, twice"
}

split_check() { # FILE WHAT
	# a transaction whose stamps the kernel did not give (one of 60 under
	# the full suite's load, none alone) is counted, not split
	check "$1" 'e["kernel_timestamps"]["transactions"] >= 0.95 * e["rr"]["transactions"] - 2 * len(e["streams"]) and e["kernel_timestamps"]["incomplete"] <= 0.05 * e["rr"]["transactions"] + 2' \
		"$2: the split misses transactions"
	check "$1" 'abs(e["kernel_timestamps"]["sum_of_means_us"] - e["kernel_timestamps"]["round_trip_us"]["mean"]) <= 0.01 * e["kernel_timestamps"]["round_trip_us"]["mean"] + 1' \
		"$2: the kernel-timestamp parts do not add up to the round trip"
	# the split leaves out each flow's last transaction and takes in its
	# last of the warm-up: one stall there moves a mean, not the median
	check "$1" 'abs(e["kernel_timestamps"]["round_trip_us"]["p50"] - e["rr"]["latency_us"]["p50"]) <= 0.05 * e["rr"]["latency_us"]["p50"] + 2' \
		"$2: the split transactions' round trip is not the test's"
	check "$1" 'all(e["kernel_timestamps"][k]["min"] >= 0 and e["kernel_timestamps"][k]["mean"] > 0 for k in ("client_tx_stack_us", "between_kernels_us", "server_rx_stack_us", "server_app_us", "server_tx_stack_us", "client_rx_stack_us"))' \
		"$2: a part that is never positive"
}

cli kts -t TCP_RR -m 32 --kernel-timestamps --one-way
split_check "$TMP/kts.json" "TCP_RR over veth"
check "$TMP/kts.json" 'abs(e["one_way"]["clock_offset_us"]) <= e["one_way"]["clock_offset_uncertainty_us"]' \
	"TCP_RR over veth: the offset of one clock to itself is not within its uncertainty of 0"
check "$TMP/kts.json" 'abs(e["one_way"]["forward_us"]["mean"] + e["one_way"]["server_hold_us"]["mean"] + e["one_way"]["return_us"]["mean"] - e["one_way"]["round_trip_mean_us"]) <= 0.05 * e["one_way"]["round_trip_mean_us"] + 5' \
	"TCP_RR over veth: forward + hold + return is not the round trip"
cli kts4 -t TCP_RR -m 1 -M 100 -P 4 -T 2 --kernel-timestamps
split_check "$TMP/kts4.json" "TCP_RR -P 4 -T 2 over veth (epoll)"
check "$TMP/kts4.json" '"one_way" not in e' "--kernel-timestamps alone reports one_way"
cli ukts -t UDP_RR -m 48 --kernel-timestamps --one-way
split_check "$TMP/ukts.json" "UDP_RR over veth"
cli owd -t UDP_RR -m 24 --one-way
check "$TMP/owd.json" 'abs(e["one_way"]["clock_offset_us"]) <= e["one_way"]["clock_offset_uncertainty_us"] and abs(e["one_way"]["forward_us"]["mean"] + e["one_way"]["server_hold_us"]["mean"] + e["one_way"]["return_us"]["mean"] - e["one_way"]["round_trip_mean_us"]) <= 0.05 * e["one_way"]["round_trip_mean_us"] + 5' \
	"UDP_RR --one-way over veth"
exit 0
