//! Everything a player reads is true: the content checker
//! (`yorimichi check`, and every loader) finds each class of error in a
//! broken example — a small inline file or a real file mutated — and names
//! it `file: item: reason`; the real level files pass.

use std::path::Path;

use yorimichi::rules::content::{self, check_file};
use yorimichi::rules::data;

/// The problems `check_file` finds, as the command prints them.
pub(crate) fn problems(file: &str, text: &str) -> Vec<String> {
    let relative = file.strip_prefix("levels/").expect("a levels path");
    let (_, problems) = check_file(file, relative, text);
    problems.iter().map(ToString::to_string).collect()
}

/// `text` with `from` replaced once (the file must hold it).
pub(crate) fn mutated(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "the file no longer holds {from:?}");
    text.replacen(from, to, 1)
}

/// Asserts that `found` holds exactly `want` (in any order).
pub(crate) fn assert_lines(found: &[String], want: &[&str]) {
    let mut found: Vec<&str> = found.iter().map(String::as_str).collect();
    let mut want = want.to_vec();
    found.sort_unstable();
    want.sort_unstable();
    assert_eq!(found, want, "\nfound:\n{}", found.join("\n"));
}

const HASAMI: &str = "levels/tutorials/hasami.ron";
pub(crate) const MUSASHI: &str = "levels/tutorials/musashi.ron";
const CHU: &str = "levels/tutorials/chushogi.ron";
const LION: &str = "levels/lessons/chushogi_lion.ron";
const FOXGEESE: &str = "levels/tutorials/foxgeese.ron";

/// A one-step tutorial around `step` (the fields of one step).
pub(crate) fn tutorial(step: &str) -> String {
    format!("Tutorial(title: (ja: \"t\", en: \"t\"), steps: [(\n{step}\n)])")
}

// 1. A diagram that is, or says it is, the start position.

#[test]
fn a_start_diagram_with_the_lion_and_the_free_king_swapped_is_named() {
    let f = data::CHUSHOGI_TUTORIAL;
    let text = mutated(f.text, "\"MVRHDNQDHRVM\"", "\"MVRHDQNDHRVM\"");
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/chushogi.ron: steps[0].board: the diagram is shown as the start position but is not: 7十 has ☗奔王 where the start has ☗獅子; 6十 has ☗獅子 where the start has ☗奔王 (step 「中将棋とは」)",
        ],
    );
}

#[test]
fn a_step_titled_as_the_setup_must_show_the_setup() {
    let text = tutorial(
        r#"title: (ja: "駒の並べ方", en: "Setting up"), text: (ja: "並べます。", en: "Set up."),
        board: ["SSSSSSSS.", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "FFFFFFFFF"],"#,
    );
    assert_lines(
        &problems(HASAMI, &text),
        &[
            "levels/tutorials/hasami.ron: steps[0].board: the diagram is shown as the start position but is not: 1一 has nothing where the start has と (step 「駒の並べ方」)",
            "levels/tutorials/hasami.ron: steps[0].board: the diagram leaves pieces out (後手(と) has 8 on the board or taken by the other, of the 9 it starts with): add them, or declare `pieces_left_out: true` (the step then says 「この図では駒を省いています」) (step 「駒の並べ方」)",
        ],
    );
}

#[test]
fn a_start_diagram_with_the_wrong_side_to_move_is_named() {
    let text = tutorial(
        r#"title: (ja: "盤", en: "Board"), text: (ja: "最初の並び。", en: "The start."),
        board: ["KKKKK .", "K...K..", "K.O.K..", "K...K..", "KKKKK ."], to_move: Second, start: Some(true),"#,
    );
    assert_lines(
        &problems(MUSASHI, &text),
        &[
            "levels/tutorials/musashi.ron: steps[0].board: the diagram is shown as the start position but is not: 子 is to move where the start has 親 to move (step 「盤」)",
        ],
    );
}

// 2. Arrows, highlights and try-it moves that are not legal where drawn.

#[test]
fn an_arrow_through_a_piece_is_named() {
    // The old コツ3: the arrow 6三→6五 passed through the 歩 on 6四.
    let text = tutorial(
        r#"title: (ja: "コツ3", en: "Tip 3"), text: (ja: "取り返す。", en: "Take back."),
        board: [".........", ".........", "...S.....", "...F.....", ".........", "...F.....", ".........", ".........", "........."], pieces_left_out: true,
        arrows: [(from: "6三", to: "6五")],"#,
    );
    assert_lines(
        &problems(HASAMI, &text),
        &[
            "levels/tutorials/hasami.ron: steps[0].arrows[0]: 6三→6五 is not a legal move in the diagram (step 「コツ3」)",
        ],
    );
}

#[test]
fn a_line_of_arrows_is_played_move_by_move() {
    // Two moves of the same side are not a line of play.
    let text = tutorial(
        r#"title: (ja: "線", en: "Line"), text: (ja: "2手。", en: "Two moves."),
        board: [".....S...", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "F...F...."], pieces_left_out: true,
        arrows: [(from: "9九", to: "9五"), (from: "5九", to: "5五")],"#,
    );
    assert_lines(
        &problems(HASAMI, &text),
        &[
            "levels/tutorials/hasami.ron: steps[0].arrows[1]: 5九→5五 is not a legal move after 9九→9五 (step 「線」)",
        ],
    );
}

#[test]
fn a_highlight_and_a_try_it_off_the_rules_are_named() {
    let text = tutorial(
        r#"title: (ja: "動き", en: "Moving"), text: (ja: "ななめへ。", en: "Diagonally."),
        board: [".........", ".........", ".........", ".........", "....F....", ".........", ".........", ".........", "S........"], pieces_left_out: true,
        highlights: ["0五"], expect: Some((from: "5五", to: "4四")), wrong: Some((ja: "ちがう", en: "No")),"#,
    );
    assert_lines(
        &problems(HASAMI, &text),
        &[
            "levels/tutorials/hasami.ron: steps[0].highlights: unknown point \"0五\" (step 「動き」)",
            "levels/tutorials/hasami.ron: steps[0].expect: 5五→4四 is not a legal move in the diagram (step 「動き」)",
        ],
    );
}

