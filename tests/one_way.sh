#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --one-way (and --kernel-timestamps) over loopback, where both ends read one clock: the estimated
# offset is 0 within its uncertainty, and in TCP_RR and UDP_RR the means
# of forward delay + server hold + return delay add up to the mean round
# trip (within 5 % + 5 us: they are read off CLOCK_REALTIME, the round
# trip off CLOCK_MONOTONIC); UDP_STREAM and UDP_MAERTS report one-way
# delays of every datagram; sizes too small for the stamps, and tests or
# options they do not apply to, are usage errors.
. "${srcdir:-.}/tests/lib.sh"

# usage errors: exit 2 and one line naming the option
usage() { # WHAT ARGS...
	what=$1
	shift
	"$XPERF" "$@" >"$TMP/u.out" 2>&1
	rc=$?
	[ $rc = 2 ] && grep -q -- "${OPT:---one-way}" "$TMP/u.out" ||
		fail "$what: exit $rc, $(cat "$TMP/u.out")"
}

# offset within its uncertainty of 0 (one clock); the sum of the means
owd_check() { # FILE WHAT
	check "$1" 'abs(e["one_way"]["clock_offset_us"]) <= e["one_way"]["clock_offset_uncertainty_us"]' \
		"$2: the offset of one clock to itself is not within its uncertainty of 0"
	# on one clock every stamp comes after the one it follows: none clamped
	check "$1" 'e["one_way"]["clock_exchanges"] >= 8 and e["one_way"]["clamped"] == 0' \
		"$2: clock exchanges and clamped delays"
}

rr_check() { # FILE WHAT
	owd_check "$1" "$2"
	check "$1" 'e["one_way"]["forward_us"]["count"] == e["rr"]["transactions"] == e["one_way"]["return_us"]["count"] > 100' \
		"$2: a forward and a return delay per transaction"
	check "$1" 'abs(e["one_way"]["forward_us"]["mean"] + e["one_way"]["server_hold_us"]["mean"] + e["one_way"]["return_us"]["mean"] - e["one_way"]["round_trip_mean_us"]) <= 0.05 * e["one_way"]["round_trip_mean_us"] + 5' \
		"$2: forward + hold + return is not the round trip"
	check "$1" 'abs(e["one_way"]["round_trip_mean_us"] - e["rr"]["latency_us"]["mean"]) < 0.01' \
		"$2: round_trip_mean_us is not the round trip's mean"
	# each way takes at least nothing, less than the whole trip
	check "$1" 'all(-e["one_way"]["clock_offset_uncertainty_us"] <= e["one_way"][k]["p50"] <= e["rr"]["latency_us"]["max"] for k in ("forward_us", "return_us"))' \
		"$2: a median delay outside [-uncertainty, round-trip max]"
}

"$XPERF" -t TCP_RR -l 1 -m 16 --one-way -J >"$TMP/tcp.json" 2>"$TMP/err" ||
	fail "TCP_RR --one-way: $(cat "$TMP/err")"
rr_check "$TMP/tcp.json" "TCP_RR"
"$XPERF" -t TCP_RR -l 1 -m 1 -M 64 -P 2 --one-way -J >"$TMP/tcp2.json" 2>"$TMP/err" ||
	fail "TCP_RR -M 64 -P 2 --one-way: $(cat "$TMP/err")"
rr_check "$TMP/tcp2.json" "TCP_RR -m 1 -M 64 -P 2"
"$XPERF" -t UDP_RR -l 1 -m 8 -M 24 --burst 2 --one-way -J >"$TMP/udp.json" 2>"$TMP/err" ||
	fail "UDP_RR --one-way: $(cat "$TMP/err")"
rr_check "$TMP/udp.json" "UDP_RR"

