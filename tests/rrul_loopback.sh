#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# -t RRUL over loopback (the embedded server): its usage errors (exit 2,
# one line), one run's JSON (every documented key; inflation = loaded -
# idle figure by figure; rpm = 60000 / the mean of the loaded TCP (foreign)
# and self probes' trimmed means, the self probes answered; no
# idle probe unanswered; throughput only the way loaded; with --load both
# the self probes apart by way, adding up to all), --slo (a bound
# that holds: exit 0, one that cannot: exit 3), --json-stream (start,
# intervals of every part, end) and --plot (an SVG with its series), and
# the human report's lines; one control connection (MUX) for its five
# parts, a MUX out of range and bad frames on one refused.  The latency checks over a bottleneck, and
# against TCP_RR and flent, are tests/rrul.sh's.
. "${srcdir:-.}/tests/lib.sh"

expect_usage() { # DESCRIPTION ARGS...
	what=$1; shift
	"$XPERF" "$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	[ "$got" = 2 ] || { cat "$TMP/err" >&2; fail "$what: exit $got, want 2"; }
	[ "$(wc -l <"$TMP/err")" = 1 ] || { cat "$TMP/err" >&2; fail "$what: not one line"; }
}
expect_usage "-P with RRUL" -t RRUL -P 2
expect_usage "-b with RRUL" -t RRUL -b 10M
expect_usage "bad --load" -t RRUL --load sideways
expect_usage "--load-flows 0" -t RRUL --load-flows 0
expect_usage "--probe-interval below 1 ms" -t RRUL --probe-interval 0.0005
expect_usage "--idle with TCP_RR" -t TCP_RR --idle 1
expect_usage "--load with TCP_STREAM" -t TCP_STREAM --load up
expect_usage "--slo p99 with RRUL" -t RRUL --slo 'p99<=1ms'
expect_usage "--slo rpm with TCP_RR" -t TCP_RR --slo 'rpm>=10'
expect_usage "--slo udp_rpm" -t RRUL --slo 'udp_rpm>=10'
grep -q "udp_ goes before" "$TMP/err" || fail "udp_rpm message: $(cat "$TMP/err")"
expect_usage "--slo fwd_loaded_p99 without --one-way" -t RRUL --slo 'fwd_loaded_p99<=1ms'
grep -q "fwd_loaded_p99<=1ms': one-way delays are measured with --one-way" "$TMP/err" ||
	fail "fwd_loaded_p99 message: $(cat "$TMP/err")"
expect_usage "--slo fwd_p99 (no phase) with RRUL" -t RRUL --one-way --slo 'fwd_p99<=1ms'
expect_usage "--slo self_up_ with --load down" -t RRUL --load down --slo 'self_up_loaded_p99<=1s'
grep -q "load down has no flows up" "$TMP/err" || fail "self_up_ message: $(cat "$TMP/err")"
expect_usage "--slo self_down_ with --load up" -t RRUL --load up --slo 'self_down_inflation_p50<=1s'

R="-t RRUL -l 1 --idle 0.3 --load up --load-flows 1"
"$XPERF" $R --json --slo 'loaded_p99<=10s,rpm>=1,throughput_up>=1M' --plot "$TMP/r.svg" \
	>"$TMP/r.json" 2>"$TMP/err" || { cat "$TMP/err" >&2; fail "RRUL --json run"; }
python3 - "$TMP/r.json" <<'PY' || fail "RRUL JSON"
import json, sys
d = json.load(open(sys.argv[1]))
figs = ["p50_ms", "p90_ms", "p99_ms", "p99_9_ms", "mean_ms", "trimmed_mean_ms"]
for k in ["test", "server", "load", "load_flows", "probe_interval_ms", "idle_seconds",
          "loaded_seconds", "ramp_seconds", "idle", "loaded", "inflation", "throughput", "rpm",
          "slo"]:
    assert k in d, "no key %s" % k
