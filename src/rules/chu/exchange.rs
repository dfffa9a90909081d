//! Static exchange: what a capture wins once the replies on the square the
//! capturer ends on are counted — each side taking back with its least
//! valuable piece, either side free to stop when going on would lose more.
//! The search tries captures that lose material last and leaves them out
//! of its capture search, which keeps that search small on a board where
//! nearly everything is defended.
//!
//! It is a judgement, not the rules: promotions during the exchange and the
//! lion-trading rules are not applied, and a lion takes as a leaper (any
//! square within two). What attacks a square is found by looking outward
//! from it (rays, the two-square ring), not by generating moves.

use std::sync::LazyLock;

use super::moves::ChuMove;
use super::pieces::{Base, DIRECTIONS, Kind, Piece, Reach};
use super::position::{ChuPosition, SQUARES, Square};
use crate::rules::game::Side;

/// A royal's worth in an exchange: losing it ends the game, so no exchange
/// ever gives it up for material.
pub const ROYAL_WORTH: i32 = 10_000;

/// A piece's worth in the search: the JCSA points in hundredths.
pub fn worth(piece: Piece) -> i32 {
    // Read from a table: the search asks for it at every node, and
    // rounding a float costs a library call on plain x86-64.
    static WORTH: LazyLock<[[i32; 2]; Base::ALL.len()]> = LazyLock::new(|| {
        let mut table = [[0; 2]; Base::ALL.len()];
        for base in Base::ALL {
            for promoted in [false, true] {
                let points = Piece { base, promoted }.points();
                table[base as usize][promoted as usize] = (points * 100.0).round() as i32;
            }
        }
        table
    });
    WORTH[piece.base as usize][piece.promoted as usize]
}

/// What a piece is worth to lose in an exchange (a king is the game).
pub fn exchange_worth(piece: Piece) -> i32 {
    if piece.kind() == Kind::King {
        ROYAL_WORTH
    } else {
        worth(piece)
    }
}

/// The eight directions on the board, as (rows down, columns right).
const RAYS: [(i32, i32); 8] = [
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

/// The squares two away that no straight line reaches (a lion's only).
const LION_ONLY: [(i32, i32); 8] = [
    (-2, -1),
    (-2, 1),
    (-1, 2),
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
];

/// The square `k` steps from `sq` along (rows down, columns right), if on
/// the board: the move generator's step, in 先手's view (rows down is
/// backward for 先手).
fn along(sq: Square, (dr, dc): (i32, i32), k: i32) -> Option<Square> {
    sq.shifted(k * dr, k * dc)
}

/// How a piece moves toward a target that lies along the opposite of
/// `RAYS[ray]` from it (the ray runs from the target out to the piece),
/// for each kind and side; `None` for the lion, which reaches every square
/// within two.
type Toward = Option<[[Reach; 8]; 2]>;

/// [`Toward`] for every kind, indexed by the kind: asked for each piece
/// the exchange looks at.
static TOWARD: LazyLock<[Toward; Kind::ALL.len()]> = LazyLock::new(|| {
    let mut table = [None; Kind::ALL.len()];
    for kind in Kind::ALL {
        let movement = kind.movement();
        if movement.lion {
            continue;
        }
        let mut reach = [[Reach::No; 8]; 2];
        for side in Side::BOTH {
            for (ray, &(dr, dc)) in RAYS.iter().enumerate() {
                // The mover's own (right, forward) toward the target.
                let relative = match side {
                    Side::First => (-dc, dr),
                    Side::Second => (dc, -dr),
                };
                if let Some(i) = DIRECTIONS.iter().position(|d| d.delta() == relative) {
                    reach[side.index()][ray] = movement.reach[i];
                }
            }
        }
        table[kind as usize] = Some(reach);
    }
    table
});

/// Whether `piece` of `side`, `k` squares out from a target along
/// `RAYS[ray]`, could take there; `blocked` says a piece stands between.
fn reaches(piece: Piece, side: Side, ray: usize, k: i32, blocked: bool) -> bool {
    let Some(reach) = TOWARD[piece.kind() as usize] else {
        return k <= 2;
    };
    match reach[side.index()][ray] {
        Reach::No => false,
        Reach::Step => k == 1,
        Reach::Slide => !blocked,
        Reach::Jump => k == 2,
        Reach::LionLine => k <= 2,
    }
}

/// The board as an exchange leaves it: the original position less the
/// squares whose pieces have gone to the target.
struct Exchange<'a> {
    pos: &'a ChuPosition,
    gone: [bool; SQUARES],
    /// A piece set down where it was not (a move's mover on its last
    /// square): it stands there whatever `gone` says.
    placed: Option<(Square, Side, Piece)>,
}

