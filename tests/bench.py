#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""xperf performance benchmark (root only; not part of `make check`).

Runs shared/bench/sidebyside.py (xperf beside iperf3, sockperf and the
syscall floor, two namespaces joined by veth, pinned alike) in both
placements, then the cases sidebyside does not cover: TCP_RR with --spin,
TCP_MAERTS against iperf3 -R, 1,000 TCP_RR flows on 2 threads (rate and
peak RSS of each side) and 64 TCP_STREAM flows against iperf3 -P 64.
Prints a Markdown report and writes it to --out.

usage: tests/bench.py [--xperf ./xperf] [--secs 4] [--reps 3]
                      [--sidebyside PATH] [--out bench-report.md]"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
NS_C, NS_S, SRV = "xpbench-c", "xpbench-s", "10.78.0.2"


def sh(*cmd, check=True):
    return subprocess.run(cmd, check=check, capture_output=True, text=True)


def netns_up():
    netns_down()
    for n in (NS_C, NS_S):
        sh("ip", "netns", "add", n)
        sh("ip", "-n", n, "link", "set", "lo", "up")
    sh("ip", "link", "add", "xpbc", "netns", NS_C, "type", "veth", "peer", "name", "xpbs", "netns", NS_S)
    sh("ip", "-n", NS_C, "addr", "add", "10.78.0.1/24", "dev", "xpbc")
    sh("ip", "-n", NS_S, "addr", "add", SRV + "/24", "dev", "xpbs")
    sh("ip", "-n", NS_C, "link", "set", "xpbc", "up")
    sh("ip", "-n", NS_S, "link", "set", "xpbs", "up")


def netns_down():
    for n in (NS_C, NS_S):
        sh("ip", "netns", "del", n, check=False)


def ns(n, cpu, cmd):
    return ["ip", "netns", "exec", n, "taskset", "-c", str(cpu)] + cmd


class Server:
    def __init__(self, cmd):
        self.cmd = cmd

    def __enter__(self):
        self.p = subprocess.Popen(self.cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.4)
        return self

    def __exit__(self, *a):
        self.p.terminate()
        try:
            self.p.wait(3)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


def xperf(a, args, srv_cpus="1", cli_cpus="0"):
    with Server(ns(NS_S, srv_cpus, [a.xperf, "-s", "-p", "5320"])):
        out = subprocess.run(ns(NS_C, cli_cpus, [a.xperf, "-c", SRV, "-p", "5320", "-l", str(a.secs), "--json"] + args),
                             capture_output=True, text=True, timeout=a.secs + 60).stdout
    return json.loads(out)


def iperf3(a, args, cpus="0", srv_cpus="1"):
    with Server(ns(NS_S, srv_cpus, ["iperf3", "-s", "-1", "-p", "5321"])):
        out = subprocess.run(ns(NS_C, cpus, ["iperf3", "-c", SRV, "-p", "5321", "-t", str(a.secs), "-J"] + args),
                             capture_output=True, text=True, timeout=a.secs + 60).stdout
    return json.loads(out)["end"]["sum_received"]["bits_per_second"]


def median(f, reps):
    vals = []
    for _ in range(reps):
        try:
            vals.append(f())
        except Exception as e:  # a failed run is reported, not hidden
            print(f"  run failed: {e!r:.120}", file=sys.stderr)
    return (statistics.median(vals), vals) if vals else (float("nan"), vals)


def sidebyside(a, pin, extra=()):
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    cmd = [sys.executable, a.sidebyside, "--xperf", a.xperf, "--secs", str(a.secs), "--reps", str(a.reps),
           "--pin", pin, "--json", path] + list(extra)
    p = subprocess.run(cmd, capture_output=True, text=True)
    print(p.stdout, end="")
    with open(path) as f:
        data = json.load(f)
    os.unlink(path)
    return p.stdout, data


