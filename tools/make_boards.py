#!/usr/bin/env python3
"""Writes the point-and-line boards of levels/boards/ from their definitions
in issues 4 and 5 (十六むさし and きつねとがちょう). The RON files are the data
the game loads; this script only saves typing them by hand and documents
where every line comes from. Names: column letter (x = 0 → a) and row
number counted from the bottom (the largest y is row 1)."""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent / "levels" / "boards"


def name(x, y, height):
    return f"{chr(ord('a') + x)}{height - y}"


def write(file, title, comment, points, lines):
    height = max(y for _, y in points) + 1
    out = [f"// {comment}", "BoardSpec(", f'    name: "{title}",', "    shape: Points(", "        points: ["]
    for x, y in points:
        out.append(f'            ("{name(x, y, height)}", {x}, {y}),')
    out.append("        ],")
    out.append("        lines: [")
    for line in lines:
        out.append("            [" + ", ".join(f'"{name(x, y, height)}"' for x, y in line) + "],")
    out += ["        ],", "    ),", ")", ""]
    (ROOT / file).write_text("\n".join(out), encoding="utf-8")


def musashi(with_setchin):
    square = [(x, y) for y in range(5) for x in range(5)]
    lines = []
    for y in range(5):
        row = [(x, y) for x in range(5)]
        if with_setchin and y == 2:
            row += [(5, 2), (6, 2)]  # the middle row runs on into the 雪隠
        lines.append(row)
    lines += [[(x, y) for y in range(5)] for x in range(5)]
    lines.append([(i, i) for i in range(5)])
    lines.append([(i, 4 - i) for i in range(5)])
    # The diamond through the edge midpoints; its two right-hand sides run
    # straight on through the apex (4,2) into the triangle's sides.
    lines.append([(0, 2), (1, 1), (2, 0)])
    lines.append([(0, 2), (1, 3), (2, 4)])
    if with_setchin:
        lines.append([(2, 0), (3, 1), (4, 2), (5, 3), (6, 4)])
        lines.append([(2, 4), (3, 3), (4, 2), (5, 1), (6, 0)])
    else:
        lines.append([(2, 0), (3, 1), (4, 2)])
        lines.append([(2, 4), (3, 3), (4, 2)])
    points = list(square)
    if with_setchin:
        points += [(5, 1), (5, 2), (5, 3)] + [(6, y) for y in range(5)]
        lines.append([(5, 1), (5, 2), (5, 3)])
        lines.append([(6, y) for y in range(5)])
        # Two-point segments: nothing can be sandwiched along them.
        lines += [[(5, 1), (6, 1)], [(5, 3), (6, 3)], [(5, 1), (6, 2)], [(5, 3), (6, 2)]]
    return points, lines


def cross(diagonal):
    on = lambda x, y: 0 <= x <= 6 and 0 <= y <= 6 and (2 <= x <= 4 or 2 <= y <= 4)
    points = [(x, y) for y in range(7) for x in range(7) if on(x, y)]
    lines = []

    def runs(cells):
        run = []
        for c in cells + [None]:
            if c is not None and on(*c):
                run.append(c)
            else:
                if len(run) >= 2:
                    lines.append(run)
                run = []

    for y in range(7):
        runs([(x, y) for x in range(7)])
    for x in range(7):
        runs([(x, y) for y in range(7)])
    if diagonal:
        # Diagonal links join neighbours whose x + y is even (the classic
        # alternating pattern): along a diagonal the parity stays the same.
        for d in range(-6, 7):
            cells = [(x, x - d) for x in range(7) if 0 <= x - d <= 6]
            if cells and (cells[0][0] + cells[0][1]) % 2 == 0:
                runs(cells)
        for s in range(0, 13, 2):
            runs([(x, s - x) for x in range(7) if 0 <= s - x <= 6])
    return points, lines


if __name__ == "__main__":
    write("musashi33.ron", "musashi33", "十六むさし: the 5×5 square and the 雪隠 triangle (33 points, 72 links).", *musashi(True))
    write("musashi25.ron", "musashi25", "十六むさし without the 雪隠: the 5×5 square only (25 points, 56 links).", *musashi(False))
    write("cross33.ron", "cross33", "きつねとがちょう: the 33-point cross, rows and columns only.", *cross(False))
    write("cross33_diagonal.ron", "cross33_diagonal", "きつねとがちょう with diagonals (x + y even), the old form.", *cross(True))
    print("boards written")
