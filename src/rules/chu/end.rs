//! How a 中将棋 game ends (JCSA rules as the seed words them, issue 6):
//! the king taken (unless a 太子 lives on), 駒枯れ (bare king), and no legal
//! move; and who wins when the game is cut off at 60 minutes (the points
//! on the board). 千日手 and the clock need the game's history and are
//! kept by the game record.

use super::moves::{has_quiet_move, legal_moves};
use super::pieces::{Base, Kind, Piece};
use super::position::{ChuPosition, RANKS, Square};
use crate::rules::game::Side;

/// Why a game was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChuEnd {
    /// The loser has neither king nor 太子 left.
    RoyalsTaken,
    /// 駒枯れ: the winner has one piece that counts besides its king, the
    /// loser none, and the loser cannot take it at once.
    BareKing,
    /// The side to move has no legal move.
    NoMoves,
}

fn is_royal(piece: Piece) -> bool {
    matches!(piece.kind(), Kind::King | Kind::Prince)
}

/// Whether a piece counts for 駒枯れ: not a king or 太子, not an
/// unpromoted 歩兵 or 仲人, and not a 歩兵 or 香車 stuck on the last rank.
fn counts_for_bare_king(sq: Square, side: Side, piece: Piece) -> bool {
    if is_royal(piece) {
        return false;
    }
    if !piece.promoted && matches!(piece.base, Base::Pawn | Base::GoBetween) {
        return false;
    }
    let last_rank = match side {
        Side::First => 0,
        Side::Second => RANKS - 1,
    };
    let stuck = !piece.promoted && piece.base == Base::Lance && sq.row() == last_rank;
    !stuck
}

/// The winner and why, if the game is over in `pos`.
pub fn outcome(pos: &ChuPosition) -> Option<(Side, ChuEnd)> {
    let mut royals = [0usize; 2];
    let mut counted: [Vec<Square>; 2] = [Vec::new(), Vec::new()];
    for (sq, side, piece) in pos.pieces() {
        if is_royal(piece) {
            royals[side.index()] += 1;
        } else if counts_for_bare_king(sq, side, piece) {
            counted[side.index()].push(sq);
        }
    }
    for side in Side::BOTH {
        if royals[side.index()] == 0 {
            return Some((side.opponent(), ChuEnd::RoyalsTaken));
        }
    }
    if royals == [1, 1] {
        for winner in Side::BOTH {
            let loser = winner.opponent();
            let (mine, theirs) = (&counted[winner.index()], &counted[loser.index()]);
            if mine.len() == 1 && theirs.is_empty() {
                // Undecided while the bare side, to move, can take it.
                let target = mine[0];
                let can_take = pos.to_move() == loser && {
                    let mut moves = Vec::new();
                    legal_moves(pos, &mut moves);
                    moves
                        .iter()
                        .any(|m| m.to == target || m.mid == Some(target))
                };
                if !can_take {
                    return Some((winner, ChuEnd::BareKing));
                }
            }
        }
    }
    if has_quiet_move(pos) {
        return None;
    }
    let mut moves = Vec::new();
    legal_moves(pos, &mut moves);
    moves
        .is_empty()
        .then(|| (pos.to_move().opponent(), ChuEnd::NoMoves))
}

/// Each side's points on the board for the 60-minute cutoff, in tenths
/// (the seed's table): kings count nothing, a 太子 counts only while its
/// king is still on the board, immovable pieces count.
pub fn cutoff_points(pos: &ChuPosition) -> [i32; 2] {
    let mut points = [0i32; 2];
    let mut king = [false; 2];
    let mut princes = [0i32; 2];
    for (_, side, piece) in pos.pieces() {
        let tenths = (piece.points() * 10.0).round() as i32;
        match piece.kind() {
            Kind::King => king[side.index()] = true,
            Kind::Prince => princes[side.index()] += tenths,
            _ => points[side.index()] += tenths,
        }
    }
    for side in Side::BOTH {
        if king[side.index()] {
            points[side.index()] += princes[side.index()];
        }
    }
    points
}

/// Who wins when the game is cut off at 60 minutes: more points on the
/// board wins; `None` for equal points (a draw).
pub fn cutoff_winner(pos: &ChuPosition) -> Option<Side> {
    let [first, second] = cutoff_points(pos);
    match first.cmp(&second) {
        std::cmp::Ordering::Greater => Some(Side::First),
        std::cmp::Ordering::Less => Some(Side::Second),
        std::cmp::Ordering::Equal => None,
    }
}
