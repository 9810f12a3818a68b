#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Render an SVG to a PNG of the same size with headless Chromium.
# usage: render_svg.sh FILE.svg OUT.png
# Environment: CHROMIUM (browser binary; default: the first of chromium,
# chromium-browser, google-chrome found in PATH).
# Exit status: 0 rendered, 77 no browser, 1 the browser failed (its last
# output lines on stderr).
svg=$1
png=$2
[ -n "$svg" ] && [ -n "$png" ] || { echo "usage: render_svg.sh FILE.svg OUT.png" >&2; exit 2; }

if [ -z "$CHROMIUM" ]; then
	for b in chromium chromium-browser google-chrome; do
		command -v "$b" >/dev/null 2>&1 && { CHROMIUM=$b; break; }
	done
fi
[ -n "$CHROMIUM" ] || { echo "render_svg: no chromium in PATH (set CHROMIUM)" >&2; exit 77; }

abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
svg=$(abs "$svg")
png=$(abs "$png")
# the window is the picture: width and height from the <svg> element
size=$(sed -n 's/.*<svg [^>]*width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/p' "$svg" | head -1)
[ -n "$size" ] || size=800,480

profile=$(mktemp -d "${TMPDIR:-/tmp}/xperf-chromium.XXXXXX") || exit 1
rm -f "$png"
# --no-sandbox: root in a container has no user namespaces for the sandbox;
# the other flags keep a headless run from reaching the network
timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
	--no-first-run --disable-background-networking --disable-component-update \
	--disable-sync --hide-scrollbars --user-data-dir="$profile" \
	--screenshot="$png" --window-size="$size" "file://$svg" >"$profile.log" 2>&1
rc=$?
rm -rf "$profile"
if [ $rc -ne 0 ] || [ ! -s "$png" ]; then
	echo "render_svg: $CHROMIUM exited $rc, no $png; its last lines:" >&2
	tail -5 "$profile.log" >&2
	rm -f "$profile.log"
	exit 1
fi
rm -f "$profile.log"
exit 0
