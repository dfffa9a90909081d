//! 千日手: the fourth occurrence is a draw, and each of the four rules for
//! the side that must change its moves.

use yorimichi::rules::chu::Profile;
use yorimichi::rules::chu::game::{Chu, ChuRules};
use yorimichi::rules::chu::moves::{ChuMove, parse_usi};
use yorimichi::rules::chu::position::ChuPosition;
use yorimichi::rules::chu::repetition::{ChuHistory, Cycle};
use yorimichi::rules::game::{EndReason, Side};
use yorimichi::rules::record::GameRecord;

/// A history from `sfen` after playing `cycle` (USI moves) round and round
/// until `plies` moves have been played.
fn after(sfen: &str, cycle: &[&str], plies: usize) -> ChuHistory {
    let mut h = ChuHistory::new(ChuPosition::from_sfen(sfen).unwrap());
    for i in 0..plies {
        let text = cycle[i % cycle.len()];
        let mv = parse_usi(h.current(), text).unwrap_or_else(|e| panic!("ply {}: {e}", i + 1));
        h.play(mv).unwrap_or_else(|e| panic!("ply {}: {e}", i + 1));
    }
    h
}

fn next(h: &ChuHistory, text: &str) -> ChuMove {
    parse_usi(h.current(), text).unwrap()
}

#[test]
fn the_side_giving_continuous_check_must_change() {
    // 後手's king shuttles 1b–1a; 先手's rook follows it with check.
    let sfen = "12/7R3k/12/12/12/12/12/12/12/12/12/K11 w - 1";
    let cycle = ["1b1a", "5b5a", "1a1b", "5a5b"];
    let h = after(sfen, &cycle, 11);
    assert_eq!(h.occurrences(h.current().key()), 3);
    let rook_back = next(&h, "5a5b");
    assert_eq!(h.must_change(rook_back), Some(Side::First));
    assert!(!h.legal_moves().contains(&rook_back));
    assert!(!h.is_repetition_draw(), "the rook has other moves");
    // Playing it anyway is refused with a message.
    let mut refused = h.clone();
    assert!(
        refused
            .play(rook_back)
            .unwrap_err()
            .contains("not a legal move")
    );

    // Begun one move later, it is the king's step that would make the
    // fourth occurrence: that is allowed, and the fourth occurrence is a
    // draw. A 後手 silver and a 先手 pawn attack each other all along, so
    // only the check tells the sides apart (rule 4 would name 後手, the
    // mover).
    let sfen = "12/7R3k/12/12/3s8/3P8/12/12/12/12/12/K11 w - 1";
    let cycle = ["1b1a", "5b5a", "1a1b", "5a5b"];
    let h = after(sfen, &cycle, 1);
    let start = h.current().to_sfen();
    let cycle = ["5b5a", "1a1b", "5a5b", "1b1a"];
    let mut h = after(&start, &cycle, 11);
    let king_back = next(&h, "1b1a");
    assert_eq!(h.must_change(king_back), Some(Side::First));
    assert!(h.legal_moves().contains(&king_back));
    assert!(!h.is_repetition_draw());
    h.play(king_back).unwrap();
    assert_eq!(h.occurrences(h.current().key()), 4);
    assert!(h.is_repetition_draw(), "the fourth occurrence is a draw");
    assert!(h.legal_moves().is_empty(), "the game is over");
}

#[test]
fn a_fourth_occurrence_made_by_the_other_side_draws_the_game() {
    // The rook checks 後手's king round and round; the king's step makes
    // the fourth occurrence. On the play screen's record the game ends
    // there, drawn.
    let game = Chu::new(ChuRules {
        profile: Profile::Jcsa,
    });
    let sfen = "11k/7R4/12/12/3s8/3P8/12/12/12/12/12/K11 b - 1";
    let mut record = GameRecord::from_position(&game, ChuPosition::from_sfen(sfen).unwrap());
    let cycle = ["5b5a", "1a1b", "5a5b", "1b1a"];
    for i in 0..12 {
        assert!(record.outcome(&game).is_none(), "ply {i}");
        let mv = parse_usi(record.current(), cycle[i % 4]).unwrap();
        record.play(&game, mv).unwrap();
    }
    assert_eq!(record.occurrences_of_current(), 4);
    let outcome = record.outcome(&game).expect("千日手");
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.reason, EndReason::Repetition);
}

