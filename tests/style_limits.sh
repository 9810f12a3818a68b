#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The tree keeps its size limits: no source file over 600 lines, no
# function over 60 (tests/style_limits.py says which and where).
. "${srcdir:-.}/tests/lib.sh"
out=$(python3 "$srcdir/tests/style_limits.py" "$srcdir") || fail "size limits: $out"
echo "style limits: every file under 600 lines, every function under 60"