# --rate (RRUL's probes): each request at its slot, the round trip from
# the slot and the delays from the send, so forward + hold + return is the
# round trip from the actual send (the uncorrected figures), and no
# request is sent before its slot: the corrected mean is at least the
# uncorrected one (exact means, printed to 0.001 us)
for t in "TCP_RR -m 16" "UDP_RR -m 8 -M 24"; do
	"$XPERF" -t $t -l 1 -P 2 --rate 400 --one-way -J >"$TMP/rate.json" 2>"$TMP/err" ||
		fail "$t --rate --one-way: $(cat "$TMP/err")"
	owd_check "$TMP/rate.json" "$t --rate"
	check "$TMP/rate.json" '300 <= e["rr"]["transactions"] <= 420 and e["one_way"]["forward_us"]["count"] == e["rr"]["transactions"] == e["one_way"]["return_us"]["count"]' \
		"$t --rate 400 --one-way: transactions on the schedule, a delay each way for each"
	check "$TMP/rate.json" 'abs(e["one_way"]["forward_us"]["mean"] + e["one_way"]["server_hold_us"]["mean"] + e["one_way"]["return_us"]["mean"] - e["rr"]["uncorrected_latency_us"]["mean"]) <= 0.05 * e["rr"]["uncorrected_latency_us"]["mean"] + 5 and e["rr"]["latency_us"]["mean"] >= e["rr"]["uncorrected_latency_us"]["mean"] - 0.01' \
		"$t --rate --one-way: the delays do not add up to the round trip from the send, or a latency is not from its slot"
done

"$XPERF" -t UDP_STREAM -l 0.5 -b 20M --one-way -J >"$TMP/us.json" 2>"$TMP/err" ||
	fail "UDP_STREAM --one-way: $(cat "$TMP/err")"
owd_check "$TMP/us.json" "UDP_STREAM"
check "$TMP/us.json" 'e["one_way"]["forward_us"]["count"] == e["udp"]["packets_received"] > 100 and "return_us" not in e["one_way"]' \
	"UDP_STREAM: a forward delay per datagram received, at the server"
check "$TMP/us.json" 'e["one_way"]["forward_histogram"].startswith("xph1:") and e["one_way"]["jitter_us"] >= 0' \
	"UDP_STREAM: the histogram and the jitter"
"$XPERF" -t UDP_MAERTS -l 0.5 -b 20M --no-gso --one-way -J >"$TMP/um.json" 2>"$TMP/err" ||
	fail "UDP_MAERTS --one-way: $(cat "$TMP/err")"
owd_check "$TMP/um.json" "UDP_MAERTS"
check "$TMP/um.json" 'e["one_way"]["return_us"]["count"] == e["udp"]["packets_received"] > 100 and "forward_us" not in e["one_way"]' \
	"UDP_MAERTS: the client's return delays"
"$XPERF" -t UDP_STREAM -l 0.3 -b 20M --one-way >"$TMP/us.txt" 2>&1 || fail "UDP_STREAM human"
grep -q "one-way  clock offset (server - client)" "$TMP/us.txt" &&
	grep -q "one-way forward (client to server) (us): min" "$TMP/us.txt" ||
	{ cat "$TMP/us.txt" >&2; fail "UDP_STREAM: no one-way lines in the human report"; }

# intervals: each holds its own one-way delays, a forward and a return
# delay per transaction of the interval (TCP_RR and UDP_RR, at the client),
# a forward delay per datagram the server received in its interval
# (UDP_STREAM, from the server's INTERVAL), a return delay per datagram
# the client received (UDP_MAERTS); each median within [-uncertainty,
# the interval's round-trip P99]
iv_check() { # FILE WHAT PYTHON-CONDITION-ON-i-AND-e
	check "$1" "len(d['intervals']) >= 3 and all($3 for i in d['intervals'])" "$2"
}
"$XPERF" -t TCP_RR -l 1.2 -i 0.3 -m 16 --one-way -J >"$TMP/tiv.json" 2>"$TMP/err" ||
	fail "TCP_RR -i --one-way: $(cat "$TMP/err")"
iv_check "$TMP/tiv.json" "TCP_RR -i: an interval's one-way counts are not its transactions" \
	'i["sum"]["one_way"]["forward_us"]["count"] == i["sum"]["transactions"] == i["sum"]["one_way"]["return_us"]["count"] > 0'
iv_check "$TMP/tiv.json" "TCP_RR -i: an interval's one-way median outside [-uncertainty, its P99]" \
	'all(-e["one_way"]["clock_offset_uncertainty_us"] <= i["sum"]["one_way"][k]["p50"] <= i["sum"]["p99_us"] for k in ("forward_us", "return_us"))'
"$XPERF" -t UDP_RR -l 1.2 -i 0.3 -m 8 -M 24 --one-way -J >"$TMP/uiv.json" 2>"$TMP/err" ||
	fail "UDP_RR -i --one-way: $(cat "$TMP/err")"
iv_check "$TMP/uiv.json" "UDP_RR -i: an interval's one-way counts are not its transactions" \
	'i["sum"]["one_way"]["forward_us"]["count"] == i["sum"]["transactions"] == i["sum"]["one_way"]["return_us"]["count"] > 0'
