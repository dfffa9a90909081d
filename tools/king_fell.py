#!/usr/bin/env python3
"""For each game of `yorimichi match` logs that Yorimichi lost with its
royals taken: the ply its king fell and whether a 太子 of its own stood
on the board then.

    python3 tools/king_fell.py YORIMICHI_BINARY LOG...

The positions are worked out by the binary's `convert` (lishogi's rules).
"""

import sys

from lion_first import board, games


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, logs = sys.argv[1], sys.argv[2:]
    for log in logs:
        for head, end, moves in games(log):
            if "opponent wins (RoyalsTaken)" not in (end or ""):
                continue
            first = "Yorimichi=先手" in head
            king, prince = ("K", "+E") if first else ("k", "+e")

            # The king never comes back: the first ply without it.
            lo, hi = 0, len(moves)
            while lo < hi:
                mid = (lo + hi) // 2
                if king in board(binary, moves[:mid]):
                    lo = mid + 1
                else:
                    hi = mid
            before = board(binary, moves[: lo - 1])
            game = head.split(" opponent")[0]
            standing = "yes" if prince in before else "no"
            print(f"{log}: {game}: king taken at ply {lo} of {len(moves)}; "
                  f"a 太子 standing then: {standing}")


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.exit(0)
