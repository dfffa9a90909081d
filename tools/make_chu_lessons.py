#!/usr/bin/env python3
"""Writes levels/lessons/chushogi_pieces.ron: a 駒の動かし方 lesson for every
one of the 30 中将棋 pieces (its moves on an empty board, then a small task).
The task squares are chosen here by hand, outside the enemy zone (a task
is about the movement, so it never leaves 成る / 成らない to choose);
`yorimichi check` and the tests check every task against the engine, so
a wrong square or a wrong `captures` count fails there.

Run: python3 tools/make_chu_lessons.py
"""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
KANJI = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二"]
HOME = (6, 7)  # the piece stands on 6七


def name(file, rank):
    return f"{file}{KANJI[rank - 1]}"


def at(right, forward):
    """The square `right` files to the right and `forward` ranks up from HOME, as 先手 sees it."""
    return (HOME[0] - right, HOME[1] - forward)


def rows(pieces):
    grid = [[""] * 12 for _ in range(12)]
    for (file, rank), letter in pieces.items():
        grid[rank - 1][12 - file] = letter
    out = []
    for row in grid:
        text, run = "", 0
        for cell in row:
            if not cell:
                run += 1
                continue
            if run:
                text += str(run)
                run = 0
            text += cell
        if run:
            text += str(run)
        out.append(text)
    return out


