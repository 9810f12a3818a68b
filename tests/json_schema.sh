#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# One JSON schema for one host or many, and options anywhere (issue 31),
# over loopback against two servers:
#   - one host's result and a two-host fan-out's are read by the same paths
#     (end.rr.latency_us.p99, end.sum_received.bits_per_second ...), with
#     sane values: the total's counts are the hosts' sums, its P99 lies
#     between theirs, and every key of the total is a key of one host's end;
#   - xperf merge takes its options after the files, writes the same
#     schema, reads its own output back; -- makes "-x.json" a file;
#   - a wrong option after the operands is one line naming it, exit 2, in
#     the client, xperf merge and xperf lab; the iperf3 front end reads
#     options after a word it ignores, as iperf3 does.
. "${srcdir:-.}/tests/lib.sh"

start_server
PORT_A=$PORT
PORT_B=$(free_port)
"$XPERF" -s -p "$PORT_B" >"$TMP/server_b.log" 2>&1 &
PID_B=$!
EXTRA_CLEANUP="kill $PID_B 2>/dev/null; wait $PID_B 2>/dev/null"
for _ in $(seq 50); do
	grep -q "listening on port" "$TMP/server_b.log" && break
	sleep 0.1
done
grep -q "listening on port" "$TMP/server_b.log" || fail "second server: $(cat "$TMP/server_b.log")"
TWO="127.0.0.1:$PORT_A,127.0.0.1:$PORT_B"

"$XPERF" -c 127.0.0.1 -p "$PORT_A" -t TCP_RR -l 1 --json >"$TMP/one.json" ||
	fail "one host TCP_RR: $(cat "$TMP/one.json")"
"$XPERF" -t TCP_RR -P 2 -l 1 -c "$TWO" --json >"$TMP/two.json" ||
	fail "two hosts TCP_RR: $(cat "$TMP/two.json")"
"$XPERF" -c 127.0.0.1 -p "$PORT_A" -t TCP_STREAM -l 1 --json >"$TMP/one_s.json" ||
	fail "one host TCP_STREAM"
"$XPERF" -c "$TWO" -t TCP_STREAM -P 2 -l 1 --json >"$TMP/two_s.json" ||
	fail "two hosts TCP_STREAM"

# the same paths, in both, with sane values (jq's .end.rr.latency_us.p99 ...)
python3 - "$TMP" <<'PY' || fail "one host's paths in a two-host result"
import json, sys
RR = ["end.rr.latency_us.p50", "end.rr.latency_us.p99", "end.rr.transactions",
      "end.rr.transactions_per_second", "end.sum_sent.bytes", "end.sum_received.bytes"]
STREAM = ["end.sum_received.bits_per_second", "end.sum_sent.bytes", "end.sum_sent.retransmits"]
for test, suffix, paths in (("TCP_RR", "", RR), ("TCP_STREAM", "_s", STREAM)):
    for n in ("one", "two"):
        d = json.load(open("%s/%s%s.json" % (sys.argv[1], n, suffix)))
        assert d["start"]["test_start"]["test"] == test, (n, test)
        for p in paths:
            v = d
            for k in p.split("."):
                v = v[k]
            assert isinstance(v, (int, float)) and (v > 0 or p.endswith("retransmits")), (n, p, v)
            print("json_schema: %s %s host(s) .%s = %s" % (test, n, p, v))
PY
python3 - "$TMP/one.json" "$TMP/two.json" "$TMP/two_s.json" <<'PY' || fail "two-host totals"
import json, sys
one, two, stream = (json.load(open(f)) for f in sys.argv[1:])
hosts = two["hosts"]
assert len(hosts) == 2 and all(h["ok"] for h in hosts) and two["hosts_failed"] == 0, hosts
assert "merged" not in two, "the total belongs at .end"
e = two["end"]
trans = [h["end"]["rr"]["transactions"] for h in hosts]
assert e["rr"]["transactions"] == sum(trans) and min(trans) > 0, (e["rr"], trans)
assert e["sum_received"]["bytes"] == sum(h["end"]["sum_received"]["bytes"] for h in hosts)
p99 = [h["end"]["rr"]["latency_us"]["p99"] for h in hosts]
assert min(p99) * 0.99 <= e["rr"]["latency_us"]["p99"] <= max(p99) * 1.01, (e, p99)
rx = [h["end"]["sum_received"]["bits_per_second"] for h in stream["hosts"]]
assert abs(stream["end"]["sum_received"]["bits_per_second"] - sum(rx)) <= 1e-6 * sum(rx)
assert min(rx) > 0, rx

def leaves(d, pre=""):
    for k, v in d.items():
        if isinstance(v, dict):
            yield from leaves(v, pre + k + ".")
        elif not isinstance(v, list):
            yield pre + k