#[test]
fn a_highlight_on_an_empty_point_no_move_reaches_is_named() {
    let f = data::HASAMI_TUTORIAL;
    let text = mutated(f.text, "highlights: [\"5二\"],", "highlights: [\"5三\"],");
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/hasami.ron: steps[1].highlights: 5三 is empty and no move of the step goes there: a highlight marks a piece or where the step's move goes (step 「駒の動かし方」)",
        ],
    );
}

// 3. An answer that leaves open whether it promotes.

#[test]
fn the_promotion_step_must_ask_for_the_promotion() {
    let f = data::CHUSHOGI_TUTORIAL;
    let text = mutated(
        f.text,
        "expect: Some((from: \"6五\", to: \"6四\", promote: Some(true))),",
        "expect: Some((from: \"6五\", to: \"6四\")),",
    );
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/chushogi.ron: steps[2].expect: 6五→6四 may promote or not in the diagram: say which (`promote: Some(true)` or `Some(false)`) (step 「成る」)",
            "levels/tutorials/chushogi.ron: steps[2].expect: the title is about promotion, so the answer must promote (`promote: Some(true)`) (step 「成る」)",
        ],
    );
}

#[test]
fn a_problem_answer_must_be_the_promotion_its_text_names() {
    let f = data::CHUSHOGI_PROBLEMS;
    let text = mutated(
        f.text,
        "expect: Some((from: \"2八\", to: \"2一\", promote: Some(true))),",
        "expect: Some((from: \"2八\", to: \"2一\", promote: Some(false))),",
    );
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/problems/chushogi.ron: steps[1].expect: 2八→2一 (成らない) is not the move the engine would play: ☗2一竪行成(←2八) gains 365 more (it scores 544 against 179, read 4 plies deep; margin 150). Ask for a better move, or declare `mistake: true` if the step shows a mistake (step 「2. 初級・成って得をする」)",
            "levels/problems/chushogi.ron: steps[1].right.ja: the answer given, ☗2一竪行成(←2八), is not the move: that is ☗2一竪行不成(←2八) (step 「2. 初級・成って得をする」)",
            "levels/problems/chushogi.ron: steps[1].right.en: the answer given, ☗2一竪行成(←2八), is not the move: that is ☗2一竪行不成(←2八) (step 「2. 初級・成って得をする」)",
            "levels/problems/chushogi.ron: steps[1].expect: the title is about promotion, so the answer must promote (`promote: Some(true)`) (step 「2. 初級・成って得をする」)",
            // Not promoting, the answer's line is a material win.
            "levels/problems/chushogi.ron: steps[1].title: 「2. 初級・成って得をする」 does not fit the answer's line (not the words of its theme): ☗2一竪行不成(←2八) ☖10三竪行(←11三) ☗9十金将(←8十一) ☖10八竪行(←10三) ☗3五飛車(←3八): takes 猛豹, 歩兵, loses nothing (net 500). It should read 「2. 初級・駒得」 / \"2. Easy: Win material\" (step 「2. 初級・成って得をする」)",
            "levels/problems/chushogi.ron: steps[1].text: 「☗の番です。成りを使って、いちばん得をする手を見つけましょう。」 does not fit the answer's line (not the words of its theme): ☗2一竪行不成(←2八) ☖10三竪行(←11三) ☗9十金将(←8十一) ☖10八竪行(←10三) ☗3五飛車(←3八): takes 猛豹, 歩兵, loses nothing (net 500). It should read 「☗の番です。相手の駒をいちばん多く得する手を見つけましょう。」 / \"Sente (☗) to move. Find the move that wins the most material.\" (step 「2. 初級・成って得をする」)",
        ],
    );
}

#[test]
fn a_promotion_the_move_cannot_make_is_named() {
    let text = tutorial(
        r#"title: (ja: "歩", en: "Pawn"), text: (ja: "進む。", en: "Step."),
        board: ["11k", "12", "12", "12", "12", "12", "6P5", "12", "12", "12", "12", "5K6"],
        expect: Some((from: "6七", to: "6六", promote: Some(true))), wrong: Some((ja: "ちがう", en: "No")), pieces_left_out: true,"#,
    );
    assert_lines(
        &problems(CHU, &text),
        &[
            "levels/tutorials/chushogi.ron: steps[0].expect: 6七→6六 (成る) cannot promote in the diagram (step 「歩」)",
        ],
    );
}

// 4. A staged situation no game reaches.

#[test]
fn a_counter_strike_square_holding_a_lion_is_impossible() {
    // The old 先獅子 lesson: the square where the lion was just taken held
    // the enemy's 獅子 (a lion took the lion: no 先獅子 follows).
    let text = tutorial(
        r#"title: (ja: "先獅子", en: "Counter-strike"), text: (ja: "取れない。", en: "Not allowed."),
        board: ["11k", "12", "12", "6g5", "6n1b3", "12", "12", "12", "6R1R3", "12", "12", "K11", "6e"],
        expect: Some((from: "4九", to: "4五")), captures: Some(1), illegal: [(from: "6九", to: "6五")],
        wrong: Some((ja: "ちがう", en: "No")), pieces_left_out: true,"#,
    );
    assert_lines(
        &problems(LION, &text),
        &[
            "levels/lessons/chushogi_lion.ron: steps[0].expect: 4九→4五 is not the move the engine would play: ☗1九飛車(←4九) gains 1215 more (it scores -150 against -1365, read 4 plies deep; margin 150). Ask for a better move, or declare `mistake: true` if the step shows a mistake (step 「先獅子」)",
            "levels/lessons/chushogi_lion.ron: steps[0].board: the 先獅子 square 6五 holds ☖獅子: a lion that takes a lion leaves no 先獅子, so the square must hold the non-lion that took (step 「先獅子」)",
        ],
    );
}

