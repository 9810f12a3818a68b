#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# -t RRUL against flent rrul over a WAN path: xperf lab's delay line
# (--delay 10: a 20 ms round trip; --link-rate 20m each way, its queue the
# lab's default, the rate over 60 ms), both run from the lab's client
# namespace with --exec while the path stands, every TCP flow with cubic
# (as tests/rrul.sh, whose tbf bottleneck has no delay).  Two RRUL runs
# with flent rrul (its 8 netperf tests through xperf's netperf drop-in,
# ICMP pings by fping, UDP by irtt where present) between them.  Checks,
# the agreement table printed:
#  - idle: the RRUL runs' TCP and UDP probes' P50 and P99 and flent's
#    ICMP pings' are at least the path's 20 ms (the delay line holds each
#    frame its 10 ms each way), flent's within 1 ms of the RRUL runs'
#    range (one run's idle P99 is its 4th-largest of 400 probes: one slow
#    wake moves it);
#  - loaded: P50 and P99 within 40% of the RRUL runs' range (flent's load
#    leaves another queue than RRUL's one --bidir test: tests/rrul.sh);
#  - throughput each way within 15% of the RRUL runs' range, and at least
#    70% of the link rate;
#  - bufferbloat shows: the loaded P50 at least 10 ms above idle.
# Needs root, namespaces, packet sockets (the delay line), flent and
# fping; skipped (77) otherwise.  About 90 s.
XP_ALONE=1
. "${srcdir:-.}/tests/lib.sh"
skip_sanitized rrul_wan

[ "$(id -u)" = 0 ] || skip "rrul_wan: needs root (network namespaces)"
command -v flent >/dev/null && command -v fping >/dev/null ||
	skip "rrul_wan: needs flent and fping"
probe=xperf-rrwprobe-$$
ip netns add "$probe" 2>/dev/null || skip "rrul_wan: cannot create network namespaces here"
ip netns exec "$probe" python3 -c 'import socket; socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)' \
	2>/dev/null
st=$?
ip netns del "$probe"
[ "$st" = 0 ] || skip "rrul_wan: no packet sockets (AF_PACKET) for the delay line"

XPERF=$(cd "$(dirname "$XPERF")" && pwd)/$(basename "$XPERF")
LEN=10     # seconds of load (xperf -l, flent -l)
IDLE=4     # xperf --idle
FL_IDLE=8  # flent -d: its idle pings, 1 s to FL_IDLE - 0.2 s
RATE=20m
RATE_BPS=20000000
mkdir "$TMP/bin" "$TMP/flent"
ln -s "$XPERF" "$TMP/bin/netperf"

# what runs on the lab's path (root namespace, the lab's names in env)
cat >"$TMP/inside.sh" <<EOF
set -u
C=\$XPERF_LAB_CLIENT_NS S=\$XPERF_LAB_SERVER_NS A=\$XPERF_LAB_SERVER_ADDR
ip netns exec \$S "$XPERF" -s -p 12871 >"$TMP/srv.log" 2>&1 &
pids=\$!
ip netns exec \$S "$XPERF" -s -p 12865 >"$TMP/np.log" 2>&1 &
pids="\$pids \$!"
if command -v irtt >/dev/null; then
	ip netns exec \$S irtt server -b \$A >"$TMP/irtt.log" 2>&1 &
	pids="\$pids \$!"
fi
sleep 0.5
rc=0
rrul() {
	ip netns exec \$C "$XPERF" -c \$A -p 12871 -C cubic -t RRUL --idle $IDLE -l $LEN \\
		--load both --load-flows 4 --json >"$TMP/rrul.\$1.json" 2>"$TMP/rrul.\$1.err" || rc=1
}
rrul 1
timeout $((LEN + 2 * FL_IDLE + 60)) ip netns exec \$C env PATH="$TMP/bin:\$PATH" HOME="$TMP" \\
	flent rrul -l $LEN -d $FL_IDLE -s 0.05 -H \$A -D "$TMP/flent" -t rrul_wan \\
	--test-parameter tcp_cong_control=cubic -L "$TMP/flent/log" \\
	>"$TMP/flent/out" 2>"$TMP/flent/err" || rc=1
rrul 2
kill \$pids 2>/dev/null
wait
exit \$rc
EOF
"$XPERF" lab --topology veth --delay 10 --link-rate $RATE --line-calibrate 0 -t TCP_RR -l 1 \
	--exec "sh $TMP/inside.sh" >"$TMP/lab.out" 2>"$TMP/lab.err" ||
	{ cat "$TMP/lab.out" "$TMP/lab.err" "$TMP"/rrul.*.err "$TMP/flent/err" >&2 2>/dev/null
	  fail "lab with RRUL and flent rrul on its path"; }
