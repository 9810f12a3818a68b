#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The shape of iperf3's text output, for comparing xperf's iperf3 front
end with a stock iperf3 (tests/iperf3_compat.sh): every line kept, in
order and at its width, with what changes from run to run replaced:
numbers (with the spaces that pad them) by '#' of the same width, unit
prefixes (KBytes, Gbits) by 'U', ports, cookies, dates, loss counts and
percentages by placeholders.

  iperf3_shape.py FILE              print FILE's shape
  iperf3_shape.py A B               compare: exit 1 and show the first
                                    lines that differ
  --timestamps                      strip --timestamps' dates first
  --drop-short                      leave out a server's tail interval
                                    (lines under 0.1 s, or starting where
                                    the test ended)
  iperf3_shape.py --json A B        compare the key paths and types of
                                    two JSON documents (numbers are one
                                    type); B may have keys listed by
                                    --extra PATH,...
"""
import json
import re
import sys

SUBS = [
    (re.compile(r'^.*?(?=(\[|Connecting|Reverse|Server|Accepted|iperf|-{20}|- - |Test|CPU|snd_|rcv_|Time|Control|Linux|Starting|      ))'), ''),
    (re.compile(r'[a-z2-7]{36}'), 'COOKIE'),
    (re.compile(r'Time: .*'), 'Time: T'),
    (re.compile(r'port \d+'), 'port P'),
    (re.compile(r'MSS \d+'), 'MSS M'),
    (re.compile(r'\d+/\d+ \([0-9.e+-]+%\)'), 'L/T (P%)'),
    (re.compile(r'[KMGT]?(Bytes|bits)'), r'U\1'),
    (re.compile(r' *-?\d+(\.\d+)?'), lambda m: '#' * len(m.group(0))),
]


INTERVAL = re.compile(r'(\d+\.\d+)-(\d+\.\d+) +sec')


def summary_end(lines):
    ends = [float(m.group(2)) for m in map(INTERVAL.search, lines)
            if m and ('sender' in m.string or 'receiver' in m.string)]
    return max(ends) if ends else None


def tail(line, end):
    """An interval line a server may or may not show, depending on when
    TEST_END came: under 0.1 s, or starting where the test ended."""
    m = INTERVAL.search(line)
    if not m or 'sender' in line or 'receiver' in line:
        return False
    start, stop = float(m.group(1)), float(m.group(2))
    return stop - start < 0.1 or (end is not None and start >= end - 0.005)


def drop_tails(lines):
    end = summary_end(lines)
    kept = [l for l in lines if not tail(l, end)]
    # a block of interval lines gone leaves its separator behind
    return [l for i, l in enumerate(kept)
            if not (l.startswith('- - -') and i + 1 < len(kept) and
                    kept[i + 1].startswith('- - -'))]


NUMBER = re.compile(r' *-?\d+(\.\d+)?')


def shape(text, strip_ts=False, drop_short=False, digits=None):
    """The lines' shapes; digits (a list) gets, per line, the lengths of
    its numbers (without their padding)."""
    out = []
    lines = text.splitlines()
    if drop_short:
        lines = drop_tails(lines)
    for line in lines:
        if line.startswith('Linux ') or line.startswith('Optional features'):
            line = 'SYSTEM'
        for i, (rx, rep) in enumerate(SUBS[:-1]):
            if i == 0 and not strip_ts:
                continue
            line = rx.sub(rep, line)
        if digits is not None:
            digits.append([len(m.group(0).strip()) for m in NUMBER.finditer(line)])
        out.append(SUBS[-1][0].sub(SUBS[-1][1], line))
    return out


def same_line(la, lb, da, db):
    """Equal shapes; or a line whose numbers, one wider than its field
    (4 retransmit digits, a rate above 9999 in -f m), moved the columns
    after it: equal once each number is one '#', and the numbers' sizes
    differ."""
    if la == lb:
        return True
    loose = lambda s: re.sub('#+', '#', s)
    return loose(la) == loose(lb) and da != db


def keys(d, p=''):
    if isinstance(d, dict):
        for k, v in d.items():
            yield from keys(v, p + '.' + k)
    elif isinstance(d, list):
        for v in d:
            yield from keys(v, p + '[]')
    else:
        t = 'number' if isinstance(d, (int, float)) and not isinstance(d, bool) \
            else type(d).__name__
        yield p + ':' + t


def compare_json(a, b, extra):
    ka = set(keys(json.load(open(a))))
    kb = set(keys(json.load(open(b))))
    kb = {k for k in kb if not any(k.startswith(e) for e in extra)}
    missing, more = sorted(ka - kb), sorted(kb - ka)
    for k in missing:
        print('only in %s: %s' % (a, k))
    for k in more:
        print('only in %s: %s' % (b, k))
    return 1 if missing or more else 0


def main(argv):
    strip_ts = '--timestamps' in argv
    drop = '--drop-short' in argv
    argv = [a for a in argv if a not in ('--timestamps', '--drop-short')]
    if argv and argv[0] == '--json':
        extra = []
        if len(argv) > 4 and argv[3] == '--extra':
            extra = argv[4].split(',')
        return compare_json(argv[1], argv[2], extra)
    if len(argv) == 1:
        print('\n'.join(shape(open(argv[0]).read(), strip_ts, drop)))
        return 0
    da, db = [], []
    a = shape(open(argv[0]).read(), strip_ts, drop, da)
    b = shape(open(argv[1]).read(), strip_ts, drop, db)
    for i in range(max(len(a), len(b))):
        la = a[i] if i < len(a) else '<none>'
        lb = b[i] if i < len(b) else '<none>'
        if i >= len(a) or i >= len(b) or not same_line(la, lb, da[i], db[i]):
            print('line %d differs:\n  %s: %r\n  %s: %r' % (i + 1, argv[0], la, argv[1], lb))
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