impl<'a> Exchange<'a> {
    /// The board once `mv` is played in `pos`, without playing it: the
    /// mover leaves its first square (and takes on its middle one) and
    /// stands on its last, promoted if the move promotes.
    fn after(pos: &'a ChuPosition, mv: ChuMove) -> Self {
        let mut board = Exchange::new(pos);
        board.gone[mv.from.0 as usize] = true;
        if let Some(mid) = mv.mid {
            board.gone[mid.0 as usize] = true;
        }
        board.placed = pos.at(mv.from).map(|(side, piece)| {
            let promoted = piece.promoted || mv.promote;
            (mv.to, side, Piece { promoted, ..piece })
        });
        board
    }

    fn new(pos: &'a ChuPosition) -> Self {
        Exchange {
            pos,
            gone: [false; SQUARES],
            placed: None,
        }
    }

    fn at(&self, sq: Square) -> Option<(Side, Piece)> {
        if let Some((at, side, piece)) = self.placed
            && at == sq
        {
            return Some((side, piece));
        }
        if self.gone[sq.0 as usize] {
            None
        } else {
            self.pos.at(sq)
        }
    }

    /// Every piece of `by` that could take on `target` in one move (its
    /// own piece there aside), with the square it stands on.
    fn attackers(&self, target: Square, by: Side, found: impl FnMut(Square, Piece)) {
        self.attackers_on(target, by, u8::MAX, true, found);
    }

    /// [`Exchange::attackers`] along the rays of `rays` (a bit for each of
    /// [`RAYS`]) only, and on the lion's ring if `ring`.
    fn attackers_on(
        &self,
        target: Square,
        by: Side,
        rays: u8,
        ring: bool,
        mut found: impl FnMut(Square, Piece),
    ) {
        for (index, ray) in RAYS.into_iter().enumerate() {
            if rays & (1 << index) == 0 {
                continue;
            }
            let mut blocked = false;
            let mut k = 1;
            while let Some(sq) = along(target, ray, k) {
                if let Some((side, piece)) = self.at(sq) {
                    if side == by && reaches(piece, side, index, k, blocked) {
                        found(sq, piece);
                    }
                    blocked = true;
                }
                // Past two squares only a clear line reaches.
                if blocked && k >= 2 {
                    break;
                }
                k += 1;
            }
        }
        if !ring {
            return;
        }
        for offset in LION_ONLY {
            if let Some(sq) = along(target, offset, 1)
                && let Some((side, piece)) = self.at(sq)
                && side == by
                && piece.is_lion()
            {
                found(sq, piece);
            }
        }
    }

    /// The least valuable piece of `by` that could take on `target`.
    fn least_attacker(&self, target: Square, by: Side) -> Option<(Square, Piece)> {
        let mut best: Option<(Square, Piece, i32)> = None;
        self.attackers(target, by, |sq, piece| {
            let w = exchange_worth(piece);
            if best.is_none_or(|(_, _, b)| w < b) {
                best = Some((sq, piece, w));
            }
        });
        best.map(|(sq, piece, _)| (sq, piece))
    }
}

/// Whether `by` has a piece that could take on `sq` (the lion-trading
/// rules aside).
pub fn attacked_by(pos: &ChuPosition, sq: Square, by: Side) -> bool {
    let mut any = false;
    Exchange::new(pos).attackers(sq, by, |_, _| any = true);
    any
}