assert d["test"] == "RRUL" and d["load"] == "up" and d["load_flows"] == 1
for ph in ("idle", "loaded"):
    assert "udp_lost" in d[ph]
    for p in ("tcp", "udp"):
        x = d[ph][p]
        for k in figs + ["answered", "unanswered"]:
            assert k in x, "no %s.%s.%s" % (ph, p, k)
        assert x["p50_ms"] > 0 and x["p50_ms"] <= x["p90_ms"] <= x["p99_ms"] <= x["p99_9_ms"]
        assert x["trimmed_mean_ms"] <= x["mean_ms"] * 1.01
        owed = d[ph + "_seconds"] / (d["probe_interval_ms"] / 1e3)
        assert x["answered"] >= 0.9 * owed, "%s %s: %d answered of %d" % (ph, p, x["answered"], owed)
for p in ("tcp", "udp"):
    for k in figs:
        want = d["loaded"][p][k] - d["idle"][p][k]
        assert abs(d["inflation"][p][k] - want) <= 1e-9 * max(1, abs(want)), (p, k)
# self probes: on the load's one flow, one each probe interval of its
# measured part (-l + 1 s); RPM from foreign (loaded TCP) and self
s = d["loaded"]["self"]
owed = (d["loaded_seconds"] + 1) / (d["probe_interval_ms"] / 1e3)
assert s["answered"] >= 0.8 * owed, "self: %d answered of %d" % (s["answered"], owed)
assert s["unanswered"] <= 0.05 * owed, s
assert s["p50_ms"] > 0 and s["p50_ms"] <= s["p99_ms"], s
assert abs(d["inflation"]["self"]["p50_ms"] - (s["p50_ms"] - d["idle"]["tcp"]["p50_ms"])) <= 1e-9 * max(1, s["p50_ms"])
# --load up: every self probe is on an up flow
assert d["loaded"]["self_up"] == s and d["inflation"]["self_up"] == d["inflation"]["self"]
assert d["loaded"]["self_down"]["answered"] == 0 == d["loaded"]["self_down"]["unanswered"]
r = d["responsiveness"]
assert r["foreign_trimmed_mean_ms"] == d["loaded"]["tcp"]["trimmed_mean_ms"]
assert r["self_trimmed_mean_ms"] == s["trimmed_mean_ms"] and r["rpm"] == d["rpm"]
want = 60000 / ((r["foreign_trimmed_mean_ms"] + r["self_trimmed_mean_ms"]) / 2)
assert abs(d["rpm"] - want) <= 1e-6 * d["rpm"], (d["rpm"], want)
t = d["throughput"]
assert t["up_bits_per_second"] > 1e6 and t["down_bits_per_second"] == 0, t
assert d["slo"]["passed"] is True and len(d["slo"]["bounds"]) == 3
assert [b["metric"] for b in d["slo"]["bounds"]] == ["loaded_p99", "rpm", "throughput_up"]
print("rrul_loopback: idle tcp P50 %.3f ms, loaded %.3f ms, %.0f RPM, up %.0f Mbit/s"
      % (d["idle"]["tcp"]["p50_ms"], d["loaded"]["tcp"]["p50_ms"], d["rpm"],
         t["up_bits_per_second"] / 1e6))
PY
grep -q "<svg" "$TMP/r.svg" && grep -q "TCP probe P99" "$TMP/r.svg" &&
	grep -q "load up (client to server)" "$TMP/r.svg" || fail "--plot: no chart with its series"

# --load both: the self probes apart by the way their flow sends, which
# add up to all of them; self_up_ and self_down_ bounds read each
"$XPERF" $R --load both --json --slo 'self_up_loaded_p99<=10s,self_down_inflation_p50<=10s' \
	>"$TMP/b.json" 2>"$TMP/err" || { cat "$TMP/err" >&2; fail "RRUL --load both run"; }
python3 - "$TMP/b.json" <<'PY' || fail "RRUL --load both JSON"
import json, sys
d = json.load(open(sys.argv[1]))
l, i = d["loaded"], d["inflation"]
s, up, dn = l["self"], l["self_up"], l["self_down"]
owed = (d["loaded_seconds"] + 1) / (d["probe_interval_ms"] / 1e3)
for w in (up, dn):
    assert w["answered"] >= 0.8 * owed, (w, owed)
    assert w["p50_ms"] > 0 and w["p50_ms"] <= w["p99_ms"], w
assert up["answered"] + dn["answered"] == s["answered"], (up, dn, s)
assert up["unanswered"] + dn["unanswered"] == s["unanswered"], (up, dn, s)
# a percentile of the union lies between the parts'
for k in ("p50_ms", "p99_ms"):
    assert min(up[k], dn[k]) <= s[k] <= max(up[k], dn[k]), (k, up, dn, s)