"$XPERF" -t UDP_STREAM -l 1.2 -i 0.3 -b 20M --one-way -J >"$TMP/usiv.json" 2>"$TMP/err" ||
	fail "UDP_STREAM -i --one-way: $(cat "$TMP/err")"
iv_check "$TMP/usiv.json" "UDP_STREAM -i: an interval's forward count is not what the server received in it" \
	'i["sum"]["one_way"]["forward_us"]["count"] == i["server"]["packets_received"] > 0 and "return_us" not in i["sum"]["one_way"]'
"$XPERF" -t UDP_MAERTS -l 1.2 -i 0.3 -b 20M --no-gso --one-way -J >"$TMP/umiv.json" 2>"$TMP/err" ||
	fail "UDP_MAERTS -i --one-way: $(cat "$TMP/err")"
iv_check "$TMP/umiv.json" "UDP_MAERTS -i: an interval's return count is not what the client received in it" \
	'i["sum"]["one_way"]["return_us"]["count"] == i["sum"]["packets_received"] > 0 and "forward_us" not in i["sum"]["one_way"]'
"$XPERF" -t TCP_RR -l 0.8 -i 0.4 -m 16 --one-way >"$TMP/tiv.txt" 2>&1 || fail "TCP_RR -i --one-way human"
grep -q "^\[.*fwd p50 .* us  ret p50 .* us$" "$TMP/tiv.txt" ||
	{ cat "$TMP/tiv.txt" >&2; fail "TCP_RR -i --one-way: no fwd/ret in the interval lines"; }
"$XPERF" -t TCP_RR -l 0.5 -m 16 -J >"$TMP/tplain.json" -i 0.2 2>&1 || fail "TCP_RR -i"
check "$TMP/tplain.json" 'all("one_way" not in i["sum"] for i in d["intervals"])' \
	"TCP_RR -i without --one-way has one-way intervals"

# --slo on one-way delays: a bound that holds passes (exit 0), one that
# cannot (a return delay of at most 1 ns) fails the run (exit 3) with the
# measured value in the JSON; without --one-way, or a way the test does
# not measure, it is a usage error (exit 2) naming the bound
"$XPERF" -t TCP_RR -l 0.5 -m 16 --one-way --slo 'fwd_p99<=10s,ret_p99<=10s,ret_mean<=10s' -J >"$TMP/slo1.json" 2>"$TMP/err" ||
	fail "TCP_RR --slo fwd_p99<=10s: exit $?, $(cat "$TMP/err")"
check "$TMP/slo1.json" 'e["slo"]["passed"] and [b["metric"] for b in e["slo"]["bounds"]] == ["fwd_p99", "ret_p99", "ret_mean"] and all(b["measured"] > -e["one_way"]["clock_offset_uncertainty_us"] for b in e["slo"]["bounds"])' \
	"--slo fwd_p99/ret_mean: not passed or not measured"
check "$TMP/slo1.json" 'abs(e["slo"]["bounds"][2]["measured"] - e["one_way"]["return_us"]["mean"]) < 1e-6 * abs(e["one_way"]["return_us"]["mean"]) + 1e-3' \
	"--slo ret_mean is not the report's return mean"
"$XPERF" -t UDP_STREAM -l 0.5 -b 20M --one-way --slo 'fwd_max<=1ns' -J >"$TMP/slo2.json" 2>"$TMP/err"
rc=$?
[ $rc = 3 ] || fail "UDP_STREAM --slo fwd_max<=1ns: exit $rc, not 3"
check "$TMP/slo2.json" 'not e["slo"]["passed"] and abs(e["slo"]["bounds"][0]["measured"] - e["one_way"]["forward_us"]["max"]) < 1e-6' \
	"--slo fwd_max: the failed bound's measured value is not the forward max"
OPT=fwd_p99
usage "--slo fwd_p99 without --one-way" -t TCP_RR -l 1 -m 16 --slo 'fwd_p99<=1ms'
OPT=ret_p99
usage "--slo ret_ on UDP_STREAM" -t UDP_STREAM -l 1 --one-way --slo 'ret_p99<=1ms'
OPT=fwd_p50
usage "--slo fwd_ on UDP_MAERTS" -t UDP_MAERTS -l 1 --one-way --slo 'fwd_p50<=1ms'
OPT=

