#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The tree against docs/ARCHITECTURE.md: its rooms table says which
folders are rooms, which rooms each may include from ("needs") and which
headers are a room's way in.  Checked here, from the code:

  1. every source file sits in a room the table lists, and every room
     listed exists;
  2. every #include "..." that leaves its room goes to a room it needs,
     and to a header that room lists as a way in;
  3. the rooms' needs have no circle;
  4. no circle between files: no two headers include each other (through
     others), and, from the object files' symbols (nm), no .c file calls
     into one that calls back into it.

usage: layout.py SRCDIR [BUILDDIR]  (without BUILDDIR, or without its
object files, step 4's symbol part is skipped and said so)
Exit 0 clean, 1 with each violation printed, 2 when the table is unreadable.
"""
import collections
import os
import re
import subprocess
import sys

SRC_EXT = (".c", ".h", ".def")
SKIP_DIRS = ("tests", "m4", "build-aux", "deploy", "docs", "man", "autom4te.cache")


def parse_rooms(doc):
    """{room: (needs set, way-in set)} from the rooms table."""
    rooms = {}
    text = open(doc, encoding="utf-8").read()
    m = re.search(r"^## The rooms\n(.*?)(?=^## )", text, re.S | re.M)
    if not m:
        sys.exit("layout: no '## The rooms' section in " + doc)
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        room = cells[0].strip("`").rstrip("/")
        if room.endswith(SRC_EXT):  # a room of one file: its folder
            room = os.path.dirname(room) or "."
        needs = {os.path.dirname(n) or "." if n.endswith(SRC_EXT) else n
                 for n in re.findall(r"`([^`]+?)/?`", cells[2])}
        wayin = set(re.findall(r"`([^`]+)`", cells[3]))
        rooms[room] = (needs, wayin)
    if not rooms:
        sys.exit("layout: the rooms table in %s has no rows" % doc)
    return rooms


def sources(src):
    for dirpath, dirs, files in os.walk(src):
        rel = os.path.relpath(dirpath, src)
        top = rel.split(os.sep)[0]
        if top.startswith(".") and rel != "." or top in SKIP_DIRS or top.startswith("_"):
            dirs[:] = []
            continue
        for f in files:
            if f.endswith(SRC_EXT) and not f.startswith("config"):
                yield os.path.normpath(os.path.join(rel, f))


def room_of(path):
    d = os.path.dirname(path)
    return d if d else "."


def includes(src, path):
    for line in open(os.path.join(src, path), encoding="utf-8"):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if m:
            yield m.group(1)


def find_cycles(graph):
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def check_rooms(src, rooms, files, bad):
    present = {room_of(f) for f in files}
    for r in sorted(present - set(rooms)):
        bad.append("room %s/ holds sources but docs/ARCHITECTURE.md does not list it" % r)
    for r in sorted(set(rooms) - present):
        bad.append("docs/ARCHITECTURE.md lists room %s/, which holds no source" % r)
    for r, (needs, wayin) in sorted(rooms.items()):
        for n in sorted(needs - set(rooms)):
            bad.append("room %s needs %s, which is not a room" % (r, n))
        for h in sorted(wayin):
            if h != "-" and room_of(h) != r:
                bad.append("room %s lists %s as a way in: not in the room" % (r, h))
            elif h != "-" and not os.path.exists(os.path.join(src, h)):
                bad.append("room %s lists %s as a way in: no such file" % (r, h))
    for comp in find_cycles({r: v[0] for r, v in rooms.items()}):
        bad.append("the rooms' needs go round: " + " -> ".join(comp))


def check_includes(src, rooms, files, bad):
    hdr = collections.defaultdict(set)
    for f in sorted(files):
        mine = room_of(f)
        for inc in includes(src, f):
            if not os.path.exists(os.path.join(src, inc)):
                bad.append("%s includes %s: not a path from the top of the tree" % (f, inc))
                continue
            if f.endswith(".h"):
                hdr[f].add(inc)
            theirs = room_of(inc)
            if theirs == mine or mine not in rooms or theirs not in rooms:
                continue
            if theirs not in rooms[mine][0]:
                bad.append("%s includes %s: room %s does not need %s "
                           "(docs/ARCHITECTURE.md)" % (f, inc, mine, theirs))
            elif rooms[theirs][1] and inc not in rooms[theirs][1]:
                bad.append("%s includes %s: not a way into %s (its way in: %s)"
                           % (f, inc, theirs, ", ".join(sorted(rooms[theirs][1]))))
    for comp in find_cycles(hdr):
        bad.append("headers include each other: " + ", ".join(comp))


def nm_graph(build, files):
    """file -> files whose symbols it uses, from each .c's object file
    (one nm over them all: nm -A names the object on every line)."""
    defs, uses = {}, collections.defaultdict(set)
    objs = {os.path.join(build, f[:-2] + ".o"): f for f in files if f.endswith(".c")}
    objs = {o: f for o, f in objs.items() if os.path.exists(o)}
    if not objs:
        return {}, 0
    out = subprocess.run(["nm", "-A", "-P"] + sorted(objs), capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        obj, _, rest = line.partition(": ")
        p = rest.split()
        if obj not in objs or len(p) < 2:
            continue
        f = objs[obj]
        if p[1] == "U":
            uses[f].add(p[0])
        elif p[1] in "TDBRCVWG":
            defs[p[0]] = f
    graph = {f: {defs[u] for u in us if u in defs and defs[u] != f} for f, us in uses.items()}
    return graph, len(objs)


def check_symbols(build, files, bad):
    csrc = [f for f in files if f.endswith(".c")]
    graph, n = nm_graph(build, csrc)
    if n < len(csrc):
        return "symbol circles not checked: %d of %d object files under %s" % (n, len(csrc), build)
    for comp in find_cycles(graph):
        ties = []
        for a in comp:
            ties += ["%s -> %s" % (a, b) for b in sorted(graph[a]) if b in comp]
        bad.append("files call each other: %s (%s)" % (", ".join(comp), "; ".join(ties)))
    return "symbols of %d object files: no circle" % n if not bad else None


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    src = sys.argv[1]
    build = sys.argv[2] if len(sys.argv) > 2 else None
    rooms = parse_rooms(os.path.join(src, "docs", "ARCHITECTURE.md"))
    files = sorted(sources(src))
    bad = []
    check_rooms(src, rooms, files, bad)
    check_includes(src, rooms, files, bad)
    note = check_symbols(build, files, bad) if build else "symbol circles not checked: no build folder"
    for b in bad:
        print(b)
    if bad:
        return 1
    print("layout: %d rooms, %d files, includes as docs/ARCHITECTURE.md says; %s"
          % (len(rooms), len(files), note))
    return 0


if __name__ == "__main__":
    sys.exit(main())
