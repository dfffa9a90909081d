//! 中将棋's static exchange (issue 6: SEE-style ordering): what attacks a
//! square, found by looking outward from it, agrees with the move
//! generator on random positions; hand-set exchanges come out as a player
//! counts them (defenders, X-rays, the 麒麟's jump, the lion's reach, a king
//! that must not take a defended piece); and the capture search leaves the
//! losing captures out.

use rand::{RngExt, SeedableRng, rngs::StdRng};
use yorimichi::rules::chu::Profile;
use yorimichi::rules::chu::exchange::{ROYAL_WORTH, attacked_by, exchange, exchange_worth, worth};
use yorimichi::rules::chu::game::Chu;
use yorimichi::rules::chu::moves::{
    ChuMove, legal_captures_in, legal_moves, legal_moves_in, parse_usi, play, pseudo_legal,
};
use yorimichi::rules::chu::pieces::{Base, Piece};
use yorimichi::rules::chu::position::{ChuPosition, SQUARES, Square};
use yorimichi::rules::game::{Game, Outcome, Side};
use yorimichi::rules::search::{SearchPlan, Searcher};

/// 後手's king on 12a, 先手's on 1l, ranks c to h as given; 先手 to move.
fn diagram(c: &str, d: &str, e: &str, f: &str, g: &str, h: &str) -> ChuPosition {
    let rows = ["k11", "12", c, d, e, f, g, h, "12", "12", "12", "11K"];
    ChuPosition::from_rows(&rows, Side::First).unwrap()
}

fn value(base: Base) -> i32 {
    worth(Piece::new(base))
}

fn exchange_of(pos: &ChuPosition, usi: &str) -> i32 {
    let mv = parse_usi(pos, usi).unwrap();
    exchange(pos, mv)
}

#[test]
fn an_undefended_piece_is_won_whole() {
    let pos = diagram("12", "12", "6g5", "12", "12", "6R5");
    assert_eq!(exchange_of(&pos, "6h6e"), value(Base::Gold));
}

#[test]
fn a_defended_piece_costs_the_taker() {
    // 後手's pawn on 6d takes back on 6e.
    let pos = diagram("12", "6p5", "6g5", "12", "12", "6R5");
    assert_eq!(
        exchange_of(&pos, "6h6e"),
        value(Base::Gold) - value(Base::Rook)
    );
    // A pawn that takes the gold loses only itself.
    let pos = diagram("12", "6p5", "6g5", "6P5", "12", "12");
    assert_eq!(
        exchange_of(&pos, "6f6e"),
        value(Base::Gold) - value(Base::Pawn)
    );
}

#[test]
fn a_piece_behind_the_taker_joins_in() {
    // Rooks on 6h and 6i: the second takes back the pawn that took the
    // first (an X-ray through the first rook's square).
    let rows = [
        "k11", "12", "12", "6p5", "6g5", "12", "12", "6R5", "6R5", "12", "12", "11K",
    ];
    let pos = ChuPosition::from_rows(&rows, Side::First).unwrap();
    assert_eq!(
        exchange_of(&pos, "6h6e"),
        value(Base::Gold) - value(Base::Rook) + value(Base::Pawn)
    );
}

#[test]
fn leapers_defend_over_what_stands_between() {
    // 後手's 麒麟 on 6c jumps over 先手's pawn on 6d to take back on 6e.
    let pos = diagram("6o5", "6P5", "6g5", "12", "12", "6R5");
    assert_eq!(
        exchange_of(&pos, "6h6e"),
        value(Base::Gold) - value(Base::Rook)
    );
    // 後手's lion on 5c reaches 6e (one file across, two ranks down),
    // a square no line from 6e passes through.
    let pos = diagram("7n4", "12", "6g5", "12", "12", "6R5");
    assert_eq!(
        exchange_of(&pos, "6h6e"),
        value(Base::Gold) - value(Base::Rook)
    );
    // Three files across, it no longer reaches.
    let pos = diagram("9n2", "12", "6g5", "12", "12", "6R5");
    assert_eq!(exchange_of(&pos, "6h6e"), value(Base::Gold));
}