# --kernel-timestamps over loopback: the parts add up to the round trip
# of the same transactions (1 % + 1 us; tests/kernel_ts.sh does it over veth)
"$XPERF" -t TCP_RR -l 1 -m 32 --kernel-timestamps -J >"$TMP/kts.json" 2>"$TMP/err" ||
	fail "TCP_RR --kernel-timestamps: $(cat "$TMP/err")"
check "$TMP/kts.json" 'e["kernel_timestamps"]["transactions"] >= 0.95 * e["rr"]["transactions"] - 2 and abs(e["kernel_timestamps"]["sum_of_means_us"] - e["kernel_timestamps"]["round_trip_us"]["mean"]) <= 0.01 * e["kernel_timestamps"]["round_trip_us"]["mean"] + 1' \
	"TCP_RR --kernel-timestamps: the parts do not add up to the round trip"
"$XPERF" -t UDP_RR -l 1 -m 8 -M 48 --kernel-timestamps -J >"$TMP/ukts.json" 2>"$TMP/err" ||
	fail "UDP_RR --kernel-timestamps: $(cat "$TMP/err")"
check "$TMP/ukts.json" 'e["kernel_timestamps"]["transactions"] >= 0.95 * e["rr"]["transactions"] - 2 and abs(e["kernel_timestamps"]["sum_of_means_us"] - e["kernel_timestamps"]["round_trip_us"]["mean"]) <= 0.01 * e["kernel_timestamps"]["round_trip_us"]["mean"] + 1' \
	"UDP_RR --kernel-timestamps: the parts do not add up to the round trip"
"$XPERF" -t TCP_RR -l 0.3 -m 32 --kernel-timestamps >"$TMP/kts.txt" 2>&1 || fail "--kernel-timestamps human"
grep -q "kernel   sum of the parts' means" "$TMP/kts.txt" && ! grep -q "one-way" "$TMP/kts.txt" ||
	{ cat "$TMP/kts.txt" >&2; fail "--kernel-timestamps: the human report"; }

# without the option: no one_way object
"$XPERF" -t TCP_RR -l 0.3 -J >"$TMP/plain.json" 2>&1 || fail "plain TCP_RR"
check "$TMP/plain.json" '"one_way" not in e' "TCP_RR without --one-way has one_way"

# a hostile client of the clock exchange, then the server still serves
start_server
python3 "$srcdir/tests/hostile/clock_peer.py" "$PORT" || fail "the clock exchange's hostile client"
"$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_RR -l 0.3 -m 16 --one-way >"$TMP/after.txt" 2>&1 ||
	fail "TCP_RR --one-way after the hostile client: $(cat "$TMP/after.txt")"
stop_server

# usage errors
usage "TCP_RR -M 15" -t TCP_RR -l 1 -m 16 -M 15 --one-way
usage "TCP_RR default size" -t TCP_RR -l 1 --one-way
usage "UDP_RR -m 16" -t UDP_RR -l 1 -m 16 --one-way
usage "UDP_RR -m 4 -M 32" -t UDP_RR -l 1 -m 4 -M 32 --one-way
usage "UDP_STREAM -m 15" -t UDP_STREAM -l 1 -m 15 --one-way
usage "TCP_STREAM" -t TCP_STREAM -l 1 --one-way
usage "TCP_CRR" -t TCP_CRR -l 1 -m 16 --one-way
usage "TCP_RR --burst" -t TCP_RR -l 1 -m 16 --burst 2 --one-way
usage "UDP_STREAM --bidir" -t UDP_STREAM -l 1 --bidir --one-way
OPT=--kernel-timestamps
usage "--kernel-timestamps -M 16" -t TCP_RR -l 1 -m 16 --kernel-timestamps
usage "--kernel-timestamps UDP_RR -M 32" -t UDP_RR -l 1 -m 32 --kernel-timestamps
usage "--kernel-timestamps UDP_RR --burst" -t UDP_RR -l 1 -m 48 --burst 2 --kernel-timestamps
usage "--kernel-timestamps TCP_STREAM" -t TCP_STREAM -l 1 --kernel-timestamps
usage "--kernel-timestamps --burst" -t TCP_RR -l 1 -m 32 --burst 4 --kernel-timestamps
"$XPERF" -s --one-way >"$TMP/u.out" 2>&1
[ $? = 2 ] || fail "--one-way with -s is not a usage error: $(cat "$TMP/u.out")"
exit 0