/// Whether `by` could take on `sq` once `mv` is played in `pos`, without
/// playing it: the mover leaves its first square (and takes on its
/// middle one) and stands on its last, promoted if the move promotes.
/// The same answer as [`attacked_by`] on [`super::moves::play`]'s
/// position, for the mate solver, which asks it of every move it reads.
pub fn attacked_after(pos: &ChuPosition, mv: ChuMove, sq: Square, by: Side) -> bool {
    let board = Exchange::after(pos, mv);
    let mut any = false;
    board.attackers(sq, by, |_, _| any = true);
    any
}

/// [`attacked_after`] for a target `by` does not attack before the move:
/// then only the lines the move changes can bring an attacker, so only
/// the rays from `sq` through the mover's new square and the squares it
/// empties are looked along (and the lion's ring, for a lion landing on
/// it). The mate solver asks this of every move when it looks for checks.
pub fn attacked_after_quiet(pos: &ChuPosition, mv: ChuMove, sq: Square, by: Side) -> bool {
    let mut rays = 0u8;
    for changed in [Some(mv.to), Some(mv.from), mv.mid].into_iter().flatten() {
        if let Some(ray) = ray_toward(sq, changed) {
            rays |= 1 << ray;
        }
    }
    let (rows, columns) = (
        mv.to.row().abs_diff(sq.row()),
        mv.to.column().abs_diff(sq.column()),
    );
    let ring = matches!((rows, columns), (1, 2) | (2, 1));
    if rays == 0 && !ring {
        return false;
    }
    let board = Exchange::after(pos, mv);
    let mut any = false;
    board.attackers_on(sq, by, rays, ring, |_, _| any = true);
    any
}

/// The index in [`RAYS`] of the ray from `from` that passes `to`, if they
/// share a rank, a file or a diagonal.
fn ray_toward(from: Square, to: Square) -> Option<usize> {
    let rows = to.row() as i32 - from.row() as i32;
    let columns = to.column() as i32 - from.column() as i32;
    if (rows, columns) == (0, 0) || !(rows == 0 || columns == 0 || rows.abs() == columns.abs()) {
        return None;
    }
    RAYS.iter()
        .position(|&ray| ray == (rows.signum(), columns.signum()))
}

/// Longest exchange followed on one square.
const MAX_EXCHANGE: usize = 40;

/// What `mv` wins for the side making it, in hundredths of the JCSA
/// points, once the opponent's best sequence of recaptures on the square
/// the mover ends on is counted (zero or more for a sound capture; what is
/// lost below zero). Any move may be asked; a quiet move's value is what
/// it puts en prise.
pub fn exchange(pos: &ChuPosition, mv: ChuMove) -> i32 {
    let Some((side, mover)) = pos.at(mv.from) else {
        return 0;
    };
    let mut board = Exchange::new(pos);
    let taken: i32 = mv.taken(pos).map(|(_, p)| exchange_worth(p)).sum();
    board.gone[mv.from.0 as usize] = true;
    if let Some(mid) = mv.mid {
        board.gone[mid.0 as usize] = true;
    }
    let target = mv.to;
    let mut on_target = Piece {
        promoted: mover.promoted || mv.promote,
        ..mover
    };
    // gains[d]: the balance for the side making the d-th capture if the
    // exchange stopped right after it.
    let mut gains = [0i32; MAX_EXCHANGE];
    gains[0] = taken;
    let mut d = 0;
    let mut to_take = side.opponent();
    while d + 1 < MAX_EXCHANGE {
        let Some((sq, attacker)) = board.least_attacker(target, to_take) else {
            break;
        };
        d += 1;
        gains[d] = exchange_worth(on_target) - gains[d - 1];
        board.gone[sq.0 as usize] = true;
        on_target = attacker;
        to_take = to_take.opponent();
    }
    // Each side takes only if that is better than stopping.
    while d > 0 {
        gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
        d -= 1;
    }
    gains[0]
}
