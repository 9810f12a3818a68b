#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The client's report options over loopback: --logfile (the report and the
# errors go to FILE, appended), --timestamps[=FORMAT] on interval lines,
# -f/--format rate units.
. "${srcdir:-.}/tests/lib.sh"

# --- --logfile ---------------------------------------------------------------
"$XPERF" -t TCP_STREAM -l 0.5 --logfile "$TMP/log" >"$TMP/out" 2>"$TMP/err" ||
	fail "--logfile run: $(cat "$TMP/err")"
[ -s "$TMP/out" ] && fail "--logfile: stdout has $(wc -c <"$TMP/out") bytes"
[ -s "$TMP/err" ] && fail "--logfile: stderr has $(cat "$TMP/err")"
grep -q "TCP_STREAM to 127.0.0.1" "$TMP/log" || fail "--logfile: no report in the file"
"$XPERF" -t TCP_RR -l 0.5 --json --logfile "$TMP/log" >"$TMP/out" 2>&1 || fail "--logfile --json"
[ -s "$TMP/out" ] && fail "--logfile --json: output outside the file"
grep -q "TCP_STREAM to 127.0.0.1" "$TMP/log" || fail "--logfile: the second run truncated the file"
grep -q '"transactions_per_second"' "$TMP/log" || fail "--logfile: no JSON appended"
PORT=$(free_port)
"$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_RR -l 1 --logfile "$TMP/log2" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] || fail "--logfile, refused connection: exit $rc, want 1"
[ -s "$TMP/err" ] && fail "--logfile: the error went to stderr: $(cat "$TMP/err")"
grep -q "Connection refused" "$TMP/log2" || fail "--logfile: the error is not in the file"
"$XPERF" -t TCP_RR -l 0.5 --logfile /nonexistent/dir/log >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] && grep -q "logfile /nonexistent/dir/log" "$TMP/err" ||
	fail "--logfile in a missing directory: exit $rc, $(cat "$TMP/err")"

# --- --timestamps --------------------------------------------------------------
"$XPERF" -t TCP_STREAM -l 1 -i 0.5 --timestamps='%H:%M:%S ' >"$TMP/ts" 2>&1 || fail "--timestamps=FORMAT"
n=$(grep -c -E '^[0-9]{2}:[0-9]{2}:[0-9]{2} \[ *[0-9.]+- *[0-9.]+ s\]' "$TMP/ts")
[ "$n" -ge 2 ] || { cat "$TMP/ts" >&2; fail "--timestamps=FORMAT: $n stamped interval lines"; }
"$XPERF" -t TCP_RR -l 1 -i 0.5 --timestamps >"$TMP/ts2" 2>&1 || fail "--timestamps"
year=$(date +%Y)
n=$(grep -c -E "^[A-Z][a-z]{2} .* $year \[" "$TMP/ts2")
[ "$n" -ge 2 ] || { cat "$TMP/ts2" >&2; fail "--timestamps (\"%c \"): $n stamped interval lines"; }
"$XPERF" -t TCP_RR -l 1 -i 0.5 >"$TMP/ts3" 2>&1 || fail "-i without --timestamps"
[ "$(grep -c '^\[' "$TMP/ts3")" -ge 2 ] || fail "interval lines without --timestamps do not start with ["

# --- -f/--format -------------------------------------------------------------------
# the rate printed equals bytes / seconds in the unit asked for (2%)
rate_ok() { # FILE UNIT FACTOR: the "received" line's rate x FACTOR = bytes/s
	python3 - "$@" <<'PY' || { cat "$1" >&2; fail "-f: $2 rate does not match the bytes"; }
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"received +([0-9.]+) (B|KiB|MiB|GiB|TiB) in +([0-9.]+) s = +([0-9.]+) " + re.escape(sys.argv[2]), t)
b = float(m.group(1)) * 1024 ** ["B", "KiB", "MiB", "GiB", "TiB"].index(m.group(2))
rate = float(m.group(4)) * float(sys.argv[3])
sys.exit(0 if abs(rate - b / float(m.group(3))) <= 0.02 * rate else 1)
PY
}
"$XPERF" -t TCP_STREAM -l 0.5 -f m >"$TMP/fm" 2>&1 || fail "-f m"
rate_ok "$TMP/fm" "Mbit/s" 125000
"$XPERF" -t TCP_STREAM -l 0.5 -f K >"$TMP/fK" 2>&1 || fail "-f K"
rate_ok "$TMP/fK" "KByte/s" 1024
"$XPERF" -t UDP_STREAM -l 1 -i 0.5 -f k -b 10M >"$TMP/fk" 2>&1 || fail "-f k, UDP"
[ "$(grep -c 'kbit/s' "$TMP/fk")" -ge 3 ] || { cat "$TMP/fk" >&2; fail "-f k: interval and summary lines in kbit/s"; }
grep -q "Gbit/s" "$TMP/fk" && fail "-f k: a Gbit/s left"
# --- -v: progress on stderr ------------------------------------------------------
"$XPERF" -t TCP_RR -l 0.3 -v >"$TMP/v.out" 2>"$TMP/v.err" || fail "-v run"
grep -q "connecting to 127.0.0.1" "$TMP/v.err" && grep -q "measuring" "$TMP/v.err" &&
	grep -q "run 1/1 done" "$TMP/v.err" || fail "-v: progress lines: $(cat "$TMP/v.err")"
"$XPERF" -t TCP_RR -l 0.3 >"$TMP/v.out" 2>"$TMP/v.err" || fail "run without -v"
[ -s "$TMP/v.err" ] && fail "without -v: stderr has $(cat "$TMP/v.err")"
echo "client_report: ok"
