//! 中将棋 moves (issue 6, first part): every move the pieces' movement
//! allows — steps, slides, two-square jumps, the 獅子's area and two-step
//! moves, the lion lines of 飛鷲 and 角鷹 — with the optional promotions.
//!
//! Not yet here: the lion-trading restrictions (adjacent / protected at two
//! squares / 付け喰い / 先獅子) and the game-end rules; they come with the
//! engine in issue 6. So these are the pseudo-legal moves.

use super::pieces::{DIRECTIONS, Piece, Reach};
use super::position::{ChuPosition, FILES, RANKS, Square};
use crate::rules::game::Side;

/// A move: `from` → `to`, through `mid` for a two-step move (獅子, and the
/// lion lines of 飛鷲 and 角鷹); `to == from` for 居食い and じっと.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChuMove {
    pub from: Square,
    pub mid: Option<Square>,
    pub to: Square,
    pub promote: bool,
}

impl ChuMove {
    /// USI: `7i7h`, `+` for a promotion, `6f5e6d` for a two-step move.
    pub fn usi(&self) -> String {
        let mid = self.mid.map_or(String::new(), |m| m.name());
        format!(
            "{}{mid}{}{}",
            self.from.name(),
            self.to.name(),
            if self.promote { "+" } else { "" }
        )
    }
}

/// One step from `sq` by (right, forward) as `side` sees the board.
fn offset(sq: Square, side: Side, right: i32, forward: i32) -> Option<Square> {
    let (dc, dr) = match side {
        Side::First => (right, -forward),
        Side::Second => (-right, forward),
    };
    let row = sq.row() as i32 + dr;
    let column = sq.column() as i32 + dc;
    if (0..RANKS as i32).contains(&row) && (0..FILES as i32).contains(&column) {
        Square::new(row as usize, column as usize)
    } else {
        None
    }
}

/// The four ranks nearest the opponent.
pub fn in_zone(sq: Square, side: Side) -> bool {
    match side {
        Side::First => sq.row() < 4,
        Side::Second => sq.row() >= RANKS - 4,
    }
}

fn last_rank(sq: Square, side: Side) -> bool {
    match side {
        Side::First => sq.row() == 0,
        Side::Second => sq.row() == RANKS - 1,
    }
}

/// Whether a one-leg move may promote (the seed's three cases).
fn may_promote(piece: Piece, side: Side, from: Square, to: Square, captures: bool) -> bool {
    use super::pieces::Base;
    if !piece.can_promote() {
        return false;
    }
    let enters = !in_zone(from, side) && in_zone(to, side);
    let takes_in_zone = captures && (in_zone(from, side) || in_zone(to, side));
    let reaches_end = matches!(piece.base, Base::Pawn | Base::Lance) && last_rank(to, side);
    enters || takes_in_zone || reaches_end
}

/// Appends every pseudo-legal move of the side to move.
pub fn pseudo_legal(pos: &ChuPosition, out: &mut Vec<ChuMove>) {
    let side = pos.to_move();
    let own = |sq: Square| pos.at(sq).is_some_and(|(s, _)| s == side);
    let enemy = |sq: Square| pos.at(sq).is_some_and(|(s, _)| s != side);
    for (from, s, piece) in pos.pieces() {
        if s != side {
            continue;
        }
        let one_leg = |to: Square, out: &mut Vec<ChuMove>| {
            let captures = enemy(to);
            out.push(ChuMove {
                from,
                mid: None,
                to,
                promote: false,
            });
            if may_promote(piece, side, from, to, captures) {
                out.push(ChuMove {
                    from,
                    mid: None,
                    to,
                    promote: true,
                });
            }
        };
        let movement = piece.kind().movement();
        if movement.lion {
            lion_moves(pos, from, side, out);
            continue;
        }
        for (i, dir) in DIRECTIONS.iter().enumerate() {
            let (right, forward) = dir.delta();
            match movement.reach[i] {
                Reach::No => {}
                Reach::Step => {
                    if let Some(to) = offset(from, side, right, forward)
                        && !own(to)
                    {
                        one_leg(to, out);
                    }
                }
                Reach::Slide => {
                    let mut at = from;
                    while let Some(to) = offset(at, side, right, forward) {
                        if own(to) {
                            break;
                        }
                        one_leg(to, out);
                        if enemy(to) {
                            break;
                        }
                        at = to;
                    }
                }
                Reach::Jump => {
                    if let Some(to) = offset(from, side, 2 * right, 2 * forward)
                        && !own(to)
                    {
                        one_leg(to, out);
                    }
                }
                Reach::LionLine => {
                    // Slides are not allowed along this line: one or two
                    // squares (leaping), or two steps along it.
                    let Some(first) = offset(from, side, right, forward) else {
                        continue;
                    };
                    if !own(first) {
                        one_leg(first, out);
                    }
                    if let Some(second) = offset(from, side, 2 * right, 2 * forward)
                        && !own(second)
                    {
                        one_leg(second, out);
                    }
                    if !own(first) {
                        // 居食い or じっと, and every route on through the
                        // first square (taking there if an enemy).
                        two_step(from, first, from, out);
                        if let Some(second) = offset(from, side, 2 * right, 2 * forward)
                            && !own(second)
                        {
                            two_step(from, first, second, out);
                        }
                    }
                }
            }
        }
    }
}

fn two_step(from: Square, mid: Square, to: Square, out: &mut Vec<ChuMove>) {
    out.push(ChuMove {
        from,
        mid: Some(mid),
        to,
        promote: false,
    });
}

/// The 獅子: any square within two (leaping), and every two-step route: a
/// step to a neighbour that is empty or an enemy (taken), then a second
/// step back (居食い, じっと) or on to a square that is not its own. As in
/// lishogi's counting, a route through an empty square is a move of its own
/// beside the direct leap to the same square.
fn lion_moves(pos: &ChuPosition, from: Square, side: Side, out: &mut Vec<ChuMove>) {
    let own = |sq: Square| pos.at(sq).is_some_and(|(s, _)| s == side);
    for forward in -2..=2 {
        for right in -2..=2 {
            if (right, forward) == (0, 0) {
                continue;
            }
            if let Some(to) = offset(from, side, right, forward)
                && !own(to)
            {
                out.push(ChuMove {
                    from,
                    mid: None,
                    to,
                    promote: false,
                });
            }
        }
    }
    for forward in -1..=1 {
        for right in -1..=1 {
            if (right, forward) == (0, 0) {
                continue;
            }
            let Some(mid) = offset(from, side, right, forward) else {
                continue;
            };
            if own(mid) {
                continue;
            }
            // Any second step: back (居食い, じっと) or on to a free square.
            for f2 in -1..=1 {
                for r2 in -1..=1 {
                    if (r2, f2) == (0, 0) {
                        continue;
                    }
                    if let Some(to) = offset(mid, side, r2, f2)
                        && (to == from || !own(to))
                    {
                        two_step(from, mid, to, out);
                    }
                }
            }
        }
    }
}

/// The position after `mv` (which must be one of [`pseudo_legal`]'s).
pub fn play(pos: &ChuPosition, mv: ChuMove) -> ChuPosition {
    pos.after(mv.from, mv.mid, mv.to, mv.promote)
}

/// Counts the leaf positions `depth` moves ahead (perft).
pub fn perft(pos: &ChuPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::with_capacity(256);
    pseudo_legal(pos, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|&m| perft(&play(pos, m), depth - 1)).sum()
}