#[test]
fn a_counter_strike_square_of_the_side_to_move_is_impossible() {
    let text = tutorial(
        r#"title: (ja: "先獅子", en: "Counter-strike"), text: (ja: "取れない。", en: "Not allowed."),
        board: ["11k", "12", "12", "12", "6G5", "12", "12", "12", "12", "12", "12", "K11", "6e"], pieces_left_out: true,"#,
    );
    assert_lines(
        &problems(LION, &text),
        &[
            "levels/lessons/chushogi_lion.ron: steps[0].board: the 先獅子 square 6五 holds ☗金将 of the side to move, not the piece that took its lion (step 「先獅子」)",
        ],
    );
}

// 5. A claim of the text that the move does not bear out.

#[test]
fn a_retreat_that_takes_two_must_say_so() {
    // 親のコツ3 without its claim: going back to d3 takes d4 and d2.
    let text = tutorial(
        r#"title: (ja: "親のコツ3", en: "Oya tip 3"), text: (ja: "もどる。", en: "Go back."),
        board: ["KK... .", "K..KK..", "....O..", "...KK..", "K.... ."],
        expect: Some((from: "e3", to: "d3")), wrong: Some((ja: "ちがう", en: "No")),"#,
    );
    assert_lines(
        &problems(MUSASHI, &text),
        &[
            "levels/tutorials/musashi.ron: steps[0].captures: e3→d3 takes 2 but the step does not say so: declare `captures: Some(2)` and say it in the text (step 「親のコツ3」)",
        ],
    );
}

#[test]
fn a_move_said_to_open_no_gap_that_opens_one_is_named() {
    // The old 子のコツ2: b5→b4 leaves b5 empty between a5 and c5.
    let text = tutorial(
        r#"title: (ja: "子のコツ2", en: "Ko tip 2"), text: (ja: "すき間はできません。", en: "No gap opens."),
        board: ["KKK.. .", "K......", "K..O...", ".......", "K.... ."], to_move: Second,
        expect: Some((from: "b5", to: "b4")), opens_gap: Some(false), wrong: Some((ja: "ちがう", en: "No")),"#,
    );
    assert_lines(
        &problems(MUSASHI, &text),
        &[
            "levels/tutorials/musashi.ron: steps[0].expect: b5→b4 is not the move the engine would play: c5-d4 gains 85 more (it scores 241 against 156, read 8 plies deep; margin 60). Ask for a better move, or declare `mistake: true` if the step shows a mistake (step 「子のコツ2」)",
            "levels/tutorials/musashi.ron: steps[0].opens_gap: b5→b4 opens a gap at b5 (step 「子のコツ2」)",
        ],
    );
}

#[test]
fn a_wrong_count_a_false_win_and_a_false_safety_are_named() {
    let f = data::HASAMI_TUTORIAL;
    let text = mutated(f.text, "captures: Some(3),", "captures: Some(2),");
    let text = mutated(
        &text,
        "captures: Some(0),\n            safe: Some(true),",
        "captures: Some(0),\n            safe: Some(false),",
    );
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/hasami.ron: steps[5].safe: after 5九→5五 the opponent cannot take anything (step 「自分から入っても取られない」)",
            "levels/tutorials/hasami.ron: steps[17].captures: 4九→4五 takes 3, not 2 (step 「コツ5 一列に並んだ駒をねらう」)",
        ],
    );
    let f = data::CHUSHOGI_TUTORIAL;
    let text = mutated(f.text, "wins: Some(false),", "wins: Some(true),");
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/chushogi.ron: steps[10].wins: 5九→5一 does not win at once (step 「太子」)",
        ],
    );
}

#[test]
fn a_repetition_draw_that_the_history_does_not_make_is_named() {
    let f = data::CHUSHOGI_TUTORIAL;
    // Two passes fewer: the lion's pass no longer makes a fourth occurrence.
    let text = mutated(
        f.text,
        r#"history: [(from: "7五", to: "7五"), (from: "7八", to: "7八"), (from: "7五", to: "7五"), (from: "7八", to: "7八"), (from: "7五", to: "7五")],"#,
        r#"history: [(from: "7五", to: "7五"), (from: "7八", to: "7八"), (from: "7五", to: "7五")],"#,
    );
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/chushogi.ron: steps[14].draws: 7八→7八 does not draw at once (step 「千日手: じっとを続けたとき」)",
        ],
    );
    // The rule read the other way (the side to move changes): its pass
    // would be refused, and the step says the pass does not draw.
    let text = mutated(f.text, "draws: Some(true),", "draws: Some(false),");
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/chushogi.ron: steps[14].draws: 7八→7八 draws at once (step 「千日手: じっとを続けたとき」)",
        ],
    );
}

#[test]
fn an_immovable_piece_that_can_move_is_named() {
    let f = data::CHUSHOGI_TUTORIAL;
    let text = mutated(f.text, "cannot_move: [\"9一\"],", "cannot_move: [\"6二\"],");
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/chushogi.ron: steps[6].cannot_move[0]: ☗歩兵 on 6二 can move: ☗6一歩兵不成(←6二) (step 「動けない駒」)",
        ],
    );
}

// 6. Unknown and missing fields.

#[test]
fn an_unknown_field_is_named_with_its_line() {
    let f = data::MUSASHI_TUTORIAL;
    let text = mutated(f.text, "captures: Some(6),", "capture: Some(6),");
    let found = problems(f.path, &text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("levels/tutorials/musashi.ron: line ") && found[0].contains("capture"),
        "{}",
        found[0]
    );
}

