# SPDX-License-Identifier: BSD-2-Clause
"""xperf's control protocol, written again from proto/PROTOCOL.md, for the
hostile-peer tests: a 12-byte header ("XPCT", version, type, body length),
TLV fields (tag u16, length u16, value), integers as u64, big-endian.  The
tag tables follow proto/msg.c; only what the tests need is here."""
import socket
import struct
import time

MAGIC = 0x58504354          # "XPCT"
DATA_MAGIC = 0x58504454     # "XPDT"
VERSION = 2                 # 2: UDP flows prove their address, auth, heartbeats
HDR = struct.Struct(">IHHI")
BODY_MAX = 16384

SETUP, SETUP_OK, READY, GO, STOP, RESULT, ERROR, TCPINFO = range(1, 9)
HEARTBEAT = 20
TYPE_NAMES = {1: "SETUP", 2: "SETUP_OK", 3: "READY", 4: "GO", 5: "STOP",
              6: "RESULT", 7: "ERROR", 8: "TCPINFO", 20: "HEARTBEAT",
              21: "AUTH_HELLO", 22: "AUTH_CHALLENGE", 23: "AUTH_RESPONSE",
              24: "AUTH_OK"}
TESTS = {"TCP_STREAM": 1, "TCP_MAERTS": 2, "TCP_RR": 3, "TCP_CRR": 4,
         "UDP_STREAM": 5, "UDP_RR": 6}
F_SPIN, F_NO_GSO, F_ZEROCOPY = 1, 2, 4
U64_MAX = (1 << 64) - 1

# name -> (tag, kind) per message type; kind "u" = u64, "s" = string
FIELDS = {
    SETUP: {"test": (1, "u"), "duration_ms": (2, "u"), "req_size": (3, "u"),
            "rsp_size": (4, "u"), "flows": (5, "u"), "threads": (6, "u"),
            "nodelay": (7, "u"), "sndbuf": (8, "u"), "rcvbuf": (9, "u"),
            "rr_timeout_ms": (10, "u"), "flags": (11, "u"), "cpus": (12, "s"),
            "busy_poll_us": (13, "u"), "rate_bps": (14, "u"), "burst": (15, "u"),
            "pace_burst": (16, "u"), "rcvlowat": (17, "u"), "heartbeat_ms": (70, "u")},
    SETUP_OK: {"cookie": (1, "u"), "threads": (2, "u"), "cpus": (3, "s"),
               "heartbeat_ms": (70, "u")},
    READY: {}, GO: {}, HEARTBEAT: {},
    STOP: {"datagrams_sent": (1, "u")},
    RESULT: {"elapsed_ns": (1, "u"), "bytes_sent": (2, "u"),
             "bytes_received": (3, "u"), "datagrams_sent": (4, "u"),
             "datagrams_received": (5, "u"), "out_of_order": (6, "u"),
             "duplicates": (7, "u"), "transactions": (8, "u"), "errors": (9, "u"),
             "cpu_user_us": (10, "u"), "cpu_sys_us": (11, "u"),
             "host_busy_ppm": (12, "u"), "cpus": (13, "s"), "max_rss_kb": (14, "u"),
             "zc_completions": (15, "u"), "zc_copied": (16, "u"),
             "offloads": (17, "u"), "tcp_flows": (18, "u"), "tcp_retrans": (19, "u"),
             "tcp_rtt_ns_mean": (20, "u"), "tcp_rttvar_ns_mean": (21, "u"),
             "tcp_rtt_us_max": (22, "u"), "tcp_cwnd_min": (23, "u"),
             "tcp_cwnd_max": (24, "u"), "tcp_mss": (25, "u"),
             "tcp_delivery_rate_bps": (26, "u"), "warning": (27, "s"),
             "ncpus": (28, "u"), "lowat_flows": (29, "u"),
             "lowat_probed": (74, "u")},
    ERROR: {"code": (1, "u"), "text": (2, "s")},
    TCPINFO: {"flow": (1, "u"), "retrans": (2, "u"), "rtt_us": (3, "u"),
              "rttvar_us": (4, "u"), "cwnd": (5, "u"), "mss": (6, "u"),
              "delivery_rate_bps": (7, "u")},
}


