# SPDX-License-Identifier: BSD-2-Clause
# Finding 4: at its descriptor limit the server's accept loop spins on
# EMFILE, logging each time.  The server runs with 64 descriptors; 200
# idle connections from A exhaust them.  Fixed: under 10% of a CPU and at
# most one log line a second while the limit lasts.
# Sourced by tests/hostile.sh.

W4=3
command -v prlimit >/dev/null || { echo "finding 4: SKIPPED (no prlimit)"; return 0 2>/dev/null; }
(ns "$S" prlimit --nofile=64:64 "$XPERF" -s -p 6401 --pidfile "$TMP/f4.pid" 2>&1 |
	"$PY" "$HT/logcount.py" "$TMP/f4.log") &
track $!
for _ in $(seq 50); do
	grep -q "listening on port" "$TMP/f4.log" 2>/dev/null && [ -s "$TMP/f4.pid" ] && break
	sleep 0.1
done
SPID=$(cat "$TMP/f4.pid")
track $SPID
echo "$SPID f4" >>"$TMP/servers"
bgtool f4 "$A" flood.py idle --server $SRV --port 6401 --count 200 --hold $((W4 + 2))
sleep 0.5
tk0=$(cpu_ticks $SPID)
lb0=$(jv "$TMP/f4.log.count" bytes)
ll0=$(jv "$TMP/f4.log.count" lines)
sleep $W4
tk1=$(cpu_ticks $SPID)
lb1=$(jv "$TMP/f4.log.count" bytes)
ll1=$(jv "$TMP/f4.log.count" lines)
hz=$(getconf CLK_TCK)
cpu=$(num %.1f "100 * ($tk1 - $tk0) / $hz / $W4")
lines=$((ll1 - ll0))
report 4 "at the fd limit (64) with 200 connections waiting: server CPU $cpu% over $W4 s, log $(num %.1f "($lb1 - $lb0) / 1e6") MB / $lines lines ($(num %d "$lines / $W4") a second)"
grep -m1 accept "$TMP/f4.log" | sed 's/^/finding 4: log line: /'
is "$cpu < 10" || unmet 4 "the accept loop used $cpu% of a CPU at the fd limit (want under 10%)"
[ "$lines" -le $((W4 + 1)) ] || unmet 4 "$lines log lines in $W4 s at the fd limit (want at most one a second)"
wait $TPID
sstop 4 $SPID
