//! How a 中将棋 game ends (JCSA rules as docs/rules/chushogi.md words them):
//! the king taken (unless a 太子 lives on), 駒枯れ (bare king), and no legal
//! move; and who wins when the game is cut off at 60 minutes (the points
//! on the board). 千日手 and the clock need the game's history and are
//! kept by the game record.
//!
//! In a mate problem (詰め中将棋, [`ChuPosition::attacker`]) the attacker
//! has no royal to lose: only the defender's royals end the game, taken or
//! left without a move. The bare-king and too-little-left rules never
//! apply there (they need a royal on each side).

use super::Profile;
use super::moves::{attacks, has_quiet_move, last_rank, legal_moves, legal_moves_in, play};
use super::pieces::{Base, Kind, Piece};
use super::position::{ChuPosition, Square};
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
    /// lishogi: nothing but the two royals is left that could still move
    /// (a draw).
    TooLittleLeft,
}

pub(crate) fn is_royal(piece: Piece) -> bool {
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
    !is_dead(sq, side, piece)
}

/// The winner and why, if the game is over in `pos` (JCSA rules, which
/// end no game drawn on the board).
pub fn outcome(pos: &ChuPosition) -> Option<(Side, ChuEnd)> {
    jcsa_outcome(pos)
}

/// The result under `profile`'s rules: the winner (`None` for a draw) and
/// why, if the game is over in `pos`.
pub fn outcome_in(profile: Profile, pos: &ChuPosition) -> Option<(Option<Side>, ChuEnd)> {
    match profile {
        Profile::Jcsa => jcsa_outcome(pos).map(|(w, why)| (Some(w), why)),
        Profile::Lishogi => lishogi_outcome(pos),
    }
}

/// Whether the game is over in `pos` under `profile`, as a move counter
/// sees it (perft, `moves`): a diagram with no royal on either side that is
/// not a mate problem studies how pieces move (lishogi's piece studies),
/// and goes on.
pub fn is_over(profile: Profile, pos: &ChuPosition) -> bool {
    let study = pos.attacker().is_none() && !pos.pieces().any(|(_, _, p)| is_royal(p));
    !study && outcome_in(profile, pos).is_some()
}

fn jcsa_outcome(pos: &ChuPosition) -> Option<(Side, ChuEnd)> {
    let mut royals = [0usize; 2];
    // Each side's pieces that count for 駒枯れ: how many, and the first.
    let mut counted = [0usize; 2];
    let mut first_counted: [Option<Square>; 2] = [None, None];
    for (sq, side, piece) in pos.pieces() {
        if is_royal(piece) {
            royals[side.index()] += 1;
        } else if counts_for_bare_king(sq, side, piece) {
            counted[side.index()] += 1;
            first_counted[side.index()].get_or_insert(sq);
        }
    }
    for side in Side::BOTH {
        if royals[side.index()] == 0 && pos.attacker() != Some(side) {
            return Some((side.opponent(), ChuEnd::RoyalsTaken));
        }
    }
    if royals == [1, 1] {
        for winner in Side::BOTH {
            let loser = winner.opponent();
            if counted[winner.index()] == 1
                && counted[loser.index()] == 0
                && let Some(target) = first_counted[winner.index()]
            {
                // Undecided while the bare side, to move, can take it (or
                // the king, which would end the game the other way).
                let royal = royal_square(pos, winner);
                let can_take = pos.to_move() == loser && {
                    let mut moves = Vec::new();
                    legal_moves(pos, &mut moves);
                    moves.iter().any(|m| {
                        [Some(m.to), m.mid]
                            .into_iter()
                            .flatten()
                            .any(|sq| sq == target || Some(sq) == royal)
                    })
                };
                if !can_take {
                    return Some((winner, ChuEnd::BareKing));
                }
            }
        }
    }
    no_moves(Profile::Jcsa, pos).then(|| (pos.to_move().opponent(), ChuEnd::NoMoves))
}

/// Whether the side to move has no legal move (looked for only when it has
/// no quiet move, which is always legal).
fn no_moves(profile: Profile, pos: &ChuPosition) -> bool {
    if has_quiet_move(pos) {
        return false;
    }
    let mut moves = Vec::new();
    legal_moves_in(profile, pos, &mut moves);
    moves.is_empty()
}

/// Where `side`'s king or 太子 stands (the first found).
fn royal_square(pos: &ChuPosition, side: Side) -> Option<Square> {
    pos.pieces()
        .find(|&(_, s, p)| s == side && is_royal(p))
        .map(|(sq, _, _)| sq)
}

/// A 歩兵 or 香車 left unpromoted on its last rank: it can never move.
fn is_dead(sq: Square, side: Side, piece: Piece) -> bool {
    !piece.promoted && matches!(piece.base, Base::Pawn | Base::Lance) && last_rank(sq, side)
}