def encode(mtype, version=VERSION, **fields):
    """One control message.  Integer fields are always written (as the
    real encoder does); a string is written as given, raw bytes or str
    (so a test can put any byte in it), omitted when empty."""
    table = FIELDS[mtype]
    body = b""
    for name, (tag, kind) in sorted(table.items(), key=lambda kv: kv[1][0]):
        v = fields.pop(name, 0 if kind == "u" else b"")
        if kind == "u":
            body += struct.pack(">HHQ", tag, 8, v & U64_MAX)
        else:
            raw = v.encode("latin-1") if isinstance(v, str) else bytes(v)
            if raw:
                body += struct.pack(">HH", tag, len(raw)) + raw
    if fields:
        raise KeyError("unknown fields for %s: %s" % (TYPE_NAMES[mtype], sorted(fields)))
    return HDR.pack(MAGIC, version, mtype, len(body)) + body


def decode_body(mtype, body):
    """Fields of a body as a dict (name -> int or bytes); unknown tags kept
    as 'tag<N>'."""
    names = {tag: (name, kind) for name, (tag, kind) in FIELDS.get(mtype, {}).items()}
    out, off = {}, 0
    while off + 4 <= len(body):
        tag, ln = struct.unpack_from(">HH", body, off)
        val = body[off + 4:off + 4 + ln]
        off += 4 + ln
        name, kind = names.get(tag, ("tag%d" % tag, "s"))
        out[name] = struct.unpack(">Q", val)[0] if kind == "u" and ln == 8 else val
    return out


def hello(cookie, flow):
    """The 16-byte data hello: "XPDT", cookie u64, flow u32."""
    return struct.pack(">IQI", DATA_MAGIC, cookie & U64_MAX, flow)


def recv_exact(sock, n):
    buf = b""
    while len(buf) < n:
        b = sock.recv(n - len(buf))
        if not b:
            raise EOFError("connection closed after %d of %d bytes" % (len(buf), n))
        buf += b
    return buf


def recv_msg(sock):
    """(type, fields) of the next message; raises EOFError or socket.timeout."""
    magic, _version, mtype, blen = HDR.unpack(recv_exact(sock, HDR.size))
    if magic != MAGIC or blen > BODY_MAX:
        raise ValueError("bad header magic 0x%08x length %d" % (magic, blen))
    return mtype, decode_body(mtype, recv_exact(sock, blen))


def setup_fields(test="TCP_RR", duration_ms=10000, req=1, rsp=1, flows=1,
                 threads=1, **extra):
    f = dict(test=TESTS[test], duration_ms=duration_ms, req_size=req, rsp_size=rsp,
             flows=flows, threads=threads, rr_timeout_ms=200)
    f.update(extra)
    return f


def control_session(host, port, timeout=5.0, src=None, **setup):
    """Open a control connection, send SETUP, return (socket, type, fields)
    of the answer (SETUP_OK with the cookie, or ERROR)."""
    s = socket.create_connection((host, port), timeout=timeout,
                                 source_address=(src, 0) if src else None)
    s.sendall(encode(SETUP, **setup_fields(**setup)))
    mtype, f = recv_msg(s)
    return s, mtype, f


def text(fields, name="text"):
    v = fields.get(name, b"")
    return v.decode("latin-1") if isinstance(v, bytes) else str(v)


def wait_closed(sock, limit):
    """Seconds until the peer closes sock (EOF or reset), or None after limit."""
    t0 = time.monotonic()
    sock.settimeout(0.2)
    while time.monotonic() - t0 < limit:
        try:
            if not sock.recv(4096):
                return time.monotonic() - t0
        except socket.timeout:
            continue
        except OSError:
            return time.monotonic() - t0
    return None