#[test]
fn a_missing_field_is_named() {
    let text = "Tutorial(title: (ja: \"t\", en: \"t\"), steps: [(title: (ja: \"a\", en: \"a\"), board: [])])";
    let found = problems(HASAMI, text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("levels/tutorials/hasami.ron: line 1, column ")
            && found[0].contains("text"),
        "{}",
        found[0]
    );
    let text = tutorial(
        r#"title: (ja: "動き", en: "Moving"), text: (ja: "進む。", en: ""),
        board: [".........", ".........", ".........", ".........", "....F....", ".........", ".........", ".........", "S........"],
        pieces_left_out: true, expect: Some((from: "5五", to: "5四")),"#,
    );
    assert_lines(
        &problems(HASAMI, &text),
        &[
            "levels/tutorials/hasami.ron: steps[0].text: both the Japanese and the English text are needed (step 「動き」)",
            "levels/tutorials/hasami.ron: steps[0]: a step with `expect` needs a `wrong` text (step 「動き」)",
        ],
    );
}

#[test]
fn a_file_the_program_does_not_read_is_named() {
    assert_lines(
        &problems("levels/tutorials/chess.ron", "Tutorial()"),
        &[
            "levels/tutorials/chess.ron: file: not a level file the program reads (no check knows it)",
        ],
    );
}

// 6. A diagram that is not a game going on: finished, or with pieces left
// out, unless the step says so.

#[test]
fn a_diagram_of_a_finished_game_is_named_unless_the_step_shows_that_end() {
    let f = data::FOXGEESE_TUTORIAL;
    // 6 geese: the fox has already won under the standard rules.
    let text = mutated(f.text, "\n            shows_end: Some(Won(Second)),", "");
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/foxgeese.ron: steps[11].board: the game is already over here under the rules the tutorial is played with: きつね has won (CaptureTarget). A diagram shows a game still going on, unless the step declares the end it shows (`shows_end`) (step 「きつねの勝ち」)",
        ],
    );
    // The wrong winner, and an end declared on a game that goes on.
    let text = mutated(
        f.text,
        "shows_end: Some(Won(Second)),",
        "shows_end: Some(Won(First)),",
    );
    let text = mutated(
        &text,
        "highlights: [\"b4\", \"c4\", \"d4\", \"e4\", \"f4\"],",
        "highlights: [\"b4\", \"c4\", \"d4\", \"e4\", \"f4\"], shows_end: Some(Drawn),",
    );
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/foxgeese.ron: steps[11].shows_end: the step says Won(First), but the game there: きつね has won (CaptureTarget) (step 「きつねの勝ち」)",
            "levels/tutorials/foxgeese.ron: steps[12].shows_end: the step says the game is over, but under the rules it is played with it goes on (step 「がちょうのコツ1 2列でかためて進む」)",
        ],
    );
}

#[test]
fn a_move_that_ends_the_game_must_say_so() {
    let f = data::MUSASHI_TUTORIAL;
    // Six ko taken leave two: the 親 wins.
    let text = mutated(
        f.text,
        "captures: Some(6),\n            wins: Some(true),",
        "captures: Some(6),",
    );
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/musashi.ron: steps[4].wins: b2→c3 ends the game (親 has won (CaptureTarget)) but the step does not say so: declare `wins` or `draws` and say it in the text (step 「何組もいっぺんに」)",
        ],
    );
}

#[test]
fn arrows_that_play_on_after_the_end_are_named() {
    // The 親 takes d4 and d2, leaving four ko: the game is over.
    let text = tutorial(
        r#"title: (ja: "親のコツ3", en: "Oya tip 3"), text: (ja: "もどる。", en: "Go back."),
        board: ["K.... .", "...KK..", "....O..", "...KK..", "K.... ."],
        arrows: [(from: "e3", to: "d3"), (from: "a5", to: "b5")],"#,
    );
    assert_lines(
        &problems(MUSASHI, &text),
        &[
            "levels/tutorials/musashi.ron: steps[0].arrows[1]: the game is over after e3→d3: 親 has won (CaptureTarget), but the arrows play on (step 「親のコツ3」)",
        ],
    );
}

#[test]
fn a_diagram_that_leaves_pieces_out_must_say_so() {
    let f = data::HASAMI_TUTORIAL;
    let text = mutated(
        f.text,
        "\n            pieces_left_out: true,\n            highlights: [\"5二\"],",
        "\n            highlights: [\"5二\"],",
    );
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/hasami.ron: steps[1].board: the diagram leaves pieces out (先手(歩) has 1 on the board or taken by the other, of the 9 it starts with; 後手(と) has 1 on the board or taken by the other, of the 9 it starts with): add them, or declare `pieces_left_out: true` (the step then says 「この図では駒を省いています」) (step 「駒の動かし方」)",
        ],
    );
    // Saying so of a diagram that holds every piece is named too.
    let text = mutated(
        f.text,
        "start: Some(false),",
        "start: Some(false), pieces_left_out: true,",
    );
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/hasami.ron: steps[14].pieces_left_out: the step says pieces are left out, but the diagram holds every piece a game would (step 「コツ2 駒をばらばらにしない」)",
        ],
    );
    // More 子 than a game starts with: no game reaches it.
    let text = tutorial(
        r#"title: (ja: "子", en: "Ko"), text: (ja: "子。", en: "Ko."),
        board: ["KKKKK .", "K...K..", "K.O.K..", "K...K..", "KKKKK K"],"#,
    );
    assert_lines(
        &problems(MUSASHI, &text),
        &[
            "levels/tutorials/musashi.ron: steps[0].board: 17 子, more than the 16 a game starts with (step 「子」)",
            "levels/tutorials/musashi.ron: steps[0].board: the diagram leaves pieces out (17 子: the 親 takes them in pairs, so a game always has an even number): add them, or declare `pieces_left_out: true` (the step then says 「この図では駒を省いています」) (step 「子」)",
        ],
    );
    // 子 are taken in pairs: an odd number is a diagram with one left out.
    let text = tutorial(
        r#"title: (ja: "子", en: "Ko"), text: (ja: "子。", en: "Ko."),
        board: ["KKK.. .", "K......", "K..O...", ".......", "K...K ."],"#,
    );
    assert_lines(
        &problems(MUSASHI, &text),
        &[
            "levels/tutorials/musashi.ron: steps[0].board: the diagram leaves pieces out (7 子: the 親 takes them in pairs, so a game always has an even number): add them, or declare `pieces_left_out: true` (the step then says 「この図では駒を省いています」) (step 「子」)",
        ],
    );
}