def ratio(x, y):
    return x / y if y else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--xperf", default="./xperf")
    ap.add_argument("--secs", type=int, default=4)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--sidebyside", default=os.environ.get("SIDEBYSIDE", os.path.join(HERE, "..", "..", "shared", "bench", "sidebyside.py")))
    ap.add_argument("--out", default="bench-report.md")
    a = ap.parse_args()
    a.xperf = os.path.abspath(a.xperf)
    if os.geteuid() != 0:
        sys.exit("bench: needs root (network namespaces)")
    if not os.path.exists(a.sidebyside):
        sys.exit(f"bench: no side-by-side script at {a.sidebyside} (set SIDEBYSIDE)")
    rows, raw = [], []
    for pin in ("0,1", "0,0"):
        out, d = sidebyside(a, pin)
        raw.append(out)
        for t, tools in d.items():
            x = tools.get("xperf", {}).get("value", float("nan"))
            peers = {n: m["value"] for n, m in tools.items() if n not in ("xperf", "floor")}
            best = max(peers, key=peers.get) if peers else None
            fl = tools.get("floor", {}).get("value")
            rows.append((f"{t} (pin {pin})", f"{x:.1f} {tools['xperf']['unit'] if 'xperf' in tools else ''}",
                         f"{best} {peers[best]:.1f}" if best else "-", f"{ratio(x, peers[best]):.3f}" if best else "-",
                         f"{ratio(x, fl):.3f}" if fl else "-"))
    out, d = sidebyside(a, "0,1", ["--tests", "TCP_RR", "--tools", "xperf", "--xperf-args=--spin"])
    raw.append("(--spin)\n" + out)
    spin = d["TCP_RR"]["xperf"]["value"]
    blocking = next(r for r in rows if r[0] == "TCP_RR (pin 0,1)")[1]
    rows.append(("TCP_RR --spin (pin 0,1)", f"{spin:.1f} trans/s", f"xperf blocking {blocking}", "-",
                 f"{spin / float(blocking.split()[0]):.2f}x blocking"))
    netns_up()
    try:
        for c, s in (("0", "1"), ("0", "0")):
            m, _ = median(lambda: xperf(a, ["-t", "TCP_MAERTS"], s, c)["end"]["sum_received"]["bits_per_second"], a.reps)
            i, _ = median(lambda: iperf3(a, ["-R", "-l", "131072"], c, s), a.reps)
            rows.append((f"TCP_MAERTS vs iperf3 -R (pin {c},{s})", f"{m / 1e6:.1f} Mbit/s", f"iperf3 -R {i / 1e6:.1f}",
                         f"{ratio(m, i):.3f}", "-"))
        one, _ = median(lambda: xperf(a, ["-t", "TCP_RR"])["end"]["rr"]["transactions_per_second"], a.reps)
        many = [xperf(a, ["-t", "TCP_RR", "-P", "1000", "-T", "2"], "0,1", "0,1") for _ in range(a.reps)]
        rate = statistics.median(x["end"]["rr"]["transactions_per_second"] for x in many)
        rss_c = max(x["end"]["client"]["max_rss_kb"] for x in many) / 1024
        rss_s = max(x["end"]["server"]["max_rss_kb"] for x in many) / 1024
        rows.append(("TCP_RR -P 1000 -T 2", f"{rate:.1f} trans/s", f"one flow {one:.1f}", f"{ratio(rate, one):.2f}x one flow",
                     f"peak RSS client {rss_c:.1f} MiB, server {rss_s:.1f} MiB"))
        s64, _ = median(lambda: xperf(a, ["-t", "TCP_STREAM", "-P", "64", "-T", "2"], "0,1", "0,1")["end"]["sum_received"]["bits_per_second"], a.reps)
        i64, _ = median(lambda: iperf3(a, ["-P", "64", "-l", "131072"], "0,1", "0,1"), a.reps)
        rows.append(("TCP_STREAM -P 64 -T 2 vs iperf3 -P 64", f"{s64 / 1e6:.1f} Mbit/s", f"iperf3 {i64 / 1e6:.1f}", f"{ratio(s64, i64):.3f}", "-"))
    finally:
        netns_down()
    md = [f"Machine: {os.uname().release}, {os.cpu_count()} CPUs; {a.reps} runs x {a.secs} s, medians; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", "",
          "| case | xperf | best other | xperf / other | xperf / floor (or note) |", "|---|---|---|---|---|"]
    md += ["| " + " | ".join(r) + " |" for r in rows]
    md += ["", "Raw side-by-side output:", "", "```"] + [l for o in raw for l in o.splitlines()] + ["```"]
    text = "\n".join(md) + "\n"
    with open(a.out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