extra = set(leaves(e)) - set(leaves(one["end"]))
assert not extra, "keys of the total that one host's end has not: %s" % sorted(extra)
missing = {"rr.latency_us.p99", "rr.histogram", "sum_sent.retransmits", "interrupted",
           "server.bytes_received"} - set(leaves(e))
assert not missing, missing
print("json_schema: two hosts, %d transactions (%s), p99 %.2f us between the hosts' %s"
      % (e["rr"]["transactions"], trans, e["rr"]["latency_us"]["p99"], p99))
PY

# xperf merge: options after the files, the same schema, its output read back
"$XPERF" merge "$TMP/one.json" "$TMP/two.json" --json >"$TMP/merged.json" 2>"$TMP/err" ||
	fail "merge with --json after the files: $(cat "$TMP/err")"
python3 - "$TMP/one.json" "$TMP/two.json" "$TMP/merged.json" <<'PY' || fail "merge document"
import json, sys
one, two, m = (json.load(open(f)) for f in sys.argv[1:])
assert [h["file"] for h in m["hosts"]] == sys.argv[1:3], m["hosts"]
assert m["end"]["rr"]["transactions"] == (one["end"]["rr"]["transactions"]
                                          + two["end"]["rr"]["transactions"])
assert m["flows"] == 3 and m["start"]["test_start"]["test"] == "TCP_RR", m["flows"]
assert m["hosts"][1]["end"]["rr"]["transactions"] == two["end"]["rr"]["transactions"]
PY
echo "json_schema: merge FILES --json: .end.rr.latency_us.p99 = $(jget "$TMP/merged.json" end.rr.latency_us.p99)"
"$XPERF" merge "$TMP/merged.json" -J >"$TMP/again.json" || fail "merge of a merged document"
[ "$(jget "$TMP/again.json" end.rr.transactions)" = "$(jget "$TMP/merged.json" end.rr.transactions)" ] ||
	fail "a merged document read back differs"
"$XPERF" merge "$TMP/one.json" "$TMP/two.json" >"$TMP/merge.txt" || fail "merge (text)"
grep -q "^xperf merge: 2 TCP_RR results" "$TMP/merge.txt" || fail "merge text: $(cat "$TMP/merge.txt")"

# --: every word after it is a file, even "-x.json" and "--json"
cp "$TMP/one.json" "$TMP/-x.json"
(cd "$TMP" && "$XPERF" merge --json -- -x.json) >"$TMP/dash.json" || fail "merge -- -x.json"
[ "$(jget "$TMP/dash.json" hosts.0.file)" = "-x.json" ] || fail "-- then -x.json: not a file"
"$XPERF" merge "$TMP/one.json" -- --json >"$TMP/out" 2>"$TMP/err"; rc=$?
[ $rc = 1 ] && grep -q -- "--json: No such file" "$TMP/err" ||
	fail "merge -- --json: exit $rc, $(cat "$TMP/err")"

# a wrong option after the operands: one line that names it, exit 2
usage_error() { # WHAT NAME CMD...: exit 2 and one line on stderr naming NAME
	what=$1 name=$2
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 2 ] || fail "$what: exit $rc, want 2 ($(cat "$TMP/err"))"
	[ "$(wc -l <"$TMP/err")" = 1 ] || fail "$what: not one line: $(cat "$TMP/err")"
	grep -q -- "'$name'" "$TMP/err" || fail "$what: does not name $name: $(cat "$TMP/err")"
	echo "json_schema: $what: $(cat "$TMP/err")"
}
usage_error "merge FILE --bogus" --bogus "$XPERF" merge "$TMP/one.json" --bogus
usage_error "merge FILE -x" -x "$XPERF" merge "$TMP/one.json" -x
usage_error "client --bogus last" --bogus "$XPERF" -c 127.0.0.1 -p "$PORT_A" -t TCP_RR --bogus
usage_error "client stray word" stray "$XPERF" -t TCP_RR stray -l 1
usage_error "client -- -l" -l "$XPERF" -t TCP_RR -- -l 1
usage_error "lab --bogus last" --bogus "$XPERF" lab --dry-run -t TCP_RR --bogus

# the iperf3 front end: a word it ignores, then options it still reads
"$XPERF" --iperf3-args -c 127.0.0.1 -p "$PORT_A" extra -t 1 -J >"$TMP/i3.json" ||
	fail "iperf3 front end with options after a word: $(tail -3 "$TMP/i3.json")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["end"]["sum_received"]["bytes"] > 0' \
	"$TMP/i3.json" || fail "iperf3 front end: -J after the word not read"
echo "json_schema: one host and two read alike; options after operands everywhere"