#[test]
fn a_sparse_or_overfull_chu_diagram_is_named() {
    // Five pieces: a set-up, which must say it leaves pieces out.
    let f = data::CHUSHOGI_LION_LESSONS;
    let text = mutated(f.text, "            pieces_left_out: true,\n", "");
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/lessons/chushogi_lion.ron: steps[0].board: the diagram leaves pieces out (5 pieces on the board: under 13, a diagram is taken as set up, not played): add them, or declare `pieces_left_out: true` (the step then says 「この図では駒を省いています」) (step 「居食い」)",
        ],
    );
    // Three silvers for one side: no game has them (no drops, and a
    // promoted piece still counts as what it was).
    let f = data::CHUSHOGI_TUTORIAL;
    let text = mutated(f.text, "\"5STS4\"", "\"5SSS4\"");
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/chushogi.ron: steps[8].board: 先手 has 3 銀将 (promoted or not), more than the 2 it starts with (step 「居食い」)",
        ],
    );
}

#[test]
fn more_geese_than_the_rules_of_the_step_is_named() {
    let f = data::FOXGEESE_TUTORIAL;
    // 17 geese under the tutorial's 13-goose rules.
    let text = mutated(f.text, "            geese: Some(17),\n", "");
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/foxgeese.ron: steps[1].board: 17 geese, more than the 13 the rules it is played under start with: name the rules the diagram shows (`geese: Some(15)` or `Some(17)`) (step 「15羽と17羽」)",
        ],
    );
    // The rules named must hold them, and be rules that exist.
    let text = mutated(f.text, "geese: Some(17)", "geese: Some(15)");
    let text = mutated(&text, "geese: Some(17)", "geese: Some(16)");
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/foxgeese.ron: steps[1].board: 17 geese, more than the 15 of the rules the step names (`geese: Some(15)`) (step 「15羽と17羽」)",
            "levels/tutorials/foxgeese.ron: steps[18].board: the step names 16 geese: the rules have 13, 15 or 17 (step 「ルールの違い」)",
        ],
    );
    // Another game's step names no goose count.
    let text = tutorial(
        r#"title: (ja: "子", en: "Ko"), text: (ja: "子。", en: "Ko."),
        board: ["KKK.. .", "K......", "K..O...", ".......", "K.... ."], geese: Some(17),"#,
    );
    assert_lines(
        &problems(MUSASHI, &text),
        &[
            "levels/tutorials/musashi.ron: steps[0].geese: only きつねとがちょう's steps name a goose count (step 「子」)",
        ],
    );
}

#[test]
fn a_hasami_diagram_carries_its_captures_and_a_lead_that_has_won_is_named() {
    let f = data::HASAMI_TUTORIAL;
    // Without its captures the と side has three pieces missing.
    // (The numbers its text states are then wrong too.)
    let text = mutated(f.text, "captured: (3, 0),", "captured: (0, 0),");
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/hasami.ron: steps[18].board: the diagram leaves pieces out (後手(と) has 6 on the board or taken by the other, of the 9 it starts with): add them, or declare `pieces_left_out: true` (the step then says 「この図では駒を省いています」) (step 「コツ6 3枚差がついたら」)",
            "levels/tutorials/hasami.ron: steps[18].text: the text says 3 (what 先手(歩) has taken), but the diagram gives 0 (step 「コツ6 3枚差がついたら」)",
            "levels/tutorials/hasami.ron: steps[18].text: the text says 2 (a lead), but the diagram gives 0 or 1 (step 「コツ6 3枚差がついたら」)",
        ],
    );
    // Counted with the pieces on the board, more than a side starts with
    // (the diagram's reader refuses it).
    let text = mutated(f.text, "captured: (3, 0),", "captured: (4, 0),");
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/hasami.ron: steps[18].board: Second has 6 pieces on the board and 4 captured: more than 9 (step 「コツ6 3枚差がついたら」)",
        ],
    );
    // With the leader to move, its lead has survived the reply: it has won.
    let text = mutated(
        f.text,
        "captured: (3, 0),\n            to_move: Second,",
        "captured: (3, 0),",
    );
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/hasami.ron: steps[18].board: the game is already over here under the rules the tutorial is played with: 先手(歩) has won (Lead). A diagram shows a game still going on, unless the step declares the end it shows (`shows_end`) (step 「コツ6 3枚差がついたら」)",
            "levels/tutorials/hasami.ron: steps[18].arrows[0]: 6一→6五 is not a legal move in the diagram (step 「コツ6 3枚差がついたら」)",
            "levels/tutorials/hasami.ron: steps[18].text: the text says 2 (a lead), but the diagram gives 3 (step 「コツ6 3枚差がついたら」)",
        ],
    );
    // Another game's diagram carries no captures.
    let text = tutorial(
        r#"title: (ja: "子", en: "Ko"), text: (ja: "子。", en: "Ko."),
        board: ["KKK.. .", "K......", "K..O...", ".......", "K.... ."], captured: (2, 0),"#,
    );
    assert_lines(
        &problems(MUSASHI, &text),
        &[
            "levels/tutorials/musashi.ron: steps[0].board: only はさみ将棋's diagrams carry captures (`captured`): here what a side has lost is what is missing from the board (step 「子」)",
        ],
    );
}

