#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Every option that `xperf --help` lists must be documented in man/xperf.1:
# the OPTIONS section must have an entry (a .TP tag line) that carries its
# long form and, when it has one, its short form.  And every --long option
# the OPTIONS section mentions must be one that --help lists, so a renamed
# or removed option does not linger in the manual.
# Environment: XPERF (binary, default ./xperf), srcdir (source tree, default .).
XPERF=${XPERF:-./xperf}
srcdir=${srcdir:-.}
MAN=$srcdir/man/xperf.1

fail() {
	echo "opts_in_man: FAIL: $*" >&2
	exit 1
}

[ -r "$MAN" ] || fail "cannot read $MAN"
help=$("$XPERF" --help) || fail "$XPERF --help failed"

# One "SHORT LONG" pair per option, SHORT being "-" for long-only options,
# from help lines such as "  -p, --port PORT  ..." and "      --cpus LIST  ...".
opts=$(printf '%s\n' "$help" | sed -n \
	-e 's/^ *\(-[A-Za-z0-9]\), \(--[a-z0-9][a-z0-9-]*\).*/\1 \2/p' \
	-e 's/^ *\(--[a-z0-9][a-z0-9-]*\).*/- \1/p')
[ -n "$opts" ] || fail "no options found in the output of $XPERF --help"

# The OPTIONS section as plain text: roff's \- (and \(hy) become "-" and
# font escapes go, so "\fB\-p\fR, \fB\-\-port\fR" reads "-p, --port".
options=$(sed -e 's/\\-/-/g' -e 's/\\(hy/-/g' -e 's/\\f[BIRP]//g' \
	-e 's/\\f(..//g' -e 's/\\f\[[^]]*\]//g' -e 's/\\&//g' "$MAN" |
	sed -n '/^\.SH "*OPTIONS"*$/,/^\.SH/p' | sed '1d;$d')
[ -n "$options" ] || fail "$MAN has no OPTIONS section"
# The tag lines: the line after each .TP.
tags=$(printf '%s\n' "$options" | awk 'prev ~ /^\.TP( |$)/ { print } { prev = $0 }')

n=0
while read -r short long; do
	# the long form, not part of a longer name (--rcvbuf vs --remote-rcvbuf)
	entry=$(printf '%s\n' "$tags" |
		grep -E -e "(^|[^A-Za-z0-9-])$long([^a-z0-9-]|\$)")
	[ -n "$entry" ] ||
		fail "option $long has no entry in the OPTIONS section of $MAN"
	if [ "$short" != "-" ]; then
		printf '%s\n' "$entry" |
			grep -q -E -e "(^|[^A-Za-z0-9-])$short([^A-Za-z0-9-]|\$)" ||
			fail "option $short is not documented with $long in $MAN (entry: $entry)"
	fi
	n=$((n + 1))
done <<EOF
$opts
EOF

# Reverse: each --long word of the OPTIONS section must be in --help.
for long in $(printf '%s\n' "$options" | tr -cs 'A-Za-z0-9-' '\n' |
	sed -n 's/^\(--[a-z0-9][a-z0-9-]*[a-z0-9]\)-*$/\1/p' | sort -u); do
	printf '%s\n' "$opts" | grep -q -E -e " $long\$" ||
		fail "$MAN documents $long in OPTIONS, but $XPERF --help does not list it"
done

echo "opts_in_man: $n options documented"