/// lishogi's rules: royals taken, bare king (its own wording), nothing
/// but the royals left (a draw), no legal move.
fn lishogi_outcome(pos: &ChuPosition) -> Option<(Option<Side>, ChuEnd)> {
    // One pass decides the common case (asked at every node of a search):
    // both royals on the board and each side with another piece that can
    // move, so neither side is bare and more than two pieces are alive.
    let mut royals = [false; 2];
    let mut others = [false; 2];
    for (sq, side, piece) in pos.pieces() {
        if is_royal(piece) {
            royals[side.index()] = true;
        } else if !is_dead(sq, side, piece) {
            others[side.index()] = true;
        }
    }
    for side in Side::BOTH {
        if !royals[side.index()] && pos.attacker() != Some(side) {
            return Some((Some(side.opponent()), ChuEnd::RoyalsTaken));
        }
    }
    if others == [true, true] {
        return no_moves(Profile::Lishogi, pos)
            .then(|| (Some(pos.to_move().opponent()), ChuEnd::NoMoves));
    }
    for side in Side::BOTH {
        if lishogi_bared(pos, side) {
            return Some((Some(side.opponent()), ChuEnd::BareKing));
        }
    }
    let alive: Vec<(Square, Side, Piece)> = pos
        .pieces()
        .filter(|&(sq, side, p)| !is_dead(sq, side, p))
        .collect();
    if pos.attacker().is_none()
        && alive.len() == 2
        && alive.iter().all(|&(_, _, p)| is_royal(p))
        && !royal_attacked(pos)
    {
        return Some((None, ChuEnd::TooLittleLeft));
    }
    no_moves(Profile::Lishogi, pos).then(|| (Some(pos.to_move().opponent()), ChuEnd::NoMoves))
}

/// Whether the side to move is mated: it has moves, none ends the game in
/// its favour, and after every one the other side can take its last royal
/// at once. The rules play on until the king falls; an engine that sees
/// this may stop moving (HaChu does), and a referee can score it so.
pub fn is_mated(profile: Profile, pos: &ChuPosition) -> bool {
    let loser = pos.to_move();
    let mut moves = Vec::new();
    legal_moves_in(profile, pos, &mut moves);
    let loses_at_once = |next: &ChuPosition| {
        let mut replies = Vec::new();
        legal_moves_in(profile, next, &mut replies);
        replies.iter().any(|&reply| {
            outcome_in(profile, &play(next, reply))
                == Some((Some(loser.opponent()), ChuEnd::RoyalsTaken))
        })
    };
    !moves.is_empty()
        && moves.iter().all(|&mv| {
            let next = play(pos, mv);
            match outcome_in(profile, &next) {
                Some((winner, _)) => winner == Some(loser.opponent()),
                None => loses_at_once(&next),
            }
        })
}

/// Whether the other side could take one of `side`'s royals (king, 太子)
/// with its next move: "in check".
pub fn royal_in_danger(pos: &ChuPosition, side: Side) -> bool {
    pos.pieces()
        .filter(|&(_, s, p)| s == side && is_royal(p))
        .any(|(sq, _, _)| attacks(pos, side.opponent(), sq))
}

/// Whether either side attacks the other's king or 太子.
fn royal_attacked(pos: &ChuPosition) -> bool {
    pos.pieces()
        .filter(|&(_, _, p)| is_royal(p))
        .any(|(sq, side, _)| attacks(pos, side.opponent(), sq))
}

/// lishogi's bare king, for `side`: its only piece that can still move is
/// its royal; the opponent has exactly one royal (a king with a 太子 beside
/// it is never counted as baring anyone) and more besides (unpromoted 歩兵
/// and 仲人 and dead pieces not counted); `side` does not attack the
/// opponent's royal; and it cannot simply take the opponent's one other
/// piece (that piece is not next to its king).
fn lishogi_bared(pos: &ChuPosition, side: Side) -> bool {
    let ours: Vec<(Square, Piece)> = pos
        .pieces()
        .filter(|&(sq, s, p)| s == side && !is_dead(sq, s, p))
        .map(|(sq, _, p)| (sq, p))
        .collect();
    let [(our_king, king_piece)] = ours[..] else {
        return false;
    };
    if !is_royal(king_piece) {
        return false;
    }
    let theirs: Vec<(Square, Piece)> = pos
        .pieces()
        .filter(|&(sq, s, p)| {
            s != side
                && (p.promoted || !matches!(p.base, Base::Pawn | Base::GoBetween))
                && !is_dead(sq, s, p)
        })
        .map(|(sq, _, p)| (sq, p))
        .collect();
    let their_royals: Vec<Square> = theirs
        .iter()
        .filter(|(_, p)| is_royal(*p))
        .map(|&(sq, _)| sq)
        .collect();
    if their_royals.len() != 1 || theirs.len() <= 1 {
        return false;
    }
    if their_royals.iter().any(|&sq| attacks(pos, side, sq)) {
        return false;
    }
    let next_to_king = |sq: Square| sq.king_steps(our_king) <= 1;
    theirs.len() > 2 || !theirs.iter().any(|&(sq, _)| next_to_king(sq))
}

/// Each side's points on the board for the 60-minute cutoff, in tenths
/// (the JCSA table): kings count nothing, a 太子 counts only while its
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
