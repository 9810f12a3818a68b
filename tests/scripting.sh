#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Script-facing behaviour: SLO exit statuses, --json-stream lines arriving
# during the run, interval reports, iterations, percentiles, the histogram
# CSV and the fixed-rate schedule.
. "${srcdir:-.}/tests/lib.sh"

start_server
X() { "$XPERF" -c 127.0.0.1 -p "$PORT" "$@"; }

# an impossible SLO fails with the SLO status, a loose one passes
X -t TCP_RR -l 0.5 --slo 'p99<=1ns' >"$TMP/slo1.out" 2>&1; rc=$?
[ $rc = 3 ] || fail "impossible SLO: exit $rc, want 3"
grep -q "FAIL p99<=1ns" "$TMP/slo1.out" || fail "no FAIL line: $(cat "$TMP/slo1.out")"
X -t TCP_RR -l 0.5 --slo 'p99<=10s,rate>=1,mean<10s' >"$TMP/slo2.out" 2>&1 || fail "loose SLO: exit $?"
[ "$(grep -c "PASS" "$TMP/slo2.out")" = 3 ] || fail "three PASS lines: $(cat "$TMP/slo2.out")"
X -t UDP_STREAM -l 0.5 --slo 'loss<=100%,throughput>=1k' --json >"$TMP/slo3.json" || fail "UDP SLO"
check "$TMP/slo3.json" 'e["slo"]["passed"] and len(e["slo"]["bounds"]) == 2 and e["slo"]["bounds"][0]["metric"] == "loss"' "slo JSON section"
X -t TCP_RR -l 0.5 --slo 'p99<=1ns' --json >"$TMP/slo4.json"; rc=$?
[ $rc = 3 ] || fail "impossible SLO with --json: exit $rc"
check "$TMP/slo4.json" 'not e["slo"]["passed"] and e["slo"]["bounds"][0]["measured"] > 0.001' "failed SLO in JSON"
# a bound the test cannot measure is a usage error, not a pass
X -t TCP_STREAM -l 0.5 --slo 'p99<=1ms' 2>"$TMP/err"; rc=$?
[ $rc = 2 ] || fail "unmeasurable SLO: exit $rc, want 2"
grep -q "does not measure" "$TMP/err" || fail "unmeasurable SLO message: $(cat "$TMP/err")"
X -t TCP_RR --slo 'p99<=fast' 2>/dev/null; [ $? = 2 ] || fail "bad SLO syntax: want 2"

# --json-stream: one object per line, flushed as it happens
python3 - "$XPERF" "$PORT" <<'PY' || fail "json-stream"
import json, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "-c", "127.0.0.1", "-p", sys.argv[2], "-t", "TCP_RR",
                      "-l", "2", "-i", "0.5", "--json-stream"], stdout=subprocess.PIPE, text=True)
t0, seen = time.time(), []
for line in p.stdout:
    seen.append((time.time() - t0, json.loads(line)))
assert p.wait() == 0, "exit status"
events = [d["event"] for _, d in seen]
assert events[0] == "start" and events[-1] == "end", events
iv = [(t, d) for t, d in seen if d["event"] == "interval"]
assert len(iv) >= 3, events
# the first interval arrived while the test was still running
assert iv[0][0] < seen[-1][0] - 1.0, [round(t, 2) for t, _ in seen]
assert all(d["data"]["sum"]["transactions"] > 0 for _, d in iv)
end = seen[-1][1]["data"]
assert sum(d["data"]["sum"]["transactions"] for _, d in iv) <= end["rr"]["transactions"]
PY

# interval reports in the final document, per flow
X -t TCP_STREAM -l 1 -i 0.25 -P 2 --json >"$TMP/iv.json" || fail "intervals"
check "$TMP/iv.json" 'len(d["intervals"]) >= 4 and len(d["intervals"][0]["streams"]) == 2' "four intervals with two streams"
# (a worker that did not answer within 200 ms, on a starved machine, is
# named in late_workers: what it counted shows in the next interval)
check "$TMP/iv.json" 'sum(i["sum"]["bytes"] for i in d["intervals"]) <= e["sum_sent"]["bytes"] and (d["intervals"][0]["sum"]["bits_per_second"] > 0 or d["intervals"][0]["sum"]["late_workers"] > 0)' "interval bytes"