// Moves the engine would play.

/// A goose step that asks for c3→c4, next to the fox on d4, which then
/// jumps it to b4; `extra` adds fields.
fn hanging_goose(extra: &str) -> String {
    tutorial(&format!(
        r#"title: (ja: "がちょう", en: "Geese"), text: (ja: "c3を前へ。", en: "c3 forward."),
        board: ["  ...  ", "  ...  ", ".......", "...F...", "GGGGGGG", "  GGG  ", "  GGG  "],
        expect: Some((from: "c3", to: "c4")),
        wrong: Some((ja: "c3をc4へ。", en: "c3 to c4.")), {extra}"#
    ))
}

#[test]
fn an_asked_move_that_loses_a_piece_is_named_with_the_better_move() {
    assert_lines(
        &problems(FOXGEESE, &hanging_goose("")),
        &[
            "levels/tutorials/foxgeese.ron: steps[0].expect: c3→c4 is not the move the engine would play: a3-a4 gains 128 more (it scores 1293 against 1165, read 8 plies deep; margin 60). Ask for a better move, or declare `mistake: true` if the step shows a mistake (step 「がちょう」)",
        ],
    );
    // Declared as the mistake it is, the same step passes.
    assert_lines(&problems(FOXGEESE, &hanging_goose("mistake: true,")), &[]);
    // The loaders leave the engine's reading out: the app starts quickly.
    assert!(data::foxgeese_tutorial_from(FOXGEESE, &hanging_goose("")).is_ok());
}

#[test]
fn a_good_move_declared_a_mistake_is_named() {
    let text = tutorial(
        r#"title: (ja: "がちょう", en: "Geese"), text: (ja: "b3を前へ。", en: "b3 forward."),
        board: ["  ...  ", "  ...  ", ".......", "...F...", "GGGGGGG", "  GGG  ", "  GGG  "],
        expect: Some((from: "b3", to: "b4")), mistake: true,
        wrong: Some((ja: "b3をb4へ。", en: "b3 to b4.")),"#,
    );
    let found = problems(FOXGEESE, &text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("levels/tutorials/foxgeese.ron: steps[0].mistake: the step says b3→b4 is a mistake, but the engine finds it within 60 of the best"),
        "{found:?}"
    );
}

// A problem's words come from what its answer's line does.

const PROBLEMS: &str = "levels/problems/chushogi.ron";

#[test]
fn a_material_title_on_a_line_that_only_prepares_a_promotion_is_named() {
    let f = data::CHUSHOGI_PROBLEMS;
    let text = mutated(
        f.text,
        "title: (ja: \"59. 上級・成りをねらう\", en: \"59. Hard: Prepare a promotion\"),\n            text: (ja: \"☗の番です。次の手で成れるようにする手を見つけましょう(前へ進む手とは限りません)。\", en: \"Sente (☗) to move. Find the move that makes a promotion possible on your next move (it need not go forward).\"),",
        "title: (ja: \"59. 上級・駒得\", en: \"59. Hard: Win material\"),\n            text: (ja: \"☗の番です。相手の駒をいちばん多く得する手を見つけましょう。\", en: \"Sente (☗) to move. Find the move that wins the most material.\"),",
    );
    assert_lines(
        &problems(PROBLEMS, &text),
        &[
            "levels/problems/chushogi.ron: steps[58].title: 「59. 上級・駒得」 does not fit the answer's line (「駒得」, but the line is not a material win (net 0, 100 needed, or another theme comes first)): ☗3十竪行(←2十) ☖10三龍王(←3三) ☗3四竪行成(←3十) ☖10九龍王成(←10三): takes nothing, loses nothing (net 0); promotes on ply 3. It should read 「59. 上級・成りをねらう」 / \"59. Hard: Prepare a promotion\" (step 「59. 上級・駒得」)",
            "levels/problems/chushogi.ron: steps[58].text: 「☗の番です。相手の駒をいちばん多く得する手を見つけましょう。」 does not fit the answer's line (not the words of its theme): ☗3十竪行(←2十) ☖10三龍王(←3三) ☗3四竪行成(←3十) ☖10九龍王成(←10三): takes nothing, loses nothing (net 0); promotes on ply 3. It should read 「☗の番です。次の手で成れるようにする手を見つけましょう(前へ進む手とは限りません)。」 / \"Sente (☗) to move. Find the move that makes a promotion possible on your next move (it need not go forward).\" (step 「59. 上級・駒得」)",
        ],
    );
}

#[test]
fn a_sequence_worded_on_a_king_en_prise_is_named() {
    let f = data::CHUSHOGI_PROBLEMS;
    let text = mutated(
        f.text,
        "text: (ja: \"☗の番です。相手の王が取れます。王を取る手を見つけましょう(王手をかけなくても、王を取れば勝ちです)。\", en: \"Sente (☗) to move. The enemy king can be taken now: find the move that takes it (taking the king wins; no check needs to be announced).\"),",
        "text: (ja: \"☗の番です。相手の王を取れる手順があります。その1手目を見つけましょう(王手をかけなくても、王を取れば勝ちです)。\", en: \"Sente (☗) to move. You can take the enemy king by force. Find the first move (taking the king wins; no check needs to be announced).\"),",
    );
    assert_lines(
        &problems(PROBLEMS, &text),
        &[
            "levels/problems/chushogi.ron: steps[9].text: 「☗の番です。相手の王を取れる手順があります。その1手目を見つけましょう(王手をかけなくても、王を取れば勝ちです)。」 does not fit the answer's line (「手順」, but the king stands en prise: the answer itself takes it): ☗5二成竪行(←4二): wins the game on ply 1 (RoyalsTaken); takes nothing, loses nothing (net 0). It should read 「☗の番です。相手の王が取れます。王を取る手を見つけましょう(王手をかけなくても、王を取れば勝ちです)。」 / \"Sente (☗) to move. The enemy king can be taken now: find the move that takes it (taking the king wins; no check needs to be announced).\" (step 「10. 初級・王を取る」)",
        ],
    );
}