assert abs(s["mean_ms"] * s["answered"] - up["mean_ms"] * up["answered"] - dn["mean_ms"] * dn["answered"]) <= 1e-6 * s["mean_ms"] * s["answered"]
assert abs(i["self_down"]["p50_ms"] - (dn["p50_ms"] - l["tcp"]["p50_ms"] + i["tcp"]["p50_ms"])) <= 1e-9 * max(1, dn["p50_ms"])
b = d["slo"]["bounds"]
assert d["slo"]["passed"] and [x["metric"] for x in b] == ["self_up_loaded_p99", "self_down_inflation_p50"], b
assert abs(b[0]["measured"] / 1e3 - up["p99_ms"]) < 1e-6 and abs(b[1]["measured"] / 1e3 - i["self_down"]["p50_ms"]) < 1e-6, b
t = d["throughput"]
assert t["up_bits_per_second"] > 1e6 and t["down_bits_per_second"] > 1e6, t
print("rrul_loopback: --load both self P50 up %.3f ms (%d), down %.3f ms (%d), all %.3f ms"
      % (up["p50_ms"], up["answered"], dn["p50_ms"], dn["answered"], s["p50_ms"]))
PY

"$XPERF" $R --json --slo 'idle_p50<1ns' >"$TMP/f.json" 2>"$TMP/err"
rc=$?
[ $rc = 3 ] || fail "an SLO that cannot hold: exit $rc, want 3"
[ "$(jget "$TMP/f.json" slo.passed)" = False ] || fail "slo.passed not false"

"$XPERF" $R --load down --json-stream -i 0.25 >"$TMP/s.txt" 2>"$TMP/err" ||
	{ cat "$TMP/err" >&2; fail "RRUL --json-stream run"; }
python3 - "$TMP/s.txt" <<'PY' || fail "RRUL JSON stream"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
assert ev[0]["event"] == "start" and ev[-1]["event"] == "end", [e["event"] for e in ev]
parts = {e["data"]["part"] for e in ev if e["event"] == "interval"}
assert parts == {"idle_tcp", "idle_udp", "load", "loaded_tcp", "loaded_udp"}, parts
end = ev[-1]["data"]
assert end["throughput"]["down_bits_per_second"] > 1e6 and end["throughput"]["up_bits_per_second"] == 0
PY

# --one-way: each phase's probes with their delays each way, the clock
# offset of each probe part (0 within its uncertainty: one host), fwd_
# and ret_ bounds read them
"$XPERF" $R --one-way --json --slo 'fwd_loaded_p99<=10s,ret_udp_inflation_mean<=10s' \
	>"$TMP/ow.json" 2>"$TMP/err" || { cat "$TMP/err" >&2; fail "RRUL --one-way run"; }
python3 - "$TMP/ow.json" <<'PY' || fail "RRUL --one-way JSON"
import json, sys
d = json.load(open(sys.argv[1]))
for ph in ("idle", "loaded"):
    for k in ("tcp", "udp"):
        for w in ("forward", "return"):
            x = d[ph][k][w]
            assert x["count"] >= 0.9 * d[ph][k]["answered"] > 0, (ph, k, w, x)
            assert -0.1 < x["p50_ms"] <= d[ph][k]["p99_ms"], (ph, k, w, x)
assert set(d["one_way"]) == {"idle_tcp", "idle_udp", "loaded_tcp", "loaded_udp"}, d["one_way"]
for p, c in d["one_way"].items():
    assert abs(c["clock_offset_us"]) <= c["clock_offset_uncertainty_us"], (p, c)
b = d["slo"]["bounds"]
assert d["slo"]["passed"] and [x["metric"] for x in b] == ["fwd_loaded_p99", "ret_udp_inflation_mean"], b
assert abs(b[0]["measured"] / 1e3 - d["loaded"]["tcp"]["forward"]["p99_ms"]) < 1e-6, b
PY
"$XPERF" $R --one-way >"$TMP/owh.txt" 2>"$TMP/err" || { cat "$TMP/err" >&2; fail "RRUL --one-way human"; }
for l in "loaded tcp fwd" "idle udp ret" "inflation udp fwd" "clock offsets"; do
	grep -q "$l" "$TMP/owh.txt" || { cat "$TMP/owh.txt" >&2; fail "--one-way report lacks '$l'"; }
