//! The 中将棋 record as the play screen writes it (the KIF conventions:
//! origin, 仝, 成 / 不成, promoted names, 居食い / じっと / 二枚取り, ☗ / ☖,
//! 王将 and 玉将), the three coordinate styles, and the SFEN move number as
//! lishogi counts it.

use yorimichi::rules::chu::moves::{ChuMove, parse_usi, play};
use yorimichi::rules::chu::notation::{Coords, record_name, screen_move};
use yorimichi::rules::chu::pieces::{Base, Piece};
use yorimichi::rules::chu::position::{ChuPosition, START_SFEN, Square};
use yorimichi::rules::chu::record::ChuGameText;
use yorimichi::rules::game::Side;

/// Plays `moves` (USI) from `sfen` and returns each move's record line.
fn record(sfen: &str, moves: &[&str], coords: Coords) -> Vec<String> {
    let mut pos = ChuPosition::from_sfen(sfen).unwrap();
    let mut last: Option<ChuMove> = None;
    let mut lines = Vec::new();
    for usi in moves {
        let mv = parse_usi(&pos, usi).unwrap_or_else(|e| panic!("{usi}: {e}"));
        lines.push(screen_move(&pos, mv, last.map(|m| m.to), coords));
        pos = play(&pos, mv);
        last = Some(mv);
    }
    lines
}

/// A small position with every kind of move a few plies away: 後手's
/// king on 7一, silver on 4三, pawns on 6四, 5四 and 6五; 先手's pawn on
/// 3五, silver on 2五, lion on 6六, rook on 10十, king on 6十二.
const SMALL: &str = "5k6/12/8s3/6pp4/6p2PS1/6N5/12/12/12/2R9/12/6K5 b - 1";

/// The small position's game: 居食い, 玉将, じっと, a pawn, 二枚取り, 仝,
/// 不成, 玉将, 成, a silver, 王将.
const GAME: [&str; 11] = [
    "6f6e6f", "7a7b", "6f6g6f", "6d6e", "6f6e5d", "4c5d", "3e3d", "7b7a", "2e2d+", "5d5e", "6l6k",
];

#[test]
fn the_record_writes_every_kind_of_move_as_chu_players_read_it() {
    let lines = record(SMALL, &GAME, Coords::Japanese);
    assert_eq!(
        lines,
        [
            "☗6五獅子居食い(←6六)",
            "☖7二玉将(←7一)",
            "☗6六獅子じっと",
            "☖6五歩兵(←6四)",
            "☗5四獅子二枚取り(←6五←6六)",
            "☖仝銀将(←4三)",
            "☗3四歩兵不成(←3五)",
            "☖7一玉将(←7二)",
            "☗2四銀将成(←2五)",
            "☖5五銀将(←5四)",
            "☗6十一王将(←6十二)",
        ]
    );
    // No "経由": the two steps are named by what they do.
    assert!(lines.iter().all(|l| !l.contains("経由")));
}

#[test]
fn a_plain_move_and_a_capture_name_the_origin() {
    let start = START_SFEN;
    let lines = record(
        start,
        &["7i7h", "7d7e", "7h7g", "7e7f", "7g7f"],
        Coords::Japanese,
    );
    assert_eq!(lines[0], "☗7八歩兵(←7九)");
    assert_eq!(lines[1], "☖7五歩兵(←7四)");
    // The capture lands where the last move did: 仝.
    assert_eq!(lines[4], "☗仝歩兵(←7七)");
}

#[test]
fn a_lion_taking_then_moving_on_and_a_leap_read_as_such() {
    // The lion takes on 6五 and goes on to the empty 6四; then (from
    // there) a leap through an empty square is one move.
    let sfen = "5k6/12/12/12/6p5/6N5/12/12/12/12/12/6K5 b - 1";
    let lines = record(sfen, &["6f6e6d", "7a7b", "6d6c6b"], Coords::Japanese);
    assert_eq!(lines[0], "☗6四獅子(←6五←6六)");
    assert_eq!(lines[2], "☗6二獅子(←6四)");
}

