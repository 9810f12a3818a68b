#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""xperf beside the syscall floor and the tools it replaces (root only).

Two network namespaces joined by a veth pair (names start with --prefix,
"xpb-" by default); every tool's client runs in one, pinned to the client
CPU, and its server in the other, pinned to the server CPU, in each
placement of --pin ("0,1": two CPUs, "0,0": one shared CPU).  Tools:
xperf (--xperf), the floor (--floor, tests/bench/floor.c: the leanest
blocking loop per case), iperf3 and sockperf from PATH, netperf/netserver
from NETPERF_DIR, neper's tcp_stream, tcp_rr and udp_rr from NEPER_DIR; a
missing one is skipped with a line saying so.  Every round runs every tool
once per case, in an order rotated round by round; each ratio (xperf over
the best peer, xperf over the floor) is the median of the per-round
ratios with a 95% bootstrap interval over rounds (the JSON keeps their
geometric mean too).  xperf's figures come
from its --json output.

Cases: TCP_STREAM and TCP_MAERTS 128 KiB, TCP_RR and UDP_RR 1 byte,
UDP_STREAM 1472 (received), TCP_STREAM -P 64 -T 2 against iperf3 -P 64.
Curves (--curves, first placement; -P on CPUs 0,1): TCP_RR rate, peak RSS
and CPU of each side for -P 1..10000 on 2 threads against the floor (its
many-flow epoll loop, tcp_rr_epoll, above one flow) and neper, with the
delayed ACKs per transaction of each side (nstat TcpExtDelayedACKs);
TCP_STREAM for -m 1K..1M; UDP_RR for -m 1..8K.  --update-doc FILE replaces
the part of FILE between "<!-- bench:curves begin -->" and
"<!-- bench:curves end -->".

