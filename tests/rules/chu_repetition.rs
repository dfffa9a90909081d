//! 千日手 (seed 001, issue 6): the fourth occurrence, and each of the four
//! rules for the side that must change its moves.

use yorimichi::rules::chu::Profile;
use yorimichi::rules::chu::game::{Chu, ChuRules};
use yorimichi::rules::chu::moves::{ChuMove, parse_usi};
use yorimichi::rules::chu::position::ChuPosition;
use yorimichi::rules::chu::repetition::ChuHistory;
use yorimichi::rules::game::Side;
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
    // fourth occurrence: that is allowed, and then the rook may not go on.
    // A 後手 silver and a 先手 pawn attack each other all along, so only
    // the check tells the sides apart (rule 4 would name 後手, the mover).
    let sfen = "12/7R3k/12/12/3s8/3P8/12/12/12/12/12/K11 w - 1";
    let cycle = ["1b1a", "5b5a", "1a1b", "5a5b"];
    let h = after(sfen, &cycle, 1);
    let start = h.current().to_sfen();
    let cycle = ["5b5a", "1a1b", "5a5b", "1b1a"];
    let mut h = after(&start, &cycle, 11);
    let king_back = next(&h, "1b1a");
    assert_eq!(h.must_change(king_back), Some(Side::First));
    assert!(h.legal_moves().contains(&king_back));
    h.play(king_back).unwrap();
    assert_eq!(h.occurrences(h.current().key()), 4);
    let rook_on = next(&h, "5b5a");
    assert!(!h.legal_moves().contains(&rook_on));
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
    // so it stands.
    let gote = next(&h, "6e6f6e");
    assert_eq!(h.must_change(gote), Some(Side::First));
    h.play(gote).unwrap();
    // 先手 may not pass again.
    let sente = next(&h, "6h6g6h");
    assert_eq!(h.must_change(sente), Some(Side::First));
    assert!(!h.legal_moves().contains(&sente));
    assert!(!h.is_repetition_draw());
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
    let game = Chu {
        rules: ChuRules { profile },
    };
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
