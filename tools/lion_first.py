#!/usr/bin/env python3
"""For each game of `yorimichi match` logs: whose lion left the board first
(Yorimichi's or the opponent's, a promoted kirin counting as a lion), at
which ply, and how the game ended; then the counts.

    python3 tools/lion_first.py YORIMICHI_BINARY LOG...

The positions are worked out by the binary's `convert` (lishogi's rules).
"""

import subprocess
import sys


def convert(binary, moves, form):
    """The binary's `convert --to FORM` of the game of `moves` from the
    start, under lishogi's rules."""
    game = "position startpos moves " + " ".join(moves)
    return subprocess.run(
        [binary, "convert", "--to", form, "--profile", "lishogi", "chushogi"],
        input=game,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def board(binary, moves):
    """The SFEN board (its first field) after `moves` from the start."""
    return convert(binary, moves, "sfen").split()[0]


def lions(binary, moves):
    """The lions on the board after `moves`: (先手's, 後手's)."""
    b = board(binary, moves)
    return (b.count("N") + b.count("+O"), b.count("n") + b.count("+o"))


def first_lion_lost(binary, moves):
    """The first ply after which a side has no lion, and the lions then."""
    # Every fourth ply, then the plies since the last look.
    for ply in range(0, len(moves) + 4, 4):
        ply = min(ply, len(moves))
        if min(lions(binary, moves[:ply])) == 0:
            for p in range(max(0, ply - 3), ply + 1):
                count = lions(binary, moves[:p])
                if min(count) == 0:
                    return p, count
        if ply == len(moves):
            return None


def games(log):
    """Each game of a log: its head line, how it ended and its moves (the
    log writes the end before the moves)."""
    head = end = None
    with open(log, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("game "):
                head, end = line, None
            elif line.startswith("end: "):
                end = line[len("end: "):]
            elif line.startswith("moves: ") and head:
                yield head, end, line.split()[1:]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, logs = sys.argv[1], sys.argv[2:]
    tally = {}
    for log in logs:
        for head, end, moves in games(log):
            ours = 0 if "Yorimichi=先手" in head else 1
            found = first_lion_lost(binary, moves)
            if found is None:
                who = "both kept"
                where = ""
            else:
                ply, count = found
                if count == (0, 0):
                    who = "both at once"
                elif count[ours] == 0:
                    who = "Yorimichi's first"
                else:
                    who = "the opponent's first"
                where = f" at ply {ply}"
            tally[who] = tally.get(who, 0) + 1
            game = head.split(" opponent")[0]
            print(f"{log}: {game}: {who}{where}; {end}")
    print("; ".join(f"{who}: {n}" for who, n in sorted(tally.items())))


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        # The reader stopped early (`| head`): nothing more to say.
        sys.stderr.close()