done
"$XPERF" $R >"$TMP/h.txt" 2>"$TMP/err" || { cat "$TMP/err" >&2; fail "RRUL human run"; }
! grep -q "clock offsets\|fwd" "$TMP/h.txt" || fail "one-way rows without --one-way"
! grep -q "self up\|self down" "$TMP/h.txt" || fail "self rows by way with --load up"
"$XPERF" $R --load both >"$TMP/hb.txt" 2>"$TMP/err" || { cat "$TMP/err" >&2; fail "RRUL --load both human"; }
for l in "loaded self up" "loaded self down" "inflation self up" "inflation self down"; do
	grep -q "$l" "$TMP/hb.txt" || { cat "$TMP/hb.txt" >&2; fail "--load both report lacks '$l'"; }
done
for l in "^RRUL to " "idle tcp" "loaded udp" "inflation tcp" "throughput *up" "responsiveness .* RPM"; do
	grep -q "$l" "$TMP/h.txt" || { cat "$TMP/h.txt" >&2; fail "human report lacks '$l'"; }
done
# One control connection: the server admits one MUX of five channels and
# each part's test on a channel of it (one client port); a MUX of no
# channels or of too many is refused (exit 1, one error line naming it)
start_server -v
"$XPERF" -c 127.0.0.1 -p "$PORT" $R >"$TMP/mx.txt" 2>"$TMP/err" ||
	{ cat "$TMP/err" >&2; fail "RRUL against a server"; }
sleep 0.3
python3 - "$TMP/server.log" <<'PY' || { cat "$TMP/server.log" >&2; fail "RRUL: not one control connection"; }
import re, sys
log = open(sys.argv[1]).read()
mux = re.findall(r"(\S+:\d+): MUX of (\d+) channels admitted", log)
assert len(mux) == 1 and mux[0][1] == "5", mux
tests = re.findall(r"(\S+:\d+) ch (\d): (\S+) test admitted", log)
assert sorted((c, t) for _, c, t in tests) == [("1", "TCP_RR"), ("2", "UDP_RR"), ("3", "TCP_STREAM"),
                                               ("4", "TCP_RR"), ("5", "UDP_RR")], tests
assert {a for a, _, _ in tests} == {mux[0][0]}, (tests, mux)
PY
python3 - "$PORT" <<'PY' || fail "a MUX out of range not refused"
import socket, struct, sys
for n, want in ((0, b"MUX of 0 channels"), (9, b"MUX of 9 channels")):
    body = struct.pack(">HHQ", 1, 8, n)
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
    s.sendall(b"XPCT" + struct.pack(">HHI", 2, 33, len(body)) + body)
    got = b""
    while True:
        b = s.recv(4096)
        if not b:
            break
        got += b
    assert got[:4] == b"XPCT" and struct.unpack(">H", got[6:8])[0] == 7 and want in got, got
PY
# frames a MUX connection must refuse: one ERROR naming each, then the close
python3 - "$PORT" <<'PY' || fail "a bad MUX frame not refused"
import socket, struct, sys
def msg(t, body=b""): return b"XPCT" + struct.pack(">HHI", 2, t, len(body)) + body
def head(ch): return struct.pack(">HBB", ch, 0, 0)
cases = ((head(5) + msg(20), b"channel 5 of a connection of 2"),
         (b"\xff" * 40, b"bad head 0xffffffff"),
         (head(1) + b"XPCT" + struct.pack(">HHI", 2, 1, 999999), b"exceeds maximum"),
         (head(1) + msg(3), b"expected SETUP, got READY"))
for frame, want in cases:
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
    s.sendall(msg(33, struct.pack(">HHQ", 1, 8, 2)))
    r = s.recv(24)
    assert struct.unpack(">H", r[6:8])[0] == 34, r
    s.sendall(frame)
    got = b""
    while want not in got:
        b = s.recv(4096)
        assert b, (want, got)
        got += b
    s.close()
PY
kill -0 "$SERVER_PID" || fail "server gone after a bad MUX"
stop_server
echo "rrul_loopback: usage errors, JSON, --slo, --json-stream, --plot and the human report"
