# SPDX-License-Identifier: BSD-2-Clause
"""A client that abuses the one-way clock exchange (proto/PROTOCOL.md
section 11) against an xperf server: CLOCK without stamps, more CLOCKs
than a test may have, stamps the test cannot carry, unknown stamp bits,
OFFSET of extreme values.  Each must end in an ERROR or be taken, never
crash or hang the server.  Usage: clock_peer.py PORT; exit 0 or a line
saying what went wrong."""
import struct
import sys

import xpwire

CLOCK, CLOCK_OK, OFFSET = 15, 16, 18
xpwire.FIELDS[xpwire.SETUP]["stamps"] = (90, "u")
xpwire.FIELDS[CLOCK] = {"t1": (1, "u"), "t2": (2, "u"), "t3": (3, "u")}
xpwire.FIELDS[CLOCK_OK] = xpwire.FIELDS[CLOCK]
xpwire.FIELDS[OFFSET] = {"offset_ns": (1, "u"), "bias_ns": (2, "u")}
xpwire.TYPE_NAMES.update({CLOCK: "CLOCK", CLOCK_OK: "CLOCK_OK", OFFSET: "OFFSET"})
PORT = int(sys.argv[1])


def expect_error(s, what, needle):
    mtype, f = xpwire.recv_msg(s)
    if mtype != xpwire.ERROR or needle not in xpwire.text(f):
        sys.exit("%s: got %s %r, want an ERROR with %r" % (what, xpwire.TYPE_NAMES.get(mtype), f, needle))
    s.close()


def refused(what, needle, **setup):
    s, mtype, f = xpwire.control_session("127.0.0.1", PORT, **setup)
    if mtype != xpwire.ERROR or needle not in xpwire.text(f):
        sys.exit("%s: got %s %r, want a refusal with %r" % (what, xpwire.TYPE_NAMES.get(mtype), f, needle))
    s.close()


def main():
    refused("stamps with 8-byte responses", "one-way stamps need", req=16, rsp=8, stamps=1)
    refused("unknown stamp bits", "unknown stamps", req=32, rsp=32, stamps=4)
    refused("kernel stamps for UDP_RR", "kernel timestamps apply", test="UDP_RR", req=32,
            rsp=32, stamps=2)
    refused("TCP_RR stamps with --burst", "one request outstanding", req=16, rsp=16, burst=2,
            stamps=1)
    # CLOCK in a test without stamps
    s, mtype, _ = xpwire.control_session("127.0.0.1", PORT, req=16, rsp=16)
    assert mtype == xpwire.SETUP_OK, mtype
    s.sendall(xpwire.encode(CLOCK, t1=1))
    expect_error(s, "CLOCK without stamps", "expected READY, got CLOCK")
    # 64 CLOCKs are answered, the 65th is an error; extreme OFFSETs are taken
    s, mtype, _ = xpwire.control_session("127.0.0.1", PORT, req=16, rsp=16, stamps=1)
    assert mtype == xpwire.SETUP_OK, mtype
    s.sendall(xpwire.encode(OFFSET, offset_ns=1 << 63, bias_ns=xpwire.U64_MAX))
    for i in range(64):
        s.sendall(xpwire.encode(CLOCK, t1=i))
        mtype, f = xpwire.recv_msg(s)
        if mtype != CLOCK_OK or f.get("t1") != i or f.get("t3", 0) < f.get("t2", 1):
            sys.exit("CLOCK %d: got %s %r" % (i, xpwire.TYPE_NAMES.get(mtype), f))
    s.sendall(xpwire.encode(CLOCK, t1=64))
    expect_error(s, "the 65th CLOCK", "expected READY, got CLOCK")


if __name__ == "__main__":
    main()
