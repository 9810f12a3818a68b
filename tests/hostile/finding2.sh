# SPDX-License-Identifier: BSD-2-Clause
# Finding 2: a UDP hello with a random cookie (no such test) is answered
# before the cookie is checked, and each one costs a socket, a bind, a
# connect, a send and a log line, even without -v.  Fixed: no reply at
# all, and the stray-datagram log rate-limited (at most one line a second,
# plus one).  Sourced by tests/hostile.sh.

server f2 6201
P=6201
ns "$V" "$PY" "$HT/bcount.py" setup --server $SRV --addrs $VIC
ns "$S" "$PY" "$HT/bcount.py" setup --server $SRV --addrs $VIC --out
before_v=$(ns "$V" "$PY" "$HT/bcount.py" read)
before_s=$(ns "$S" "$PY" "$HT/bcount.py" read)
lines0=$(wc -l <"$TMP/f2.log")
ns "$A" "$PY" "$HT/forge.py" stray --server $SRV --port $P --src $VIC --count 1000 \
	--rate 1000 >"$TMP/f2.json" || unmet 2 "forge.py stray did not run"
sleep 0.5
lines1=$(wc -l <"$TMP/f2.log")
after_v=$(ns "$V" "$PY" "$HT/bcount.py" read)
after_s=$(ns "$S" "$PY" "$HT/bcount.py" read)
cdiff() { "$PY" -c 'import json, sys; print(json.loads(sys.argv[2])[sys.argv[3]] - json.loads(sys.argv[1])[sys.argv[3]])' "$@"; }
got=$(cdiff "$before_v" "$after_v" $VIC)
sent=$(cdiff "$before_s" "$after_s" $VIC)
secs=$(jv "$TMP/f2.json" seconds)
nlog=$((lines1 - lines0))
if command -v iptables >/dev/null; then
	report 2 "1000 hellos with random cookies from forged $VIC in ${secs} s: $got bytes reached it ($(num %d "$got / 44") answers of 16 bytes; the server sent $sent bytes), $nlog log lines without -v"
else
	report 2 "1000 hellos with random cookies from forged $VIC in ${secs} s: $nlog log lines without -v; SKIPPED the byte counts (per address, in INPUT and OUTPUT): no iptables here"
fi
sed -n "$((lines0 + 1))p" "$TMP/f2.log" | sed 's/^/finding 2: first log line: /'
if ! command -v iptables >/dev/null; then
	:
elif ! [ "$got" = 0 ] || ! [ "$sent" = 0 ]; then
	unmet 2 "hellos with unknown cookies were answered ($sent bytes sent, $got reached $VIC; want 0)"
fi
maxlog=$(num %d "int($secs + 0.999) + 2")
[ "$nlog" -le "$maxlog" ] || unmet 2 "$nlog log lines for 1000 stray hellos in $secs s (want at most $maxlog: one a second)"

# what one stray hello costs the accept loop, in system calls (strace)
if command -v strace >/dev/null && [ "${HOSTILE_STRACE:-1}" = 1 ]; then
	spid=$(cat "$TMP/f2.pid")
	timeout -s INT 4 strace -f -c -o "$TMP/f2.strace" -p "$spid" 2>/dev/null &
	track $!
	stpid=$!
	sleep 1
	ns "$A" "$PY" "$HT/forge.py" stray --server $SRV --port $P --src $VIC --count 200 \
		--rate 200 --seed 2 >/dev/null
	sleep 0.3
	kill -INT $stpid 2>/dev/null
	wait $stpid 2>/dev/null
	calls=$(awk '$NF == "total" { print $(NF-2) }' "$TMP/f2.strace" 2>/dev/null)
	top=$(awk 'NR > 2 && $1 ~ /^[0-9.]+$/ && $NF != "total" { print $NF " " $4 }' \
		"$TMP/f2.strace" 2>/dev/null | head -12 | tr '\n' ' ')
	[ -n "$calls" ] && report 2 "system calls by the server for 200 stray hellos: $calls ($(num %.1f "$calls / 200") each): $top"
fi
ns "$V" "$PY" "$HT/bcount.py" teardown
ns "$S" "$PY" "$HT/bcount.py" teardown
sstop 2 $SPID
