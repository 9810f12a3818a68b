#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""One control message to a server, and its answer as JSON.

  probe.py --server S --port P setup [NAME=VALUE ...]
      SETUP (TCP_RR, 1 flow, 1 thread, 1-byte messages, 10 s unless
      overridden; test=UDP_RR etc. by name); prints {"answer": "SETUP_OK"}
      or {"answer": "ERROR", "text": ...}
  probe.py --server S --port P error TEXT
      ERROR with TEXT (backslash escapes such as \\n, \\x1b are decoded)
      as the first message; prints what came back
String fields (cpus) take backslash escapes too.
"""
import argparse
import codecs
import json
import os
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xpwire  # noqa: E402


def unescape(s):
    return codecs.escape_decode(s.encode())[0]


def answer(sock):
    try:
        mtype, f = xpwire.recv_msg(sock)
    except (OSError, EOFError, ValueError) as e:
        return {"answer": "none", "why": str(e)}
    res = {"answer": xpwire.TYPE_NAMES.get(mtype, str(mtype))}
    if mtype == xpwire.ERROR:
        res["text"] = xpwire.text(f)
    return res


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--server", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("what", choices=["setup", "error"])
    p.add_argument("args", nargs="*")
    a = p.parse_args()
    s = socket.create_connection((a.server, a.port), timeout=5)
    if a.what == "error":
        s.sendall(xpwire.encode(xpwire.ERROR, code=1, text=unescape(" ".join(a.args))))
    else:
        kw = {"duration_ms": 10000}
        for nv in a.args:
            name, value = nv.split("=", 1)
            if name == "test":
                kw["test"] = value
            elif name in ("cpus",):
                kw[name] = unescape(value)
            else:
                kw[{"req": "req", "rsp": "rsp"}.get(name, name)] = int(value, 0)
        s.sendall(xpwire.encode(xpwire.SETUP, **xpwire.setup_fields(**kw)))
    print(json.dumps(answer(s)))
    s.close()


if __name__ == "__main__":
    main()