#[test]
fn a_prince_checked_again_and_again_is_continuous_check() {
    // As above, but the rook chases 後手's 太子 while its king stands
    // aside: checking the 太子 is check, so 先手 must change, and the
    // 太子's step to the fourth occurrence is allowed (a draw).
    let sfen = "11+e/7R4/12/12/3s8/3P8/12/k11/12/12/12/K11 b - 1";
    let cycle = ["5b5a", "1a1b", "5a5b", "1b1a"];
    let h = after(sfen, &cycle, 11);
    let prince_back = next(&h, "1b1a");
    assert_eq!(h.must_change(prince_back), Some(Side::First));
    assert!(h.legal_moves().contains(&prince_back));
    // Begun with the 太子's step, the rook's would be the fourth:
    // forbidden to 先手.
    let sfen = "12/7R3+e/12/12/3s8/3P8/12/k11/12/12/12/K11 w - 1";
    let h = after(sfen, &["1b1a", "5b5a", "1a1b", "5a5b"], 11);
    let rook_back = next(&h, "5a5b");
    assert_eq!(h.must_change(rook_back), Some(Side::First));
    assert!(!h.legal_moves().contains(&rook_back));
}

#[test]
fn the_cycle_ahead_names_who_must_change_and_whose_move_repeats() {
    // Shuffling golds: the side to move at the fourth occurrence (後手)
    // must change, and it is its own move that would repeat.
    let sfen = "11k/12/11g/12/12/12/12/12/12/G11/12/K11 b - 1";
    let cycle = ["12j11j", "1c2c", "11j12j", "2c1c"];
    let h = after(sfen, &cycle, 7);
    assert_eq!(h.cycle_ahead(), None, "the current position: twice");
    let h = after(sfen, &cycle, 8);
    assert_eq!(
        h.cycle_ahead(),
        Some(Cycle {
            must_change: Side::Second,
            fourth_by: Side::Second
        })
    );
    // The rook's continuous check begun so that the king's step repeats:
    // 先手 must change, or 後手's move makes the fourth occurrence.
    let sfen = "11k/7R4/12/12/3s8/3P8/12/12/12/12/12/K11 b - 1";
    let h = after(sfen, &["5b5a", "1a1b", "5a5b", "1b1a"], 8);
    assert_eq!(
        h.cycle_ahead(),
        Some(Cycle {
            must_change: Side::First,
            fourth_by: Side::Second
        })
    );
    // lishogi asks no one to change.
    let mut h = ChuHistory::new_in(Profile::Lishogi, ChuPosition::from_sfen(sfen).unwrap());
    for i in 0..8 {
        let mv = parse_usi(h.current(), ["5b5a", "1a1b", "5a5b", "1b1a"][i % 4]).unwrap();
        h.play(mv).unwrap();
    }
    assert_eq!(h.cycle_ahead(), None);
}

#[test]
fn else_the_side_attacking_a_piece_throughout_must_change() {
    // 後手's gold shuttles 1b–1a; 先手's rook keeps attacking it (no check:
    // 後手's king is on 12c, out of the rook's lines).
    let sfen = "12/7R3g/k11/12/12/12/12/12/12/12/12/11K w - 1";
    let cycle = ["1b1a", "5b5a", "1a1b", "5a5b"];
    let h = after(sfen, &cycle, 11);
    let rook_back = next(&h, "5a5b");
    assert_eq!(h.must_change(rook_back), Some(Side::First));
    assert!(!h.legal_moves().contains(&rook_back));
}

