//! 中将棋 moves: every move the pieces' movement
//! allows — steps, slides, two-square jumps, the 獅子's area and two-step
//! moves, the lion lines of 飛鷲 and 角鷹 — with the optional promotions.
//!
//! [`legal_moves`] applies the lion-trading rules (adjacent / protected at
//! two squares / 付け喰い / 先獅子). The game's end is in `end.rs`, 千日手
//! in `repetition.rs`.

use serde::{Deserialize, Serialize};

use super::Profile;
use super::pieces::{DIRECTIONS, Kind, Piece, Reach};
use super::position::{ChuPosition, RANKS, Square};
use crate::rules::game::Side;
use std::sync::LazyLock;

/// A move: `from` → `to`, through `mid` for a two-step move (獅子, and the
/// lion lines of 飛鷲 and 角鷹); `to == from` for 居食い and じっと.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChuMove {
    pub from: Square,
    pub mid: Option<Square>,
    pub to: Square,
    pub promote: bool,
}

impl ChuMove {
    /// The enemy pieces `mv` takes in `pos`, in the order they fall (the
    /// first step's, then the last's): square and piece.
    pub fn taken(self, pos: &ChuPosition) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let side = pos.to_move();
        [self.mid, Some(self.to)]
            .into_iter()
            .flatten()
            .filter_map(move |sq| match pos.at(sq) {
                Some((s, piece)) if s != side => Some((sq, piece)),
                _ => None,
            })
    }

    /// じっと: a step out to an empty square and back (a pass).
    pub(crate) fn is_jitto(self, pos: &ChuPosition) -> bool {
        self.to == self.from && self.mid.is_some_and(|m| pos.at(m).is_none())
    }

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

/// Reads a USI move (`7i7h`, `7i7h+`, `6f5e6d`) and finds it among the
/// legal moves of `pos` (JCSA rules); the message says what is wrong.
pub fn parse_usi(pos: &ChuPosition, text: &str) -> Result<ChuMove, String> {
    parse_usi_in(Profile::Jcsa, pos, text)
}

/// [`parse_usi`] under `profile`'s rules.
pub fn parse_usi_in(profile: Profile, pos: &ChuPosition, text: &str) -> Result<ChuMove, String> {
    let (body, promote) = match text.strip_suffix('+') {
        Some(b) => (b, true),
        None => (text, false),
    };
    // Squares are a number then a letter: split after each letter.
    let mut squares = Vec::new();
    let mut start = 0;
    for (i, c) in body.char_indices() {
        if c.is_ascii_alphabetic() {
            squares.push(Square::parse(&body[start..=i]).map_err(|e| format!("\"{text}\": {e}"))?);
            start = i + 1;
        }
    }
    let not_usi =
        || format!("\"{text}\" is not a USI move (two or three squares, e.g. 7i7h, 7i7h+, 6f5e6d)");
    if start != body.len() {
        return Err(not_usi());
    }
    let (from, mid, to) = match squares[..] {
        [from, to] => (from, None, to),
        [from, mid, to] => (from, Some(mid), to),
        _ => return Err(not_usi()),
    };
    let wanted = ChuMove {
        from,
        mid,
        to,
        promote,
    };
    let mut moves = Vec::new();
    legal_moves_in(profile, pos, &mut moves);
    if moves.contains(&wanted) {
        Ok(wanted)
    } else {
        Err(format!("{text} is not a legal move here"))
    }
}

/// One step from `sq` by (right, forward) as `side` sees the board (as
/// 先手 sees it: the board's own directions, rank a at the top).
pub(crate) fn offset(sq: Square, side: Side, right: i32, forward: i32) -> Option<Square> {
    let (rows, columns) = board_step(side, right, forward);
    sq.shifted(rows, columns)
}

/// A step of `right`, `forward` in `side`'s view, as rows down and columns
/// right on the board.
fn board_step(side: Side, right: i32, forward: i32) -> (i32, i32) {
    match side {
        Side::First => (-forward, right),
        Side::Second => (forward, -right),
    }
}

/// The four ranks nearest the opponent.
pub(crate) fn in_zone(sq: Square, side: Side) -> bool {
    match side {
        Side::First => sq.row() < 4,
        Side::Second => sq.row() >= RANKS - 4,
    }
}

/// The rank farthest from `side`, where a 歩兵 or 香車 can move no more.
pub(crate) fn last_rank(sq: Square, side: Side) -> bool {
    match side {
        Side::First => sq.row() == 0,
        Side::Second => sq.row() == RANKS - 1,
    }
}

