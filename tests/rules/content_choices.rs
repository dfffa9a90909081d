//! What a step takes as right and what its words say happened before it:
//! the content checker names a step that tells of a move its diagram did
//! not come from, a 十六むさし step that calls an equal capture wrong, and
//! a problem whose answer a deeper reading refutes.

use super::content_check::{MUSASHI, assert_lines, mutated, problems, tutorial};
use yorimichi::rules::content::{Depth, check_file_at};

#[test]
fn a_last_move_the_diagram_did_not_come_from_is_named() {
    // 子のコツ3 as it once stood: the 親 shown in f3 "has gone in", but
    // no move into f3 leaves that board (from e3 it would have taken f4
    // and f2), and the step plays no such move.
    let text = tutorial(
        r#"title: (ja: "子のコツ3", en: "Ko tip 3"),
        text: (ja: "親が雪隠のf3に入りました。入口のe3をふさげば、もう出られません。d3の子をe3へ。", en: "The oya has gone into the setchin on f3. Close the entrance e3: move the ko on d3 to e3."),
        board: ["K.... .", "....KK.", "...K.OK", "....KK.", "K.... ."],
        to_move: Second,
        expect: Some((from: "d3", to: "e3")), wins: Some(true),
        wrong: Some((ja: "ちがう", en: "No")),"#,
    );
    let found = problems(MUSASHI, &text);
    assert!(
        found.contains(&"levels/tutorials/musashi.ron: steps[0].history: the text tells of a move already made (to f3, 「親が雪隠のf3に入りました」): show the position before it and play it as the last move of `history`, so the board is what that move leads to (step 「子のコツ3」)".to_string()),
        "{}",
        found.join("\n")
    );
}

#[test]
fn a_last_move_played_as_the_history_passes_and_another_is_named() {
    let real = std::fs::read_to_string(MUSASHI).expect("the tutorial");
    let came = r#"history: [(from: "e3", to: "f4")],"#;
    // The history plays the move the text tells of: no problem.
    assert!(problems(MUSASHI, &real).is_empty());
    // Another move into f4 than the one the text names.
    let other = mutated(
        &real,
        came,
        r#"history: [(from: "e3", to: "f3"), (from: "f3", to: "f4")],"#,
    );
    assert!(
        problems(MUSASHI, &other)
            .iter()
            .any(|p| p.contains("steps[")
                && p.contains(".history: the text tells of a move already made (e3→f4")),
        "{}",
        problems(MUSASHI, &other).join("\n")
    );
}

#[test]
fn an_equal_capture_the_step_calls_wrong_is_named() {
    // 親のコツ2 as it once stood: c5 is a gap as well as b4 (b5 and d5
    // are 子), so c4→c5 takes two as the answer does.
    let text = tutorial(
        r#"title: (ja: "親のコツ2", en: "Oya tip 2"),
        text: (ja: "残ったb4へ入って、b5とb3を取りましょう。", en: "Step into b4 and take b5 and b3."),
        board: [".K.KK .", "..OK...", ".K..K..", ".......", "K...K ."],
        expect: Some((from: "c4", to: "b4")), captures: Some(2),
        wrong: Some((ja: "左のb4へ。", en: "Left to b4.")),"#,
    );
    assert_lines(
        &problems(MUSASHI, &text),
        &[
            "levels/tutorials/musashi.ron: steps[0].also: c4×c5 takes 2 as the answer does (2): name it in `also` so that a player who finds it is told it is right, or in `worse` with the reason in the `wrong` text (step 「親のコツ2」)",
        ],
    );
    // Accepted in `also`, the engine finds it worse than the answer.
    let accepted = text.replace(
        "captures: Some(2),",
        r#"captures: Some(2), also: [(from: "c4", to: "c5")],"#,
    );
    assert_lines(
        &problems(MUSASHI, &accepted),
        &[
            "levels/tutorials/musashi.ron: steps[0].also: c4→c5 is not the move the engine would play: c4×b4 gains 122 more (it scores -285 against -407, read 8 plies deep; margin 60). Ask for a better move, or declare `mistake: true` if the step shows a mistake (step 「親のコツ2」)",
        ],
    );
    // Declared worse, it passes; the answer declared worse does not.
    let declared = text.replace(
        "captures: Some(2),",
        r#"captures: Some(2), worse: [(from: "c4", to: "c5")],"#,
    );
    assert_lines(&problems(MUSASHI, &declared), &[]);
    let answer_worse = text.replace(
        "captures: Some(2),",
        r#"captures: Some(2), worse: [(from: "c4", to: "c5"), (from: "c4", to: "b4")],"#,
    );
    let found = problems(MUSASHI, &answer_worse);
    assert!(
        found.iter().any(|p| p.contains("steps[0].worse: the step says c4→b4 is worse, but the engine finds it within 60 of the best")),
        "{}",
        found.join("\n")
    );
}