#[test]
fn in_mutual_jitto_the_side_that_began_must_change() {
    // Two lions three squares apart pass with じっと in turn; 先手 began.
    let sfen = "11k/12/12/12/6n5/12/12/6N5/12/12/12/K11 b - 1";
    let cycle = ["6h6g6h", "6e6f6e"];
    let mut h = after(sfen, &cycle, 5);
    // 後手's じっと makes the start's fourth occurrence: 先手 must change,
    // so it is allowed, and the fourth occurrence draws the game.
    let gote = next(&h, "6e6f6e");
    assert_eq!(h.must_change(gote), Some(Side::First));
    assert!(h.legal_moves().contains(&gote));
    h.play(gote).unwrap();
    assert!(h.is_repetition_draw());
    // Begun by 後手 instead, 先手's じっと would be the fourth: 後手 began,
    // so 後手 must change, and 先手 may pass.
    let h = after(&sfen.replace(" b ", " w "), &["6e6f6e", "6h6g6h"], 5);
    let sente = next(&h, "6h6g6h");
    assert_eq!(h.must_change(sente), Some(Side::Second));
    assert!(h.legal_moves().contains(&sente));
}

#[test]
fn else_the_side_to_move_must_change() {
    // Both golds shuffle sideways, attacking nothing.
    let sfen = "11k/12/11g/12/12/12/12/12/12/G11/12/K11 b - 1";
    let cycle = ["12j11j", "1c2c", "11j12j", "2c1c"];
    let h = after(sfen, &cycle, 11);
    let back = next(&h, "2c1c");
    assert_eq!(h.must_change(back), Some(Side::Second));
    assert!(!h.legal_moves().contains(&back));
    // Three occurrences are no matter.
    let h = after(sfen, &cycle, 7);
    assert_eq!(h.must_change(next(&h, "2c1c")), None);
}

#[test]
fn lishogi_ends_the_game_at_the_fourth_occurrence() {
    use yorimichi::rules::chu::Profile;
    let run = |sfen: &str, cycle: &[&str], plies: usize| {
        let mut h = ChuHistory::new_in(Profile::Lishogi, ChuPosition::from_sfen(sfen).unwrap());
        for i in 0..plies {
            assert_eq!(h.repetition_result(), None, "ply {i}");
            let mv = parse_usi(h.current(), cycle[i % cycle.len()]).unwrap();
            // Nobody is asked to change under lishogi.
            assert_eq!(h.must_change(mv), None);
            h.play(mv).unwrap();
        }
        h
    };
    // The rook's perpetual check: 先手 attacked with every move and loses.
    let check = run(
        "12/7R3k/12/12/12/12/12/12/12/12/12/K11 w - 1",
        &["1b1a", "5b5a", "1a1b", "5a5b"],
        12,
    );
    assert_eq!(check.repetition_result(), Some(Some(Side::Second)));
    // Two golds shuffling: a draw.
    let shuffle = run(
        "11k/12/11g/12/12/12/12/12/12/G11/12/K11 b - 1",
        &["12j11j", "1c2c", "11j12j", "2c1c"],
        12,
    );
    assert_eq!(shuffle.repetition_result(), Some(None));
    // JCSA asks who must change instead of ending the game.
    let jcsa = after(
        "11k/12/11g/12/12/12/12/12/12/G11/12/K11 b - 1",
        &["12j11j", "1c2c", "11j12j", "2c1c"],
        11,
    );
    assert_eq!(jcsa.repetition_result(), None);
}

