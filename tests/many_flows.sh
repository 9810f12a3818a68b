#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Many flows per thread: 1,000 TCP_RR flows on 2 threads each side, and
# 200 UDP_RR flows, with both ends' counts agreeing.
. "${srcdir:-.}/tests/lib.sh"

start_server
"$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_RR -P 1000 -T 2 -l 2 --json >"$TMP/rr.json" 2>"$TMP/rr.err" ||
	fail "1000 TCP_RR flows: $(cat "$TMP/rr.err")"
check "$TMP/rr.json" 'e["rr"]["transactions"] == e["rr"]["server_transactions"] >= 1000' "1000 flows: counts agree, every flow ran"
check "$TMP/rr.json" 'len(e["client"]["worker_cpus"]) == 2 and len(e["server"]["worker_cpus"]) == 2' "two workers each side"
"$XPERF" -c 127.0.0.1 -p "$PORT" -t UDP_RR -P 200 -T 2 -l 1 --json >"$TMP/urr.json" 2>"$TMP/urr.err" ||
	fail "200 UDP_RR flows: $(cat "$TMP/urr.err")"
check "$TMP/urr.json" 'e["rr"]["transactions"] > 0 and e["udp"]["packets_sent"] == e["rr"]["transactions"] + e["udp"]["lost"]' "200 UDP_RR flows"
"$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_STREAM -P 64 -T 2 -l 1 --json >"$TMP/st.json" 2>"$TMP/st.err" ||
	fail "64 TCP_STREAM flows: $(cat "$TMP/st.err")"
check "$TMP/st.json" 'e["sum_sent"]["bytes"] == e["sum_received"]["bytes"] > 0' "64 streams exact"
echo "many_flows: ok"
