#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Count a log stream without storing it: reads stdin to its end, keeps the
first 200 lines in FILE, and rewrites FILE.count with {"bytes": B, "lines":
L} every 0.1 s (and at the end), so a runaway log (hundreds of MB a
second) can be measured over a time window without filling the disk.

  CMD 2>&1 | logcount.py FILE
"""
import json
import os
import sys
import time


def main():
    path = sys.argv[1]
    n_bytes = n_lines = kept = 0
    last = 0.0
    src = sys.stdin.buffer.raw
    with open(path, "wb") as keep:
        while True:
            b = src.read(1 << 16)
            if b:
                n_bytes += len(b)
                n_lines += b.count(b"\n")
                if kept < 200:
                    keep.write(b)
                    keep.flush()
                    kept += b.count(b"\n")
            now = time.monotonic()
            if not b or now - last > 0.1:
                tmp = path + ".count.tmp"
                with open(tmp, "w") as f:
                    json.dump({"bytes": n_bytes, "lines": n_lines}, f)
                os.replace(tmp, path + ".count")
                last = now
            if not b:
                return 0


if __name__ == "__main__":
    sys.exit(main())