grep "delay 10 ms, rate 20.000 Mbit/s" "$TMP/lab.out" >/dev/null ||
	{ cat "$TMP/lab.out" >&2; fail "the lab's path is not the one asked for"; }

python3 - "$TMP" "$FL_IDLE" "$LEN" "$RATE_BPS" <<'PY' || fail "RRUL and flent rrul disagree over the WAN path"
import datetime, glob, gzip, json, math, sys
d, idle_s, len_s, rate = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
runs = [json.load(open("%s/rrul.%d.json" % (d, i))) for i in (1, 2)]
fl = json.load(gzip.open(glob.glob(d + "/flent/*.flent.gz")[0]))
meta, raw = fl["metadata"], fl["raw_values"]
t0 = datetime.datetime.strptime(meta["T0"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(
    tzinfo=datetime.timezone.utc).timestamp()

def pct(v, p):
    v = sorted(v)
    return v[max(0, math.ceil(p / 100 * len(v)) - 1)] if v else float("nan")

def window(series, lo, hi):
    return [p["val"] for p in raw.get(series, []) if "val" in p and lo <= p["t"] - t0 < hi]

def mbps(kind):
    ss = ["TCP %s %s" % (kind, m) for m in ("BE", "BK", "CS5", "EF")]
    return sum(meta["SERIES_META"][s]["MEAN_VALUE"] for s in ss)

icmp_idle = window("Ping (ms) ICMP", 1, idle_s - 0.2)
icmp_load = window("Ping (ms) ICMP", idle_s + 1, idle_s + len_s)
udp_idle = window("Ping (ms) UDP BE", 1, idle_s - 0.2)
udp_load = window("Ping (ms) UDP BE", idle_s + 1, idle_s + len_s)
if len(icmp_idle) < 100 or len(icmp_load) < 100:
    sys.exit("flent: %d idle and %d loaded ICMP pings" % (len(icmp_idle), len(icmp_load)))
rows = []  # name, xperf runs (tcp and udp probes), flent ICMP, flent UDP, kind
for ph, icmp, udp in (("idle", icmp_idle, udp_idle), ("loaded", icmp_load, udp_load)):
    for p, key in ((50, "p50_ms"), (99, "p99_ms")):
        xs = [r[ph][k][key] for r in runs for k in ("tcp", "udp")]
        rows.append(("%s P%d (ms)" % (ph, p), xs, pct(icmp, p), pct(udp, p), ph))
for k, key in (("upload", "up"), ("download", "down")):
    xs = [r["throughput"][key + "_bits_per_second"] / 1e6 for r in runs]
    rows.append(("%s (Mbit/s)" % key, xs, mbps(k), float("nan"), "tput"))
print("rrul agreement over the delay line (20 ms, %.0f Mbit/s): xperf -t RRUL (two runs, TCP and "
      "UDP probes) vs flent rrul (ICMP fping, UDP %s)"
      % (rate / 1e6, "irtt" if "irtt" in json.dumps(meta) else "netperf UDP_RR"))
print("%-18s %-34s %10s %10s %s" % ("figure", "xperf runs", "flent", "flent UDP", "verdict"))
bad = []
for name, xs, f, fu, kind in rows:
    lo, hi = min(xs), max(xs)
    if kind == "idle":
        ok, rule = 20 <= lo and 20 <= f and lo - 1 <= f <= hi + 1, ">= 20 ms, within 1 ms"
    elif kind == "loaded":
        ok, rule = 0.6 * lo <= f <= 1.4 * hi, "within 40%"
    else:
        ok, rule = 0.85 * lo <= f <= 1.15 * hi and lo >= 0.7 * rate / 1e6, "within 15%, >= 70% of the rate"
    print("%-18s %-34s %10.3f %10.3f %s (%s)" % (name, " ".join("%.3f" % x for x in xs), f, fu,
                                               "ok" if ok else "OFF", rule))
    if not ok:
        bad.append(name)
for r in runs:
    for k in ("tcp", "udp"):
        if r["loaded"][k]["p50_ms"] < r["idle"][k]["p50_ms"] + 10:
            bad.append("no bufferbloat (%s loaded P50 %.3f, idle %.3f ms)"
                       % (k, r["loaded"][k]["p50_ms"], r["idle"][k]["p50_ms"]))
s = [r["loaded"]["self"] for r in runs]
print("self probes: %s answered, P50 %s ms; RPM %s"
      % ("/".join(str(x["answered"]) for x in s), "/".join("%.3f" % x["p50_ms"] for x in s),
         "/".join("%.0f" % r["rpm"] for r in runs)))
if bad:
    sys.exit("flent rrul off xperf RRUL: " + ", ".join(bad))
PY
echo "rrul_wan: RRUL and flent rrul agree over the 20 ms delay line"