#[test]
fn promoted_pieces_are_written_by_their_promoted_names() {
    let leopard = Piece {
        base: Base::Leopard,
        promoted: true,
    };
    assert_eq!(record_name(leopard, Side::First), "成角行");
    assert_eq!(record_name(Piece::new(Base::Bishop), Side::First), "角行");
    let pawn = Piece {
        base: Base::Pawn,
        promoted: true,
    };
    assert_eq!(record_name(pawn, Side::First), "と金");
    let rook = Piece {
        base: Base::Rook,
        promoted: true,
    };
    assert_eq!(record_name(rook, Side::Second), "成龍王");
    let dragon = Piece {
        base: Base::DragonKing,
        promoted: true,
    };
    assert_eq!(record_name(dragon, Side::Second), "飛鷲");
    let gold = Piece {
        base: Base::Gold,
        promoted: true,
    };
    assert_eq!(record_name(gold, Side::Second), "成飛車");
    assert_eq!(record_name(Piece::new(Base::King), Side::First), "王将");
    assert_eq!(record_name(Piece::new(Base::King), Side::Second), "玉将");
    // On a move: a promoted 猛豹 is not a 角行.
    let sfen = "k11/12/12/12/12/12/12/12/12/5+F6/12/11K b - 1";
    let lines = record(sfen, &["7j6i"], Coords::Japanese);
    assert_eq!(lines[0], "☗6九成角行(←7十)");
}

#[test]
fn each_coordinate_style_names_squares_its_way() {
    let lines = |coords| record(SMALL, &GAME[..7], coords);
    let lishogi = lines(Coords::Lishogi);
    assert_eq!(lishogi[0], "☗6e獅子居食い(←6f)");
    assert_eq!(lishogi[4], "☗5d獅子二枚取り(←6e←6f)");
    assert_eq!(lishogi[6], "☗3d歩兵不成(←3e)");
    let western = lines(Coords::Western);
    // XBoard's: 6六 is g7, 6五 g8, 5四 h9, 3五 j8, 3四 j9.
    assert_eq!(western[0], "☗g8獅子居食い(←g7)");
    assert_eq!(western[4], "☗h9獅子二枚取り(←g8←g7)");
    assert_eq!(western[5], "☖仝銀将(←i10)");
    assert_eq!(western[6], "☗j9歩兵不成(←j8)");
}

#[test]
fn each_coordinate_style_labels_the_board_edges() {
    let files = |c: Coords| (0..12).map(|i| c.file_label(i)).collect::<Vec<_>>();
    let ranks = |c: Coords| (0..12).map(|i| c.rank_label(i)).collect::<Vec<_>>();
    assert_eq!(files(Coords::Japanese)[0], "12");
    assert_eq!(files(Coords::Japanese)[11], "1");
    assert_eq!(ranks(Coords::Japanese)[0], "一");
    assert_eq!(ranks(Coords::Japanese)[11], "十二");
    assert_eq!(files(Coords::Lishogi), files(Coords::Japanese));
    assert_eq!(ranks(Coords::Lishogi).concat(), "abcdefghijkl");
    assert_eq!(files(Coords::Western).concat(), "abcdefghijkl");
    assert_eq!(ranks(Coords::Western)[0], "12");
    assert_eq!(ranks(Coords::Western)[11], "1");
    // The labels and the squares agree: the top-left square is 12一,
    // 12a, a12; the bottom-right 1十二, 1l, l1.
    let top_left = Square::new(0, 0).unwrap();
    let bottom_right = Square::new(11, 11).unwrap();
    for (coords, tl, br) in [
        (Coords::Japanese, "12一", "1十二"),
        (Coords::Lishogi, "12a", "1l"),
        (Coords::Western, "a12", "l1"),
    ] {
        assert_eq!(coords.square(top_left), tl);
        assert_eq!(coords.square(bottom_right), br);
        assert_eq!(
            format!("{}{}", files(coords)[0], ranks(coords)[0]),
            match coords {
                Coords::Western => "a12".to_string(),
                _ => tl.to_string(),
            }
        );
    }
}

#[test]
fn the_japanese_record_of_a_whole_game_uses_the_same_lines() {
    let game = ChuGameText::parse(&format!("sfen {SMALL} moves {}", GAME.join(" "))).unwrap();
    let text = game.japanese();
    assert!(text.contains("\n5 ☗5四獅子二枚取り(←6五←6六)\n"), "{text}");
    assert!(text.contains("\n6 ☖仝銀将(←4三)\n"), "{text}");
}

#[test]
fn the_sfen_counts_moves_as_lishogi_does() {
    // shogiops's makeSfen: 1 at the start, one more every move of either
    // side.
    let mut pos = ChuPosition::start();
    assert!(pos.to_sfen().ends_with(" b - 1"));
    for (usi, number) in [("7i7h", 2), ("7d7e", 3), ("6i6h", 4)] {
        pos = play(&pos, parse_usi(&pos, usi).unwrap());
        assert_eq!(pos.move_number(), number);
        assert!(pos.to_sfen().ends_with(&format!(" - {number}")));
    }
    // From an SFEN, counted on from its number.
    let from = ChuPosition::from_sfen(&SMALL.replace(" 1", " 31")).unwrap();
    let next = play(&from, parse_usi(&from, "6f6e6f").unwrap());
    assert_eq!(next.move_number(), 32);
}
