#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Command-line errors and connection failures: one clear line, the
# documented exit status, and exactly one JSON document with --json.
. "${srcdir:-.}/tests/lib.sh"

expect_status() { # STATUS DESCRIPTION CMD...
	want=$1; what=$2; shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	[ "$got" = "$want" ] || { cat "$TMP/err" >&2; fail "$what: exit $got, want $want"; }
	lines=$(wc -l <"$TMP/err")
	[ "$want" = 0 ] || [ "$lines" = 1 ] || { cat "$TMP/err" >&2; fail "$what: $lines error lines, want 1"; }
}

expect_status 0 "--help" "$XPERF" --help
grep -q -- "--msg-size" "$TMP/out" || fail "--help lacks --msg-size"
expect_status 0 "--version" "$XPERF" --version
expect_status 2 "unknown option" "$XPERF" --bogus
grep -q "unknown option" "$TMP/err" || fail "unknown option message: $(cat "$TMP/err")"
expect_status 2 "bad size" "$XPERF" -m x12
grep -q "invalid size 'x12'" "$TMP/err" || fail "bad size message: $(cat "$TMP/err")"
expect_status 2 "bad test" "$XPERF" -t TCP_NOPE
expect_status 2 "missing argument" "$XPERF" -c
expect_status 2 "-s with -c" "$XPERF" -s -c 127.0.0.1
expect_status 2 "UDP_STREAM below 8 bytes" "$XPERF" -t UDP_STREAM -m 4
expect_status 2 "UDP size above 65507" "$XPERF" -t UDP_RR -m 70000
expect_status 2 "stray argument" "$XPERF" -c 127.0.0.1 extra
expect_status 2 "bad CPU list" "$XPERF" --cpus 3-1
expect_status 2 "size over max" "$XPERF" -m 5G

# usage error with --json: one JSON document on stdout
expect_status 2 "json usage error" "$XPERF" --json --bogus
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert "unknown option" in d["error"]' \
	"$TMP/out" || fail "usage error JSON: $(cat "$TMP/out")"

# refused connection: exit 1, the line names the address and the reason
PORT=$(free_port)
expect_status 1 "refused" "$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_RR -l 1
grep -q "connect 127.0.0.1:$PORT: Connection refused" "$TMP/err" || fail "refused message: $(cat "$TMP/err")"
expect_status 1 "refused json" "$XPERF" -c 127.0.0.1 -p "$PORT" -t TCP_RR -l 1 --json
python3 -c '
import json,sys
d = json.load(open(sys.argv[1]))
assert "Connection refused" in d["error"], d
assert d["start"]["test_start"]["test"] == "TCP_RR", d' "$TMP/out" || fail "refused JSON: $(cat "$TMP/out")"

# unresolvable host
expect_status 1 "bad host" "$XPERF" -c no-such-host.invalid -t TCP_RR -l 1
echo "cli_usage: ok"
