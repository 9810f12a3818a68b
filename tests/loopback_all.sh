#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Every test type over loopback against a real server, asserting relations
# between what the two ends counted.
. "${srcdir:-.}/tests/lib.sh"

start_server
run() { # NAME ARGS...: run a client test with --json into $TMP/NAME.json
	name=$1; shift
	"$XPERF" -c "${HOST:-127.0.0.1}" -p "$PORT" -l 1 --json "$@" >"$TMP/$name.json" 2>"$TMP/$name.err" ||
		{ cat "$TMP/$name.err" "$TMP/$name.json" >&2; fail "$name: exit $?"; }
}

assert_stream() { # FILE: bytes sent == bytes received, rate > 0
	check "$1" 'e["sum_sent"]["bytes"] > 0 and e["sum_sent"]["bytes"] == e["sum_received"]["bytes"]' \
		"receiver counted exactly what the sender sent"
	check "$1" 'e["sum_received"]["bits_per_second"] > 0' "throughput > 0"
}

assert_rr() { # FILE: both ends counted the same transactions; latency sane
	check "$1" 'e["rr"]["transactions"] > 0' "transactions > 0"
	# UDP_RR: the server also answered the requests whose answers came
	# late (lost, by --rr-timeout): more, by at most those (man page)
	check "$1" 'e["rr"]["transactions"] == e["rr"]["server_transactions"] or (d["start"]["test_start"]["protocol"] == "UDP" and 0 < e["rr"]["server_transactions"] - e["rr"]["transactions"] <= e["udp"]["lost"])' "client and server transaction counts agree"
	check "$1" 'e["rr"]["latency_kind"] == "round_trip"' "latency is the round trip"
	check "$1" '0 < e["rr"]["latency_us"]["min"] <= e["rr"]["latency_us"]["p50"] <= e["rr"]["latency_us"]["p99"] <= e["rr"]["latency_us"]["max"]' "latency order"
	check "$1" 'abs(e["rr"]["transactions_per_second"] * e["sum_sent"]["seconds"] - e["rr"]["transactions"]) < 1' "rate = transactions / seconds"
}

run stream -t TCP_STREAM
assert_stream "$TMP/stream.json"
check "$TMP/stream.json" 'e["client"]["bytes_sent"] == e["server"]["bytes_received"]' "TCP_STREAM server received all"
run stream_m -t TCP_STREAM -m 1000 -P 3 -T 2 --nodelay -w 256K
assert_stream "$TMP/stream_m.json"
run maerts -t TCP_MAERTS
assert_stream "$TMP/maerts.json"
check "$TMP/maerts.json" 'e["server"]["bytes_sent"] == e["client"]["bytes_received"] > 0' "TCP_MAERTS client received all"
run rr -t TCP_RR -m 64
assert_rr "$TMP/rr.json"
run rr_big -t TCP_RR -m 100K -M 3 -P 2
assert_rr "$TMP/rr_big.json"
check "$TMP/rr_big.json" 'e["server"]["bytes_received"] == e["rr"]["server_transactions"] * 102400' "RR request size honoured"
check "$TMP/rr_big.json" 'e["client"]["bytes_received"] == e["rr"]["transactions"] * 3' "RR response size honoured"
# one flow of large messages: the worker's direct (blocking) mode must hand
# a full socket back to epoll, not stall on it
run rr_huge -t TCP_RR -m 8M -M 8M
assert_rr "$TMP/rr_huge.json"
check "$TMP/rr_huge.json" 'e["sum_sent"]["seconds"] < 1.3 and e["rr"]["transactions"] > 20' "large single-flow RR does not stall"
run crr -t TCP_CRR -m 32 -M 128
assert_rr "$TMP/crr.json"
run udp -t UDP_STREAM
check "$TMP/udp.json" 'e["udp"]["packets_sent"] > 0 and e["udp"]["packets_received"] > 0' "UDP packets flowed"
check "$TMP/udp.json" 'e["udp"]["lost"] == e["udp"]["packets_sent"] - e["udp"]["packets_received"]' "lost = sent - received"
check "$TMP/udp.json" 'e["udp"]["packets_received"] <= e["udp"]["packets_sent"]' "received <= sent"
check "$TMP/udp.json" 'abs(e["udp"]["lost_percent"] - 100.0 * e["udp"]["lost"] / e["udp"]["packets_sent"]) < 1e-9' "lost_percent"
check "$TMP/udp.json" 'e["sum_received"]["bytes"] == e["udp"]["packets_received"] * 1472' "received bytes = datagrams x size"
run udp_rr -t UDP_RR -m 1 -M 200
assert_rr "$TMP/udp_rr.json"
check "$TMP/udp_rr.json" 'e["udp"]["packets_sent"] == e["rr"]["transactions"] + e["udp"]["lost"]' "every request answered or counted lost"
check "$TMP/udp_rr.json" 'e["client"]["bytes_received"] == e["rr"]["transactions"] * 200' "UDP_RR response size honoured"

# IPv6 loopback, where the host has it
if python3 -c 'import socket; s=socket.socket(socket.AF_INET6); s.bind(("::1",0))' 2>/dev/null; then
	HOST=::1 run rr6 -t TCP_RR -6
	assert_rr "$TMP/rr6.json"
	HOST=::1 run udp6 -t UDP_RR -6
	assert_rr "$TMP/udp6.json"
else
	echo "loopback_all: no IPv6 loopback here, IPv6 part skipped"
fi

# the embedded server (no -c) gives a real number too
"$XPERF" -t TCP_RR -l 1 --json >"$TMP/emb.json" || fail "embedded run"
assert_rr "$TMP/emb.json"
echo "loopback_all: ok"
