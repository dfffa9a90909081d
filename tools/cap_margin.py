#!/usr/bin/env python3
"""For each game of `yorimichi match` logs decided on points at the move
cap: Yorimichi's lead in the JCSA points at plies 380, 390, 396, 398 and
400 (the last 20 plies), and how much it changed over them; then the mean
change. A search that knows the cap and no longer minds the margin once
every line ends the same way shows here as a lead that falls at the end.

    python3 tools/cap_margin.py YORIMICHI_BINARY LOG...

The points are the binary's `convert --to points` (the 60-minute cutoff's
count, lishogi's rules).
"""

import sys

from lion_first import convert, games

PLIES = (380, 390, 396, 398, 400)


def points(binary, moves):
    """(先手's, 後手's) points after `moves` from the start."""
    out = convert(binary, moves, "points").split()
    return float(out[1]), float(out[3])


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, logs = sys.argv[1], sys.argv[2:]
    changes = []
    for log in logs:
        for head, end, moves in games(log):
            if "move cap" not in (end or "") or len(moves) < PLIES[-1]:
                continue
            ours = 0 if "Yorimichi=先手" in head else 1
            leads = []
            for ply in PLIES:
                p = points(binary, moves[:ply])
                leads.append(round(p[ours] - p[1 - ours], 1))
            change = round(leads[-1] - leads[0], 1)
            changes.append(change)
            print(f"{log}: {head.split(' opponent=')[0]}: lead {leads}, change {change}")
    if changes:
        mean = sum(changes) / len(changes)
        print(f"{len(changes)} games at the cap, mean change over the last 20 plies {mean:.2f}")


if __name__ == "__main__":
    main()
