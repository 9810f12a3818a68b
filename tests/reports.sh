#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Charts and sweeps from real runs: --plot for a stream test and an RR
# test (drawn by headless Chromium and checked pixel by pixel: every
# series' colour in its panel, nothing blank), --sweep with --csv (one row
# per point, every JSON figure a column) and a trend chart, a grid of two
# sweeps, and the usage errors.  The browser parts are skipped, visibly,
# when Chromium cannot start; the rest always runs.
. "${srcdir:-.}/tests/lib.sh"
RENDER="$srcdir/tests/render_svg.sh"
CHECK="$srcdir/tests/plot_check.py"

start_server
X() { "$XPERF" -c 127.0.0.1 -p "$PORT" "$@"; }

# a browser?  (the same probe as tests/plot_render.sh)
printf '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160" viewBox="0 0 240 160"><rect width="240" height="160" fill="#0072B2"/></svg>\n' >"$TMP/probe.svg"
browser=1
sh "$RENDER" "$TMP/probe.svg" "$TMP/probe.png" 2>/dev/null || browser=0
[ $browser = 1 ] || echo "reports: SKIP (part): no browser could start; charts checked as XML only"

# check_chart SVG SERIES: valid, self-contained, and (with a browser) drawn
check_chart() {
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$1" ||
		fail "$1 is not well-formed XML"
	[ $browser = 1 ] || return 0
	sh "$RENDER" "$1" "${1%.svg}.png" || fail "rendering $1"
	python3 "$CHECK" "$1" "${1%.svg}.png" "$2" || fail "chart $1"
}

# a stream test, one flow: its throughput line (UDP: no retransmits)
X -t UDP_STREAM -l 1 -b 200M --plot "$TMP/udp.svg" >"$TMP/udp.out" || fail "UDP --plot"
check_chart "$TMP/udp.svg" 1
grep -q "throughput per interval" "$TMP/udp.svg" || fail "UDP chart title"
# three flows: a line each and the sum (flows paced alike may overlap, so
# this one is counted in the SVG, not in pixels)
X -t UDP_STREAM -l 0.5 -P 3 -b 100M --plot "$TMP/udp3.svg" >/dev/null || fail "UDP -P 3 --plot"
[ "$(grep -c 'class="series"' "$TMP/udp3.svg")" = 4 ] || fail "3 flows + sum: $(grep -c 'class="series"' "$TMP/udp3.svg") series"

# an RR test: its rate (+ retransmits if any), and the CDF
X -t TCP_RR -l 1 --plot "$TMP/rr.svg" >"$TMP/rr.out" || fail "RR --plot"
n=2
grep -q '>retransmits' "$TMP/rr.svg" && n=3
check_chart "$TMP/rr.svg" $n
grep -q "P99.9" "$TMP/rr.svg" || fail "no P99.9 marker"
grep -q -- "--plot $TMP/rr.svg" "$TMP/rr.svg" || fail "no command line caption"

# a sweep: table, CSV with one row per point and every figure, a trend
X -t TCP_STREAM -l 0.3 -I 2 --sweep msg-size=1K,64K,1M --csv "$TMP/s.csv" \
	--plot "$TMP/trend.svg" >"$TMP/sweep.out" || fail "sweep"
[ "$(grep -c "^ *[0-9][0-9]*[KM] " "$TMP/sweep.out")" = 3 ] || fail "sweep table: $(cat "$TMP/sweep.out")"
python3 - "$TMP/s.csv" <<'PY' || fail "sweep CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 3, len(rows)
assert [r["msg-size"] for r in rows] == ["1K", "64K", "1M"]
for r in rows:
    assert float(r["figure_min"]) <= float(r["figure_median"]) <= float(r["figure_max"])
    assert float(r["end.sum_received.bits_per_second"]) > 0
    assert r["start.test_start.msg_size_bytes"] in ("1024", "65536", "1048576")
    assert int(r["end.client.bytes_sent"]) > 0
assert len(rows[0]) > 60, len(rows[0])
PY
check_chart "$TMP/trend.svg" 1

# a grid: two sweeps, four points, a series per value of the second
# (--rate 200 and 400: two series apart by construction; with flows=1,2
# an ASan run once drew the two lines on top of each other)
X -t TCP_RR -l 0.5 --sweep msg-size=1,1K --sweep rate=200,400 --json \
	--plot "$TMP/grid.svg" >"$TMP/grid.json" || fail "grid sweep"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = [(p["values"]["msg-size"], p["values"]["rate"]) for p in d["points"]]
assert v == [(1, 200), (1, 400), (1024, 200), (1024, 400)], v
assert all(p["end"]["rr"]["transactions"] > 0 for p in d["points"])
' "$TMP/grid.json" || fail "grid points"
check_chart "$TMP/grid.svg" 2

# usage errors, exit 2
for bad in "--csv $TMP/x.csv" "--sweep nodelay=1" "--sweep msg-size=1,2 --sweep msg-size=3" \
	"--sweep flows=1,2 -i 1" "--sweep bogus=1"; do
	X -t TCP_RR -l 0.2 $bad >/dev/null 2>"$TMP/err"
	rc=$?
	[ $rc = 2 ] || fail "'$bad': exit $rc, want 2 ($(cat "$TMP/err"))"
done
echo "reports: charts, sweeps and CSV checked"