usage: bench.py [--xperf ./xperf] [--floor tests/bench/floor] [--secs 4]
                [--rounds 7] [--pin 0,1 --pin 0,0] [--cases NAMES] [--curves]
                [--curve-rounds 3] [--json FILE] [--out FILE]
                [--update-doc docs/PERFORMANCE.md] [--prefix xpb-]"""
import argparse, json, math, os, random, re, shutil, signal, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plots  # noqa: E402  (tests/bench/plots.py, beside this file)

SRV_ADDR = "10.79.0.2"
CASES = {
    "TCP_STREAM": dict(test="TCP_STREAM", size=131072, label="TCP_STREAM 128K"),
    "TCP_MAERTS": dict(test="TCP_MAERTS", size=131072, label="TCP_MAERTS 128K"),
    "TCP_RR": dict(test="TCP_RR", size=1, label="TCP_RR 1 byte"),
    "UDP_RR": dict(test="UDP_RR", size=1, label="UDP_RR 1 byte"),
    "UDP_STREAM": dict(test="UDP_STREAM", size=1472, label="UDP_STREAM 1472 received"),
    "P64": dict(test="TCP_STREAM", size=131072, flows=64, threads=2, cpus="0,1",
                label="TCP_STREAM -P 64 -T 2", tools=("xperf", "iperf3")),
}
RR_FLOWS = (1, 10, 100, 1000, 10000)
STREAM_SIZES = (1024, 4096, 16384, 65536, 131072, 262144, 1048576)
UDP_RR_SIZES = (1, 64, 512, 1024, 4096, 8192)


class ToolError(Exception):
    pass


class Lab:
    """The two namespaces, and running a pinned server/client pair in them."""

    def __init__(self, prefix, secs):
        self.cns, self.sns = prefix + "c", prefix + "s"
        self.cdev, self.sdev = prefix + "vc", prefix + "vs"
        self.secs = secs

    def sh(self, *cmd, check=True):
        return subprocess.run(cmd, check=check, capture_output=True, text=True)

    def up(self):
        self.down()
        for n in (self.cns, self.sns):
            self.sh("ip", "netns", "add", n)
            self.sh("ip", "-n", n, "link", "set", "lo", "up")
        self.sh("ip", "link", "add", self.cdev, "netns", self.cns, "type", "veth",
                "peer", "name", self.sdev, "netns", self.sns)
        self.sh("ip", "-n", self.cns, "addr", "add", "10.79.0.1/24", "dev", self.cdev)
        self.sh("ip", "-n", self.sns, "addr", "add", SRV_ADDR + "/24", "dev", self.sdev)
        self.sh("ip", "-n", self.cns, "link", "set", self.cdev, "up")
        self.sh("ip", "-n", self.sns, "link", "set", self.sdev, "up")

    def down(self):
        for n in (self.cns, self.sns):
            self.sh("ip", "netns", "del", n, check=False)

    def delayed_acks(self, ns):
        """TcpExtDelayedACKs of ns, absolute: nstat -a prints the kernel's
        counters, not increments since its history file (which -s leaves
        as it was)."""
        out = self.sh("ip", "netns", "exec", ns, "nstat", "-asz", "TcpExtDelayedACKs").stdout
        m = re.search(r"^TcpExtDelayedACKs\s+(\d+)", out, re.M)
        if not m:
            raise ToolError(f"nstat: {out.strip()[-160:]!r}")
        return int(m.group(1))

    def argv(self, ns, cpus, cmd):
        return ["ip", "netns", "exec", ns, "taskset", "-c", cpus] + cmd

    @staticmethod
    def reap(p, timeout, peak, watch=()):
        """Wait for p and return its rusage (ip netns exec and taskset exec
        the tool, so p.pid is the tool); meanwhile keep the peak VmHWM of p
        and of each process in watch in peak[pid]."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for q in (p,) + tuple(watch):
                v = hwm_kb(q.pid)
                if v:
                    peak[q.pid] = max(peak.get(q.pid, 0), v)
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                p.returncode = os.waitstatus_to_exitcode(status)
                return ru
            time.sleep(0.02)
        os.kill(p.pid, signal.SIGKILL)  # not p.kill(): its poll() would reap
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        raise ToolError(f"{p.args[6]} still running after {timeout:.0f} s, killed")

    def stop(self, sp, peak):
        """The server's rusage: it may have ended by itself (iperf3 -1)."""
        try:
            pid, status, ru = os.wait4(sp.pid, os.WNOHANG)
            if pid:
                sp.returncode = os.waitstatus_to_exitcode(status)
                return ru
            os.kill(sp.pid, signal.SIGTERM)
            return self.reap(sp, 5, peak)
        except (ToolError, ChildProcessError):
            return None

    def run(self, ccpus, scpus, server, client, wait=0.4, dacks=False):
        """Start server, run client to its end: (client output, usage of
        both sides: peak RSS from VmHWM, CPU from rusage over the client's
        wall time; with dacks, the delayed ACKs each namespace sent from
        before the server's start to the client's end, dacks_c and dacks_s)."""
        d0 = [self.delayed_acks(n) for n in (self.cns, self.sns)] if dacks else None
        sp = subprocess.Popen(self.argv(self.sns, scpus, server), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
        peak, ru_c, wall, out, use = {}, None, 0.0, "", {}
        try:
            time.sleep(wait)
            with tempfile.TemporaryFile("w+") as f:
                t0 = time.monotonic()
                cp = subprocess.Popen(self.argv(self.cns, ccpus, client), stdout=f,
                                      stderr=subprocess.STDOUT)
                ru_c = self.reap(cp, self.secs + 90, peak, (sp,))
                wall = time.monotonic() - t0
                f.seek(0)
                out = f.read()
            if d0:
                use = dict(dacks_c=self.delayed_acks(self.cns) - d0[0],
                           dacks_s=self.delayed_acks(self.sns) - d0[1])
        finally:
            ru_s = self.stop(sp, peak)
        return out, dict(rss_c=peak.get(cp.pid), rss_s=peak.get(sp.pid),
                         cpu_c=cpu_pct(ru_c, wall), cpu_s=cpu_pct(ru_s, wall), **use)


def hwm_kb(pid):
    """VmHWM of a running tool (not of ip or taskset before their exec)."""
    try:
        with open(f"/proc/{pid}/comm") as f:
            if f.read().strip() in ("ip", "taskset"):
                return None
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


def cpu_pct(ru, wall):
    return 100.0 * (ru.ru_utime + ru.ru_stime) / wall if ru and wall > 0 else None


def per_trans(use, trans):
    """Delayed ACKs per transaction of each side, counted over the whole run
    (connection set-up and any warm-up included, as trans should be), with
    the counts they come from; {} when none were read."""
    if use.get("dacks_c") is None or not trans:
        return {}
    return dict(dacks_c=use["dacks_c"], dacks_s=use["dacks_s"], trans=trans,
                dack_c=use["dacks_c"] / trans, dack_s=use["dacks_s"] / trans)


def first_json(out):
    try:
        return json.JSONDecoder().raw_decode(out[out.index("{"):])[0]
    except ValueError as e:
        raise ToolError(f"no JSON in output: {out.strip()[-160:]!r}") from e


# ---- the tools: each returns None for a case it does not do ----

def xperf(lab, s, a):
    flows = s.get("flows", 1)
    cmd = [a.xperf, "-c", SRV_ADDR, "-p", "5310", "-t", s["test"], "-l", str(lab.secs),
           "-m", str(s["size"]), "--json"]
    if flows > 1:
        cmd += ["-P", str(flows), "-T", str(s.get("threads", 1))]
    out, use = lab.run(s["ccpus"], s["scpus"], [a.xperf, "-s", "-p", "5310", "--max-flows", "20000"], cmd,
                       dacks=s.get("dacks", False))
    e = first_json(out).get("end")
    if not e or "error" in e:
        raise ToolError(f"xperf: {out.strip()[-200:]!r}")
    rr, cpu = "RR" in s["test"], e["cpu_utilization_percent"]  # CPU: % of one CPU
    trans = rr and e["rr"]["transactions"] + e["rr"].get("warmup_transactions", 0)
    return dict(v=e["rr"]["transactions_per_second"] if rr else e["sum_received"]["bits_per_second"],
                rss_c=e["client"]["max_rss_kb"], rss_s=e["server"]["max_rss_kb"],
                cpu_c=cpu["local_process"], cpu_s=cpu["remote_process"], **per_trans(use, trans))


def floor(lab, s, a):
    """Above one flow (TCP_RR only) the floor's epoll loop, FLOWS on THREADS
    threads; its warnings (a flow that made no transaction) are kept."""
    flows = s.get("flows", 1)
    if flows > 1 and s["test"] != "TCP_RR":
        return None
    cmd = [a.floor, s["test"].lower(), SRV_ADDR, "5399", str(lab.secs), str(s["size"])]
    if flows > 1:
        cmd += [str(flows), str(s.get("threads", 1))]
    out, use = lab.run(s["ccpus"], s["scpus"], [a.floor, "server", "5399"], cmd, dacks=s.get("dacks", False))
    m = re.search(r"^(\S+) (?:trans|bit)/s ", out, re.M)
    if not m:
        raise ToolError(f"floor: {out.strip()[-160:]!r}")
    v = float(m.group(1))
    r = dict(v=v, **per_trans(use, "RR" in s["test"] and round(v * lab.secs)))  # the floor has no warm-up
    warn = [l for l in out.splitlines() if l.startswith("floor: ")]
    return dict(r, warnings=warn) if warn else r


def iperf3(lab, s, a):
    t = s["test"]
    if t not in ("TCP_STREAM", "TCP_MAERTS", "UDP_STREAM") or not shutil.which("iperf3"):
        return None
    args = ["-l", str(s["size"])] + {"TCP_MAERTS": ["-R"], "UDP_STREAM": ["-u", "-b", "0"]}.get(t, [])
    if s.get("flows", 1) > 1:
        args += ["-P", str(s["flows"])]
    out, use = lab.run(s["ccpus"], s["scpus"], ["iperf3", "-s", "-1", "-p", "5201"],
                                    ["iperf3", "-c", SRV_ADDR, "-p", "5201", "-t", str(lab.secs), "-J"] + args)
    e = first_json(out).get("end", {})
    if "sum_received" not in e:
        raise ToolError(f"iperf3: {out.strip()[-160:]!r}")
    return dict(v=e["sum_received"]["bits_per_second"], **use)


def netperf(lab, s, a):
    d = os.environ.get("NETPERF_DIR")
    if not d or s.get("flows", 1) > 1:
        return None
    t, m = s["test"], str(s["size"])
    # TCP_MAERTS: "-m ,SIZE" sets the remote (sending) side's size; "-m SIZE" would not
    extra, sel = {"TCP_STREAM": (["-m", m], "THROUGHPUT"), "TCP_MAERTS": (["-m", "," + m], "THROUGHPUT"),
                  "UDP_STREAM": (["-m", m, "-M", m], "REMOTE_RECV_THROUGHPUT")}.get(t, (["-r", f"{m},{m}"], "THROUGHPUT"))
    out, *_ = lab.run(s["ccpus"], s["scpus"], [f"{d}/netserver", "-D", "-p", "12865"],
                      [f"{d}/netperf", "-H", SRV_ADDR, "-p", "12865", "-l", str(lab.secs), "-t", t,
                       "-P", "0", "--"] + extra + ["-o", sel])
    try:
        v = float(out.strip().splitlines()[-1].split(",")[0])
    except (ValueError, IndexError) as e:
        raise ToolError(f"netperf: {out.strip()[-160:]!r}") from e
    return dict(v=v if "RR" in t else v * 1e6)


def neper(lab, s, a):
    d, t = os.environ.get("NEPER_DIR"), s["test"]
    prog = {"TCP_STREAM": "tcp_stream", "TCP_MAERTS": "tcp_stream", "TCP_RR": "tcp_rr", "UDP_RR": "udp_rr"}.get(t)
    if not d or not prog:
        return None
    flows = s.get("flows", 1)
    args = ["-F", str(flows), "-T", str(min(flows, s.get("threads", 1)))]  # neper: a thread needs a flow
    if "RR" in t:
        args += ["-Q", str(s["size"]), "-R", str(s["size"])]
    else:
        args += ["-B", str(s["size"])] + (["-M"] if t == "TCP_MAERTS" else [])
    out, use = lab.run(s["ccpus"], s["scpus"], [f"{d}/{prog}", "--nolog", "-l", str(lab.secs + 5)] + args,
                       [f"{d}/{prog}", "--nolog", "-c", "-H", SRV_ADDR, "-l", str(lab.secs)] + args)
    kv = dict(l.split("=", 1) for l in out.splitlines() if "=" in l)
    key = {"TCP_STREAM": "remote_throughput", "TCP_MAERTS": "local_throughput"}.get(t, "throughput")
    try:
        return dict(v=float(kv[key]), **use)
    except (KeyError, ValueError) as e:
        raise ToolError(f"neper {prog}: {out.strip()[-160:]!r}") from e


def sockperf(lab, s, a):
    if "RR" not in s["test"] or s.get("flows", 1) > 1 or not shutil.which("sockperf"):
        return None
    tcp = ["--tcp"] if s["test"] == "TCP_RR" else []
    out, *_ = lab.run(s["ccpus"], s["scpus"], ["sockperf", "server", "-i", SRV_ADDR, "-p", "11111"] + tcp,
                      ["sockperf", "ping-pong", "-i", SRV_ADDR, "-p", "11111", "-t", str(lab.secs),
                       "-m", str(max(s["size"], 14))] + tcp)  # 14 bytes: sockperf's smallest message
    m = re.search(r"\[Valid Duration\] RunTime=([\d.]+) sec; SentMessages=\d+; ReceivedMessages=(\d+)", out)
    if not m:
        raise ToolError(f"sockperf: {out.strip()[-160:]!r}")
    return dict(v=int(m.group(2)) / float(m.group(1)))


TOOLS = {"xperf": xperf, "floor": floor, "iperf3": iperf3, "netperf": netperf, "neper": neper,
         "sockperf": sockperf}
PEERS = ("iperf3", "netperf", "neper", "sockperf")


def missing_tools(a):
    why = {}
    for name in ("iperf3", "sockperf"):
        if not shutil.which(name):
            why[name] = "not on PATH"
    d = os.environ.get("NETPERF_DIR")
    if not d or not all(os.access(f"{d}/{p}", os.X_OK) for p in ("netperf", "netserver")):
        why["netperf"] = "NETPERF_DIR not set" if not d else f"no netperf/netserver in {d}"
    d = os.environ.get("NEPER_DIR")
    if not d or not all(os.access(f"{d}/{p}", os.X_OK) for p in ("tcp_stream", "tcp_rr", "udp_rr")):
        why["neper"] = "NEPER_DIR not set" if not d else f"no tcp_stream/tcp_rr/udp_rr in {d}"
    return why


# ---- statistics ----

def ratio_ci(pairs, boot=4000, seed=12345):
    """Median of the paired per-round ratios x/y (the issue's bars are on
    medians; one round caught in a slow spell of this shared machine moves
    a mean of 7 by 10% or more, a median not), with a 95% percentile
    bootstrap interval over rounds (resampling rounds, pairs kept); gmean
    and its interval, the estimate before 2026-12-04, are kept beside it."""
    logs = [math.log(x / y) for x, y in pairs if x and y and x > 0 and y > 0]
    if not logs:
        return None
    est, gmean = math.exp(statistics.median(logs)), math.exp(statistics.fmean(logs))
    if len(logs) < 2:
        return dict(est=est, lo=None, hi=None, n=1, gmean=gmean)
    rng = random.Random(seed)
    draws = [rng.choices(logs, k=len(logs)) for _ in range(boot)]
    lo, hi = int(0.025 * boot), int(0.975 * boot) - 1
    meds = sorted(statistics.median(d) for d in draws)
    means = sorted(statistics.fmean(d) for d in draws)
    return dict(est=est, lo=math.exp(meds[lo]), hi=math.exp(meds[hi]), n=len(logs),
                gmean=gmean, gmean_lo=math.exp(means[lo]), gmean_hi=math.exp(means[hi]))


def median(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def summarize(runs):
    """runs: {tool: [result dict or None per round]} -> summary dict."""
    med = {t: median([r["v"] if r else None for r in rs]) for t, rs in runs.items()}
    peers = {t: v for t, v in med.items() if t in PEERS and v}
    best = max(peers, key=peers.get) if peers else None
    out = dict(median=med, best_peer=best, runs={t: [r and r["v"] for r in rs] for t, rs in runs.items()},
               run_details=runs)
    dack = {t: {side: median([r and r.get("dack_" + side[0]) for r in rs]) for side in ("client", "server")}
            for t, rs in runs.items() if any(r and "dack_c" in r for r in rs)}
    if dack:
        out["delayed_acks_per_trans"] = dack  # median over rounds
    xs = runs.get("xperf", [])
    for key, other in (("vs_peer", best), ("vs_floor", "floor")):
        if other and other in runs:
            out[key] = ratio_ci([(x and x["v"], y and y["v"]) for x, y in zip(xs, runs[other])])
    return out


# ---- running ----

def one(lab, a, name, spec, log):
    try:
        r = TOOLS[name](lab, spec, a)
    except (ToolError, subprocess.SubprocessError, OSError, KeyError, ValueError) as e:
        log(f"  {name}: failed: {e}")
        return "failed"
    return r


def run_points(lab, a, points, rounds, log):
    """points: [(key, spec, tools)]; every round runs each point's tools in
    an order rotated by round.  Returns {key: {tool: [result per round]}}."""
    res = {}
    for rnd in range(rounds):
        log(f"round {rnd + 1}/{rounds}")
        for i, (key, spec, tools) in enumerate(points):
            k = (rnd + i) % len(tools)
            for name in tools[k:] + tools[:k]:
                if spec.get("flows", 1) > 1:
                    # fresh namespaces: the TIME_WAIT connections an earlier
                    # many-flow run left (up to 60 s, in the client's port
                    # range) slow every connect() and lengthen the hash
                    # chains each received segment is looked up in
                    lab.up()
                r = one(lab, a, name, spec, log)
                if r is None:
                    continue
                res.setdefault(key, {}).setdefault(name, [None] * rounds)[rnd] = None if r == "failed" else r
    return res


def with_pin(spec, pin):
    c, s = pin.split(",")
    cpus = spec.get("cpus")
    return dict(spec, ccpus=cpus or c, scpus=cpus or s)


def tools_for(spec, avail):
    return [t for t in spec.get("tools", TOOLS) if t in avail]


def main_points(a, avail):
    pts = []
    for name in a.cases:
        spec = CASES[name]
        pins = [a.pin[0]] if spec.get("cpus") else a.pin
        for pin in pins:
            key = spec["label"] + (f" (pin {pin})" if not spec.get("cpus") else f" (CPUs {spec['cpus']})")
            pts.append((key, with_pin(spec, pin), tools_for(spec, avail)))
    return pts


def curve_points(a, avail):
    pin = a.pin[0]
    # one flow: every tool on CPU 0 at both ends, where xperf's lone worker
    # pins itself (the first CPU it may use); more: CPUs 0,1, 2 threads
    cpus = lambda n: "0" if n == 1 else "0,1"
    rr = [(f"TCP_RR -P {n} -T 2", dict(test="TCP_RR", size=1, flows=n, threads=2, ccpus=cpus(n), scpus=cpus(n),
                                       dacks=True),
           [t for t in ("xperf", "floor", "neper") if t in avail]) for n in RR_FLOWS]
    st = [(f"TCP_STREAM -m {fmt_size(m)}", with_pin(dict(test="TCP_STREAM", size=m), pin),
           [t for t in ("xperf", "floor", "iperf3", "netperf", "neper") if t in avail]) for m in STREAM_SIZES]
    ur = [(f"UDP_RR -m {fmt_size(m)}", with_pin(dict(test="UDP_RR", size=m), pin),
           [t for t in ("xperf", "floor", "netperf", "neper", "sockperf") if t in avail]) for m in UDP_RR_SIZES]
    return rr, st, ur


# ---- reporting ----

def fmt_size(m):
    return f"{m >> 20}M" if m >= 1 << 20 and m % (1 << 20) == 0 else \
        f"{m >> 10}K" if m >= 1024 and m % 1024 == 0 else str(m)


def fmt_val(v, rr):
    if v is None:
        return "-"
    return f"{v:,.0f}/s" if rr else f"{v / 1e9:.2f} Gbit/s"


def fmt_ci(r):
    if not r:
        return "-"
    if r["lo"] is None:
        return f"{r['est']:.3f} (1 round)"
    return f"{r['est']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}]"


def fmt_mib(kb):
    return f"{kb / 1024:.1f}" if kb else "-"


def fmt_pct(p):
    return f"{p:.0f}%" if p is not None else "-"


def main_table(summ):
    md = ["| case | xperf | best peer | xperf / peer [95% CI] | floor | xperf / floor [95% CI] |",
          "|---|---|---|---|---|---|"]
    for key, s in summ.items():
        rr = "RR" in key
        med, best = s["median"], s["best_peer"]
        peer = f"{best} {fmt_val(med[best], rr)}" if best else "-"
        md.append(f"| {key} | {fmt_val(med.get('xperf'), rr)} | {peer} | {fmt_ci(s.get('vs_peer'))} | "
                  f"{fmt_val(med.get('floor'), rr)} | {fmt_ci(s.get('vs_floor'))} |")
    return md


def side_stat(runs, tool, key, agg):
    vals = [r[key] for r in runs.get(tool, []) if r and r.get(key) is not None]
    return agg(vals) if vals else None


def fmt_dack(d):
    """Median delayed ACKs per transaction, client / server."""
    f = lambda v: f"{v:.3f}" if v is not None else "-"
    return f"{f(d.get('client'))} / {f(d.get('server'))}" if d else "-"


def rr_curve_table(res, summ):
    md = ["| flows (-T 2) | xperf | floor | neper | xperf / floor [95% CI] | xperf / neper [95% CI] | "
          "xperf delayed ACKs per trans. client / server | floor delayed ACKs per trans. client / server | "
          "xperf peak RSS client / server MiB | neper peak RSS client / server MiB | "
          "xperf CPU client / server | neper CPU client / server |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for key, runs in res.items():
        s, row = summ[key], [key.split()[2]]
        row += [fmt_val(s["median"].get(t), True) for t in ("xperf", "floor", "neper")]
        row += [fmt_ci(s.get("vs_floor")), fmt_ci(s.get("vs_peer"))]
        row += [fmt_dack(s.get("delayed_acks_per_trans", {}).get(t)) for t in ("xperf", "floor")]
        for t in ("xperf", "neper"):
            row.append(f"{fmt_mib(side_stat(runs, t, 'rss_c', max))} / {fmt_mib(side_stat(runs, t, 'rss_s', max))}")
        for t in ("xperf", "neper"):
            row.append(f"{fmt_pct(side_stat(runs, t, 'cpu_c', statistics.median))} / "
                       f"{fmt_pct(side_stat(runs, t, 'cpu_s', statistics.median))}")
        md.append("| " + " | ".join(row) + " |")
    return md


def size_curve_table(summ, rr):
    md = ["| -m | xperf | floor | best peer | xperf / peer [95% CI] | xperf / floor [95% CI] |",
          "|---|---|---|---|---|---|"]
    for key, s in summ.items():
        med, best = s["median"], s["best_peer"]
        md.append(f"| {key.split()[-1]} | {fmt_val(med.get('xperf'), rr)} | {fmt_val(med.get('floor'), rr)} | "
                  f"{best + ' ' + fmt_val(med[best], rr) if best else '-'} | {fmt_ci(s.get('vs_peer'))} | "
                  f"{fmt_ci(s.get('vs_floor'))} |")
    return md


# The performance issue's bars: (case label prefix, ratio key, bar).
# The performance issue's bars: (case, against, bar, the peers it names;
# None: every peer).  The main table's "best peer" is the best of all.
STREAM_PEERS, RR_PEERS = ("iperf3", "netperf"), ("netperf", "sockperf", "neper")
BARS = (("TCP_STREAM 128K", "vs_floor", 0.97, None), ("TCP_STREAM 128K", "vs_peer", 1.05, STREAM_PEERS),
        ("TCP_MAERTS 128K", "vs_floor", 0.97, None), ("TCP_MAERTS 128K", "vs_peer", 1.05, STREAM_PEERS),
        ("TCP_RR 1 byte", "vs_floor", 0.98, None), ("TCP_RR 1 byte", "vs_peer", 1.0, RR_PEERS),
        ("UDP_RR 1 byte", "vs_floor", 0.98, None), ("UDP_RR 1 byte", "vs_peer", 1.0, RR_PEERS),
        ("UDP_STREAM 1472", "vs_peer", 4.0, None), ("TCP_STREAM -P 64", "vs_peer", 1.5, None))


def vs_named(s, names):
    """(best of the named peers by median, xperf over it per round) or
    (None, None) when none of them ran."""
    med = {t: v for t, v in s["median"].items() if t in names and v}
    if not med:
        return None, None
    best, runs = max(med, key=med.get), s["run_details"]
    return best, ratio_ci([(x and x["v"], y and y["v"]) for x, y in zip(runs.get("xperf", []), runs[best])])


def bar_row(key, s, what, bar, names):
    if what == "vs_floor":
        name, r = "floor", s.get(what)
    elif names:
        best, r = vs_named(s, names)
        name = f"best of {', '.join(names)} ({best})"
    else:
        name, r = f"best peer ({s['best_peer']})", s.get(what)
    return f"| {key} | >= {bar}x {name} | {fmt_ci(r)} | {verdict(r, bar)} |"


def verdict(r, bar):
    """met: the estimate and the whole interval at or above the bar;
    met (interval spans it): estimate above, interval below; missed."""
    if not r:
        return "not measured"
    if r["est"] < bar:
        return "missed"
    return "met" if r["lo"] is None or r["lo"] >= bar else "met (interval spans it)"


def fmt_fall(big, mid, tool):
    """A tool's median rate at -P 10000 over its -P 1000 one, as " (R of it)"."""
    b, m = big["median"].get(tool), mid["median"].get(tool)
    return f" ({b / m:.3f} of it)" if b and m else ""


def bars_table(summ, rr_curve=None):
    md = ["| case | bar | measured [95% CI] | verdict |", "|---|---|---|---|"]
    for key, s in summ.items():
        for label, what, bar, names in BARS:
            if key.startswith(label):
                md.append(bar_row(key, s, what, bar, names))
    if rr_curve:
        big, mid = rr_curve.get("TCP_RR -P 10000 -T 2"), rr_curve.get("TCP_RR -P 1000 -T 2")
        if big and mid:
            runs = big["runs"].get("xperf", [])
            rss = big.get("rss_max_mib")
            ok = any(runs) and (rss is not None and rss <= 256) and \
                (big["median"].get("xperf") or 0) >= (mid["median"].get("xperf") or 0)
            md.append(f"| TCP_RR -P 10000 -T 2 | runs, peak RSS <= 256 MiB per side, rate >= -P 1000 | "
                      f"{fmt_val(big['median'].get('xperf'), True)} vs {fmt_val(mid['median'].get('xperf'), True)}"
                      f"{fmt_fall(big, mid, 'xperf')}, peak RSS {fmt_mib((rss or 0) * 1024)} MiB; "
                      f"floor {fmt_val(big['median'].get('floor'), True)} vs "
                      f"{fmt_val(mid['median'].get('floor'), True)}{fmt_fall(big, mid, 'floor')} | "
                      f"{'met' if ok else 'missed'} |")
    return md


def curve_pictures(a, curves, m0, log):
    """The curves as SVG pictures (tests/bench/plots.py); the Markdown
    image lines, relative to the document they go in."""
    link = os.path.dirname(os.path.abspath(a.update_doc or a.out or "x"))
    outdir = a.plots or (os.path.join(link, "perf") if a.update_doc else link)
    axes = ([(n, f"TCP_RR -P {n} -T 2") for n in RR_FLOWS],
            [(m, f"TCP_STREAM -m {fmt_size(m)}") for m in STREAM_SIZES],
            [(m, f"UDP_RR -m {fmt_size(m)}") for m in UDP_RR_SIZES])
    caption = (f"make bench BENCH_ARGS='--curves': {a.curve_rounds} rounds x {a.secs} s, "
               f"{m0['cpu']}, kernel {m0['kernel']}, {m0['date']}")
    return plots.write_all(a.plotter, outdir, curves, axes, caption, log, link)


def update_doc(path, md):
    begin, end = "<!-- bench:curves begin -->", "<!-- bench:curves end -->"
    with open(path) as f:
        text = f.read()
    block = begin + "\n" + "\n".join(md) + "\n" + end
    if begin in text and end in text:
        text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(path, "w") as f:
        f.write(text)


# ---- main ----

def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--xperf", default="./xperf")
    ap.add_argument("--floor", default=os.path.join(here, "floor"))
    ap.add_argument("--plotter", default=os.path.join(here, "curve_plot"),
                    help="draws the curves (tests/bench/curve_plot); missing: tables only")
    ap.add_argument("--plots", help="folder for the curves' SVG pictures (default: perf/ beside "
                                    "--update-doc's file, else beside --out, else the current folder)")
    ap.add_argument("--secs", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--pin", action="append", help="client,server CPUs (repeatable; default 0,1 and 0,0)")
    ap.add_argument("--cases", default=",".join(CASES), help="subset of " + ",".join(CASES) + " or none")
    ap.add_argument("--curves", nargs="?", const="rr,stream,udp_rr", default="",
                    help="scaling curves: rr, stream, udp_rr (all three without a list)")
    ap.add_argument("--curve-rounds", type=int, default=3)
    ap.add_argument("--json")
    ap.add_argument("--from-json", metavar="FILE",
                    help="run nothing: report again on the runs kept in an earlier --json FILE")
    ap.add_argument("--out", help="also write the Markdown report here")
    ap.add_argument("--update-doc", help="replace the marked curves section of this file")
    ap.add_argument("--prefix", default="xpb-", help="prefix of the namespace and veth names")
    a = ap.parse_args()
    a.pin = a.pin or ["0,1", "0,0"]
    a.curves = [c for c in a.curves.split(",") if c]
    if any(c not in ("rr", "stream", "udp_rr") for c in a.curves):
        ap.error("--curves takes rr, stream, udp_rr")
    a.cases = [c for c in a.cases.split(",") if c and c != "none"]
    bad = [c for c in a.cases if c not in CASES]
    if bad:
        ap.error(f"unknown case {bad[0]} (cases: {', '.join(CASES)})")
    a.xperf, a.floor = os.path.abspath(a.xperf), os.path.abspath(a.floor)
    return a


def check_outputs(a):
    """Found out before the runs, not after them."""
    for p in (a.out, a.json, a.update_doc):
        if p and not os.path.isdir(os.path.dirname(os.path.abspath(p))):
            sys.exit(f"bench: no folder for {p}")
    if a.update_doc and not os.path.isfile(a.update_doc):
        sys.exit(f"bench: no file {a.update_doc} to update")
    if (a.curves or a.from_json) and not os.access(a.plotter, os.X_OK):
        print(f"bench: no {a.plotter}: the curves get tables, no pictures (make bench builds it)")


def preflight(a):
    if os.geteuid() != 0:
        print("bench: needs root (network namespaces): skipped")
        sys.exit(77)
    for p in (a.xperf, a.floor):
        if not os.access(p, os.X_OK):
            sys.exit(f"bench: no executable {p} (make bench builds tests/bench/floor)")
    why = missing_tools(a)
    for name, reason in why.items():
        print(f"bench: skipped: {name} ({reason})")
    print("bench: sockperf runs 14-byte messages where a case asks for less (its smallest)")
    if a.rounds < 5:
        print(f"bench: {a.rounds} rounds: a development run (the report needs 5 or more)")
    return [t for t in TOOLS if t not in why]


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def cs_rr(curves):
    """The TCP_RR -P curve summarised, with each point's largest peak RSS
    of either side (MiB), or None without curves."""
    if not curves or not curves[0]:
        return None
    out = {}
    for key, runs in curves[0].items():
        s = summarize(runs)
        rss = [side_stat(runs, "xperf", k, max) for k in ("rss_c", "rss_s")]
        rss = [r for r in rss if r is not None]
        s["rss_max_mib"] = max(rss) / 1024 if rss else None
        out[key] = s
    return out


def machine():
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    return dict(kernel=os.uname().release, cpus=os.cpu_count(), cpu=cpu_model(), load=load,
                date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))


def measure(a, log):
    """Every run: (machine at the start, at the end, main cases, curves)."""
    avail = preflight(a)
    lab = Lab(a.prefix, a.secs)
    m0, res, curves = machine(), {}, None
    lab.up()
    try:
        res = run_points(lab, a, main_points(a, avail), a.rounds, log)
        if a.curves:
            curves = [run_points(lab, a, pts, a.curve_rounds, log) if name in a.curves else {}
                      for name, pts in zip(("rr", "stream", "udp_rr"), curve_points(a, avail))]
    finally:
        lab.down()
    return m0, machine(), res, curves


def load(a):
    """The runs of an earlier --json report, with its settings, to report
    again (--from-json): what this version of the report makes of them."""
    try:
        with open(a.from_json) as f:
            d = json.load(f)
        c = d["config"]
        a.rounds, a.secs, a.curve_rounds, a.pin = c["rounds"], c["secs"], c["curve_rounds"], c["pin"]
        res = {k: v["run_details"] for k, v in d["cases"].items()}
        curves = [{k: v["run_details"] for k, v in (d.get("curves", {}).get(n) or {}).items()}
                  for n in ("tcp_rr_flows", "tcp_stream_sizes", "udp_rr_sizes")]
        return d["machine"], d["machine_end"], res, curves if any(curves) else None
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"bench: {a.from_json}: not a report of this bench with its runs ({e!r})")


def main():
    a = parse_args()
    log = lambda m: print(m, file=sys.stderr, flush=True)
    check_outputs(a)
    m0, m1, res, curves = load(a) if a.from_json else measure(a, log)
    summ = {k: summarize(v) for k, v in res.items()}
    md = [f"Machine: {m0['cpu']}, kernel {m0['kernel']}, {m0['cpus']} CPUs; {a.rounds} rounds x {a.secs} s, tools in rotated "
          f"order; load average {m0['load']} at the start, {m1['load']} at the end; {m0['date']}.", ""]
    md += main_table(summ) if summ else []
    if summ:
        md += ["", "Against the bars of the performance issue (point estimate and interval):", ""]
        md += bars_table(summ, cs_rr(curves))
    doc, out = [], {"machine": m0, "machine_end": m1, "config": vars(a),
                    "skipped": {} if a.from_json else missing_tools(a),
                    "cases": summ}
    if curves:
        cs = [{k: summarize(v) for k, v in c.items()} for c in curves]
        doc = [f"Curves: {a.curve_rounds} rounds x {a.secs} s, {m0['date']}, kernel {m0['kernel']}, "
               f"{m0['cpus']} CPUs, client/server CPUs {a.pin[0]} (TCP_RR -P: both sides on CPUs 0,1, -P 1 on CPU 0)."]
        if curves[0]:
            doc += ["", "TCP_RR, 1 byte, 2 threads each side:", ""] + rr_curve_table(curves[0], cs[0])
        if curves[1]:
            doc += ["", f"TCP_STREAM by send size (pin {a.pin[0]}):", ""] + size_curve_table(cs[1], False)
        if curves[2]:
            doc += ["", f"UDP_RR by message size (pin {a.pin[0]}):", ""] + size_curve_table(cs[2], True)
        out["curves"] = {"tcp_rr_flows": cs[0], "tcp_stream_sizes": cs[1], "udp_rr_sizes": cs[2]}
        md += [""] + doc
    text = "\n".join(md) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1, default=str)
    if curves and os.access(a.plotter, os.X_OK):
        for pic in curve_pictures(a, curves, m0, log):
            doc += ["", pic]  # a paragraph each
    elif curves:
        log(f"no pictures of the curves: {a.plotter} is not there (make bench builds it)")
    if a.update_doc and doc:
        update_doc(a.update_doc, doc)


if __name__ == "__main__":
    main()
