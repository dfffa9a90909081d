#!/usr/bin/env python3
"""Fails unless every chosen option in the pictures reads without its colour.

Usage: check_choices.py PICTURE.png CONTROLS.tsv [PICTURE.png CONTROLS.tsv ...]
       check_choices.py --self-test

Each CONTROLS.tsv is what `yorimichi screenshot <scene> <out.png> --controls
<out.tsv>` lists: every visible button (action, primary, choice or toggle,
whether it is chosen, its group and its box) and every colour key (a
player's colour, with its number). The picture is seen three ways: in
greyscale, and as people with protanopia and deuteranopia see it (Machado,
Oliveira and Fernandes 2009, severity 1, applied in linear RGB). In each:

- a chosen option and an unchosen one of the same group (a toggle that is on
  and one that is off, anywhere in the picture; a primary action and a plain
  one of the same row) must differ by a contrast ratio of at least 3:1, the
  WCAG minimum for what tells a control's state, in the colour of their face
  or of their border (each the most common colour there);
- two colour keys of different colours must differ in their marks' shapes:
  at least 15% of the light pixels of the two marks together light in one
  and dark in the other (a circle against a square of its size: about 20%);
- a game list's cards must form a regular grid: all of one size (within 2
  pixels), each row's tops and each column's lefts in line (of the cards
  in view: one the scrolling screen cuts off shows part of its size).

A picture with nothing to compare fails too: the check would prove nothing.
Pure Python: no PIL."""
import os
import sys
import tempfile
from collections import Counter
from itertools import combinations

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_png import pixels  # noqa: E402

MIN_CONTRAST = 3.0
MIN_SHAPE_SHARE = 0.15
BORDER_PX = 3

PROTAN = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998))
DEUTAN = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881))


def linear(c):
    c /= 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(rgb):
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def clamp(x):
    return min(max(x, 0.0), 1.0)


def seen(rgb, vision):
    """The relative luminance of an sRGB colour as `vision` sees it."""
    lin = tuple(linear(c) for c in rgb)
    if vision == "grey":
        return luminance(lin)
    m = PROTAN if vision == "protan" else DEUTAN
    return luminance(tuple(clamp(sum(m[i][j] * lin[j] for j in range(3))) for i in range(3)))


def contrast(a, b):
    hi, lo = max(a, b), min(a, b)
    return (hi + 0.05) / (lo + 0.05)


VISIONS = ("grey", "protan", "deutan")


class Picture:
    def __init__(self, path):
        self.width, self.height, self.bpp, self.rows = pixels(path)

    def at(self, x, y):
        row, i = self.rows[y], x * self.bpp
        return row[i], row[i + 1], row[i + 2]

    def box(self, left, top, right, bottom):
        left, top = max(0, int(left)), max(0, int(top))
        right, bottom = min(self.width, int(right)), min(self.height, int(bottom))
        return left, top, right, bottom

    def mode(self, points):
        counts = Counter(self.at(x, y) for x, y in points)
        return counts.most_common(1)[0][0] if counts else None

    def face(self, c):
        l, t, r, b = self.box(c["left"] + BORDER_PX + 1, c["top"] + BORDER_PX + 1,
                              c["right"] - BORDER_PX - 1, c["bottom"] - BORDER_PX - 1)
        return self.mode((x, y) for y in range(t, b) for x in range(l, r))

    def ring(self, c):
        l, t, r, b = self.box(c["left"], c["top"], c["right"], c["bottom"])
        # The straight parts of the border, clear of the rounded corners.
        pts = []
        for x in range(l + 10, r - 10):
            pts += [(x, t + 1), (x, b - 2)]
        for y in range(t + 10, b - 10):
            pts += [(l + 1, y), (r - 2, y)]
        return self.mode(pts)

    def mask(self, c, vision):
        l, t, r, b = self.box(c["left"], c["top"], c["right"], c["bottom"])
        return [[seen(self.at(x, y), vision) > 0.5 for x in range(l, r)] for y in range(t, b)]


