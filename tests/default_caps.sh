#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The caps a server derives when none is given (issue 31): as many tests as
# its budget affords one-stream tests, a quarter of them from one address;
# the start-up log says how many.  A default server admits the 16 tests at
# once from one address that flent's tcp_nup 16 opens; a test over the
# per-address cap is refused with a reason naming the option that raises
# it, while another address is still served.
. "${srcdir:-.}/tests/lib.sh"

# caps LOG: "TESTS PER_ADDR" from the start-up line
caps() {
	sed -n 's/^xperf: up to \([0-9]*\) tests at once (.*), \([0-9]*\) from one address.*/\1 \2/p' "$1"
}

start_server
set -- $(caps "$TMP/server.log")
[ $# = 2 ] || fail "no caps line in the server log: $(cat "$TMP/server.log")"
echo "default server: up to $1 tests, $2 from one address (ulimit -n $(ulimit -n))"
[ "$2" = $(($1 / 4)) ] || fail "per-address cap $2 is not a quarter of $1"
[ "$2" -ge 16 ] || fail "per-address cap $2: flent's tcp_nup 16 would be refused"
# 16 tests at once from one address against the default server
pids=
for i in $(seq 16); do
	"$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_STREAM -b 10M -l 1 --json \
		>"$TMP/n$i.json" 2>"$TMP/n$i.err" &
	pids="$pids $!"
done
for p in $pids; do wait "$p" || fail "one of 16 tests from one address failed: $(cat "$TMP"/n*.err)"; done
for i in $(seq 16); do
	check "$TMP/n$i.json" 'e["sum_received"]["bytes"] > 0' "test $i of 16 moved data"
done
stop_server

# a smaller budget, the caps follow it: 24 worker threads, 24 tests, 6 per address
start_server --total-threads 24
set -- $(caps "$TMP/server.log")
[ "$1 $2" = "24 6" ] || fail "--total-threads 24: caps $1 $2, want 24 6"
pids=
for i in $(seq 6); do
	"$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_RR -l 2 >/dev/null 2>"$TMP/r$i.err" &
	pids="$pids $!"
done
sleep 0.7
rc=0
"$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_RR -l 1 >/dev/null 2>"$TMP/over.err" || rc=$?
[ $rc = 1 ] || fail "a 7th test from one address: exit $rc, want 1 ($(cat "$TMP/over.err"))"
grep -q "server busy: 6 tests running from 127.0.0.1 (max 6 per address; the server's --max-tests-per-addr raises it)" \
	"$TMP/over.err" || fail "the refusal does not name the cap and its option: $(cat "$TMP/over.err")"
echo "refused: $(cat "$TMP/over.err")"
"$XPERF" -c 127.0.0.1 -B 127.0.0.2 -p "$PORT" -t TCP_RR -l 1 --json >"$TMP/other.json" \
	2>"$TMP/other.err" || fail "another address refused: $(cat "$TMP/other.err")"
check "$TMP/other.json" 'e["rr"]["transactions"] > 0' "another address served"
for p in $pids; do wait "$p" || fail "one of the 6 tests failed: $(cat "$TMP"/r*.err)"; done
echo "default_caps: ok"
