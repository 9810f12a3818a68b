# SPDX-License-Identifier: BSD-2-Clause
# Finding 3: pre-test slots.  (a) 2000 connections from A that send
# nothing; (b) 16 connections that send 6 bytes of a control header (all of
# --max-tests); (c) one SETUP dripped so that each read completes just in
# time; (d) a client refused because --max-tests real tests run.  Fixed: a
# normal test from C starts within 2 s during (a) and (b), the drip is cut
# off within --idle-timeout + 1 s, and the refused client is told
# "server busy: N tests running (max M)" and exits 1.
# Sourced by tests/hostile.sh.

T3=${FULL:+30}
T3=${T3:-3}
normal3() { # NAME PORT: a short TCP_RR from C, its start timed
	normal "$1" "$C" "$2" 8 -t TCP_RR -l 0.5 --warmup 0 --json-stream
}

# (a) idle connections
server f3a 6301
bgtool f3a "$A" flood.py idle --server $SRV --port 6301 --count 2000 --hold 3
for i in 1 2 3; do
	normal3 f3a$i 6301
	sleep 0.7
done
wait $TPID
report 3 "during 2000 idle connections ($(jv "$TMP/f3a.out" opened) open, $(jv "$TMP/f3a.out" closed_by_server) closed at once by the server), 3 normal tests 0.7 s apart:"
for i in 1 2 3; do
	report 3 "  normal test $i: $(how f3a$i)"
	started f3a$i || unmet 3 "normal test $i during the idle-connection flood: $(how f3a$i) (want a start within 2 s)"
done
sstop 3 $SPID

# (b) partial headers holding every --max-tests slot, and (c) one drip,
# on two servers at the same time
server f3c 6303 --idle-timeout $T3
C3PID=$SPID
bgtool f3c "$A" flood.py slow --server $SRV --port 6303 --timeout $T3 --limit $((T3 * 3 + 2))
SLOWPID=$TPID
server f3b 6302 --idle-timeout $T3
bgtool f3b "$A" flood.py partial --server $SRV --port 6302 --count 16 --hold $((T3 + 4))
t0=$(date +%s.%N)
normal3 f3b1 6302
first="$(how f3b1)"
ok_at=
while [ -z "$ok_at" ] && is "$(date +%s.%N) - $t0 < $T3 + 5"; do
	if started f3b_retry 2>/dev/null || started f3b1; then
		ok_at=$(num %.1f "$(date +%s.%N) - $t0")
		break
	fi
	sleep 0.3
	normal3 f3b_retry 6302
done
report 3 "16 connections sending 6 header bytes (default caps, --idle-timeout $T3): first normal test $first; normal tests refused for ${ok_at:-more than $((T3 + 5))} s"
started f3b1 || unmet 3 "normal test while 16 partial headers are held: $first (want a start within 2 s)"
wait $TPID
wait $SLOWPID
held=$(jv "$TMP/f3c.out" held)
report 3 "one SETUP dripped to complete each read at 0.9 x --idle-timeout $T3: slot held ${held:-over $((T3 * 3 + 2))} s"
[ -n "$held" ] && is "$held <= $T3 + 1" ||
	unmet 3 "a dripped SETUP held its slot ${held:-over $((T3 * 3 + 2))} s (want at most --idle-timeout $T3 + 1 s)"
sstop 3 $C3PID
sstop 3 $SPID

# (d) really full: the refused client must be told so
server f3d 6304 --max-tests 1
ip netns exec "$C" "$XPERF" -c $SRV -p 6304 -t TCP_RR -l 8 >"$TMP/f3d_long.out" 2>&1 &
LONGPID=$!
track $LONGPID
sleep 1
told=0
for i in 1 2 3 4 5; do
	normal f3d$i "$C" 6304 8 -t TCP_RR -l 0.5
	if grep -Eq 'server busy: 1 tests? running \((max|--max-tests) 1[;)]' "$TMP/f3d$i.err" &&
		[ "$(jv "$TMP/f3d$i.run" exit)" = 1 ]; then
		told=$((told + 1))
	else
		unmet 3 "refused client $i: $(how f3d$i) (want exit 1 with \"server busy: 1 tests running (max 1)\")"
	fi
done
kill -0 $LONGPID 2>/dev/null || unmet 3 "(d) the running test ended early: $(cat "$TMP/f3d_long.out")"
stop $LONGPID
report 3 "5 clients refused by --max-tests 1 while one test runs: $told told \"server busy\" with exit 1; e.g. $(how f3d1)"
sstop 3 $SPID
