# SPDX-License-Identifier: BSD-2-Clause
"""The bench's scaling curves as pictures: a text spec per curve for
tests/bench/curve_plot (xperf's own chart code), one line per tool
through its median, a band from its lowest to its highest round.
Standard library only; used by tests/bench/bench.py."""

import os
import subprocess

# xperf first, so it keeps the palette's first colour in every chart
ORDER = ("xperf", "floor", "netperf", "iperf3", "neper", "sockperf")


def tools_of(runs):
    seen = {t for k in runs.values() for t in k}
    return [t for t in ORDER if t in seen] + sorted(seen - set(ORDER))


def spec(title, caption, xaxis, yaxis, series):
    """The spec text: xaxis and yaxis are (title, unit, "log"|"linear");
    series is [(name, [(x, y, lo, hi), ...])]."""
    clean = lambda s: " ".join(str(s).split())  # no tab or newline inside a field
    lines = [f"title\t{clean(title)}", f"caption\t{clean(caption)}",
             "x\t" + "\t".join(clean(f) for f in xaxis), "y\t" + "\t".join(clean(f) for f in yaxis)]
    for name, pts in series:
        lines.append(f"series\t{clean(name)}")
        lines += ["\t".join(f"{v:.9g}" for v in p) for p in pts]
    return "\n".join(lines) + "\n"


def tool_series(summ, points, tools, value):
    """[(tool, [(x, median, lo, hi)])] over points [(x, key)]; value(run)
    is the figure of one round's result (None: not measured)."""
    out = []
    for t in tools:
        pts = []
        for x, key in points:
            runs = [value(r) for r in summ.get(key, {}).get(t, []) if r]
            runs = sorted(v for v in runs if v)
            if runs:
                n = len(runs)
                med = runs[n // 2] if n % 2 else (runs[n // 2 - 1] + runs[n // 2]) / 2
                pts.append((x, med, runs[0], runs[-1]))
        out.append((t, pts))
    return out


def draw(plotter, path, text, log):
    """Run the plotter; True when it wrote path."""
    try:
        p = subprocess.run([plotter, path], input=text, text=True, capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as e:
        log(f"plot {path}: {e}")
        return False
    if p.returncode:
        log(f"plot {path}: {p.stderr.strip()}")
        return False
    return True


def rss_mib(r):
    sides = [v for v in (r.get("rss_c"), r.get("rss_s")) if v]
    return max(sides) / 1024 if sides else None


def charts(raw, axes, caption):
    """(file name, alt text, spec) of each chart the curves allow.  raw is
    [rr, stream, udp_rr] runs ({key: {tool: [result per round]}}, {} for a
    curve not run); axes is [(x, key) points] for each, in order."""
    rr, st, ur = raw
    ax_rr, ax_st, ax_ur = axes
    val = lambda r: r.get("v")
    out = []
    if rr:
        tools = tools_of(rr)
        out.append(("curve-rr-flows.svg", "TCP_RR rate against flows",
                    spec("TCP_RR 1 byte, 2 threads a side: rate against flows",
                         caption, ("Flows (-P)", "", "log"), ("Transactions", "/s", "linear"),
                         tool_series(rr, ax_rr, tools, val))))
        out.append(("curve-rr-rss.svg", "TCP_RR peak memory against flows",
                    spec("TCP_RR 1 byte: peak RSS of the larger side against flows",
                         caption, ("Flows (-P)", "", "log"), ("Peak RSS", "MiB", "log"),
                         tool_series(rr, ax_rr, [t for t in tools if t != "floor"], rss_mib))))
    if st:
        tools = tools_of(st)
        out.append(("curve-stream-size.svg", "TCP_STREAM throughput against send size",
                    spec("TCP_STREAM: throughput against send size",
                         caption, ("Send size (-m)", "B", "log"), ("Throughput", "bit/s", "linear"),
                         tool_series(st, ax_st, tools, val))))
    if ur:
        tools = tools_of(ur)
        out.append(("curve-udp-rr-size.svg", "UDP_RR rate against message size",
                    spec("UDP_RR: rate against message size",
                         caption, ("Message size (-m)", "B", "log"), ("Transactions", "/s", "linear"),
                         tool_series(ur, ax_ur, tools, val))))
    return out


def write_all(plotter, outdir, raw, axes, caption, log, link_dir=None):
    """Draw every chart into outdir; the Markdown image lines for those
    drawn, their paths relative to link_dir (default outdir)."""
    os.makedirs(outdir, exist_ok=True)
    md = []
    for name, alt, text in charts(raw, axes, caption):
        path = os.path.join(outdir, name)
        if draw(plotter, path, text, log):
            md.append(f"![{alt}]({os.path.relpath(path, link_dir or outdir)})")
    return md
