#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# One server, several tests at the same time, each isolated; a server at
# its --max-tests limit refuses the next client with a reason.
. "${srcdir:-.}/tests/lib.sh"

start_server --max-tests 3
"$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_STREAM -l 2 --json >"$TMP/a.json" 2>"$TMP/a.err" &
a=$!
"$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_RR -l 2 --json >"$TMP/b.json" 2>"$TMP/b.err" &
b=$!
"$XPERF" -c 127.0.0.1 -p "$PORT" -t UDP_STREAM -l 2 --json >"$TMP/c.json" 2>"$TMP/c.err" &
c=$!
sleep 0.5
# a fourth test while three run: refused, exit 1, reason named
"$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_RR -l 1 2>"$TMP/d.err" && fail "fourth test accepted over --max-tests 3"
grep -q "server busy" "$TMP/d.err" || fail "busy message: $(cat "$TMP/d.err")"
wait $a || fail "TCP_STREAM client failed: $(cat "$TMP/a.err")"
wait $b || fail "TCP_RR client failed: $(cat "$TMP/b.err")"
wait $c || fail "UDP_STREAM client failed: $(cat "$TMP/c.err")"
check "$TMP/a.json" 'e["sum_sent"]["bytes"] == e["sum_received"]["bytes"] > 0' "concurrent TCP_STREAM exact"
check "$TMP/b.json" 'e["rr"]["transactions"] == e["rr"]["server_transactions"] > 0' "concurrent TCP_RR counts agree"
check "$TMP/c.json" 'e["udp"]["lost"] == e["udp"]["packets_sent"] - e["udp"]["packets_received"] and e["udp"]["packets_received"] > 0' "concurrent UDP_STREAM"
# and the slots free up again afterwards
"$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_CRR -l 1 --json >"$TMP/e.json" || fail "test after concurrent ones"
check "$TMP/e.json" 'e["rr"]["transactions"] == e["rr"]["server_transactions"] > 0' "CRR after concurrency"
echo "concurrent: ok"
