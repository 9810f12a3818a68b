#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The bench's curve pictures (tests/bench/curve_plot, fed by
# tests/bench/bench.py): a spec of three tools (one with no points, which
# must not be drawn) becomes an SVG with one line per drawn tool, checked
# as XML and, where Chromium starts, as pixels (tests/plot_check.py: each
# series' colour present, no other).  Bad specs are refused with the line
# named and exit 1; no argument is a usage error (2).  The pixel check is
# skipped (77) when the browser cannot start; the rest still runs first.
. "${srcdir:-.}/tests/lib.sh"
PLOT=${CURVE_PLOT:-./tests/bench/curve_plot}
RENDER="$srcdir/tests/render_svg.sh"
CHECK="$srcdir/tests/plot_check.py"
[ -x "$PLOT" ] || fail "no $PLOT (make builds it)"

TAB=$(printf '\t')
cat >"$TMP/spec" <<EOF
# a TCP_RR curve as bench.py writes it
title${TAB}TCP_RR, 1 byte, 2 threads each side
caption${TAB}make bench BENCH_ARGS=--curves
x${TAB}Flows (-P)${TAB}${TAB}log
y${TAB}Transactions${TAB}/s${TAB}linear
series${TAB}xperf
1${TAB}40000${TAB}38000${TAB}42000
10${TAB}180000${TAB}170000${TAB}190000
1000${TAB}140000${TAB}130000${TAB}150000
10000${TAB}95000${TAB}90000${TAB}102000
series${TAB}neper (skipped)
series${TAB}floor
1${TAB}39000
10${TAB}150000
1000${TAB}120000
10000${TAB}90000
EOF
"$PLOT" "$TMP/rr.svg" <"$TMP/spec" >"$TMP/out" 2>"$TMP/err" || fail "curve_plot: $(cat "$TMP/err")"
[ "$(cat "$TMP/out")" = "$TMP/rr.svg 2" ] || fail "curve_plot printed '$(cat "$TMP/out")', want 2 series"
grep -q 'floor' "$TMP/rr.svg" || fail "no legend entry for the floor"
grep -q 'neper' "$TMP/rr.svg" && fail "a series with no points was drawn"

refused() { # LINE... : a spec with these lines must fail naming its line
	printf '%s\n' "$@" >"$TMP/bad"
	"$PLOT" "$TMP/bad.svg" <"$TMP/bad" 2>"$TMP/err" && fail "accepted: $*"
	grep -q "curve_plot: line" "$TMP/err" || fail "no line named for '$*': $(cat "$TMP/err")"
}
refused "1${TAB}2"                                 # a point before any series
refused "series${TAB}a" "1${TAB}x"                 # not a number
refused "series${TAB}a" "1${TAB}2${TAB}3"          # LO without HI
refused "x${TAB}Flows${TAB}${TAB}cubic"            # no such scale
refused "series${TAB}a" "1${TAB}inf"               # not finite
i=0; { echo "series${TAB}a"; while [ $i -lt 65 ]; do echo "$i${TAB}1"; i=$((i + 1)); done; } >"$TMP/many"
"$PLOT" "$TMP/many.svg" <"$TMP/many" 2>/dev/null && fail "65 points accepted (64 at most)"
printf 'series\ta\n' | "$PLOT" "$TMP/empty.svg" 2>/dev/null && fail "a spec with no point drew a chart"
"$PLOT" 2>/dev/null
[ $? -eq 2 ] || fail "no argument: want exit 2"

command -v python3 >/dev/null 2>&1 || { echo "bench_plot: SKIP: no python3 for the picture check"; exit 77; }
cat >"$TMP/probe.svg" <<'PROBE'
<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160" viewBox="0 0 240 160"><rect width="240" height="160" fill="#0072B2"/></svg>
PROBE
sh "$RENDER" "$TMP/probe.svg" "$TMP/probe.png" 2>"$TMP/probe.err" ||
	{ echo "bench_plot: SKIP: the browser cannot start: $(tr '\n' ' ' <"$TMP/probe.err")"; exit 77; }
sh "$RENDER" "$TMP/rr.svg" "$TMP/rr.png" || fail "rendering rr.svg"
python3 "$CHECK" "$TMP/rr.svg" "$TMP/rr.png" 2 || fail "rr.svg"
echo "bench_plot: the curve chart drew its 2 tools; 7 bad specs refused"
