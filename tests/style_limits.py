#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The size limits the project keeps (docs/ARCHITECTURE.md): no source file
over 600 lines, no function over 60 lines (from its opening brace to its
closing one, both in column 0, as the project's style writes them).
usage: style_limits.py SRCDIR  -- prints each violation, exits 1 if any."""
import os, sys

FILE_MAX, FUNC_MAX = 600, 60
DIRS = ("proto", "common", "client", "server", "lab")


def sources(root):
    yield os.path.join(root, "xperf.c")
    for d in DIRS:
        for dirpath, _, files in os.walk(os.path.join(root, d)):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.join(dirpath, f)


def functions(lines):
    """(name line, length) of every function body in column 0 braces."""
    start = None
    for i, line in enumerate(lines):
        if line.startswith("{") and i and "(" in "".join(lines[max(0, i - 3):i]):
            start = i
        elif line.startswith("}") and start is not None:
            yield start, i - start - 1
            start = None


def check(root):
    bad = []
    for path in sources(root):
        if not os.path.exists(path):
            continue
        lines = open(path, encoding="utf-8").read().split("\n")
        rel = os.path.relpath(path, root)
        if len(lines) - 1 > FILE_MAX:
            bad.append("%s: %d lines (at most %d)" % (rel, len(lines) - 1, FILE_MAX))
        for start, n in functions(lines):
            if n > FUNC_MAX:
                head = lines[start - 1].strip() or lines[start - 2].strip()
                bad.append("%s:%d: function of %d lines (at most %d): %s"
                           % (rel, start + 1, n, FUNC_MAX, head))
    return bad


if __name__ == "__main__":
    problems = check(sys.argv[1] if len(sys.argv) > 1 else ".")
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)
