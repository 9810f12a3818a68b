#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""A fake xperf server that follows the conversation up to a point, then
misbehaves.  TCP tests only: it accepts the data connections (discarding
stream data, answering RR requests) so that the client's side runs as
against a real server.

  fake_server.py --port P --mode MODE [--bind ADDR] [--drip S] [--life S]

MODE, what happens after the client's STOP (or at SETUP):
  absurd         RESULT with impossible counters: 2^63 bytes received in
                 1 ns, CPU time 2^62 us, errors 2^64-1, ncpus 0,
                 worker CPUs "99999,-1", RTT, cwnd and rates at 2^63
  drip           a TCPINFO message every --drip seconds, never RESULT
  silent         nothing at all; the connection stays open
  error-escape   at SETUP: an ERROR whose text holds a newline, a forged
                 log line and terminal escapes
  warn-escape    a plausible RESULT with one error, whose warning holds
                 the same text
Serves connections until killed, or for --life seconds.
"""
import argparse
import os
import random
import socket
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xpwire  # noqa: E402

EVIL = (b"reset\x1b[31m RED\x1b[0m\x07\r\n2030-01-01T00:00:00.000Z xperf[1]: "
        b"forged line\x1b]0;title\x07")
BIG = 1 << 63


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.tests = {}  # cookie -> dict(req, rsp, rr, received, done)


def data_conn(st, s):
    cookie, _flow = struct.unpack(">QI", xpwire.recv_exact(s, 12))
    with st.lock:
        t = st.tests.get(cookie)
    if not t:
        s.close()
        return
    try:
        while True:
            if t["rr"]:
                xpwire.recv_exact(s, t["req"])
                s.sendall(b"\0" * t["rsp"])
                t["received"] += t["req"]
                continue
            b = s.recv(1 << 20)
            if not b:
                break
            t["received"] += len(b)
    except (OSError, EOFError):
        pass
    t["done"].set()
    s.close()


def result(mode, t):
    if mode == "absurd":
        return xpwire.encode(
            xpwire.RESULT, elapsed_ns=1, bytes_sent=BIG, bytes_received=BIG,
            transactions=BIG, errors=xpwire.U64_MAX, cpu_user_us=1 << 62,
            cpu_sys_us=1 << 62, host_busy_ppm=xpwire.U64_MAX, cpus=b"99999,-1",
            max_rss_kb=BIG, tcp_flows=1, tcp_retrans=BIG, tcp_rtt_ns_mean=BIG,
            tcp_rttvar_ns_mean=BIG, tcp_rtt_us_max=BIG, tcp_cwnd_min=BIG,
            tcp_cwnd_max=1, tcp_mss=BIG, tcp_delivery_rate_bps=BIG,
            ncpus=0)
    rr = t["rr"]
    return xpwire.encode(
        xpwire.RESULT, elapsed_ns=int(t["elapsed"] * 1e9), bytes_received=t["received"],
        bytes_sent=t["received"] if rr else 0,
        transactions=t["received"] // t["req"] if rr else 0, cpu_user_us=1000,
        errors=1 if mode == "warn-escape" else 0,
        cpu_sys_us=1000, host_busy_ppm=100000, cpus=b"0", max_rss_kb=4000,
        ncpus=os.cpu_count() or 1, warning=EVIL if mode == "warn-escape" else b"")


def after_stop(a, s, t):
    if a.mode == "drip":
        k = 0
        while True:
            s.sendall(xpwire.encode(xpwire.TCPINFO, flow=0, rtt_us=k))
            k += 1
            time.sleep(a.drip)
    if a.mode == "silent":
        while s.recv(4096):
            pass
        return
    t["done"].wait(2)
    s.sendall(result(a.mode, t))
    xpwire.wait_closed(s, 5)


def control(a, st, s):
    mtype, f = xpwire.recv_msg(s)
    if mtype != xpwire.SETUP:
        return
    if a.mode == "error-escape":
        s.sendall(xpwire.encode(xpwire.ERROR, code=1, text=EVIL))
        return
    cookie = random.getrandbits(64)
    rr = f["test"] in (3,)  # TCP_RR; TCP_CRR is not served
    t = {"req": f["req_size"], "rsp": f["rsp_size"], "rr": rr, "received": 0,
         "done": threading.Event()}
    with st.lock:
        st.tests[cookie] = t
    s.sendall(xpwire.encode(xpwire.SETUP_OK, cookie=cookie, threads=1, cpus=b"0"))
    if xpwire.recv_msg(s)[0] != xpwire.READY:
        return
    s.sendall(xpwire.encode(xpwire.GO))
    go = time.monotonic()
    if xpwire.recv_msg(s)[0] != xpwire.STOP:
        return
    t["elapsed"] = time.monotonic() - go
    after_stop(a, s, t)


def serve(a, st, s):
    try:
        s.settimeout(None)
        first = xpwire.recv_exact(s, 4)
        magic = struct.unpack(">I", first)[0]
        if magic == xpwire.DATA_MAGIC:
            data_conn(st, s)
            return
        if magic == xpwire.MAGIC:
            # give recv_msg its header back
            rest = xpwire.recv_exact(s, 8)
            s2 = Prefixed(s, first + rest)
            control(a, st, s2)
    except (OSError, EOFError, ValueError):
        pass
    finally:
        s.close()


class Prefixed:
    """A socket whose first bytes were already read."""

    def __init__(self, s, head):
        self.s, self.head = s, head

    def recv(self, n):
        if self.head:
            b, self.head = self.head[:n], self.head[n:]
            return b
        return self.s.recv(n)

    def sendall(self, b):
        self.s.sendall(b)

    def settimeout(self, t):
        self.s.settimeout(t)

    def close(self):
        self.s.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--bind", default="0.0.0.0")
    p.add_argument("--mode", required=True,
                   choices=["absurd", "drip", "silent", "error-escape", "warn-escape"])
    p.add_argument("--drip", type=float, default=0.5)
    p.add_argument("--life", type=float, default=120)
    a = p.parse_args()
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((a.bind, a.port))
    ls.listen(64)
    ls.settimeout(0.5)
    print("ready: fake server listening on port %d (%s)" % (a.port, a.mode), flush=True)
    st, end = State(), time.monotonic() + a.life
    while time.monotonic() < end:
        try:
            s, _ = ls.accept()
        except socket.timeout:
            continue
        threading.Thread(target=serve, args=(a, st, s), daemon=True).start()


if __name__ == "__main__":
    main()