/// 先手's and 後手's golds step sideways and back, far from everything: a
/// cycle of four plies that repeats the start.
fn shuffle_record(profile: Profile) -> (Chu, GameRecord<Chu>, Vec<ChuMove>) {
    let game = Chu::new(ChuRules { profile });
    let rows = [
        "11k", "12", "12", "g11", "12", "12", "12", "12", "11G", "12", "12", "K11",
    ];
    let start = ChuPosition::from_rows(&rows, Side::First).unwrap();
    let mut record = GameRecord::from_position(&game, start);
    let mut cycle = Vec::new();
    for usi in ["1i2i", "12d11d", "2i1i", "11d12d"] {
        let mv = parse_usi(record.current(), usi).unwrap();
        cycle.push(mv);
        record.play(&game, mv).unwrap();
    }
    (game, record, cycle)
}

#[test]
fn on_the_play_screen_the_side_that_must_change_cannot_make_the_fourth_occurrence() {
    let (game, mut record, cycle) = shuffle_record(Profile::Jcsa);
    // Twice more round the cycle, less the last move: the start position
    // has occurred three times, and 後手's move back would be the fourth.
    for &mv in cycle.iter().chain(&cycle[..3]) {
        record.play(&game, mv).unwrap();
    }
    assert_eq!(record.ply(), 11);
    let back = cycle[3];
    // Nobody checks or attacks: the side about to repeat (後手) must change.
    assert_eq!(record.forbidden_moves(&game), vec![back]);
    assert!(!record.legal_moves(&game).contains(&back));
    assert!(record.play(&game, back).is_err(), "the rules refuse it");
    assert!(
        record.outcome(&game).is_none(),
        "other moves remain: play on"
    );
    // Under lishogi's rules the same move is allowed, and the fourth
    // occurrence ends the game in a draw (neither side checked).
    let (game, mut record, cycle) = shuffle_record(Profile::Lishogi);
    for &mv in cycle.iter().chain(&cycle) {
        record.play(&game, mv).unwrap();
    }
    let outcome = record.outcome(&game).expect("the fourth occurrence");
    assert_eq!(outcome.winner, None);
}

#[test]
fn a_search_that_forbids_repeats_sees_a_piece_trapped_but_for_a_return() {
    use yorimichi::rules::game::Game;
    use yorimichi::rules::search::{SearchPlan, Searcher};
    let chu = Chu::default();
    let key = |sfen: &str| ChuPosition::from_sfen(sfen).unwrap().key();
    // 後手's rook went 7b–8b and 先手's gold 6i–7i. Should the rook go
    // back, the gold's only square out of its file is 6i (its pawns stand
    // on the others), and going there repeats the position the shuffle
    // began from.
    let began = "11k/5r6/12/12/12/12/12/4P1P5/4P1G5/12/12/K11 w - 1";
    let rook_went = "11k/4r7/12/12/12/12/12/4P1P5/4P1G5/12/12/K11 b - 1";
    let now = "11k/4r7/12/12/12/12/12/4P1P5/4PG6/12/12/K11 w - 1";
    let history = [key(began), key(rook_went), key(now)];
    let pos = ChuPosition::from_sfen(now).unwrap();
    let read = |no_repeats: bool| {
        let plan = SearchPlan {
            no_repeats,
            ..SearchPlan::fixed(4, 2_000_000)
        };
        let r = Searcher::new(&chu, pos.clone(), &history, plan)
            .run(&chu)
            .expect("a move");
        (r.best.usi(), r.score)
    };
    let (free_move, free_score) = read(false);
    let (strict_move, strict_score) = read(true);
    // Where the gold may go back, the rook wins nothing; where it may
    // not, the rook's return wins the gold.
    assert_eq!(strict_move, "8b7b", "{strict_score}");
    let gold = chu
        .evaluate(&ChuPosition::from_sfen("11k/12/12/12/12/5G6/12/12/12/12/12/K11 b - 1").unwrap())
        - chu.evaluate(
            &ChuPosition::from_sfen("11k/12/12/12/12/12/12/12/12/12/12/K11 b - 1").unwrap(),
        );
    assert!(
        strict_score - free_score > gold / 2,
        "{free_move} {free_score} / {strict_move} {strict_score}, a gold {gold}"
    );
}
