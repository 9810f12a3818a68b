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

# options given where they do nothing: usage errors, not silent no-ops
expect_status 2 "client option on the server" "$XPERF" -s -t TCP_RR
grep -q -- "-t/--test is a client option" "$TMP/err" || fail "client option message: $(cat "$TMP/err")"
expect_status 2 "server option on the client" "$XPERF" -c 127.0.0.1 --max-tests 3
grep -q -- "--max-tests is a server option" "$TMP/err" || fail "server option message: $(cat "$TMP/err")"
expect_status 2 "--idle-timeout on the client" "$XPERF" -c 127.0.0.1 --idle-timeout 5
expect_status 2 "server option in embedded mode" "$XPERF" --max-flows 8
expect_status 2 "-p in embedded mode" "$XPERF" -p 5000 -t TCP_RR
expect_status 2 "--warmup with a stream test" "$XPERF" -t TCP_STREAM --warmup 1
expect_status 2 "lab -t RRUL" "$XPERF" lab -t TCP_RR,RRUL --delay 10
grep -q -- "-t RRUL is not a lab test" "$TMP/err" || fail "lab -t RRUL message: $(cat "$TMP/err")"
expect_status 2 "--confidence without -I" "$XPERF" --confidence 99
expect_status 2 "-C with UDP" "$XPERF" -t UDP_STREAM -C reno
expect_status 2 "--fastopen with TCP_RR" "$XPERF" -t TCP_RR --fastopen
expect_status 2 "--sendfile with TCP_RR" "$XPERF" -t TCP_RR --sendfile
expect_status 2 "--cport with TCP_CRR" "$XPERF" -t TCP_CRR --cport 6000
expect_status 2 "--flowlabel without IPv6" "$XPERF" -c 127.0.0.1 --flowlabel 5
expect_status 2 "bad --dscp" "$XPERF" --dscp AF51
expect_status 2 "-f with an RR test" "$XPERF" -t TCP_RR -f m
expect_status 2 "--timestamps without -i" "$XPERF" --timestamps

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
