#!/usr/bin/env python3
"""Regenerates the bundled assets (run by `make assets`, not by the build):

* assets/fonts/*.ttf: IPAex Gothic (UI) and IPAex Mincho (piece faces) from
  Debian's fonts-ipaexfont, subset to the characters the game can show
  (Gothic: every character in src/ and levels/, plus ASCII, digits and
  every kana for typed names; Mincho: the characters of the string and
  char literals of the files koma letters come from, KOMA_SOURCES) with pyftsubset's default layout features (the
  Japanese alternates the game never asks for would double the files),
  so the web build stays small.
* assets/sounds/effects.ogg and effects.ron: short synthesised sound
  effects (no downloads), one after another in one file with the time
  each one starts and ends: every Ogg Vorbis file carries its codebooks
  before its first sound, larger than a short effect's own data, which
  separate files would each repeat in the web page's download
  (docs/web.md, "Sizes").

Needs: fonts-ipaexfont, vorbis-tools (oggenc), and pip's fonttools.
"""
import math, os, pathlib, random, struct, subprocess, sys, tempfile, wave

ROOT = pathlib.Path(__file__).resolve().parent.parent
RATE = 22050


def used_characters():
    chars = set(chr(c) for c in range(0x20, 0x7F))
    chars |= set("０１２３４５６７８９×→←↑↓・…「」『』（）、。！？ー〜：％")
    # Every kana, for the names players type.
    chars |= set(chr(c) for c in range(0x3041, 0x3097))
    chars |= set(chr(c) for c in range(0x30A1, 0x30FD))
    for folder in ("src", "levels"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".rs", ".ron"):
                chars |= set(path.read_text(encoding="utf-8"))
    return "".join(sorted(c for c in chars if c.isprintable()))


# Where the letters written on koma come from (piece names, one-kanji sets,
# まわり将棋's ranks, the games' own glyphs): the Mincho subset needs only
# these. tests/rules/assets.rs reads the same list.
KOMA_SOURCES = ("src/games/**/*.rs", "src/rules/chu/pieces.rs", "src/rules/mawari/*.rs",
                "src/rules/hasami.rs", "src/rules/foxgeese.rs", "src/rules/musashi/*.rs")


def literal_characters(text):
    """The characters of a Rust file's string and char literals: what it can
    draw (its comments are never drawn). A plain string to its closing quote
    (an escape's character kept), a raw string (r"…", r#"…"#) to its end, a
    char literal with or without an escape; a lifetime is not a literal.
    tests/rules/assets.rs reads the same way."""
    chars, i, n = set(), 0, len(text)
    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i)
            i = n if end < 0 else end + 2
        elif text[i] == "r" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) \
                and text[i + 1:i + 2] in ('"', "#"):
            hashes = len(text[i + 1:]) - len(text[i + 1:].lstrip("#"))
            if text[i + 1 + hashes:i + 2 + hashes] != '"':
                i += 1
                continue
            start = i + 2 + hashes
            end = text.find('"' + "#" * hashes, start)
            end = n if end < 0 else end
            chars |= set(text[start:end])
            i = end + 1 + hashes
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                if text[j] == "\\":
                    j += 1
                if j < n:
                    chars.add(text[j])
                j += 1
            i = j + 1
        elif text[i] == "'" and text[i + 1:i + 2] == "\\":
            end = text.find("'", i + 3)
            end = n if end < 0 else end
            chars.add(text[i + 2])
            i = end + 1
        elif text[i] == "'" and i + 2 < n and text[i + 2] == "'":
            chars.add(text[i + 1])
            i += 3
        else:
            i += 1
    return chars


def koma_characters():
    chars = set(chr(c) for c in range(0x20, 0x7F))
    for pattern in KOMA_SOURCES:
        for path in ROOT.glob(pattern):
            chars |= literal_characters(path.read_text(encoding="utf-8"))
    return "".join(sorted(c for c in chars if c.isprintable()))


def subset_fonts():
    out = ROOT / "assets" / "fonts"
    out.mkdir(parents=True, exist_ok=True)
    for src, dst, text in (
        ("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf", "ipaexg-subset.ttf", used_characters()),
        ("/usr/share/fonts/opentype/ipaexfont-mincho/ipaexm.ttf", "ipaexm-subset.ttf", koma_characters()),
    ):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
            f.write(text)
        subprocess.run(
            ["pyftsubset", src, f"--text-file={f.name}", f"--output-file={out / dst}",
             "--no-hinting"],
            check=True,
        )
        os.unlink(f.name)
        print(f"{dst}: {len(text)} characters")


def envelope(i, n, attack=0.005, release=0.6):
    t = i / RATE
    a = min(1.0, t / attack) if attack > 0 else 1.0
    r = max(0.0, 1.0 - (i / n)) ** (1.0 / max(release, 0.01))
    return a * r


def tone(freqs, dur, volume=0.5, noise=0.0, decay=3.0, seed=1):
    rnd = random.Random(seed)
    n = int(dur * RATE)
    out = []
    for i in range(n):
        t = i / RATE
        v = sum(math.sin(2 * math.pi * f * t) for f in freqs) / max(1, len(freqs))
        v = v * (1 - noise) + (rnd.random() * 2 - 1) * noise
        out.append(volume * v * math.exp(-decay * t) * min(1.0, t / 0.004))
    return out


def concat(*parts, gap=0.0):
    out = []
    for p in parts:
        out += p + [0.0] * int(gap * RATE)
    return out


