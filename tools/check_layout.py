#!/usr/bin/env python3
"""Fails unless every control and text fits its window, readably on a phone.

Usage: check_layout.py [--known KNOWN.txt] CONTROLS.tsv [CONTROLS.tsv ...]
       check_layout.py --write-known KNOWN.txt CONTROLS.tsv [...]
       check_layout.py --self-test

Each CONTROLS.tsv is what `yorimichi screenshot <scene> <out.png> --size
WxH --controls <out.tsv>` lists: the window, every visible button, colour
key, game card and text with its box in the picture's pixels, the pixels
per logical (CSS) pixel, and of its text the font size and the laid-out
width and height in logical pixels. Every size below is in logical pixels.

At every window size:
- no control or text lies outside the window (by more than a pixel);
- no two controls overlap, nor a control and a text, nor two texts, unless
  one holds the other (a card its buttons, a panel's line its words);
- no text is laid out wider than its box (a button's caption than the
  button, a text than its node: words that could not wrap).

On a phone (a window under 500 px on its short side), as Apple's and
Google's guidelines ask:
- every button is at least 44 x 44 px, with at least 8 px between two;
- no text is under 14 px.

With --known, the faults that file lists (by listing, `<scene>@<size>`,
and the fault without its place) are reported as known and pass; any
other fails: the list only shrinks. Pure Python."""
import os
import sys
import tempfile

TOLERANCE = 1.0
PHONE_SHORT_SIDE = 500
MIN_TARGET = 44.0
MIN_GAP = 8.0
MIN_TEXT = 14.0
TARGETS = ("action", "primary", "choice", "toggle")
CONTROLS = TARGETS + ("colour", "card")


def read(path):
    """The window (width, height) and the rows, every box in logical px."""
    lines = open(path, encoding="utf-8").read().splitlines()
    head = lines[0].split("\t")
    window, rows = None, []
    for line in lines[1:]:
        if not line.strip():
            continue
        row = dict(zip(head, line.split("\t")))
        scale = float(row.get("scale") or 1.0)
        for k in ("left", "top", "right", "bottom"):
            row[k] = float(row[k]) / scale
        for k in ("font", "text_w", "text_h", "clipped"):
            row[k] = float(row.get(k) or 0.0)
        row.setdefault("label", "")
        if row["kind"] == "window":
            window = (row["right"], row["bottom"])
        else:
            rows.append(row)
    if window is None:
        raise ValueError(f"{path}: no window line (list it with `screenshot --size … --controls`)")
    return window, rows


def what(r):
    """A control or text by its kind and words (no place: the key of a
    known fault, which survives a move)."""
    words = r["label"].strip()
    return f"{r['kind']} 「{words[:24]}」" if words else r["kind"]


def name(r):
    return f"{what(r)} at ({r['left']:.0f},{r['top']:.0f})-({r['right']:.0f},{r['bottom']:.0f})"


def inside(a, b):
    """Box a lies within box b."""
    t = TOLERANCE
    return (a["left"] >= b["left"] - t and a["top"] >= b["top"] - t
            and a["right"] <= b["right"] + t and a["bottom"] <= b["bottom"] + t)


def overlap(a, b):
    return (min(a["right"], b["right"]) - max(a["left"], b["left"]) > TOLERANCE
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > TOLERANCE)


def gap(a, b):
    """The clear space between two boxes that do not overlap."""
    dx = max(0.0, b["left"] - a["right"], a["left"] - b["right"])
    dy = max(0.0, b["top"] - a["bottom"], a["top"] - b["bottom"])
    return max(dx, dy)