#[test]
fn a_wrong_count_of_moves_to_the_king_is_named() {
    let f = data::CHUSHOGI_PROBLEMS;
    let text = mutated(f.text, "41. 中級・3手で王を取る", "41. 中級・5手で王を取る");
    assert_lines(
        &problems(PROBLEMS, &text),
        &[
            "levels/problems/chushogi.ron: steps[40].title: 「41. 中級・5手で王を取る」 does not fit the answer's line (「5手」, but the line wins in 3): ☗6三成獅子(←7三←8四) ☖10二銅将(←10一) ☗6一成獅子(←6三): wins the game on ply 3 (RoyalsTaken); takes 飛車, loses nothing (net 950). It should read 「41. 中級・3手で王を取る」 / \"41. Medium: Take the king on your 2nd move\" (step 「41. 中級・5手で王を取る」)",
        ],
    );
    // A problem out of its place: its number is not its place in the file.
    let text = mutated(
        f.text,
        "\"41. 中級・3手で王を取る\"",
        "\"40. 中級・3手で王を取る\"",
    );
    let found = problems(PROBLEMS, &text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("It should read 「41. 中級・3手で王を取る」"),
        "{found:?}"
    );
}

#[test]
fn the_problems_words_fit_their_lines() {
    let f = data::CHUSHOGI_PROBLEMS;
    assert_lines(&problems(f.path, f.text), &[]);
}

// The real files.

#[test]
fn the_real_level_files_pass() {
    let report = content::check_compiled(content::Depth::Quick);
    assert!(report.problems.is_empty(), "{}", report.lines().join("\n"));
    assert_eq!(report.files, data::level_files().len());
    assert!(report.items > 250, "{} items", report.items);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    let on_disk = content::check_dir(&dir, content::Depth::Quick).unwrap();
    assert!(
        on_disk.problems.is_empty(),
        "{}",
        on_disk.lines().join("\n")
    );
    assert_eq!((on_disk.files, on_disk.items), (report.files, report.items));
}

#[test]
fn a_repetition_step_without_its_history_forbids_nothing() {
    // Cut to two rounds of check and escape, the check on 5一 makes only
    // the third occurrence: the step's `illegal` move is legal.
    let f = data::CHUSHOGI_TUTORIAL;
    let text = mutated(
        f.text,
        "history: [(from: \"1一\", to: \"1二\"), (from: \"5一\", to: \"5二\"), (from: \"1二\", to: \"1一\"), (from: \"5二\", to: \"5一\"), ",
        "history: [",
    );
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/chushogi.ron: steps[12].illegal[0]: 5二→5一 is legal in this step's diagram (step 「千日手」)",
        ],
    );
    // A history move that is not legal is named.
    let text = mutated(
        f.text,
        "history: [(from: \"1一\", to: \"1二\"),",
        "history: [(from: \"1一\", to: \"3三\"),",
    );
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/chushogi.ron: steps[12].history[0]: 1一→3三 is not a legal move in the diagram (step 「千日手」)",
        ],
    );
}

// Numbers a text states about its diagram.

#[test]
fn captures_a_lead_and_pieces_stated_in_a_text_are_the_diagrams() {
    // The captures so far, as the diagram carries them (3 and 0).
    let f = data::HASAMI_TUTORIAL;
    let text = mutated(f.text, "歩が3枚、「と」が0枚", "歩が4枚、「と」が0枚");
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/hasami.ron: steps[18].text: the text says 4 (what 先手(歩) has taken), but the diagram gives 3 (step 「コツ6 3枚差がついたら」)",
            "levels/tutorials/hasami.ron: steps[18].text: the Japanese text says 4 (what 先手(歩) has taken) but the English text does not (step 「コツ6 3枚差がついたら」)",
        ],
    );
    // The lead after the と takes back: 2, not the 3 of the diagram.
    let text = mutated(f.text, "差は2枚になって", "差は1枚になって");
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/hasami.ron: steps[18].text: the text says 1 (a lead), but the diagram gives 2 or 3 (step 「コツ6 3枚差がついたら」)",
            "levels/tutorials/hasami.ron: steps[18].text: the Japanese text says 1 (a lead) but the English text does not (step 「コツ6 3枚差がついたら」)",
        ],
    );
    // What the move takes, after it.
    let text = mutated(f.text, "横と縦で2枚取れました", "横と縦で3枚取れました");
    let found = problems(f.path, &text);
    assert!(
        found
            .iter()
            .any(|l| l
                .contains("right: the text says 3 (what the move takes), but the diagram gives 2")),
        "{found:?}"
    );
    // The geese on the board: 9 before the fox's jump, 8 after.
    let f = data::FOXGEESE_TUTORIAL;
    let text = mutated(
        f.text,
        "d4のきつねで、d3のがちょうを跳んでみましょう。",
        "この図ではがちょうが7羽です。d4のきつねで、d3のがちょうを跳んでみましょう。",
    );
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/foxgeese.ron: steps[4].text: the text says 7 (がちょう's pieces on the board), but the diagram gives 8 or 9 (step 「きつねは跳びこして取る」)",
            "levels/tutorials/foxgeese.ron: steps[4].text: the Japanese text says 7 (がちょう's pieces on the board) but the English text does not (step 「きつねは跳びこして取る」)",
        ],
    );
}

