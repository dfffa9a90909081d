#!/usr/bin/env python3
"""Writes levels/problems/chushogi_tsume.ron, 詰め中将棋 in 中将棋を学ぶ,
from a collection of chu shogi mate problems (TSV: id, title, sfen,
solution_usi, plies): each problem's line is the mate solver's own
(`yorimichi solve chushogi --sfen`: a shortest mate, the defender holding out
longest), so that the defence the player meets is the solver's best. A
problem the solver does not prove within the time is left out and named at
the top of the file. `yorimichi check` then checks every line.

    python3 tools/make_tsume.py ../shared/chu-tsume/kinuburui.tsv \\
        levels/problems/chushogi_tsume.ron [--bin PATH] [--seconds 30]
"""

import argparse
import csv
import os
import re
import subprocess
import sys

# What the collection's titles say of a diagram beyond its number.
NOTES = {
    "kinu19": ("原題に１２二金を加えた図です。",
               "A gold general on 12-2 has been added to the original diagram."),
    "kinu22": ("中将棊指南抄の最終問題と同じ図です。",
               "The same diagram is the last problem of Chu Shogi Shinansho."),
    "kinu56": ("原題から６七歩兵を除いた図です。",
               "The pawn on 6-7 of the original diagram has been removed."),
    "kinu61": ("１１三は中将棊指南抄に従い奔猪です（絹篩の図では奔王）。",
               "The piece on 11-3 is a free boar, as in Chu Shogi Shinansho "
               "(Kinuburui's diagram has a free king there)."),
    "kinu66": ("原本の手順では、玉将を詰める手順が太子を詰める手順に変わります。ここでは、1手目のあと☖が醉象を成って太子を作ります。太子が残っているうちは玉を取っても勝ちにならないので、太子も取ってから玉を詰めましょう。",
               "In the book's line the mate of the king turns into a mate "
               "of the prince. Here Gote answers your first move by "
               "promoting its drunk elephant to a prince: while the prince "
               "survives, taking the king does not win, so take the prince "
               "too, then mate the king."),
}

FULL = str.maketrans("０１２３４５６７８９", "0123456789")


def number(text):
    return int(text.translate(FULL))


def solve(binary, sfen, seconds):
    out = subprocess.run(
        [binary, "solve", "chushogi", "--sfen", sfen, "--seconds", str(seconds)],
        capture_output=True, text=True, check=True).stdout
    moves, took = None, None
    for line in out.splitlines():
        if line.startswith("mate: "):
            moves = line[len("mate: "):].split()
        if line.startswith("time: "):
            took = float(line.split()[1])
    # A line whose shortening the time cut off may not be a shortest mate.
    return moves, took is not None and took < seconds


def level(mate):
    return 1 if mate <= 9 else 2 if mate <= 17 else 3


def ron_text(ja, en):
    return f'(ja: "{ja}", en: "{en}")'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tsv")
    ap.add_argument("out")
    ap.add_argument("--bin", default=os.path.expanduser(
        "~/.cache/yorimichi/target/release/yorimichi"))
    ap.add_argument("--seconds", type=float, default=30)
    args = ap.parse_args()
    rows = list(csv.reader(open(args.tsv, encoding="utf-8"), delimiter="\t"))[1:]
    steps, left_out = [], []
    for pid, title, sfen, _solution, plies in rows:
        line, shortest = solve(args.bin, sfen, args.seconds)
        if not line:
            left_out.append(pid)
            print(f"{pid}: not proved", file=sys.stderr)
            continue
        mate = len(line) - 2
        kinu = int(pid[len("kinu"):])
        shinan = re.search(r"中将棊指南抄・第([0-9０-９]+)問", title)
        source_ja = f"中将棊絹篩 第{kinu}問"
        source_en = f"Kinuburui No. {kinu}"
        if shinan:
            source_ja += f"（中将棊指南抄 第{number(shinan.group(1))}問）"
            source_en += f" (Shinansho No. {number(shinan.group(1))})"
        board, side = sfen.split()[0], sfen.split()[1]
        if side == "b":
            marks_ja, attacker_en, defender_en = ("☗", "☖"), "Sente (☗)", "Gote's (☖)"
        else:
            marks_ja, attacker_en, defender_en = ("☖", "☗"), "Gote (☖)", "Sente's (☗)"
        text_ja = (f"{source_ja}。{marks_ja[0]}の番です。王手をかけ続けて"
                   f"{marks_ja[1]}の玉を詰め、取りましょう。")
        text_en = (f"{source_en}. {attacker_en} to move. Check on every move, "
                   f"mate {defender_en} king and take it.")
        book = int(plies)
        if not shortest:
            text_ja += f"原本の手順は{book}手です。"
            text_en += f" The book's line has {book} moves."
        elif book == mate:
            text_ja += f"{mate}手詰です。"
            text_en += f" Mate in {mate}."
        else:
            text_ja += f"受けがいちばん長く粘ると{mate}手詰です（原本の手順は{book}手）。"
            text_en += (f" With the longest defence it is mate in {mate} "
                        f"(the book's line has {book} moves).")
        if pid in NOTES:
            text_ja += NOTES[pid][0]
            text_en += " " + NOTES[pid][1]
        rows_text = ", ".join(f'"{r}"' for r in board.split("/"))
        steps.append(f"""        (
            title: {ron_text(f"絹篩 第{kinu}問", f"Kinuburui {kinu}")},
            text: {ron_text(text_ja, text_en)},
            board: [{rows_text}],{"" if side == "b" else chr(10) + "            to_move: Second,"}
            level: Some({level(mate)}),
            line: [{", ".join(f'"{m}"' for m in line)}],
            wrong: Some({ron_text("その手では詰みません。", "That move does not mate.")}),
            right: Some({ron_text("詰みました！", "Mate!")}),
        ),""")
        print(f"{pid}: mate in {mate} (book {book}){'' if shortest else ', not shortened to the end'}",
              file=sys.stderr)
    head = f"""// 詰め中将棋: the mate problems of 中将棊絹篩 (Kinuburui), written by
// tools/make_tsume.py from the collection's diagrams. Each line is the mate
// solver's: a shortest mate, the defender holding out longest; the player
// plays the attack against it. `yorimichi check` checks every line (each
// move legal, every attacking move a check, the royals taken at its end,
// under both rule profiles) and the length each text states.
// Not proved by the solver in the time it was given, so left out: {", ".join(left_out) or "none"}.
Tutorial(
    id: "tsume",
    title: (ja: "詰め中将棋（中将棊絹篩）", en: "Chu Shogi mate problems (Kinuburui)"),
    steps: [
"""
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(head + "\n".join(steps) + "\n    ],\n)\n")


if __name__ == "__main__":
    main()