/// Whether a one-leg move may promote (the JCSA rules' three cases).
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

/// Whether the piece `mv` moves could have promoted on it: a record writes
/// 不成 for a move that could have and did not. (The lion-trading rules
/// never depend on promotion, so the promoting twin of a legal move is
/// legal exactly when this holds.)
pub fn promotion_possible(pos: &ChuPosition, mv: ChuMove) -> bool {
    let Some((side, piece)) = pos.at(mv.from) else {
        return false;
    };
    let captures = pos.at(mv.to).is_some_and(|(s, _)| s != side);
    mv.mid.is_none() && may_promote(piece, side, mv.from, mv.to, captures)
}

/// Whether HaChu reads `mv` as it is sent: as a promotion if it promotes
/// and as none if it does not. lishogi's rules leave every promotion the
/// JCSA rules allow optional; HaChu (the XBoard engine) differs for the
/// pieces that only move forward, the 歩兵 and the 香車:
/// - a move that takes nothing promotes there only as it enters the zone,
///   so a 歩兵 or 香車 already inside cannot promote on reaching the last
///   rank;
/// - a 歩兵 that entered unpromoted promotes afterwards only by taking
///   onto the last rank;
/// - one that could promote on the last rank and does not is read as
///   promoting.
///
/// A referee playing HaChu under lishogi's rules keeps the engine to these
/// moves; every other move reads the same in both.
pub fn hachu_reads(pos: &ChuPosition, mv: ChuMove) -> bool {
    use super::pieces::Base;
    let Some((side, piece)) = pos.at(mv.from) else {
        return true;
    };
    let pawn = piece.base == Base::Pawn;
    if piece.promoted || mv.mid.is_some() || !(pawn || piece.base == Base::Lance) {
        return true;
    }
    let captures = pos.at(mv.to).is_some_and(|(s, _)| s != side);
    if !may_promote(piece, side, mv.from, mv.to, captures) {
        return !mv.promote;
    }
    let from_inside = in_zone(mv.from, side);
    let onto_last = last_rank(mv.to, side);
    if !captures && from_inside {
        !mv.promote
    } else if pawn && from_inside {
        mv.promote == onto_last
    } else {
        mv.promote || !onto_last
    }
}

/// Appends every pseudo-legal move of the side to move.
pub fn pseudo_legal(pos: &ChuPosition, out: &mut Vec<ChuMove>) {
    generate(pos, Wanted::All, out);
}

/// Appends the pseudo-legal moves that take something, in the order
/// [`pseudo_legal`] gives them.
pub fn pseudo_legal_captures(pos: &ChuPosition, out: &mut Vec<ChuMove>) {
    generate(pos, Wanted::Captures, out);
}

/// Which moves [`generate`] appends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wanted {
    All,
    Captures,
}