# iterations: three runs, their statistics
X -t TCP_RR -l 0.3 -I 3 --json >"$TMP/it.json" || fail "iterations"
python3 -c '
import json, statistics, sys
d = json.load(open(sys.argv[1]))
runs = [r["end"]["rr"]["transactions_per_second"] for r in d["runs"]]
it = d["iterations"]
assert len(runs) == 3 and it["count"] == 3, it
assert abs(it["mean"] - statistics.mean(runs)) < 1e-6 * it["mean"], it
assert abs(it["median"] - statistics.median(runs)) < 1e-6 * it["median"], it
assert it["confidence_level"] == 95 and it["confidence_interval_half"] > 0, it' "$TMP/it.json" || fail "iterations JSON"
X -t TCP_RR -l 0.3 -I 3 >"$TMP/it.out" || fail "iterations human"
[ "$(grep -c "^iteration [123]/3" "$TMP/it.out")" = 3 ] || fail "three iteration lines"
grep -q "^iterations 3: .*confidence interval" "$TMP/it.out" || fail "iterations summary"

# chosen percentiles and the histogram CSV
X -t TCP_RR -l 0.5 --percentiles 50,99.99 --histogram "$TMP/h.csv" --json >"$TMP/p.json" || fail "percentiles"
check "$TMP/p.json" '"p99_99" in e["rr"]["latency_us"] and "p50" in e["rr"]["latency_us"]' "p99_99 reported"
python3 -c '
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
n = sum(int(r["count"]) for r in rows)
d = json.load(open(sys.argv[2]))
assert n == d["end"]["rr"]["transactions"], (n, d["end"]["rr"]["transactions"])
assert all(int(r["lower_ns"]) <= int(r["upper_ns"]) for r in rows)' "$TMP/h.csv" "$TMP/p.json" || fail "histogram CSV"

# fixed schedule: the rate holds, both latency views are reported
X -t TCP_RR -l 1 --rate 2000 --json >"$TMP/rate.json" || fail "--rate"
check "$TMP/rate.json" 'abs(e["rr"]["transactions_per_second"] / 2000 - 1) < 0.05' "--rate 2000 held"
check "$TMP/rate.json" 'e["rr"]["latency_us"]["p50"] >= e["rr"]["uncorrected_latency_us"]["min"]' "corrected and uncorrected latency"

# warm-up: run before the measured part and counted on neither end; the
# counts of the two ends still agree exactly
t0=$(date +%s%N)
X -t TCP_RR -l 1 --warmup 0.6 -m 16 -M 64 --json >"$TMP/warm.json" || fail "--warmup"
t1=$(date +%s%N)
[ $(( (t1 - t0) / 1000000 )) -ge 1600 ] || fail "--warmup 0.6 -l 1 took only $(( (t1 - t0) / 1000000 )) ms"
check "$TMP/warm.json" 'e["rr"]["warmup_transactions"] > 0 and e["rr"]["warmup_s"] == 0.6' "warm-up ran"
check "$TMP/warm.json" 'e["rr"]["transactions"] == e["rr"]["server_transactions"] > 0 and e["sum_sent"]["seconds"] < 1.2' "warm-up not counted"
check "$TMP/warm.json" 'e["client"]["bytes_sent"] == 16 * e["rr"]["transactions"] == e["server"]["bytes_received"] and e["server"]["bytes_sent"] == 64 * e["rr"]["transactions"]' "warm-up bytes not counted"
X -t UDP_RR -l 0.5 --warmup 0.3 --json >"$TMP/uwarm.json" || fail "UDP_RR --warmup"
check "$TMP/uwarm.json" 'e["rr"]["warmup_transactions"] > 0 and e["udp"]["packets_sent"] == e["rr"]["transactions"] + e["udp"]["lost"]' "UDP_RR warm-up accounting"
X -t TCP_RR -l 0.5 --warmup 0 --json >"$TMP/nowarm.json" || fail "--warmup 0"
check "$TMP/nowarm.json" 'e["rr"]["warmup_transactions"] == 0 and e["rr"]["warmup_s"] == 0' "--warmup 0"
echo "scripting: ok"