# kind: (SFEN letter, JA name, reading, EN name, JA moves, EN moves,
#        target offset, enemy pawns (offsets), via offset or None)
PIECES = [
    ("P", "歩兵", "ふひょう", "Pawn", "前へ1つ。成ると、と金。", "One square forward. Promotes to tokin.", (0, 1), [(0, 1)], None),
    ("I", "仲人", "ちゅうにん", "Go-between", "前と後ろへ1つ。成ると醉象。", "One square forward or back. Promotes to drunk elephant.", (0, 1), [], None),
    ("L", "香車", "きょうしゃ", "Lance", "前へどこまでも。成ると白駒。", "Any distance forward. Promotes to white horse.", (0, 2), [], None),
    ("A", "反車", "へんしゃ", "Reverse chariot", "前と後ろへどこまでも。成ると鯨鯢。", "Any distance forward or back. Promotes to whale.", (0, -4), [], None),
    ("F", "猛豹", "もうひょう", "Ferocious leopard", "前と後ろ、斜めへ1つ。成ると角行。", "One square forward, back or diagonally. Promotes to bishop.", (1, -1), [], None),
    ("C", "銅将", "どうしょう", "Copper general", "前と後ろ、斜め前へ1つ。成ると横行。", "One square forward, back or diagonally forward. Promotes to side mover.", (0, -1), [], None),
    ("S", "銀将", "ぎんしょう", "Silver general", "前と斜めへ1つ。成ると竪行。", "One square forward or diagonally. Promotes to vertical mover.", (-1, -1), [], None),
    ("G", "金将", "きんしょう", "Gold general", "斜め後ろ以外へ1つ。成ると飛車。", "One square in any direction but diagonally back. Promotes to rook.", (1, 0), [(1, 0)], None),
    ("T", "盲虎", "もうこ", "Blind tiger", "真っすぐ前以外へ1つ。成ると飛鹿。", "One square in any direction but straight forward. Promotes to flying stag.", (0, -1), [], None),
    ("E", "醉象", "すいぞう", "Drunk elephant", "真後ろ以外へ1つ。成ると太子。", "One square in any direction but straight back. Promotes to prince.", (1, -1), [], None),
    ("O", "麒麟", "きりん", "Kirin", "斜めへ1つ。縦と横は2つ先へ跳ぶ(間の駒を飛びこえる)。成ると獅子。", "One square diagonally; leaps two squares straight (over any piece). Promotes to lion.", (0, 2), [(0, 1)], None),
    ("X", "鳳凰", "ほうおう", "Phoenix", "縦と横へ1つ。斜めは2つ先へ跳ぶ。成ると奔王。", "One square straight; leaps two squares diagonally. Promotes to free king.", (2, 2), [(1, 1)], None),
    ("M", "横行", "おうぎょう", "Side mover", "横へどこまでも。前と後ろへ1つ。成ると奔猪。", "Any distance sideways; one square forward or back. Promotes to free boar.", (-5, 0), [], None),
    ("V", "竪行", "じゅぎょう", "Vertical mover", "前と後ろへどこまでも。横へ1つ。成ると飛牛。", "Any distance forward or back; one square sideways. Promotes to flying ox.", (0, -5), [], None),
    ("B", "角行", "かくぎょう", "Bishop", "斜めへどこまでも。成ると龍馬。", "Any distance diagonally. Promotes to dragon horse.", (3, -3), [(3, -3)], None),
    ("R", "飛車", "ひしゃ", "Rook", "縦と横へどこまでも。成ると龍王。", "Any distance straight. Promotes to dragon king.", (0, -5), [], None),
    ("H", "龍馬", "りゅうま", "Dragon horse", "斜めへどこまでも。縦と横にも1つ。成ると角鷹。", "Any distance diagonally, and one square straight. Promotes to horned falcon.", (-4, -4), [], None),
    ("D", "龍王", "りゅうおう", "Dragon king", "縦と横へどこまでも。斜めにも1つ。成ると飛鷲。", "Any distance straight, and one square diagonally. Promotes to soaring eagle.", (1, 1), [(1, 1)], None),
    ("Q", "奔王", "ほんおう", "Free king", "縦と横と斜めへどこまでも。成らない。", "Any distance in all eight directions. Does not promote.", (-5, -5), [], None),
    ("N", "獅子", "しし", "Lion", "まわり2マス以内のどこへでも(跳ぶ)。1つずつ2回動くこともできる。成らない。", "Anywhere within two squares (leaping), or two single steps. Does not promote.", (-2, 2), [(-2, 2)], None),
    ("K", "王将", "おうしょう", "King", "まわり8マスのどこへでも1つ。取られると負け。成らない。", "One square in any direction. Losing it loses the game. Does not promote.", (1, 1), [], None),
    ("+P", "と金", "ときん", "Tokin", "歩兵が成った駒。金将と同じ動き。", "A promoted pawn: moves like a gold general.", (0, -1), [], None),
    ("+E", "太子", "たいし", "Prince", "醉象が成った駒。王将と同じ動き。太子がいるうちは王を取られても負けない。", "A promoted drunk elephant: moves like a king, and while it lives, losing the king does not lose.", (0, -1), [], None),
    ("+T", "飛鹿", "ひろく", "Flying stag", "盲虎が成った駒。前と後ろへどこまでも。横と斜めへ1つ。", "A promoted blind tiger: any distance forward or back; one square sideways or diagonally.", (0, -4), [], None),
    ("+L", "白駒", "はっく", "White horse", "香車が成った駒。前と後ろ、斜め前へどこまでも。", "A promoted lance: any distance forward, back or diagonally forward.", (-3, 3), [], None),
    ("+A", "鯨鯢", "げいげい", "Whale", "反車が成った駒。前と後ろ、斜め後ろへどこまでも。", "A promoted reverse chariot: any distance forward, back or diagonally back.", (3, -3), [], None),
    ("+V", "飛牛", "ひぎゅう", "Flying ox", "竪行が成った駒。前と後ろ、斜めへどこまでも。", "A promoted vertical mover: any distance forward, back or diagonally.", (4, 4), [], None),
    ("+M", "奔猪", "ほんちょ", "Free boar", "横行が成った駒。横と斜めへどこまでも。", "A promoted side mover: any distance sideways or diagonally.", (-4, -4), [], None),
    ("+D", "飛鷲", "ひじゅう", "Soaring eagle", "龍王が成った駒。縦と横、斜め後ろへどこまでも。斜め前は2マスまで獅子と同じ動き。", "A promoted dragon king: any distance straight or diagonally back; lion power up to two squares diagonally forward.", (2, 2), [(1, 1), (2, 2)], (1, 1)),
    ("+H", "角鷹", "かくおう", "Horned falcon", "龍馬が成った駒。真っすぐ前以外へどこまでも。真っすぐ前は2マスまで獅子と同じ動き。", "A promoted dragon horse: any distance in all directions but straight forward; lion power up to two squares straight forward.", (0, 0), [(0, 1)], (0, 1)),
]


