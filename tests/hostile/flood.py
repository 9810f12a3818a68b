#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Clients that hold a server's pre-test resources.  Each prints "ready"
once its connections are in place (so the caller can start a normal test),
holds them, then prints one JSON object and closes everything.

  flood.py idle    --count N --hold S     N connections that send nothing
  flood.py partial --count N --hold S     N connections that send the first
                                           6 bytes of a control header
  flood.py slow    --timeout T --limit S  one SETUP dripped so that each of
                                           the server's reads (header, body)
                                           completes at 0.9 T; reports how
                                           long the server kept it
  flood.py grab    --count N --hold S [--test T --msg SIZE --threads N
                   --spin]                 N control sessions that send SETUP
                                           and nothing after SETUP_OK
"""
import argparse
import json
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xpwire  # noqa: E402


def connect_many(a, first=b""):
    socks, failed = [], 0
    for _ in range(a.count):
        try:
            s = socket.create_connection((a.server, a.port), timeout=2)
            if first:
                s.sendall(first)
            socks.append(s)
        except OSError:
            failed += 1
    return socks, failed


def closed_by_server(socks):
    n = 0
    for s in socks:
        s.setblocking(False)
        try:
            if s.recv(4096) == b"":
                n += 1
        except BlockingIOError:
            pass
        except OSError:
            n += 1
    return n


def hold(a, socks, res):
    print("ready", json.dumps(res), flush=True)
    time.sleep(a.hold)
    res["closed_by_server"] = closed_by_server(socks)
    for s in socks:
        s.close()
    return res


def idle(a):
    socks, failed = connect_many(a)
    return hold(a, socks, {"opened": len(socks), "failed": failed})


def partial(a):
    socks, failed = connect_many(a, xpwire.HDR.pack(xpwire.MAGIC, 1, 1, 0)[:6])
    return hold(a, socks, {"opened": len(socks), "failed": failed})


def slow(a):
    msg = xpwire.encode(xpwire.SETUP, **xpwire.setup_fields(duration_ms=1000))
    hdr, body = msg[:12], msg[12:]
    s = socket.create_connection((a.server, a.port), timeout=2)
    t0 = time.monotonic()
    plan = [(0, hdr[:11]), (0.9 * a.timeout, hdr[11:] + body[:-1]),
            (1.8 * a.timeout, body[-1:])]
    res = {"sent_all": False}
    print("ready", flush=True)
    for at, chunk in plan:
        left = t0 + at - time.monotonic()
        if left > 0:
            gone = xpwire.wait_closed(s, left)
            if gone is not None:
                res["held"] = round(time.monotonic() - t0, 2)
                return res
        try:
            s.sendall(chunk)
        except OSError:
            res["held"] = round(time.monotonic() - t0, 2)
            return res
    res["sent_all"] = True
    gone = xpwire.wait_closed(s, a.limit - (time.monotonic() - t0))
    res["held"] = round(time.monotonic() - t0, 2) if gone is not None else None
    s.close()
    return res


def grab(a):
    socks, answers = [], {}
    for _ in range(a.count):
        try:
            s, mtype, f = xpwire.control_session(
                a.server, a.port, timeout=10, test=a.test, duration_ms=60000,
                req=a.msg, rsp=a.msg, flows=1, threads=a.threads,
                flags=xpwire.F_SPIN if a.spin else 0)
        except (OSError, EOFError, ValueError) as e:
            answers[str(e)] = answers.get(str(e), 0) + 1
            continue
        name = xpwire.TYPE_NAMES.get(mtype, str(mtype))
        if mtype == xpwire.ERROR:
            name += ": " + xpwire.text(f)
        answers[name] = answers.get(name, 0) + 1
        socks.append(s)
    return hold(a, socks, {"answers": answers})


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("mode", choices=["idle", "partial", "slow", "grab"])
    p.add_argument("--server", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--count", type=int, default=16)
    p.add_argument("--hold", type=float, default=3)
    p.add_argument("--timeout", type=float, default=3)
    p.add_argument("--limit", type=float, default=30)
    p.add_argument("--test", default="TCP_STREAM")
    p.add_argument("--msg", type=int, default=1)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--spin", action="store_true")
    a = p.parse_args()
    res = {"idle": idle, "partial": partial, "slow": slow, "grab": grab}[a.mode](a)
    print(json.dumps(res), flush=True)


if __name__ == "__main__":
    main()
