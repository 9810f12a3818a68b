#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Check an xperf chart: the SVG and the PNG a browser made of it.

usage: plot_check.py FILE.svg FILE.png SERIES

A document may stack several charts as nested <svg> panels (xperf
--plot for RR tests): each panel is checked on its own, SERIES counts
them all.

The SVG must parse as XML (xml.etree), be self-contained (no script, no
href, no @font-face or @import), have width, height and a matching
viewBox, and hold exactly SERIES elements with class "series".

The PNG (read here with zlib alone: 8-bit RGB or RGBA, not interlaced)
must have the SVG's size, must not be blank, and inside the plot area
(the rect with class "plot-area") the colours of xperf's palette that
cover at least MIN_PIXELS pixels must be exactly the colours of the
series: one colour per series, none missing, none extra.

Prints one line of counts; exits 1 with the reason on failure.
Standard library only."""

import struct
import sys
import xml.etree.ElementTree as ET
import zlib

SVG_NS = "{http://www.w3.org/2000/svg}"
# client/plot/plot.c: Okabe & Ito's palette, and black for the bold sum
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
           "#F0E442", "#000000"]
MIN_PIXELS = 20


def fail(msg):
    print("plot_check: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def unfilter(raw, width, height, bpp):
    """Undo the per-row PNG filters; returns the rows as bytearrays."""
    stride = width * bpp
    rows, prev, pos = [], bytearray(stride), 0
    for _ in range(height):
        ftype = raw[pos]
        line = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xff
        elif ftype == 2:
            line = bytearray((x + y) & 0xff for x, y in zip(line, prev))
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xff
        elif ftype == 4:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                up_left = prev[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + paeth(left, prev[i], up_left)) & 0xff
        elif ftype != 0:
            fail("PNG: unknown filter type %d" % ftype)
        rows.append(line)
        prev = line
    return rows


def read_png(path):
    """(width, height, bytes per pixel, rows) of an 8-bit RGB/RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("%s is not a PNG" % path)
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if ctype == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif ctype == b"IDAT":
            idat.append(body)
        elif ctype == b"IEND":
            break
    if not hdr:
        fail("%s: no IHDR" % path)
    width, height, depth, color, _, _, interlace = hdr
    if depth != 8 or color not in (2, 6) or interlace:
        fail("%s: depth %d colour type %d interlace %d: only 8-bit RGB/RGBA "
             "without interlace is read here" % (path, depth, color, interlace))
    bpp = 3 if color == 2 else 4
    rows = unfilter(zlib.decompress(b"".join(idat)), width, height, bpp)
    return width, height, bpp, rows


def series_color(el):
    fill = el.get("fill")
    color = el.get("stroke") if fill in (None, "none") else fill
    return (color or "").upper()


def panels_of(root):
    """[(y offset, element)]: the nested <svg> panels of a document that
    stacks several charts, or the root itself for a single chart."""
    nested = [el for el in root if el.tag == SVG_NS + "svg"]
    if not nested:
        return [(0.0, root)]
    return [(float(el.get("y", "0")), el) for el in nested]


def check_svg(path, want):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        fail("%s is not well-formed XML: %s" % (path, e))
    text = open(path, encoding="utf-8").read()
    for bad in ("<script", "href", "@font-face", "@import", "url(http", "url(file"):
        if bad in text:
            fail("%s is not self-contained: contains %r" % (path, bad))
    if root.tag != SVG_NS + "svg":
        fail("%s: root element is %s" % (path, root.tag))
    w, h = int(root.get("width")), int(root.get("height"))
    if root.get("viewBox") != "0 0 %d %d" % (w, h):
        fail("%s: viewBox %s for %dx%d" % (path, root.get("viewBox"), w, h))
    series = [el for el in root.iter() if "series" in el.get("class", "").split()]
    if len(series) != want:
        fail("%s: %d series elements, want %d" % (path, len(series), want))
    panels = []
    for dy, el in panels_of(root):
        areas = [a for a in el.iter() if a.get("class") == "plot-area"]
        if len(areas) != 1:
            fail("%s: %d plot-area rects in a panel" % (path, len(areas)))
        x, y, aw, ah = (float(areas[0].get(k)) for k in ("x", "y", "width", "height"))
        colors = [series_color(s) for s in el.iter()
                  if "series" in s.get("class", "").split()]
        panels.append(((x, y + dy, aw, ah), colors))
    return w, h, panels


def count_colors(rows, bpp, box):
    """Pixels per exact colour "#RRGGBB" inside box (x0, y0, x1, y1)."""
    counts = {}
    x0, y0, x1, y1 = box
    for y in range(y0, y1):
        row = rows[y]
        for x in range(x0, x1):
            i = x * bpp
            key = "#%02X%02X%02X" % (row[i], row[i + 1], row[i + 2])
            counts[key] = counts.get(key, 0) + 1
    return counts


def main():
    if len(sys.argv) != 4:
        fail("usage: plot_check.py FILE.svg FILE.png SERIES")
    svg, png, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
    w, h, panels = check_svg(svg, want)
    pw, ph, bpp, rows = read_png(png)
    if (pw, ph) != (w, h):
        fail("%s is %dx%d, the SVG %dx%d" % (png, pw, ph, w, h))
    everything = count_colors(rows, bpp, (0, 0, pw, ph))
    white = everything.get("#FFFFFF", 0)
    if pw * ph - white < pw * ph // 100 or len(everything) < 10:
        fail("%s looks blank: %d non-white pixels, %d colours"
             % (png, pw * ph - white, len(everything)))
    report = []
    for area, colors in panels:
        # inside the frame, 2 pixels in from its stroke
        box = (int(area[0]) + 2, int(area[1]) + 2,
               int(area[0] + area[2]) - 2, int(area[1] + area[3]) - 2)
        inside = count_colors(rows, bpp, box)
        seen = {c for c in PALETTE if inside.get(c, 0) >= MIN_PIXELS}
        expected = set(colors)
        if len(expected) != len(colors):
            fail("%s: %d series share %d colours" % (svg, len(colors), len(expected)))
        if seen != expected:
            fail("%s: palette colours in the plot area %s, series colours %s (pixels: %s)"
                 % (png, sorted(seen), sorted(expected),
                    {c: inside.get(c, 0) for c in PALETTE}))
        report.append(" ".join("%s=%d" % (c, inside[c]) for c in sorted(seen)))
    print("plot_check: %s: %d series in %d panel(s), colours %s, %d non-white pixels of %d"
          % (svg.rsplit("/", 1)[-1], want, len(panels), " | ".join(report),
             pw * ph - white, pw * ph))


if __name__ == "__main__":
    main()
