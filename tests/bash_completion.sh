#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# `xperf --bash-completion`: the script parses, and its completion
# function, called as bash would (COMP_WORDS, COMP_CWORD), offers test
# names after -t, option names from the table (every option --help lists),
# lab and lab's options, comma-list items, choices and files.
# Skipped (77) without bash.
. "${srcdir:-.}/tests/lib.sh"

command -v bash >/dev/null 2>&1 || { echo "bash_completion: SKIP: no bash"; exit 77; }
"$XPERF" --bash-completion >"$TMP/xperf.bash" || fail "xperf --bash-completion failed"
bash -n "$TMP/xperf.bash" || fail "the script does not parse"

# run WORD...: the completions of the last word, one per line
cat >"$TMP/run.bash" <<'RUN'
source "$1" || exit 1
shift
complete -p xperf >/dev/null || exit 1
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
_xperf xperf "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}"
RUN
run() {
	bash "$TMP/run.bash" "$TMP/xperf.bash" "$@" 2>"$TMP/run.err" || fail "bash: $(cat "$TMP/run.err")"
}
# expect "WANT..." WORD...: the completions are exactly WANT (sorted)
expect() {
	want=$(printf '%s\n' $1 | sort)
	shift
	got=$(run "$@" | sort)
	[ "$got" = "$want" ] || fail "completing '$*': got [$(echo $got)], want [$(echo $want)]"
}

run xperf -t T >"$TMP/tests"
grep -qx TCP_STREAM "$TMP/tests" && grep -qx TCP_RR "$TMP/tests" ||
	fail "xperf -t T: got [$(echo $(cat "$TMP/tests"))], want TCP_STREAM and TCP_RR among them"
expect "TCP_STREAM TCP_MAERTS TCP_RR TCP_CRR" xperf -t T
expect "UDP_STREAM UDP_RR UDP_MAERTS" xperf --test U
expect "TCP_RR" xperf --test = TCP_R
expect "--msg-size" xperf --msg
expect "--bash-completion" xperf --bash
expect "lab" xperf la
expect "--topology" xperf lab --top
expect "veth,bridge" xperf lab --topology veth,br
expect "TCP_RR,UDP_STREAM TCP_RR,UDP_RR TCP_RR,UDP_MAERTS" xperf lab -t TCP_RR,UDP_
expect "tbf htb" xperf lab --qdisc ""
expect "" xperf --port ""
# the iperf3 front end: its own options, not xperf's values for its letters
expect "--iperf3-args" xperf --iperf3
expect "--reverse" xperf --iperf3-args -c h --rev
expect "" xperf --iperf3-args -c h -t ""
expect "k m g t K M G T" xperf --iperf3-args -f ""
expect "" xperf -t TCP_RR ""
: >"$TMP/hist-file.csv"
expect "$TMP/hist-file.csv" xperf -t TCP_RR --histogram "$TMP/hist-f"
# lab's options are offered after lab only
run xperf --to | grep -q topology && fail "--topology offered without lab"

# every option --help lists, long and short, is offered after "-"
run xperf - >"$TMP/all"
n=0
for opt in $("$XPERF" --help | sed -n -e 's/^ *\(-[A-Za-z0-9]\), \(--[a-z0-9-]*\).*/\1 \2/p' \
	-e 's/^ *\(--[a-z0-9][a-z0-9-]*\).*/\1/p'); do
	grep -qx -e "$opt" "$TMP/all" || fail "option $opt from --help is not completed"
	n=$((n + 1))
done
[ "$n" -gt 40 ] || fail "only $n options found in --help"
echo "bash_completion: $n option names and the value completions checked"