#[test]
fn an_also_move_is_held_to_what_the_answer_is() {
    // The first capture step with its four gaps: an `also` that is not
    // legal, and one that takes nothing (its claim of two is false).
    let real = std::fs::read_to_string(MUSASHI).expect("the tutorial");
    let also = r#"also: [(from: "c3", to: "d4"), (from: "c3", to: "b2"), (from: "c3", to: "d2")],"#;
    let broken = mutated(
        &real,
        also,
        r#"also: [(from: "c3", to: "d4"), (from: "c3", to: "b2"), (from: "c3", to: "d2"), (from: "c3", to: "a1"), (from: "c3", to: "c4")],"#,
    );
    let found = problems(MUSASHI, &broken);
    assert!(
        found
            .iter()
            .any(|p| p.contains(".also: c3→a1 is not a legal move")),
        "{}",
        found.join("\n")
    );
    assert!(
        found
            .iter()
            .any(|p| p.contains(".captures: c3→c4 takes 0, not 2")),
        "{}",
        found.join("\n")
    );
    // Without the three others, each is named.
    let missing = mutated(&real, also, "");
    let found = problems(MUSASHI, &missing);
    for other in ["c3×d4", "c3×b2", "c3×d2"] {
        assert!(
            found
                .iter()
                .any(|p| p.contains(&format!(".also: {other} takes 2"))),
            "{other}: {}",
            found.join("\n")
        );
    }
}

#[test]
fn a_problem_answer_a_deeper_reading_refutes_is_named_only_by_the_deep_check() {
    // Problem 38 as it stood: the lion takes the 龍王 (5七→5六→6五), and
    // 後手's 奔王 on 3四 forks king and lion (☖1二奔王, then takes it on
    // 6五). The quick reading (4 plies) sees the 龍王 won; the deep one
    // (8 plies) sees the lion lost.
    let problem = r#"Tutorial(
    id: "problems",
    title: (ja: "駒問題集", en: "Problems"),
    steps: [
        (
            title: (ja: "1. 初級・獅子の一手", en: "1. Easy: A lion move"),
            text: (ja: "☗の番です。獅子の動きを生かして、いちばん得をする手を見つけましょう。", en: "Sente (☗) to move. Use the lion's powers: find the move that wins the most."),
            board: ["4k7", "6f5", "12", "9q2", "3t5h2", "7ds3", "5s1N4", "12", "5g6", "12", "1E10", "11K"],
            pieces_left_out: true,
            level: Some(1),
            expect: Some((from: "5七", to: "6五", via: Some("5六"))),
            wrong: Some((ja: "もっと得をする手があります。駒の利きをよく見ましょう。", en: "There is a better move. Look at what each piece attacks.")),
            right: Some((ja: "正解:☗6五獅子(←5六←5七)", en: "Correct: ☗6五獅子(←5六←5七)")),
        ),
    ],
)"#;
    let file = "levels/problems/chushogi.ron";
    let read = |depth| {
        let (_, found) = check_file_at(file, "problems/chushogi.ron", problem, depth);
        found.iter().map(ToString::to_string).collect::<Vec<_>>()
    };
    assert_lines(&read(Depth::Quick), &[]);
    assert_lines(
        &read(Depth::Deep),
        &[
            "levels/problems/chushogi.ron: steps[0].expect: read 8 plies deep, the answer's line loses material: ☗6五獅子(←5六←5七) ☖1二奔王(←3四) ☗2十二王将(←1十二) ☖2一奔王(←1二) ☗1十一王将(←2十二) ☖6五奔王(←2一): takes 龍王, loses 獅子 (net -700) (step 「1. 初級・獅子の一手」)",
        ],
    );
    // Without the 奔王 the deep reading passes.
    let mended = problem.replace(r#""9q2""#, r#""12""#);
    let (_, found) = check_file_at(file, "problems/chushogi.ron", &mended, Depth::Deep);
    assert!(found.is_empty(), "{found:?}");
}
