#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Check a merged RR result against one histogram of every sample, built
here by a decoder of xperf's lossless histogram text written from its
description (common/hist_codec.h), not from its code.

usage: hist_decode.py FLEET.json
FLEET.json is the --json of `xperf --from ...` or of `-c A,B,...`: its
hosts[].end.rr.histogram are decoded, their buckets added, and the
percentiles computed the way xperf(1) defines them (the midpoint of the
bucket holding the ceil(p/100 x count)-th smallest time, clamped between
min and max) must equal end.rr.latency_us.  Standard library only."""
import base64
import json
import math
import sys

SUB_BITS = 7
SUB = 1 << SUB_BITS
NBUCKETS = (64 - SUB_BITS + 1) << SUB_BITS


def fail(msg):
    print("hist_decode: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def varints(data):
    out, v, shift = [], 0, 0
    for b in data:
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            out.append(v)
            v, shift = 0, 0
    return out


def decode(text):
    """(count, min, max, {bucket index: count}) of one histogram."""
    head, _, payload = text.rpartition(":")
    if head != "xph1:%d:ns" % SUB_BITS:
        fail("not a version-1 ns histogram: %r" % head)
    raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    body, fnv = raw[:-4], int.from_bytes(raw[-4:], "big")
    h = 0x811C9DC5
    for b in body:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    if h != fnv:
        fail("hash mismatch")
    v = varints(body)
    count = v[0]
    if not count:
        return 0, 0, 0, {}
    lo, hi = v[1], v[1] + v[2]
    n, rest, idx, buckets = v[8], v[9:], -1, {}
    for k in range(n):
        idx += rest[2 * k] + 1
        buckets[idx] = rest[2 * k + 1]
    if sum(buckets.values()) != count:
        fail("bucket counts do not add up")
    return count, lo, hi, buckets


def bucket_low(i):
    if i < SUB:
        return i
    shift = (i >> SUB_BITS) - 1
    return ((i & (SUB - 1)) | SUB) << shift


def bucket_high(i):
    if i < 2 * SUB:
        return i
    shift = (i >> SUB_BITS) - 1
    return bucket_low(i) + (1 << shift) - 1


def percentile(count, lo, hi, buckets, p):
    rank = max(1, math.ceil(p * count / 100))
    seen = 0
    for i in sorted(buckets):
        seen += buckets[i]
        if seen >= rank:
            mid = bucket_low(i) + (bucket_high(i) - bucket_low(i)) / 2
            return min(max(mid, lo), hi)
    return hi


def main():
    d = json.load(open(sys.argv[1]))
    total, lo, hi, all_b = 0, None, 0, {}
    for host in d["hosts"]:
        if not host["ok"]:
            continue
        c, l, h, b = decode(host["end"]["rr"]["histogram"])
        total += c
        lo = l if lo is None else min(lo, l)
        hi = max(hi, h)
        for i, n in b.items():
            all_b[i] = all_b.get(i, 0) + n
    lat = d["end"]["rr"]["latency_us"]
    if d["end"]["rr"]["transactions"] != total:
        fail("merged transactions %d, samples %d" % (d["end"]["rr"]["transactions"], total))
    for p, key in ((50, "p50"), (90, "p90"), (99, "p99"), (99.9, "p99_9")):
        want = percentile(total, lo, hi, all_b, p) / 1e3
        if abs(lat[key] - want) > 1e-9 * max(1, want):
            fail("%s: merged %.6f us, one histogram of all %d samples %.6f us"
                 % (key, lat[key], total, want))
    if abs(lat["min"] - lo / 1e3) > 1e-9 or abs(lat["max"] - hi / 1e3) > 1e-9:
        fail("min/max differ")
    print("hist_decode: %d samples from %d hosts: P50 %.2f P99 %.2f P99.9 %.2f us, "
          "as one histogram of all of them" % (total, len(d["hosts"]), lat["p50"],
                                               lat["p99"], lat["p99_9"]))


if __name__ == "__main__":
    main()
