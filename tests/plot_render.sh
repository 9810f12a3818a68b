#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Every kind of chart, drawn by a browser: tests/plot_demo writes one SVG
# of each kind, tests/render_svg.sh has headless Chromium make a PNG of
# it, and tests/plot_check.py checks that the SVG is valid XML with one
# element per series, that the picture is not blank and that its plot area
# shows each series' colour and no other palette colour.  A negative
# control (one series erased from the SVG) must fail the same check.
# Skipped (77) when python3 or Chromium is missing or the browser cannot
# start.  Environment: PLOT_DEMO (default ./tests/plot_demo), CHROMIUM.
. "${srcdir:-.}/tests/lib.sh"
PLOT_DEMO=${PLOT_DEMO:-./tests/plot_demo}
RENDER="$srcdir/tests/render_svg.sh"
CHECK="$srcdir/tests/plot_check.py"

skip() {
	echo "plot_render: SKIP: $*"
	exit 77
}

command -v python3 >/dev/null 2>&1 || skip "no python3"
[ -x "$PLOT_DEMO" ] || fail "no $PLOT_DEMO (make check builds it)"

# Can the browser start at all?  A one-rectangle picture says so.
cat >"$TMP/probe.svg" <<'PROBE'
<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160" viewBox="0 0 240 160"><rect width="240" height="160" fill="#0072B2"/></svg>
PROBE
sh "$RENDER" "$TMP/probe.svg" "$TMP/probe.png" 2>"$TMP/probe.err"
rc=$?
[ $rc -eq 77 ] && skip "$(cat "$TMP/probe.err")"
[ $rc -eq 0 ] || skip "the browser cannot start: $(tr '\n' ' ' <"$TMP/probe.err")"

CAPTION='xperf -c 10.0.0.2 -t TCP_STREAM -P 3 -i 0.5 --plot "out.svg" --title <&>'
"$PLOT_DEMO" "$TMP" "$CAPTION" >"$TMP/manifest" || fail "$PLOT_DEMO failed"
[ "$(wc -l <"$TMP/manifest")" -eq 5 ] || fail "plot_demo wrote $(wc -l <"$TMP/manifest") charts, want 5"

while read -r name series; do
	svg=$TMP/$name
	png=$TMP/${name%.svg}.png
	sh "$RENDER" "$svg" "$png" || fail "rendering $name"
	python3 "$CHECK" "$svg" "$png" "$series" || fail "$name"
	[ -n "$KEEP_PLOTS" ] && cp "$svg" "$png" "$KEEP_PLOTS/"
done <"$TMP/manifest"

# Negative control: flow 3's line erased (its path kept, its data gone)
# must be missed by the pixel check.
sed 's/\(class="series" fill="none" stroke="#009E73"[^>]* d="\)[^"]*"/\1"/' \
	"$TMP/line.svg" >"$TMP/erased.svg"
cmp -s "$TMP/line.svg" "$TMP/erased.svg" && fail "negative control: nothing erased"
sh "$RENDER" "$TMP/erased.svg" "$TMP/erased.png" || fail "rendering erased.svg"
python3 "$CHECK" "$TMP/erased.svg" "$TMP/erased.png" 5 2>"$TMP/erased.err" &&
	fail "plot_check passed a chart with a series erased"
grep -q "#009E73" "$TMP/erased.err" || fail "negative control: $(cat "$TMP/erased.err")"
echo "plot_render: 5 charts rendered and checked; the erased series was caught"