def task_text(target, pawns, via, kind_ja, kind_en):
    t = name(*at(*target))
    if via is not None and target == (0, 0):
        v = name(*at(*via))
        return (f"{v}の歩兵を取って、元の{name(*HOME)}に戻ってみましょう(居食い:{v}、{name(*HOME)}の順に押します)。",
                f"Take the pawn on {v} and come back to {name(*HOME)} (igui: tap {v}, then {name(*HOME)}).")
    if via is not None:
        v = name(*at(*via))
        return (f"{v}と{t}の歩兵を2枚とも取ってみましょう({v}、{t}の順に押します)。",
                f"Take both pawns, on {v} and {t} (tap {v}, then {t}).")
    if target in pawns:
        return (f"{t}の歩兵を取ってみましょう。", f"Capture the pawn on {t}.")
    if pawns:
        over = name(*at(*pawns[0]))
        return (f"{over}の駒を飛びこえて、{t}へ動かしてみましょう。", f"Leap over the piece on {over} to {t}.")
    return (f"{kind_ja}を{t}へ動かしてみましょう。", f"Move the {kind_en.lower()} to {t}.")


def main():
    steps = []
    for letter, ja, reading, en, moves_ja, moves_en, target, pawns, via in PIECES:
        pieces = {HOME: letter, (1, 1): "k"}
        if letter != "K":
            pieces[(12, 12)] = "K"
        for p in pawns:
            pieces[at(*p)] = "p"
        task_ja, task_en = task_text(target, pawns, via, ja, en)
        expect = f'(from: "{name(*HOME)}", to: "{name(*at(*target))}"'
        if via is not None:
            expect += f', via: Some("{name(*at(*via))}")'
        expect += ")"
        board = ", ".join(f'"{r}"' for r in rows(pieces))
        # What the task takes: the pawns on its path (a leap takes none).
        taken = sum(1 for p in pawns if p == target or p == via)
        captures = f"\n            captures: Some({taken})," if taken else ""
        steps.append(f"""        (
            title: (ja: "{ja}", en: "{en}"),
            text: (ja: "{ja}({reading}):{moves_ja}駒を選ぶと、動けるマスに青い点が出ます。{task_ja}", en: "{en} ({ja}, {reading}): {moves_en} Select it to see its moves as blue dots. {task_en}"),
            board: [{board}],
            highlights: ["{name(*at(*target))}"],
            pieces_left_out: true,
            expect: Some({expect}),{captures}
            wrong: Some((ja: "{ja}の動きをもう一度見てみましょう。{task_ja}", en: "Look at the {en.lower()}'s moves again. {task_en}")),
            right: Some((ja: "よくできました。", en: "Well done.")),
        ),
""")
    text = (
        "// 駒の動かし方: a lesson for each of the 30 中将棋 pieces, written by\n"
        "// tools/make_chu_lessons.py (edit that, not this). Diagrams are SFEN ranks\n"
        "// (rank 一 first); each task is checked against the engine by the tests.\n"
        "// Each diagram shows one piece with the kings (a game with so little\n"
        "// left would be over): `pieces_left_out` says so to the player.\n"
        "Tutorial(\n"
        '    id: "pieces",\n'
        '    title: (ja: "駒の動かし方", en: "How the pieces move"),\n'
        "    steps: [\n" + "".join(steps) + "    ],\n)\n"
    )
    out = ROOT / "levels" / "lessons" / "chushogi_pieces.ron"
    out.write_text(text, encoding="utf-8")
    print(f"{out}: {len(steps)} lessons")


if __name__ == "__main__":
    main()