def faults(window, rows):
    width, height = window
    phone = min(width, height) < PHONE_SHORT_SIDE
    out = []
    t = TOLERANCE
    for r in rows:
        if r["left"] < -t or r["top"] < -t or r["right"] > width + t or r["bottom"] > height + t:
            out.append((f"outside: {what(r)}", f"{name(r)} lies outside the {width:.0f}x{height:.0f} window"))
        box_w, box_h = r["right"] - r["left"], r["bottom"] - r["top"]
        # What a scrolling list hides of a text is not its overflow.
        if not r["clipped"] and r["font"] > 0 and r["text_w"] > box_w + t:
            out.append((f"wide text: {what(r)}", f"{name(r)}: its text is {r['text_w']:.0f} px wide in a box of {box_w:.0f}"))
        if phone and r["font"] > 0 and r["font"] < MIN_TEXT - 0.05:
            out.append((f"small text: {what(r)}", f"{name(r)}: text of {r['font']:.1f} px on a phone (at least {MIN_TEXT:.0f})"))
        if phone and r["kind"] in TARGETS and not r["clipped"] and (box_w < MIN_TARGET - t or box_h < MIN_TARGET - t):
            out.append((f"small target: {what(r)}", f"{name(r)}: a touch target of {box_w:.0f}x{box_h:.0f} px on a phone "
                        f"(at least {MIN_TARGET:.0f}x{MIN_TARGET:.0f})"))
    boxes = [r for r in rows if r["kind"] in CONTROLS or r["kind"] == "text"]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if inside(a, b) or inside(b, a):
                continue
            pair = " / ".join(sorted((what(a), what(b))))
            if overlap(a, b):
                out.append((f"overlap: {pair}", f"{name(a)} and {name(b)} overlap"))
            elif phone and a["kind"] in TARGETS and b["kind"] in TARGETS and gap(a, b) < MIN_GAP - t:
                out.append((f"close: {pair}", f"{name(a)} and {name(b)} are {gap(a, b):.0f} px apart on a phone "
                            f"(at least {MIN_GAP:.0f})"))
    return out


def listing_name(path):
    """A listing's name, its file's without the folder and .tsv
    (`<scene>@<size>`): what the known faults are filed under."""
    return os.path.basename(path)[:-4] if path.endswith(".tsv") else os.path.basename(path)


def check(path, out=sys.stdout, known=None, seen=None):
    """The number of faults in one listing, less those `known` lists (a
    set of (listing, key)); each known one found is added to `seen`."""
    window, rows = read(path)
    found = faults(window, rows)
    if not rows:
        found.append(("nothing listed", "nothing listed"))
    failures = 0
    for key, message in found:
        entry = (listing_name(path), key)
        if known is not None and entry in known:
            seen.add(entry)
            continue
        failures += 1
        print(f"{path}: {message}", file=out)
    return failures


def read_known(path):
    """The known faults: `<listing>\t<key>` a line, # for comments."""
    known = set()
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line and not line.startswith("#"):
            name, key = line.split("\t", 1)
            known.add((name, key))
    return known


def write_known(path, listings):
    """Files every fault of `listings` as known (to begin a ratchet)."""
    lines = []
    for listing in listings:
        window, rows = read(listing)
        lines += sorted({f"{listing_name(listing)}\t{key}" for key, _ in faults(window, rows)})
    with open(path, "w", encoding="utf-8") as f:
        f.write("# Layout faults known and not yet mended: tools/check_layout.py passes these\n"
                "# and fails on any other. Take a line out once its fault is gone.\n")
        f.write("".join(line + "\n" for line in lines))
    print(f"{path}: {len(lines)} known faults")


HEAD = "kind\tstate\tgroup\tleft\ttop\tright\tbottom\tscale\tclipped\tfont\ttext_w\ttext_h\tlabel\n"


def listing(width, height, rows, scale=1.0):
    """A made-up listing: rows of (kind, left, top, right, bottom, font, text_w)."""
    s = HEAD + f"window\t0\t0\t0\t0\t{width * scale}\t{height * scale}\t{scale}\t0\t0\t0\t0\t\n"
    for i, (kind, l, t, r, b, font, tw) in enumerate(rows):
        s += f"{kind}\t0\t{i}\t{l * scale}\t{t * scale}\t{r * scale}\t{b * scale}\t{scale}\t0\t{font}\t{tw}\t{font * 1.2}\tx\n"
    return s