#[test]
fn points_and_a_lead_stated_in_a_text_are_the_diagrams() {
    let f = data::CHUSHOGI_TUTORIAL;
    // The swing of taking the lion is not the lead (9.0).
    let text = mutated(f.text, "9.0点のリードです", "19.1点のリードです");
    let found = problems(f.path, &text);
    assert!(
        found
            .iter()
            .any(|l| l.contains("right: the text says 19.1 (a lead), but the diagram gives 9")),
        "{found:?}"
    );
    // A side's points before the move.
    let text = mutated(
        f.text,
        "いまは☗18.5点、☖28.6点です",
        "いまは☗18.5点、☖27.6点です",
    );
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/chushogi.ron: steps[15].text: the text says 27.6 (後手's points), but the diagram gives 9.5 or 28.6 (step 「打ち切りと点数」)",
            "levels/tutorials/chushogi.ron: steps[15].text: the Japanese text says 27.6 (後手's points) but the English text does not (step 「打ち切りと点数」)",
        ],
    );
    // What would have happened: ☖ ahead after another move (taking the
    // rook), not after the one played.
    let text = mutated(f.text, "☖が0.6点のリードでした", "☖が1.6点のリードでした");
    let found = problems(f.path, &text);
    assert!(
        found
            .iter()
            .any(|l| l.contains("right: the text says 1.6 (後手's lead), but the diagram gives")),
        "{found:?}"
    );
    // The English states the same number.
    let f = data::MUSASHI_TUTORIAL;
    let text = mutated(
        f.text,
        "the oya took the two ko on b4 and d4",
        "the oya took b4 and d4",
    );
    assert_lines(
        &problems(f.path, &text),
        &[
            "levels/tutorials/musashi.ron: steps[3].right: the Japanese text says 2 (what the move takes) but the English text does not (step 「すき間に入れば必ず取る」)",
        ],
    );
}

// A mate problem played as a line (詰め中将棋).

#[test]
fn a_mate_problem_s_line_must_be_legal_win_and_be_as_long_as_its_text_says() {
    let f = data::CHUSHOGI_TSUME;
    let first = "line: [\"10d7d\", \"5b4a\", \"6e6c\", \"4a5a\", \"4c4b+\", \"10h4b\", \"6c5b\", \"7a7b\", \"5b5a\"]";
    assert!(problems(f.path, f.text).is_empty());
    let illegal = mutated(f.text, "[\"10d7d\", \"5b4a\"", "[\"12l12k\", \"5b4a\"");
    assert_lines(
        &problems(f.path, &illegal),
        &[
            "levels/problems/chushogi_tsume.ron: steps[0].line[0]: \"12l12k\" is not one legal move here (step 「絹篩 第1問」)",
        ],
    );
    let short = mutated(f.text, first, &first.replace(", \"5b5a\"]", "]"));
    assert_lines(
        &problems(f.path, &short),
        &[
            "levels/problems/chushogi_tsume.ron: steps[0].line: jcsa: the line ends before the defender's royals are taken; lishogi: the line ends before the defender's royals are taken (step 「絹篩 第1問」)",
            "levels/problems/chushogi_tsume.ron: steps[0].line: the texts state a mate in [7, 7], but the line mates in 6 (its plies less the last reply and the capture) (step 「絹篩 第1問」)",
        ],
    );
    let said = mutated(
        &mutated(f.text, "7手詰です。", "5手詰です。"),
        "Mate in 7.",
        "Mate in 5.",
    );
    assert_lines(
        &problems(f.path, &said),
        &[
            "levels/problems/chushogi_tsume.ron: steps[0].line: the texts state a mate in [5, 5], but the line mates in 7 (its plies less the last reply and the capture) (step 「絹篩 第1問」)",
        ],
    );
    let both = mutated(
        f.text,
        first,
        &format!("{first}, expect: Some((from: \"10四\", to: \"7四\"))"),
    );
    // (The answer asked for is read by the engine as well.)
    let found = problems(f.path, &both);
    assert!(
        found.iter().any(|p| p
            == "levels/problems/chushogi_tsume.ron: steps[0].line: a step asks for a move (expect) or for a line, not both (step 「絹篩 第1問」)"),
        "{found:#?}"
    );
}

/// The answer's line given as the problems file had it, each with the
/// defect the mate solver finds there: 23 let 後手 take the king by force
/// (its 奔王 on 5九 began the mate; the diagram now leaves it out), 27 and
/// 36 asked for material where 先手 takes the king by force.
#[test]
fn an_answer_that_allows_or_misses_a_forced_king_capture_is_named() {
    let f = data::CHUSHOGI_PROBLEMS;
    let allows = mutated(
        f.text,
        r#""7r1N2", "11g", "12", "11T", "6F5", "2K9"],
            pieces_left_out: true,"#,
        r#""7r1N2", "11g", "7q4", "11T", "6F5", "2K9"],"#,
    );
    let found = problems(PROBLEMS, &allows);
    assert!(
        found.iter().any(|l| l.contains(
            "steps[22].expect: after 3七→1六 the opponent takes the king by force: ☖8十二奔王(←5九)"
        ) && l.contains("☗5九獅子(←3七) avoids it")),
        "{found:#?}"
    );
    for (step, answer, mate) in [
        (
            26,
            r#"expect: Some((from: "6五", to: "8三")),"#,
            "steps[26].expect: 6五→5五→5四 does not take the king, but 先手 takes it by force: ☗8三獅子(←6五)",
        ),
        (
            35,
            r#"expect: Some((from: "3十一", to: "3一")),"#,
            "steps[35].expect: 9四→8四→7三 does not take the king, but 先手 takes it by force: ☗3一奔王(←3十一)",
        ),
    ] {
        let (from, via, to) = if step == 26 {
            ("6五", "5五", "5四")
        } else {
            ("9四", "8四", "7三")
        };
        let old = format!(r#"expect: Some((from: "{from}", to: "{to}", via: Some("{via}"))),"#);
        let found = problems(PROBLEMS, &mutated(f.text, answer, &old));
        assert!(found.iter().any(|l| l.contains(mate)), "{found:#?}");
    }
}
