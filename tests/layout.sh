#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The tree keeps docs/ARCHITECTURE.md's rooms: every include goes to a room
# its room needs, through that room's way in; no circle between rooms,
# headers or files (tests/layout.py; the files' calls read off the object
# files of this build with nm).
. "${srcdir:-.}/tests/lib.sh"
command -v nm >/dev/null || skip "layout: nm (binutils) is not installed"
build=$(dirname "$XPERF")
out=$(python3 "$srcdir/tests/layout.py" "$srcdir" "$build") || fail "layout: $out"
echo "$out"
case $out in
*"not checked"*) fail "layout: the object files of $build were not all found: $out" ;;
esac

# The check can fail: a tree with an include against the table, and one
# with two files that call each other, are both refused.
mkdir -p "$TMP/bad/docs" "$TMP/bad/low" "$TMP/bad/high"
cat >"$TMP/bad/docs/ARCHITECTURE.md" <<'MD'
## The rooms

| room | holds | needs | way in |
|---|---|---|---|
| `low/` | a | - | `low/low.h` |
| `high/` | b | `low/` | `high/high.h` |

## End
MD
printf 'int low_a(void);\n' >"$TMP/bad/low/low.h"
printf '#include "high/high.h"\nint low_b(void);\nint low_a(void) { return low_b(); }\n' >"$TMP/bad/low/a.c"
printf 'int low_a(void);\nint low_b(void) { return low_a(); }\n' >"$TMP/bad/low/b.c"
printf 'int high(void);\n' >"$TMP/bad/high/high.h"
for f in a b; do
	${CC:-cc} -c -I"$TMP/bad" "$TMP/bad/low/$f.c" -o "$TMP/bad/low/$f.o" ||
		skip "layout: no C compiler for the self-check"
done
if python3 "$srcdir/tests/layout.py" "$TMP/bad" "$TMP/bad" >"$TMP/bad.out"; then
	fail "layout: a tree that breaks its table passed"
fi
grep -q 'low/a.c includes high/high.h: room low does not need high' "$TMP/bad.out" ||
	fail "layout: the include against the table was not named: $(cat "$TMP/bad.out")"
grep -q 'files call each other: low/a.c, low/b.c' "$TMP/bad.out" ||
	fail "layout: the circle between files was not named: $(cat "$TMP/bad.out")"
echo "layout: a planted include against the table and a planted circle are refused"