def read_controls(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    head = lines[0].split("\t")
    out = []
    for line in lines[1:]:
        if not line.strip():
            continue
        row = dict(zip(head, line.split("\t")))
        for k in ("state", "left", "top", "right", "bottom"):
            row[k] = float(row[k])
        out.append(row)
    return out


def differ(pic, a, b):
    """The smallest, over the three visions, of the larger of the face's and
    the border's contrast between controls a and b."""
    worst = None
    colours = [(pic.face(a), pic.face(b)), (pic.ring(a), pic.ring(b))]
    for vision in VISIONS:
        best = 0.0
        for ca, cb in colours:
            if ca is not None and cb is not None:
                best = max(best, contrast(seen(ca, vision), seen(cb, vision)))
        worst = best if worst is None else min(worst, best)
    return worst


def pairs_to_compare(controls):
    """(a, b, why) for each pair that must read apart."""
    pairs = []
    groups = {}
    for c in controls:
        groups.setdefault(c["group"], []).append(c)
    for members in groups.values():
        choices = [c for c in members if c["kind"] == "choice"]
        chosen = [c for c in choices if c["state"]]
        pairs += [(a, b, "a chosen option and an unchosen one") for a in chosen for b in choices if not b["state"]]
        primary = [c for c in members if c["kind"] == "primary"]
        pairs += [(a, b, "the main action and another") for a in primary for b in members if b["kind"] == "action"]
    toggles = [c for c in controls if c["kind"] == "toggle"]
    pairs += [(a, b, "a toggle on and one off") for a in toggles if a["state"] for b in toggles if not b["state"]]
    return pairs


def shape_share(pic, a, b):
    """The smallest, over the visions, share of the two marks' light pixels
    that are light in one patch and dark in the other (the patches laid
    top-left on each other)."""
    worst = 1.0
    for vision in VISIONS:
        ma, mb = pic.mask(a, vision), pic.mask(b, vision)
        h, w = min(len(ma), len(mb)), min(len(ma[0]) if ma else 0, len(mb[0]) if mb else 0)
        if h == 0 or w == 0:
            return 0.0
        diff = sum(ma[y][x] != mb[y][x] for y in range(h) for x in range(w))
        light = sum(ma[y][x] or mb[y][x] for y in range(h) for x in range(w))
        worst = min(worst, diff / light if light else 0.0)
    return worst


def grid_faults(cards):
    """What keeps the cards from a regular grid (nothing: an empty list)."""
    faults = []
    w = [c["right"] - c["left"] for c in cards]
    h = [c["bottom"] - c["top"] for c in cards]
    if max(w) - min(w) > 2 or max(h) - min(h) > 2:
        faults.append(f"cards of different sizes: widths {sorted(set(round(x) for x in w))}, "
                      f"heights {sorted(set(round(x) for x in h))}")

    def lines(values):
        """Values within 2 pixels of each other, as one line."""
        out = []
        for v in sorted(values):
            if not out or v - out[-1] > 2:
                out.append(v)
        return out
    rows = lines(c["top"] for c in cards)
    columns = lines(c["left"] for c in cards if abs(c["top"] - rows[0]) <= 2)
    for c in cards:
        if not any(abs(c["left"] - x) <= 2 for x in columns):
            faults.append(f"a card at ({c['left']:.0f},{c['top']:.0f}) stands in no column of the first row")
    if len(columns) * len(rows) < len(cards):
        faults.append(f"{len(cards)} cards in {len(columns)} columns and {len(rows)} rows overlap")
    return faults


def check(png, tsv, out=sys.stdout):
    """The number of failures in one picture."""
    pic, controls = Picture(png), read_controls(tsv)
    failures, compared = 0, 0
    for a, b, why in pairs_to_compare(controls):
        compared += 1
        ratio = differ(pic, a, b)
        if ratio < MIN_CONTRAST:
            failures += 1
            print(f"{png}: {why} differ by only {ratio:.2f}:1 (at least {MIN_CONTRAST}:1) in some vision: "
                  f"{a['kind']} at ({a['left']:.0f},{a['top']:.0f}), {b['kind']} at ({b['left']:.0f},{b['top']:.0f})", file=out)
    keys = [c for c in controls if c["kind"] == "colour"]
    for a, b in combinations(keys, 2):
        if a["state"] == b["state"]:
            continue
        compared += 1
        share = shape_share(pic, a, b)
        if share < MIN_SHAPE_SHARE:
            failures += 1
            print(f"{png}: the marks of colours {a['state']:.0f} and {b['state']:.0f} differ in shape by only "
                  f"{share:.1%} (at least {MIN_SHAPE_SHARE:.0%})", file=out)
    # A card the scrolling screen cuts off shows only part of its size.
    cards = [c for c in controls if c["kind"] == "card" and c.get("clipped", "0") != "1"]
    if len(cards) > 1:
        compared += 1
        for fault in grid_faults(cards):
            failures += 1
            print(f"{png}: the game list is no grid: {fault}", file=out)
    if compared == 0:
        failures += 1
        print(f"{png}: nothing to compare in {tsv}", file=out)
    print(f"{png}: {compared} pairs compared, {failures} failed", file=out)
    return failures


def write_png(path, width, height, colour_at):
    import struct
    import zlib
    raw = b"".join(b"\x00" + bytes(v for x in range(width) for v in colour_at(x, y)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def self_test():
    """Vermilion against brown (the look told by colour alone) must fail;
    a light face against brown must pass; two patches with the same mark
    must fail and two with different marks pass."""
    vermilion, brown, light, white = (199, 69, 46), (76, 56, 38), (252, 242, 219), (255, 255, 255)
    head = "kind\tstate\tgroup\tleft\ttop\tright\tbottom\n"
    results = {}
    with tempfile.TemporaryDirectory() as d:
        for name, chosen in (("colour-only", vermilion), ("light-face", light)):
            png, tsv = os.path.join(d, name + ".png"), os.path.join(d, name + ".tsv")
            write_png(png, 200, 50, lambda x, y, c=chosen: c if x < 100 else brown)
            open(tsv, "w").write(head + "choice\t1\t7\t0\t0\t100\t50\nchoice\t0\t7\t100\t0\t200\t50\n")
            results[name] = check(png, tsv, out=open(os.devnull, "w"))
        for name, second in (("same-mark", "dot"), ("other-mark", "bar")):
            png, tsv = os.path.join(d, name + ".png"), os.path.join(d, name + ".tsv")

            def at(x, y, second=second):
                if x < 40:
                    return white if (x - 20) ** 2 + (y - 20) ** 2 < 64 else (200, 30, 30)
                if second == "dot":
                    return white if (x - 60) ** 2 + (y - 20) ** 2 < 64 else (30, 30, 200)
                return white if 14 < y < 26 else (30, 30, 200)
            write_png(png, 80, 40, at)
            open(tsv, "w").write(head + "colour\t0\t1\t0\t0\t40\t40\ncolour\t1\t2\t40\t0\t80\t40\n")
            results[name] = check(png, tsv, out=open(os.devnull, "w"))
        for name, boxes in (("grid", [(0, 0), (110, 0), (0, 60), (110, 60), (0, 120)]),
                            ("rows", [(0, 0), (110, 0), (20, 60), (60, 120)])):
            png, tsv = os.path.join(d, name + ".png"), os.path.join(d, name + ".tsv")
            write_png(png, 220, 180, lambda x, y: light)
            rows = "".join(f"card\t0\t{i}\t{x}\t{y}\t{x + 100}\t{y + 50}\n" for i, (x, y) in enumerate(boxes))
            open(tsv, "w").write(head + rows)
            results[name] = check(png, tsv, out=open(os.devnull, "w"))
    results = {name: failures > 0 for name, failures in results.items()}
    expected = {"colour-only": True, "light-face": False, "same-mark": True, "other-mark": False,
                "grid": False, "rows": True}
    if results != expected:
        print(f"self-test failed: {results}, expected {expected}")
        return 1
    print("self-test: colour alone, the same mark and cards out of line are caught; "
          "a light face, another mark and a grid pass")
    return 0


def main(args):
    if args == ["--self-test"]:
        return self_test()
    if not args or len(args) % 2:
        print(__doc__.split("\n\n")[1])
        return 2
    failures = 0
    for png, tsv in zip(args[::2], args[1::2]):
        try:
            failures += check(png, tsv)
        except (OSError, ValueError, KeyError, IndexError) as e:
            print(f"{png}: {e}")
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
