# SPDX-License-Identifier: BSD-2-Clause
# Finding 7: log forgery.  A peer's text (a client's ERROR, a SETUP's CPU
# list; a server's ERROR and RESULT warning) reaches the server log and the
# client's terminal byte for byte.  Fixed: control characters are escaped:
# no ESC, BEL or CR byte, and no line that starts with the forged
# timestamp.  Sourced by tests/hostile.sh.

EVIL7='reset\x1b[31m RED\x1b[0m\x07\r\n2030-01-01T00:00:00.000Z xperf[1]: forged line\x1b]0;title\x07'
# raw FILE: "N control bytes, forged line: yes/no"
raw() {
	"$PY" -c '
import sys
b = open(sys.argv[1], "rb").read()
ctl = sum(1 for c in b if c < 32 and c not in (9, 10) or c == 127)
forged = any(l.startswith(b"2030-01-01") for l in b.split(b"\n"))
print("%d control bytes%s" % (ctl, ", a forged log line" if forged else ""))
sys.exit(1 if ctl or forged else 0)' "$1"
}

server f7 6701
ns "$A" "$PY" "$HT/probe.py" --server $SRV --port 6701 error "$EVIL7" >/dev/null
ns "$A" "$PY" "$HT/probe.py" --server $SRV --port 6701 setup "cpus=0\\n2030-01-01T00:00:00.000Z xperf[1]: forged cpu\\x1b[2J" >"$TMP/f7cpus.json"
sleep 0.3
sstop 7 $SPID
report 7 "server log after a client ERROR and a SETUP CPU list holding escapes and a newline: $(raw "$TMP/f7.log")"
grep -a -A1 "client reported" "$TMP/f7.log" | sed -n '1,2s/^/finding 7:   | /p' | cat -v
raw "$TMP/f7.log" >/dev/null || unmet 7 "server log: $(raw "$TMP/f7.log") from peer text (want them escaped)"

# the client's terminal, facing a server's ERROR and RESULT warning
bgtool f7fe "$A" fake_server.py --port 6702 --mode error-escape --life 30
bgtool f7fw "$A" fake_server.py --port 6703 --mode warn-escape --life 30
HOST=$ATT normal f7e "$C" 6702 10 -t TCP_STREAM -l 0.5
HOST=$ATT normal f7w "$C" 6703 10 -t TCP_STREAM -l 0.5
cat "$TMP/f7e.out" "$TMP/f7e.err" >"$TMP/f7e.all"
cat "$TMP/f7w.out" "$TMP/f7w.err" >"$TMP/f7w.all"
report 7 "client facing a server ERROR with escapes: $(raw "$TMP/f7e.all") (exit $(jv "$TMP/f7e.run" exit)); facing a RESULT warning with escapes: $(raw "$TMP/f7w.all") (exit $(jv "$TMP/f7w.run" exit))"
raw "$TMP/f7e.all" >/dev/null || unmet 7 "client output for a server ERROR: $(raw "$TMP/f7e.all") (want them escaped)"
raw "$TMP/f7w.all" >/dev/null || unmet 7 "client output for a server warning: $(raw "$TMP/f7w.all") (want them escaped)"
