#!/usr/bin/env python3
"""Two builds' `yorimichi usi` searched to the same fixed depth on the same
positions (every 40th ply, from ply 20, of the games in match logs), one
build after the other position by position: whether each finds the same
move with the same node count, and the time each takes (the ratio of the
two, measured in the same run).

    python3 tools/compare_search.py [--hash OLD_MB NEW_MB] OLD_BINARY NEW_BINARY DEPTH LOG...

A change meant only to make the search faster must print as many identical
positions as there are positions. Exits 1 if any differs. `--hash` gives
each build's transposition table its size (`USI_Hash`, 4 MB unless told).
"""

import subprocess
import sys


def positions(logs):
    for log in logs:
        with open(log, encoding="utf-8") as f:
            for line in f:
                if line.startswith("moves: "):
                    moves = line.split()[1:]
                    for ply in range(20, len(moves), 40):
                        yield moves[:ply]


def search(binary, moves, depth, hash_mb):
    """The best move, nodes and milliseconds of the last finished iteration."""
    script = (
        f"usi\nisready\nsetoption name USI_Hash value {hash_mb}\n"
        f"position startpos moves {' '.join(moves)}\ngo depth {depth}\n"
    )
    engine = subprocess.Popen(
        [binary, "usi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    engine.stdin.write(script)
    engine.stdin.flush()
    last = []
    best = None
    for line in engine.stdout:
        if line.startswith("info depth"):
            last = line.split()
        elif line.startswith("bestmove"):
            best = line.split()[1]
            break
    engine.stdin.write("quit\n")
    engine.stdin.flush()
    engine.wait()
    if best is None or "nodes" not in last:
        sys.exit(f"{binary}: no answer after {len(moves)} plies")
    field = lambda name: int(last[last.index(name) + 1])
    return best, field("nodes"), field("time")


def main():
    args = sys.argv[1:]
    hashes = (4, 4)
    if args[:1] == ["--hash"]:
        if len(args) < 3 or not (args[1].isdigit() and args[2].isdigit()):
            sys.exit("--hash needs two sizes in megabytes\n" + __doc__)
        hashes, args = (int(args[1]), int(args[2])), args[3:]
    if len(args) < 4:
        sys.exit(__doc__)
    old, new, depth, logs = args[0], args[1], args[2], args[3:]
    same = count = 0
    nodes = [0, 0]
    millis = [0, 0]
    for moves in positions(logs):
        results = [search(b, moves, depth, mb) for b, mb in zip((old, new), hashes)]
        count += 1
        for i, (_, n, ms) in enumerate(results):
            nodes[i] += n
            millis[i] += ms
        if results[0][:2] == results[1][:2]:
            same += 1
        else:
            print(f"differs after {len(moves)} plies: {results[0]} {results[1]}")
    rate = [n * 1000 // max(ms, 1) for n, ms in zip(nodes, millis)]
    print(
        f"{count} positions at depth {depth}: {same} with the same move and nodes; "
        f"nodes {nodes[0]} / {nodes[1]}; {millis[0]} / {millis[1]} ms; "
        f"{rate[0]} / {rate[1]} nodes/s; the new build {millis[0] / max(millis[1], 1):.2f} times as fast"
    )
    sys.exit(0 if same == count else 1)


if __name__ == "__main__":
    main()