def write_ogg(path, samples):
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(suffix=".wav", delete=False) as f:
        wav = f.name
    with wave.open(wav, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", int(max(-1, min(1, s)) * 32000)) for s in samples))
    subprocess.run(["oggenc", "-Q", "-q", "1", "-o", str(path), wav], check=True)
    os.unlink(wav)


# Silence between two sounds of the sheet, so that the encoder's blocks
# never carry the end of one into the start of the next.
SHEET_GAP = 0.08


def make_sounds():
    """Writes every sound into one sheet, in the order of the cue table's
    fields (src/shell/audio.rs reads the table)."""
    sounds = [
        # A wooden "pachi": a short noisy click with a low body.
        ("place", tone([180, 420], 0.12, 0.8, noise=0.55, decay=40)),
        ("koma", koma()),
        ("capture", concat(tone([180, 420], 0.1, 0.8, noise=0.5, decay=40), tone([660, 990], 0.35, 0.35, decay=8), gap=0.02)),
        ("illegal", tone([140, 147], 0.25, 0.4, decay=10)),
        ("win", concat(*(tone([f, f * 1.5], 0.22, 0.35, decay=5) for f in (523, 659, 784, 1047)), gap=0.0)),
        ("lose", concat(*(tone([f], 0.3, 0.3, decay=4) for f in (392, 349, 311, 262)), gap=0.0)),
        ("button", tone([880], 0.06, 0.25, decay=50)),
        ("throw", clatter()),
    ] + clacks()
    sheet = [0.0] * int(SHEET_GAP * RATE)
    cues = {}
    for name, samples in sounds:
        start = len(sheet)
        sheet += samples
        cues[name] = (start / RATE, len(sheet) / RATE)
        sheet += [0.0] * int(SHEET_GAP * RATE)
    write_ogg(ROOT / "assets" / "sounds" / "effects.ogg", sheet)

    def cue(name):
        start, end = cues[name]
        return f"({start:.5f}, {end:.5f})"

    singles = [n for n, _ in sounds if not n.startswith("clack_")]
    lines = ["// Where each sound of effects.ogg starts and ends, in seconds.",
             "// Written by tools/make_assets.py with the sheet; do not edit.",
             "SoundSheet("]
    lines += [f"    {n}: {cue(n)}," for n in singles]
    for group in ("clack_board", "clack_koma"):
        names = [n for n, _ in sounds if n.startswith(group)]
        lines.append(f"    {group}: [{', '.join(cue(n) for n in names)}],")
    lines.append(")")
    (ROOT / "assets" / "sounds" / "effects.ron").write_text("\n".join(lines) + "\n")
    print(f"sounds written: {len(sounds)} in {len(sheet) / RATE:.2f} s")


def clacks():
    # One koma striking the board (a dull wooden knock, three variants so
    # that four koma do not sound like one) or another koma (a higher,
    # harder click, two variants). The game picks one per contact and sets
    # its volume and pitch from the impulse.
    board = [
        (f"clack_board{i}", tone([low, high], 0.09, 0.9, noise=0.5, decay=70, seed=seed))
        for i, (low, high, seed) in enumerate([(210, 470, 11), (240, 530, 12), (190, 430, 13)], start=1)
    ]
    on_koma = [
        (f"clack_koma{i}", tone([low, high], 0.06, 0.7, noise=0.35, decay=95, seed=seed))
        for i, (low, high, seed) in enumerate([(1050, 1620, 21), (1180, 1790, 22)], start=1)
    ]
    return board + on_koma


def koma():
    # The 駒音 of a koma set down on a board: the crisp "pachi" of hard
    # wood on wood. A few milliseconds of bright noise for the strike,
    # then the board's and the koma's ringing modes, each dying away at
    # its own rate (the higher, the sooner), over a dull low body.
    rnd = random.Random(31)
    n = int(0.16 * RATE)
    modes = [(430, 38, 0.35), (1160, 55, 0.55), (1870, 85, 0.4), (2950, 140, 0.3), (4300, 220, 0.18)]
    out = []
    prev = 0.0
    for i in range(n):
        t = i / RATE
        v = sum(a * math.sin(2 * math.pi * f * t) * math.exp(-d * t) for f, d, a in modes)
        # The strike: white noise, high-passed by a one-pole difference.
        white = rnd.random() * 2 - 1
        v += 0.9 * (white - prev) * math.exp(-t / 0.0025)
        prev = white
        out.append(0.48 * v * min(1.0, t / 0.0008))
    return out


def clatter():
    # まわり将棋's throw: four koma clattering on the board, a dozen wooden
    # clicks that come closer together and softer as the koma settle.
    rnd = random.Random(7)
    n = int(0.9 * RATE)
    out = [0.0] * n
    t = 0.02
    loud = 0.9
    while t < 0.8:
        click = tone([rnd.uniform(150, 260), rnd.uniform(380, 520)], 0.06, loud, noise=0.6, decay=60, seed=rnd.randint(1, 999))
        start = int(t * RATE)
        for i, v in enumerate(click):
            if start + i < n:
                out[start + i] += v
        t += rnd.uniform(0.03, 0.11) * (1.0 - t)
        loud *= 0.86
    return [max(-1.0, min(1.0, v)) for v in out]


if __name__ == "__main__":
    what = sys.argv[1:] or ["fonts", "sounds"]
    if "fonts" in what:
        subset_fonts()
    if "sounds" in what:
        make_sounds()