def self_test():
    """Made-up layouts, each with one fault, must fail; a good one must
    pass; so must fail the real listing of the はさみ将棋 setup with
    離れた人 chosen at 1100x800 before its rules column was fitted."""
    good_phone = [("action", 16, 700, 120, 752, 18, 60), ("action", 136, 700, 240, 752, 18, 60),
                  ("text", 16, 100, 300, 124, 16, 200), ("card", 8, 200, 382, 400, 0, 0),
                  ("primary", 24, 340, 200, 390, 18, 80)]
    cases = {
        "good": (390, 844, good_phone, 3.0, False),
        "good desktop": (1100, 800, [("action", 10, 10, 60, 34, 12, 40), ("action", 62, 10, 112, 34, 12, 40)], 1.0, False),
        "outside": (1100, 800, [("choice", 1000, 100, 1180, 140, 20, 120)], 1.0, True),
        "overlap": (1100, 800, [("action", 10, 10, 200, 50, 20, 100), ("action", 150, 30, 300, 70, 20, 100)], 1.0, True),
        "text over a button": (1100, 800, [("action", 10, 10, 200, 50, 20, 100), ("text", 150, 30, 400, 60, 16, 250)], 1.0, True),
        "wide caption": (1100, 800, [("action", 10, 10, 100, 50, 20, 130)], 1.0, True),
        "small target": (390, 844, [("action", 10, 10, 100, 34, 16, 60)], 3.0, True),
        "tight targets": (844, 390, [("action", 10, 10, 100, 60, 16, 60), ("action", 104, 10, 200, 60, 16, 60)], 2.0, True),
        "small text": (390, 844, [("text", 10, 10, 200, 30, 11, 100)], 3.0, True),
    }
    results, expected = {}, {}
    with tempfile.TemporaryDirectory() as d:
        for label, (w, h, rows, scale, bad) in cases.items():
            path = os.path.join(d, label.replace(" ", "-") + ".tsv")
            open(path, "w", encoding="utf-8").write(listing(w, h, rows, scale))
            results[label] = check(path, out=open(os.devnull, "w")) > 0
            expected[label] = bad
    here = os.path.dirname(os.path.abspath(__file__))
    fixture = os.path.join(here, "..", "tests", "data", "layout", "hasami-room-1100x800.tsv")
    with open(os.devnull, "w") as devnull:
        results["hasami-room fixture"] = check(fixture, out=devnull) > 0
    expected["hasami-room fixture"] = True
    if results != expected:
        wrong = [k for k in results if results[k] != expected[k]]
        print(f"self-test failed on: {', '.join(wrong)}")
        return 1
    print("self-test: a control outside the window, overlaps, a caption wider than its button, "
          "small touch targets and text on a phone, and the clipped hasami-room are caught; good layouts pass")
    return 0


def main(args):
    if args == ["--self-test"]:
        return self_test()
    known, seen = None, set()
    if len(args) >= 2 and args[0] == "--write-known":
        write_known(args[1], args[2:])
        return 0
    if len(args) >= 2 and args[0] == "--known":
        known = read_known(args[1])
        args = args[2:]
    if not args:
        print(__doc__.split("\n\n")[1])
        return 2
    failures = 0
    for path in args:
        try:
            failures += check(path, known=known, seen=seen)
        except (OSError, ValueError, KeyError, IndexError) as e:
            print(f"{path}: {e}")
            failures += 1
    names = {listing_name(p) for p in args}
    gone = sorted(k for k in (known or set()) - seen if k[0] in names)
    for name, key in gone:
        print(f"{name}: mended, take it out of the known faults: {key}")
    print(f"check_layout: {len(args)} listings, {failures} new faults, {len(seen)} known ones")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