#[test]
fn a_king_never_takes_a_defended_piece() {
    let pos = diagram("12", "6p5", "6g5", "6K5", "12", "12");
    let rows_without_far_king = pos.to_sfen().replace("/11K ", "/12 ");
    let pos = ChuPosition::from_sfen(&rows_without_far_king).unwrap();
    assert_eq!(exchange_of(&pos, "6f6e"), value(Base::Gold) - ROYAL_WORTH);
}

#[test]
fn the_defender_stops_when_taking_back_loses_more() {
    // 後手's rook on 6a guards the pawn on 6e; 先手's pawn takes with a
    // rook behind it: taking back with the rook would lose the rook.
    let rows = [
        "k5r5", "12", "12", "12", "6p5", "6P5", "12", "6R5", "12", "12", "12", "11K",
    ];
    let pos = ChuPosition::from_rows(&rows, Side::First).unwrap();
    assert_eq!(exchange_of(&pos, "6f6e"), value(Base::Pawn));
}

/// Random positions on the way through random games (captures preferred,
/// so the board thins out and lines open).
fn random_positions(seed: u64, games: usize) -> Vec<ChuPosition> {
    let chu = Chu::default();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = chu.start();
        for ply in 0..240 {
            let mut moves: Vec<ChuMove> = Vec::new();
            legal_moves(&pos, &mut moves);
            if chu.outcome(&pos).is_some() || moves.is_empty() {
                break;
            }
            if ply % 7 == 0 {
                out.push(pos.clone());
            }
            let captures: Vec<ChuMove> = moves
                .iter()
                .copied()
                .filter(|&m| chu.is_capture(&pos, m))
                .collect();
            let mv = if !captures.is_empty() && rng.random::<f64>() < 0.4 {
                captures[rng.random_range(0..captures.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            pos = play(&pos, mv);
        }
    }
    out
}

/// Whether one of `by`'s moves (if it were its turn) ends on `target` or
/// passes over it taking: what attacking a square means, from the move
/// generator.
fn reaches_by_moving(pos: &ChuPosition, by: Side, target: Square) -> bool {
    let mut moves = Vec::new();
    pseudo_legal(&pos.with_side_to_move(by), &mut moves);
    moves
        .iter()
        .any(|m| m.to == target || m.mid == Some(target))
}

#[test]
fn what_attacks_a_square_agrees_with_the_moves() {
    let mut checked = 0;
    for pos in random_positions(21, 12) {
        for side in Side::BOTH {
            for i in 0..SQUARES {
                let sq = Square(i as u8);
                // The move generator cannot say what defends an own piece.
                if pos.at(sq).is_some_and(|(s, _)| s == side) {
                    continue;
                }
                assert_eq!(
                    attacked_by(&pos, sq, side),
                    reaches_by_moving(&pos, side, sq),
                    "{side:?} on {} in {}",
                    sq.name(),
                    pos.to_sfen()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 30_000, "{checked}");
}

#[test]
fn the_capture_search_generates_exactly_the_legal_captures_in_order() {
    let mut captures = 0;
    let mut two_step_captures = 0;
    for pos in random_positions(24, 12) {
        for profile in [Profile::Jcsa, Profile::Lishogi] {
            let mut moves = Vec::new();
            legal_moves_in(profile, &pos, &mut moves);
            let expected: Vec<ChuMove> = moves
                .into_iter()
                .filter(|m| m.taken(&pos).next().is_some())
                .collect();
            // Appended after what the list already holds.
            let mut generated = vec![expected.first().copied().unwrap_or(ChuMove {
                from: Square(0),
                mid: None,
                to: Square(1),
                promote: false,
            })];
            legal_captures_in(profile, &pos, &mut generated);
            assert_eq!(
                generated[1..],
                expected[..],
                "{profile:?} {}",
                pos.to_sfen()
            );
            captures += expected.len();
            two_step_captures += expected.iter().filter(|m| m.mid.is_some()).count();
        }
    }
    assert!(
        captures > 1_000 && two_step_captures > 100,
        "{captures} captures, {two_step_captures} by two steps"
    );
}

#[test]
fn an_exchange_wins_at_most_what_it_takes_and_loses_at_most_the_taker() {
    let mut captures = 0;
    let mut losing = 0;
    for pos in random_positions(22, 12) {
        let mut moves = Vec::new();
        legal_moves(&pos, &mut moves);
        for mv in moves {
            let taken: i32 = mv.taken(&pos).map(|(_, p)| exchange_worth(p)).sum();
            if taken == 0 {
                continue;
            }
            let Some((_, mover)) = pos.at(mv.from) else {
                panic!("no piece on {}", mv.from.name());
            };
            let mover = Piece {
                promoted: mover.promoted || mv.promote,
                ..mover
            };
            let gain = exchange(&pos, mv);
            assert!(gain <= taken, "{} in {}", mv.usi(), pos.to_sfen());
            assert!(
                gain >= taken - exchange_worth(mover),
                "{} in {}",
                mv.usi(),
                pos.to_sfen()
            );
            captures += 1;
            losing += (gain < 0) as usize;
        }
    }
    // Random games leave plenty of both kinds.
    assert!(
        captures > 500 && losing > 50,
        "{captures} captures, {losing} losing"
    );
}

/// 中将棋 with its exchanges unjudged: the search as it was before it
/// knew them (every capture read in the capture search, MVV-LVA order).
struct WithoutExchanges(Chu);

impl Game for WithoutExchanges {
    type Pos = ChuPosition;
    type Move = ChuMove;
    fn start(&self) -> ChuPosition {
        self.0.start()
    }
    fn side_to_move(&self, pos: &ChuPosition) -> Side {
        self.0.side_to_move(pos)
    }
    fn legal_moves(&self, pos: &ChuPosition, out: &mut Vec<ChuMove>) {
        self.0.legal_moves(pos, out)
    }
    fn play(&self, pos: &ChuPosition, mv: ChuMove) -> ChuPosition {
        self.0.play(pos, mv)
    }
    fn outcome(&self, pos: &ChuPosition) -> Option<Outcome> {
        self.0.outcome(pos)
    }
    fn repetition_outcome(&self, pos: &ChuPosition, count: u32) -> Option<Outcome> {
        self.0.repetition_outcome(pos, count)
    }
    fn hash(&self, pos: &ChuPosition) -> u64 {
        self.0.hash(pos)
    }
    fn evaluate(&self, pos: &ChuPosition) -> i32 {
        self.0.evaluate(pos)
    }
    fn is_capture(&self, pos: &ChuPosition, mv: ChuMove) -> bool {
        self.0.is_capture(pos, mv)
    }
    fn capture_order(&self, pos: &ChuPosition, mv: ChuMove) -> i32 {
        self.0.capture_order(pos, mv)
    }
    fn move_index(&self, mv: ChuMove) -> usize {
        self.0.move_index(mv)
    }
    fn move_index_bound(&self) -> usize {
        self.0.move_index_bound()
    }
    fn move_ends(&self, mv: ChuMove) -> (usize, usize) {
        self.0.move_ends(mv)
    }
    fn move_text(&self, pos: &ChuPosition, mv: ChuMove) -> String {
        self.0.move_text(pos, mv)
    }
}

#[test]
fn the_search_reads_fewer_positions_for_knowing_exchanges() {
    let chu = Chu::default();
    let blind = WithoutExchanges(Chu::default());
    let plan = SearchPlan::fixed(3, u64::MAX);
    let (mut with, mut without) = (0, 0);
    for pos in random_positions(23, 3).into_iter().step_by(3).take(12) {
        let mut knowing = Searcher::new(&chu, pos.clone(), &[], plan.clone());
        let mut plain = Searcher::new(&blind, pos.clone(), &[], plan.clone());
        assert!(knowing.run(&chu).is_some() && plain.run(&blind).is_some());
        with += knowing.nodes();
        without += plain.nodes();
    }
    println!("3-ply searches of 12 positions: {with} nodes knowing exchanges, {without} without");
    assert!(with * 10 < without * 9, "{with} vs {without}");
}

#[test]
fn the_search_does_not_take_a_defended_piece_with_a_bigger_one() {
    let chu = Chu::default();
    let pos = diagram("12", "6p5", "6g5", "12", "12", "6R5");
    let mut search = Searcher::new(&chu, pos.clone(), &[], SearchPlan::fixed(2, u64::MAX));
    let Some(result) = search.run(&chu) else {
        panic!("no move");
    };
    assert_ne!(result.best, parse_usi(&pos, "6h6e").unwrap());
}
