#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A fleet run with the real shape: a star of namespaces on a bridge, one
# receiver and seven senders, each sender an agent (xperf -s --agent), and
# one controller command (xperf --from ...) running 64 flows in all (9 or
# 10 per sender).  Checked:
#   - the merged receiver total equals the sum of the per-sender totals,
#     byte for byte, and equals what the receiver itself counted;
#   - for TCP_RR, the merged P50/P99/P99.9 equal those of one histogram
#     holding every sample, computed here from the senders' lossless
#     histograms by an independent decoder (not xperf's);
#   - the start skew is reported and small; an agent that is down is
#     reported by name and makes the exit status 1; a controller without the
#     key is refused.
# Needs root and namespaces (skip 77 otherwise).
. "${srcdir:-.}/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip "fleet: needs root"
command -v ip >/dev/null || skip "fleet: needs iproute2"
P=fl$$
BR=${P}br
N=7
EXTRA_CLEANUP="for i in \$(seq 0 $N); do ip netns del $P-\$i 2>/dev/null; done; ip link del $BR 2>/dev/null"
ip link add "$BR" type bridge 2>/dev/null || skip "fleet: no bridge support"
ip link set "$BR" up
for i in $(seq 0 $N); do
	ip netns add "$P-$i" || skip "fleet: cannot create namespaces"
	ip link add "${P}v$i" type veth peer name "${P}p$i" || fail "veth $i"
	ip link set "${P}p$i" netns "$P-$i"
	ip link set "${P}v$i" master "$BR" up
	ip -n "$P-$i" addr add "10.241.0.$((i + 1))/24" dev "${P}p$i"
	ip -n "$P-$i" link set "${P}p$i" up
	ip -n "$P-$i" link set lo up
done
(umask 077; head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$TMP/key")

# the receiver (namespace 0) and seven agents
ip netns exec "$P-0" "$XPERF" -s -p 5310 -v --auth-file "$TMP/key" >"$TMP/recv.log" 2>&1 &
PIDS=$!
for i in $(seq 1 $N); do
	ip netns exec "$P-$i" "$XPERF" -s -p 5310 --agent --auth-file "$TMP/key" \
		>"$TMP/agent$i.log" 2>&1 &
	PIDS="$PIDS $!"
done
EXTRA_CLEANUP="kill $PIDS 2>/dev/null; $EXTRA_CLEANUP"
sleep 0.5
AGENTS=$(for i in $(seq 1 $N); do printf '10.241.0.%d,' $((i + 1)); done | sed 's/,$//')
CTL="ip netns exec $P-1 $XPERF --auth-file $TMP/key --from $AGENTS -c 10.241.0.1"

# 64 TCP_STREAM flows from 7 senders, one command
t0=$(date +%s)
$CTL -t TCP_STREAM -P 64 -l 2 --json >"$TMP/stream.json" 2>"$TMP/stream.err" ||
	fail "fleet TCP_STREAM: $(cat "$TMP/stream.err")"
python3 - "$TMP/stream.json" <<'PY' || fail "fleet TCP_STREAM sums"
import json, sys
d = json.load(open(sys.argv[1]))
hosts = d["hosts"]
assert len(hosts) == 7 and all(h["ok"] for h in hosts), hosts
flows = sorted(h["flows"] for h in hosts)
assert sum(flows) == 64 and flows[0] >= 9 and flows[-1] <= 10, flows
per = sum(h["end"]["sum_received"]["bytes"] for h in hosts)
recv = sum(h["end"]["server"]["bytes_received"] for h in hosts)
sent = sum(h["end"]["sum_sent"]["bytes"] for h in hosts)
merged = d["end"]["sum_received"]["bytes"]
assert merged == per == recv and per > 0, (merged, per, recv)
assert d["end"]["sum_sent"]["bytes"] == sent
assert 0 <= d["start_skew_ms"] < 200, d["start_skew_ms"]
print("fleet: 64 flows from 7 agents, %d bytes received, start skew %.3f ms"
      % (merged, d["start_skew_ms"]))
PY
# what the receiver logged it received, test by test (-v), adds up the same
python3 - "$TMP/stream.json" "$TMP/recv.log" <<'PY' || fail "receiver's own count"
import json, re, sys
d = json.load(open(sys.argv[1]))
logged = sum(int(m) for m in re.findall(r"TCP_STREAM done: \d+ flows, (\d+) bytes received",
                                         open(sys.argv[2]).read()))
assert logged == d["end"]["sum_received"]["bytes"], (logged,)
PY

# FLEET_SHOW=1: the controller's report as a person reads it, and each
# host's line of the JSON (for a note or a bug report)
if [ -n "${FLEET_SHOW:-}" ]; then
	$CTL -t TCP_STREAM -P 64 -l 2 || fail "fleet TCP_STREAM (report)"
	python3 -c '
import json, sys
for h in json.load(open(sys.argv[1]))["hosts"]:
    print(json.dumps({k: h[k] for k in h if k != "end"} | {"sum_received_bytes": h["end"]["sum_received"]["bytes"]}))
' "$TMP/stream.json"
fi
# TCP_RR: the merged percentiles are those of all samples together
$CTL -t TCP_RR -P 14 -l 2 --json >"$TMP/rr.json" 2>"$TMP/rr.err" ||
	fail "fleet TCP_RR: $(cat "$TMP/rr.err")"
python3 "$srcdir/tests/hist_decode.py" "$TMP/rr.json" || fail "merged percentiles"

# an agent that is down is named and fails the run; the rest still count
kill "$(echo $PIDS | cut -d' ' -f8)"
sleep 0.2
$CTL -t TCP_STREAM -P 7 -l 1 --json >"$TMP/down.json" 2>"$TMP/down.err"
rc=$?
[ $rc = 1 ] || fail "an agent down: exit $rc, want 1"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
bad = [h for h in d["hosts"] if not h["ok"]]
assert d["hosts_failed"] == 1 and len(bad) == 1 and bad[0]["host"] == "10.241.0.8", d["hosts"]
assert d["end"]["sum_received"]["bytes"] > 0
' "$TMP/down.json" || fail "the agent that was down is not named: $(cat "$TMP/down.err")"

# a controller without the key gets nothing
printf '%s\n' 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff >"$TMP/other"
chmod 600 "$TMP/other"
ip netns exec "$P-1" "$XPERF" --auth-file "$TMP/other" --from 10.241.0.2 -c 10.241.0.1 \
	-t TCP_RR -l 0.5 >"$TMP/nokey.out" 2>&1 && fail "a wrong key was accepted"
grep -q "authentication failed" "$TMP/nokey.out" || fail "wrong key: $(cat "$TMP/nokey.out")"
echo "fleet: star of 1 receiver and 7 agents checked in $(( $(date +%s) - t0 )) s"
