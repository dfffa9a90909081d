#!/usr/bin/env python3
"""Converting a won game against HaChu: the positions of the 40/120 series
where Yorimichi led HaChu by 15 points or more and the game still ended on
points at the move cap, each played on from there by BUILD (on the side
that led) against HaChu at 40/12, and how each game ended. Positions of
one HALF (0 or 1: every other one) only, so that two runs can share a
machine; STYLE is passed on to `match` (e.g. `--mate-search on`).

    python3 tools/lead_conversion.py BUILD HALF OUT [STYLE...]

Appends the games to OUT.log and a line a position to OUT.out.
"""

import os
import re
import subprocess
import sys

MATCHES = os.path.join(os.path.dirname(__file__), "..", "docs", "matches")

# (log, game, ply): the lead of 15 points or more was first seen at this ply
# (looked at 160, 200 and 240) in a game that ended on points at the cap.
POSITIONS = [
    ("hachu-40-120-defaults-bb974c7.log", 1, 240),
    ("hachu-40-120-defaults-bb974c7.log", 2, 240),
    ("hachu-40-120-shelter-unsettled-496f500.log", 1, 160),
    ("hachu-40-120-shelter-unsettled-496f500.log", 4, 160),
    ("hachu-40-120-shelter-unsettled-496f500.log", 8, 160),
    ("hachu-40-120-king-shelter-4a2150d.log", 5, 240),
    ("hachu-40-120-king-shelter-4a2150d.log", 7, 160),
    ("hachu-40-120-king-shelter-4a2150d.log", 9, 160),
    ("hachu-40-120-d7338b3.log", 4, 160),
    ("hachu-40-120-d7338b3.log", 6, 240),
    ("hachu-40-120-d7338b3.log", 7, 200),
    ("hachu-40-120-d7338b3.log", 9, 160),
    ("hachu-40-120-knows-cap-106eaaf.log", 1, 200),
    ("hachu-40-120-knows-cap-106eaaf.log", 6, 200),
]


def game(log, number):
    """Yorimichi's side and the moves of game `number` of a match log."""
    with open(os.path.join(MATCHES, log), encoding="utf-8") as f:
        text = f.read()
    for block in re.split(r"(?m)^game ", text):
        if block.startswith(f"{number} "):
            side = re.search(r"Yorimichi=(\S+)", block).group(1)
            moves = re.search(r"(?m)^moves: (.*)$", block).group(1).split()
            return side, moves
    raise SystemExit(f"{log}: no game {number}")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    build, half, out, style = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    for index, (log, number, ply) in enumerate(POSITIONS):
        if index % 2 != half:
            continue
        side, moves = game(log, number)
        # The seeded series gives Yorimichi 先手 in odd games.
        first_game = "1" if side == "先手" else "2"
        command = [
            build, "match", "chushogi", "--opponent", "/usr/games/hachu",
            "--tc", "40/12", "--games", "1", "--first-game", first_game,
            "--profile", "lishogi", "--no-repeats", "--hachu-promotions",
            "--max-plies", "400", "--seed", "5",
            "--opening", " ".join(moves[:ply]), "--log", out + ".log", *style,
        ]
        result = subprocess.run(command, capture_output=True, text=True)
        ends = [l for l in result.stdout.splitlines() if l.startswith("game")]
        end = ends[-1] if ends else (result.stdout + result.stderr)[-300:]
        with open(out + ".out", "a", encoding="utf-8") as f:
            f.write(f"{log} game {number} from ply {ply} ({side}): {end}\n")


if __name__ == "__main__":
    main()
