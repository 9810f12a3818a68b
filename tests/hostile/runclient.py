#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Run a client command with a time limit and say how it went, as JSON:
exit status (null if killed at the limit), seconds until it exited, seconds
until a line of its stdout contained --start (the "start" event of
--json-stream: the test began), and the last line of its stderr.

  runclient.py [--limit S] [--start TEXT] [--out F] [--err F] -- CMD...
"""
import argparse
import json
import os
import subprocess
import sys
import threading
import time


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--limit", type=float, default=20)
    p.add_argument("--start", default='"event":"start"')
    p.add_argument("--out", default=os.devnull)
    p.add_argument("--err", default=os.devnull)
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    a = p.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    t0 = time.monotonic()
    res = {"exit": None, "elapsed": None, "start": None, "killed": False}
    with open(a.out, "wb") as out, open(a.err, "wb") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err)

        def pump():
            for line in proc.stdout:
                if res["start"] is None and a.start.encode() in line:
                    res["start"] = round(time.monotonic() - t0, 3)
                out.write(line)
                out.flush()

        th = threading.Thread(target=pump, daemon=True)
        th.start()
        try:
            res["exit"] = proc.wait(timeout=a.limit)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            res["killed"] = True
        res["elapsed"] = round(time.monotonic() - t0, 3)
        th.join(2)
    with open(a.err, "rb") as err:
        lines = [x for x in err.read().decode("latin-1").splitlines() if x.strip()]
    res["stderr"] = lines[-1] if lines else ""
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
