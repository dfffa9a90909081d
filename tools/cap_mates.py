#!/usr/bin/env python3
"""Would the mate solver have ended the games Yorimichi won on points at
the move cap? For each such game of `yorimichi match` logs, every position
from ply FROM on where Yorimichi was to move is given to the solver
(`solve chushogi --tsv`, SECONDS each, lishogi's rules); the solver's own
summary line follows, and each position it proved is printed with the
mate's length, so that one can see whether the mate would have ended the
game before the cap.

    python3 tools/cap_mates.py YORIMICHI_BINARY FROM SECONDS LOG...
"""

import os
import subprocess
import sys
import tempfile

from lion_first import convert, games


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    binary, start, seconds, logs = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    rows = ["id\ttitle\tsfen\tsolution_usi\tplies"]
    for log in logs:
        name = os.path.splitext(os.path.basename(log))[0]
        for head, end, moves in games(log):
            if not (end or "").startswith("Yorimichi wins (move cap"):
                continue
            number = head.split()[1]
            ours = 0 if "Yorimichi=先手" in head else 1
            for ply in range(start, len(moves)):
                if ply % 2 != ours:
                    continue
                sfen = convert(binary, moves[:ply], "sfen").strip()
                rows.append(f"{name}-g{number}-p{ply}\t-\t{sfen}\t\t0")
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
        f.write("\n".join(rows) + "\n")
        table = f.name
    try:
        out = subprocess.run(
            [binary, "solve", "chushogi", "--tsv", table, "--seconds", seconds,
             "--profile", "lishogi"],
            capture_output=True, text=True, check=True,
        ).stdout
    finally:
        os.unlink(table)
    for line in out.splitlines():
        if "\tproved" in line or line.startswith("proved"):
            print(line)


if __name__ == "__main__":
    main()
