# SPDX-License-Identifier: BSD-2-Clause
# Finding 6: --max-duration bypass.  duration_ms * 10^6 wraps in the
# server's SETUP check: 27356521461311266 ms times 10^6 is 953472 ns modulo
# 2^64, under --max-duration 1.  Fixed: refused like any duration over the
# limit.  Sourced by tests/hostile.sh.

server f6 6601 --max-duration 1
probe6() { ns "$A" "$PY" "$HT/probe.py" --server $SRV --port 6601 setup "$@"; }
probe6 duration_ms=2000 >"$TMP/f6a.json"
probe6 duration_ms=27356521461311266 >"$TMP/f6b.json"
probe6 duration_ms=18446744073709551615 >"$TMP/f6c.json"
report 6 "--max-duration 1: duration_ms 2000 -> $(jv "$TMP/f6a.json" answer) $(jv "$TMP/f6a.json" text); 27356521461311266 -> $(jv "$TMP/f6b.json" answer) $(jv "$TMP/f6b.json" text); 2^64-1 -> $(jv "$TMP/f6c.json" answer)"
[ "$(jv "$TMP/f6a.json" answer)" = ERROR ] || unmet 6 "duration 2000 ms accepted under --max-duration 1 (the probe itself is wrong)"
[ "$(jv "$TMP/f6b.json" answer)" = ERROR ] && jv "$TMP/f6b.json" text | grep -q duration ||
	unmet 6 "duration_ms 27356521461311266 accepted under --max-duration 1 ($(jv "$TMP/f6b.json" answer); want an ERROR naming the duration)"
[ "$(jv "$TMP/f6c.json" answer)" = ERROR ] ||
	unmet 6 "duration_ms 2^64-1 accepted under --max-duration 1 ($(jv "$TMP/f6c.json" answer))"
sstop 6 $SPID