fn generate(pos: &ChuPosition, wanted: Wanted, out: &mut Vec<ChuMove>) {
    let side = pos.to_move();
    let own = |sq: Square| pos.at(sq).is_some_and(|(s, _)| s == side);
    let enemy = |sq: Square| pos.at(sq).is_some_and(|(s, _)| s != side);
    let all = wanted == Wanted::All;
    // A two-step move takes on its first step, or on its last unless it
    // comes back to where it began (居食い, じっと).
    let two_step_if_wanted = |from: Square, mid: Square, to: Square, out: &mut Vec<ChuMove>| {
        if all || enemy(mid) || (to != from && enemy(to)) {
            two_step(from, mid, to, out);
        }
    };
    for (from, s, piece) in pos.pieces() {
        if s != side {
            continue;
        }
        let one_leg = |to: Square, out: &mut Vec<ChuMove>| {
            let captures = enemy(to);
            if !all && !captures {
                return;
            }
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
            lion_moves(pos, from, side, wanted, out);
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
                    let second = offset(from, side, 2 * right, 2 * forward).filter(|&s| !own(s));
                    if let Some(second) = second {
                        one_leg(second, out);
                    }
                    if !own(first) {
                        one_leg(first, out);
                        // 居食い or じっと, and every route on through the
                        // first square (taking there if an enemy).
                        two_step_if_wanted(from, first, from, out);
                        if let Some(second) = second {
                            two_step_if_wanted(from, first, second, out);
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
fn lion_moves(pos: &ChuPosition, from: Square, side: Side, wanted: Wanted, out: &mut Vec<ChuMove>) {
    let own = |sq: Square| pos.at(sq).is_some_and(|(s, _)| s == side);
    let enemy = |sq: Square| pos.at(sq).is_some_and(|(s, _)| s != side);
    let all = wanted == Wanted::All;
    for forward in -2..=2 {
        for right in -2..=2 {
            if (right, forward) == (0, 0) {
                continue;
            }
            if let Some(to) = offset(from, side, right, forward)
                && !own(to)
                && (all || enemy(to))
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
                        && (all || enemy(mid) || (to != from && enemy(to)))
                    {
                        two_step(from, mid, to, out);
                    }
                }
            }
        }
    }
}

/// The squares where `mv` takes an enemy 獅子 (a promoted 麒麟 counts).
fn lions_taken(pos: &ChuPosition, mv: ChuMove) -> impl Iterator<Item = Square> + '_ {
    mv.taken(pos).filter(|(_, p)| p.is_lion()).map(|(sq, _)| sq)
}

/// Whether the lion on `sq`, which `mv` takes, has a 足 (a protector):
/// its side could move onto `sq` on the board before the move, or after it
/// (take back the capturer, or reach the emptied square after a 居食い).
/// Before: a protector the move itself takes still counts. After: the
/// moving piece has left its square, so a protector behind it counts.
fn protected(pos: &ChuPosition, mv: ChuMove, sq: Square) -> bool {
    let lion_side = pos.to_move().opponent();
    attacks(pos, lion_side, sq) || {
        let next = play(pos, mv);
        let mut replies = Vec::with_capacity(128);
        pseudo_legal(&next, &mut replies);
        replies.iter().any(|r| r.to == sq || r.mid == Some(sq))
    }
}

/// The lion-trading rules, for a move that takes a lion. The profiles
/// differ only in 先獅子: under JCSA a non-lion may not take a *protected*
/// lion (on either step); lishogi's is strict: no non-lion may end its
/// move on any lion, except on the square where the lion was just taken.
fn lion_rules_allow(profile: Profile, pos: &ChuPosition, mv: ChuMove) -> bool {
    let Some((_, mover)) = pos.at(mv.from) else {
        return false;
    };
    let side = pos.to_move();
    if profile == Profile::Lishogi
        && !mover.is_lion()
        && let Some(taken_at) = pos.lion_taken_at()
    {
        let ends_on_lion = pos.at(mv.to).is_some_and(|(s, p)| s != side && p.is_lion());
        return !ends_on_lion || mv.to == taken_at;
    }
    for lion in lions_taken(pos, mv) {
        if mover.is_lion() {
            // 隣の獅子: always.
            if mv.from.king_steps(lion) <= 1 {
                continue;
            }
            // 付け喰い: the first step took something other than a 歩兵 or
            // 仲人.
            let first_took = mv
                .mid
                .filter(|&m| m != lion)
                .and_then(|m| pos.at(m))
                .filter(|&(s, _)| s != side);
            if let Some((_, taken)) = first_took
                && !matches!(taken.kind(), Kind::Pawn | Kind::GoBetween)
            {
                continue;
            }
            // 離れた獅子: not if it is protected.
            if protected(pos, mv, lion) {
                return false;
            }
        } else if pos.lion_taken_at().is_some() && protected(pos, mv, lion) {
            // 先獅子: our lion was just taken by a non-lion.
            return false;
        }
    }
    true
}

/// Whether `by` could take what stands on `target` with its next move (if
/// it were its turn): the lion-trading rules aside, which only say whether
/// a lion may be taken, not whether it is attacked. Found by looking
/// outward from the square ([`super::exchange`]), not by generating `by`'s
/// moves (tests/chu_exchange.rs checks the two agree).
pub fn attacks(pos: &ChuPosition, by: Side, target: Square) -> bool {
    super::exchange::attacked_by(pos, target, by)
}

/// How many squares `piece` of `side` on `from` reaches along its sliding
/// lines — the empty squares, and an enemy piece where a line ends: the
/// evaluation's measure of a ranging piece's freedom.
pub fn sliding_reach(pos: &ChuPosition, from: Square, side: Side, piece: Piece) -> i32 {
    // Asked for every piece at every evaluation: each kind's sliding
    // directions are looked up once, and each ray walks rows and columns.
    static SLIDES: LazyLock<[u8; Kind::ALL.len()]> = LazyLock::new(|| {
        let mut table = [0u8; Kind::ALL.len()];
        for kind in Kind::ALL {
            let reach = kind.movement().reach;
            table[kind as usize] = (0..DIRECTIONS.len())
                .filter(|&i| reach[i] == Reach::Slide)
                .fold(0, |mask, i| mask | 1 << i);
        }
        table
    });
    let slides = SLIDES[piece.kind() as usize];
    if slides == 0 {
        return 0;
    }
    let mut squares = 0;
    for (i, dir) in DIRECTIONS.iter().enumerate() {
        if slides & (1 << i) == 0 {
            continue;
        }
        let (right, forward) = dir.delta();
        let (rows, columns) = board_step(side, right, forward);
        let (mut row, mut column) = (from.row() as i32 + rows, from.column() as i32 + columns);
        while let Some(to) = Square::at(row, column) {
            match pos.at(to) {
                None => squares += 1,
                Some((s, _)) => {
                    squares += (s != side) as i32;
                    break;
                }
            }
            row += rows;
            column += columns;
        }
    }
    squares
}

/// Whether the side to move has a move that takes nothing (one such move
/// is always legal: the lion rules only forbid captures). Cheaper than
/// generating every move, so a game's end can be ruled out quickly.
pub fn has_quiet_move(pos: &ChuPosition) -> bool {
    let side = pos.to_move();
    let empty = |sq: Option<Square>| sq.is_some_and(|sq| pos.at(sq).is_none());
    pos.pieces()
        .filter(|&(_, s, _)| s == side)
        .any(|(from, _, piece)| {
            let movement = piece.kind().movement();
            DIRECTIONS.iter().enumerate().any(|(i, dir)| {
                let (right, forward) = dir.delta();
                let step = empty(offset(from, side, right, forward));
                let jump = empty(offset(from, side, 2 * right, 2 * forward));
                match movement.reach[i] {
                    _ if movement.lion => step || jump,
                    Reach::No => false,
                    Reach::Step | Reach::Slide => step,
                    Reach::Jump => jump,
                    Reach::LionLine => step || jump,
                }
            })
        })
}

/// Appends every legal move under the JCSA rules: [`pseudo_legal`] less
/// the lion captures the lion-trading rules forbid.
pub fn legal_moves(pos: &ChuPosition, out: &mut Vec<ChuMove>) {
    legal_moves_in(Profile::Jcsa, pos, out);
}

/// Appends every legal move under `profile`'s rules.
pub fn legal_moves_in(profile: Profile, pos: &ChuPosition, out: &mut Vec<ChuMove>) {
    let start = out.len();
    pseudo_legal(pos, out);
    keep_lawful(profile, pos, out, start);
}

/// The legal moves that take something under `profile`'s rules, in the
/// order [`legal_moves_in`] gives them: the capture search's moves.
pub fn legal_captures_in(profile: Profile, pos: &ChuPosition, out: &mut Vec<ChuMove>) {
    let start = out.len();
    pseudo_legal_captures(pos, out);
    keep_lawful(profile, pos, out, start);
}

/// Drops the moves from `start` on that the lion-trading rules forbid,
/// keeping the others in order.
fn keep_lawful(profile: Profile, pos: &ChuPosition, out: &mut Vec<ChuMove>, start: usize) {
    let mut index = 0;
    out.retain(|&mv| {
        index += 1;
        index <= start || lion_rules_allow(profile, pos, mv)
    });
}

/// The position after `mv` (one of [`pseudo_legal`]'s). Taking a lion with
/// a piece that is not a lion as it moves (a 麒麟 promoting on the move, a
/// 飛鷲's or 角鷹's 居食い included) puts the other side under 先獅子.
pub fn play(pos: &ChuPosition, mv: ChuMove) -> ChuPosition {
    let by_non_lion = pos.at(mv.from).is_some_and(|(_, p)| !p.is_lion());
    let lion_square = lions_taken(pos, mv).next();
    let mut next = pos.after(mv.from, mv.mid, mv.to, mv.promote);
    if by_non_lion && let Some(sq) = lion_square {
        next.set_lion_taken_at(Some(sq));
    }
    next
}

/// Counts the leaf positions `depth` moves ahead (perft), JCSA rules.
pub fn perft(pos: &ChuPosition, depth: u32) -> u64 {
    perft_in(Profile::Jcsa, pos, depth)
}

/// [`perft`] under `profile`'s rules.
pub fn perft_in(profile: Profile, pos: &ChuPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // No moves once the game is over (a royal taken and none left, a bare
    // king); a diagram with no royal at all is a piece study and counted,
    // as shogiops's perft counts it ([`super::end::is_over`]).
    if super::end::is_over(profile, pos) {
        return 0;
    }
    let mut moves = Vec::with_capacity(256);
    legal_moves_in(profile, pos, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| perft_in(profile, &play(pos, m), depth - 1))
        .sum()
}
