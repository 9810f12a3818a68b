#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Bytes arriving at the victim's addresses, counted by the kernel in the
victim's network namespace (run it there with `ip netns exec`).

  bcount.py setup --server S --addrs B1,B2,... [--out]   install the counters
  bcount.py read                                          print JSON counters
  bcount.py teardown

With --out (run in the server's namespace instead), the same counters sit
in OUTPUT and count what the server sends to each address, before
fragmentation (what left the server, whether or not it reached B).

With iptables: a chain hostile-count hooked first in INPUT counts every
IPv4 packet from the server to each address (INPUT sees UDP datagrams after
reassembly, so a 60000-byte reply counts 60028 bytes, once), keys "B1" ...
and "total"; a chain hooked in OUTPUT counts the ICMP port-unreachable
errors the victim's kernel sends back ("icmp_unreach", packets).  Without
iptables: "total" is the rx_bytes of the namespace's interfaces (all
traffic, not only the server's) and the ICMP count is absent."""
import argparse
import glob
import json
import shutil
import subprocess
import sys

CHAIN_IN, CHAIN_OUT = "hostile-count", "hostile-icmp"


def ipt(*args, check=True):
    return subprocess.run(["iptables", "-w", *args], capture_output=True, text=True,
                          check=check)


def setup(a):
    teardown(None)
    ipt("-N", CHAIN_IN)
    ipt("-N", CHAIN_OUT)
    for addr in a.addrs.split(","):
        ipt("-A", CHAIN_IN, "-s", a.server, "-d", addr)
    ipt("-A", CHAIN_OUT, "-p", "icmp", "--icmp-type", "port-unreachable")
    ipt("-I", "OUTPUT" if a.out else "INPUT", "-j", CHAIN_IN)
    ipt("-I", "OUTPUT", "-j", CHAIN_OUT)


def teardown(_a):
    for hook, chain in (("INPUT", CHAIN_IN), ("OUTPUT", CHAIN_IN), ("OUTPUT", CHAIN_OUT)):
        ipt("-D", hook, "-j", chain, check=False)
        ipt("-F", chain, check=False)
        ipt("-X", chain, check=False)


def chain_rows(chain):
    out = ipt("-nvxL", chain).stdout.splitlines()[2:]
    return [line.split() for line in out if line.strip()]


def read(_a):
    res = {}
    if shutil.which("iptables"):
        total = 0
        for row in chain_rows(CHAIN_IN):
            # pkts bytes target prot opt in out source destination
            res[row[-1]] = int(row[1])
            total += int(row[1])
        res["total"] = total
        rows = chain_rows(CHAIN_OUT)
        res["icmp_unreach"] = int(rows[0][0]) if rows else 0
    else:
        res["total"] = sum(int(open(p).read()) for p in
                           glob.glob("/sys/class/net/*/statistics/rx_bytes"))
    print(json.dumps(res))


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("setup")
    s.add_argument("--server", required=True)
    s.add_argument("--addrs", required=True)
    s.add_argument("--out", action="store_true")
    sub.add_parser("read")
    sub.add_parser("teardown")
    a = p.parse_args()
    if a.cmd != "read" and not shutil.which("iptables"):
        return 0
    {"setup": setup, "read": read, "teardown": teardown}[a.cmd](a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
