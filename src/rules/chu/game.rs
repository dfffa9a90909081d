//! 中将棋 as a [`Game`]: what the shared search, game record and self-play
//! need — legal moves, the game's end, 千日手 as a draw on the fourth
//! occurrence, the incremental key, and a static evaluation from the JCSA
//! point table.

pub use super::Profile;
use super::end::{self, ChuEnd};
use super::exchange::{self, worth};
use super::moves::{self, ChuMove};
use super::notation::{Coords, screen_move};
use super::pieces::{DIRECTIONS, Kind, Piece};
use super::position::{ChuPosition, FILES, RANKS, SQUARES, Square};
use super::repetition::ChuHistory;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::rules::game::{EndReason, Exact, Game, Outcome, Side};

/// The same position (board, side to move, 先獅子 square) for the fourth
/// time is 千日手.
pub const REPETITION_DRAW: u32 = 4;

/// A rule preset of `levels/presets/chushogi.ron`.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ChuRules {
    pub profile: Profile,
}

impl ChuRules {
    pub const JCSA: ChuRules = ChuRules {
        profile: Profile::Jcsa,
    };

    /// Every profile is a whole rule set: nothing to check yet.
    pub fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

/// 中将棋 under one rule profile.
#[derive(Clone, Debug, Default)]
pub struct Chu {
    pub rules: ChuRules,
    /// What the only lion on the board is worth over its points
    /// (hundredths of a pawn): with two moves a turn it takes guarded
    /// pieces and hunts a king that no lion of its own defends.
    pub lion_alone: i32,
    /// Only the moves HaChu reads as they are sent ([`moves::hachu_reads`]):
    /// a referee's engine playing HaChu under lishogi's rules.
    pub hachu_promotions: bool,
    /// The ply after which the game is cut off and decided on the JCSA
    /// points, as a match's move cap stands in for the 60-minute cutoff:
    /// the search then reads a position that reaches it as the game's end.
    pub move_cap: Option<u32>,
    /// King safety after HaChu's own terms: against an enemy lion a royal
    /// kept on its back rank behind 醉象 and 盲虎 (`lion_proof_shelter`),
    /// and the friends beside it that will not promote counted as its
    /// shield (`shield`), instead of a little for any friend beside it.
    pub king_shelter: bool,
    /// A bare king does not end the game: a GUI with no bare-king rule for
    /// chu (XBoard) judges such a claim false and scores a draw, so the
    /// engine plays on to take the royals.
    pub plays_out_bare_king: bool,
    /// The search asks the mate solver, for a few hundred positions, at
    /// each node with two plies or more still to read where the enemy's
    /// royal is exposed ([`super::probe`]), and trusts a proved mate as
    /// exact.
    pub mate_probes: bool,
}

/// What each square a ranging piece reaches along its lines is worth
/// (hundredths of a pawn).
const MOBILITY: i32 = 2;

/// What a guarded lion is worth over one left alone.
const LION_GUARDED: i32 = 40;

/// What a king (or a 太子 left without one) costs its side when the only
/// lions on the board are the enemy's, by the nearest one's distance in
/// king steps (0 unused): a lion takes anything within two squares,
/// guarded or not, so a royal it comes near has no shelter but distance.
const LONE_LION_NEAR: [i32; 7] = [0, 250, 250, 150, 90, 40, 15];

/// The most the pieces around a royal count for its shield (hundredths of
/// the JCSA points, before [`SHIELD_SHARE`]).
const SHIELD_MOST: i32 = 1400;

/// The share of the shield's worth the evaluation counts: one eighth.
const SHIELD_SHARE: i32 = 8;

/// A side left with this much beside its royals (hundredths of the
/// JCSA points: two 歩兵) is hunted when a bare king is played out
/// ([`Chu::plays_out_bare_king`]).
const HUNTED_MOST: i32 = 200;

/// How a hunted royal is driven to the edge and surrounded: for each rank
/// or file it stands nearer the edge, and for each piece of the hunter by
/// its king steps to it (11 at most on the board), in hundredths of a pawn.
const HUNT_EDGE: i32 = 30;
const HUNT_NEAR: i32 = 4;

/// Whether `side` is left with its royals and next to nothing (at most
/// [`HUNTED_MOST`]) beside them.
fn is_hunted(pos: &ChuPosition, side: Side) -> bool {
    let besides: i32 = pos
        .pieces()
        .filter(|&(_, s, p)| s == side && !matches!(p.kind(), Kind::King | Kind::Prince))
        .map(|(_, _, p)| worth(p))
        .sum();
    besides <= HUNTED_MOST
}

/// What the hunter of a lone royal on `royal` gains from driving it to
/// the edge and closing in with `hunter`'s pieces, its king included: the
/// search alone, reading a few plies, shuffles where the royal must be
/// mated or taken many moves later.
fn hunt(pos: &ChuPosition, royal: Square, hunter: Side) -> i32 {
    let (row, column) = (royal.row() as i32, royal.column() as i32);
    let from_edge = row
        .min(RANKS as i32 - 1 - row)
        .min(column)
        .min(FILES as i32 - 1 - column);
    let near: i32 = pos
        .pieces()
        .filter(|&(_, s, _)| s == hunter)
        .map(|(sq, _, _)| 11 - sq.king_steps(royal) as i32)
        .sum();
    HUNT_EDGE * (5 - from_edge) + HUNT_NEAR * near
}

/// A royal's shelter against an enemy lion, after HaChu's `Fortress`
/// ([`Chu::king_shelter`]): on its back rank behind 醉象 and 盲虎, which a
/// lion cannot take there without being taken back, with 金将 beside it.
/// Hundredths of a pawn for `side`; below zero for a royal that has left
/// its back rank, or has nothing in front of it.
fn lion_proof_shelter(pos: &ChuPosition, royal: Square, side: Side) -> i32 {
    match advance(royal, side) {
        0 => {}
        1 => return -60,
        _ => return -125,
    }
    // How much a friend on the square (right, forward) of the royal walls
    // it in: 醉象 3, 盲虎 2, 金将 and と金 1.
    let wall = |right: i32, forward: i32| {
        moves::offset(royal, side, right, forward)
            .and_then(|sq| pos.at(sq))
            .filter(|&(s, _)| s == side)
            .map_or(0, |(_, piece)| match piece.kind() {
                Kind::DrunkElephant => 3,
                Kind::BlindTiger => 2,
                Kind::Gold | Kind::Tokin => 1,
                _ => 0,
            })
    };
    let (front, left, right) = (wall(0, 1), wall(-1, 1), wall(1, 1));
    let (left_strong, right_strong) = (left > 1, right > 1);
    let in_front = match front {
        0 if left_strong || right_strong => 0,
        0 => -60,
        1 if left_strong && right_strong => 100,
        1 => 0,
        _ => match (left_strong, right_strong) {
            (true, true) if front == 2 => 137,
            (true, true) => 125,
            (false, false) => 0,
            _ => 75,
        },
    };
    let beside = 25 * (right_strong && wall(2, 0) == 1) as i32
        + 25 * (left_strong && wall(-2, 0) == 1) as i32
        + 12 * (wall(1, 0) == 1) as i32
        + 12 * (wall(-1, 0) == 1) as i32;
    in_front + beside
}

/// What the friends around a royal that will not promote any further are
/// worth (hundredths of the JCSA points, at most [`SHIELD_MOST`]): the
/// pieces that stay to guard it, after HaChu's `Surround`
/// ([`Chu::king_shelter`]).
fn shield(pos: &ChuPosition, royal: Square, side: Side) -> i32 {
    neighbours(royal)
        .filter_map(|sq| pos.at(sq))
        .filter(|&(s, piece)| s == side && !piece.can_promote())
        .map(|(_, piece)| worth(piece))
        .sum::<i32>()
        .min(SHIELD_MOST)
}

/// Ranks `sq` lies ahead of `side`'s own back rank (0 on it, 11 at the far end).
fn advance(sq: Square, side: Side) -> i32 {
    match side {
        Side::First => (RANKS - 1 - sq.row()) as i32,
        Side::Second => sq.row() as i32,
    }
}

/// The up to eight squares around `sq` (the move generator's steps).
pub(super) fn neighbours(sq: Square) -> impl Iterator<Item = Square> {
    DIRECTIONS.iter().filter_map(move |d| {
        let (right, forward) = d.delta();
        moves::offset(sq, Side::First, right, forward)
    })
}

/// The side's sign in a score kept from 先手's point of view.
fn sign(side: Side) -> i32 {
    match side {
        Side::First => 1,
        Side::Second => -1,
    }
}

impl Chu {
    /// The game under `rules` as the CPU levels value it: without the
    /// lone-lion premium (`match --lion-alone` sets one) and without
    /// [`Chu::king_shelter`] (`engine`, `usi` and `match` turn it on).
    pub fn new(rules: ChuRules) -> Chu {
        Chu {
            rules,
            lion_alone: 0,
            hachu_promotions: false,
            move_cap: None,
            king_shelter: false,
            plays_out_bare_king: false,
            mate_probes: false,
        }
    }

    /// With [`Chu::hachu_promotions`], drops the moves from `start` on that
    /// HaChu would read otherwise than sent.
    fn keep_what_hachu_reads(&self, pos: &ChuPosition, out: &mut Vec<ChuMove>, start: usize) {
        if !self.hachu_promotions {
            return;
        }
        let mut index = 0;
        out.retain(|&mv| {
            index += 1;
            index <= start || moves::hachu_reads(pos, mv)
        });
    }

    /// The position's value for 先手, in hundredths of a pawn.
    fn score_for_first(&self, pos: &ChuPosition) -> i32 {
        let mut score = 0;
        let mut kings: [Option<Square>; 2] = [None, None];
        // Each side's lions: its 獅子 and a promoted 麒麟 at most.
        let mut lion_squares: [[Option<Square>; 2]; 2] = [[None; 2]; 2];
        let mut princes: [Option<Square>; 2] = [None, None];
        let mut prince_worth = [0; 2];
        let mut pieces = 0;
        for (sq, side, piece) in pos.pieces() {
            pieces += 1;
            let mut v = worth(piece);
            if piece.is_lion()
                && let Some(slot) = lion_squares[side.index()].iter_mut().find(|s| s.is_none())
            {
                *slot = Some(sq);
            }
            match piece.kind() {
                Kind::King => kings[side.index()] = Some(sq),
                Kind::Prince => {
                    princes[side.index()] = Some(sq);
                    prince_worth[side.index()] += v;
                }
                _ => {}
            }
            let near = (advance(sq, side) - 4).clamp(0, 4);
            if near > 0 && piece.can_promote() {
                // Pieces that can promote gain as they near the zone, where
                // they may become far stronger (歩兵 → と金, 醉象 → 太子…).
                let gain = piece.base.promoted_points().unwrap_or(0.0) - piece.base.points();
                v += (gain * near as f32 * 2.0) as i32;
            }
            if piece.is_lion() || piece.kind() == Kind::FreeKing {
                // Strong pieces want the open centre.
                let (r, c) = (sq.row() as i32, sq.column() as i32);
                let off = (2 * r - 11).abs().max((2 * c - 11).abs()) / 2;
                v += 3 * (5 - off);
            }
            // A guarded lion cannot be taken by the enemy lion from two
            // squares away (the lion-trading rules), nor for free.
            if piece.is_lion() && exchange::attacked_by(pos, sq, side) {
                v += LION_GUARDED;
            }
            // Ranging pieces are worth more with open lines.
            v += MOBILITY * moves::sliding_reach(pos, sq, side, piece);
            score += sign(side) * v;
        }
        let has_lion = lion_squares.map(|squares| squares[0].is_some());
        // The shelter from a lion counts once pieces have been traded (the
        // start has 92), in 32nds.
        let shelter_weight = (32 - (pieces - 80).max(0) * 32 / 14).max(0);
        for side in Side::BOTH {
            let royal = kings[side.index()].or(princes[side.index()]);
            if self.king_shelter {
                if let Some(royal) = royal {
                    score += sign(side) * shield(pos, royal, side) / SHIELD_SHARE;
                    if has_lion[side.opponent().index()] {
                        score +=
                            sign(side) * lion_proof_shelter(pos, royal, side) * shelter_weight / 32;
                    }
                }
            } else if let Some(k) = kings[side.index()] {
                // A king with friends around it is harder to reach.
                let guards = neighbours(k)
                    .filter(|&sq| pos.at(sq).is_some_and(|(s, _)| s == side))
                    .count() as i32;
                score += sign(side) * 8 * guards.min(5);
            }
            if kings[side.index()].is_none() {
                // A 太子 counts only while its king lives (as the points do
                // at the cutoff): so the king of a side with a 太子 is
                // worth that much, not the nothing a king counts.
                score -= sign(side) * prince_worth[side.index()];
            }
            if let Some(royal) = royal.filter(|_| !has_lion[side.index()]) {
                let nearest = lion_squares[side.opponent().index()]
                    .iter()
                    .flatten()
                    .map(|&lion| royal.king_steps(lion))
                    .min();
                if let Some(d) = nearest {
                    score -= sign(side) * LONE_LION_NEAR.get(d).copied().unwrap_or(0);
                }
            }
        }
        if self.plays_out_bare_king {
            for hunted in Side::BOTH {
                let royal = kings[hunted.index()].or(princes[hunted.index()]);
                if let Some(royal) = royal.filter(|_| is_hunted(pos, hunted)) {
                    score -= sign(hunted) * hunt(pos, royal, hunted.opponent());
                }
            }
        }
        let lone_lion = match has_lion {
            [true, false] => self.lion_alone,
            [false, true] => -self.lion_alone,
            _ => 0,
        };
        score + lone_lion
    }

    /// Whether the side not to move in `pos` is left with its royals and
    /// next to nothing while a bare king is played out: the side to move
    /// hunts its royal ([`Chu::plays_out_bare_king`]).
    pub fn hunts(&self, pos: &ChuPosition) -> bool {
        self.plays_out_bare_king && is_hunted(pos, pos.to_move().opponent())
    }

    /// How the game ends in `pos` under its rules ([`end::outcome_in`]),
    /// unless it ends in a bare king that is played out
    /// ([`Chu::plays_out_bare_king`]).
    pub fn end(&self, pos: &ChuPosition) -> Option<(Option<Side>, ChuEnd)> {
        end::outcome_in(self.rules.profile, pos)
            .filter(|&(_, why)| !(self.plays_out_bare_king && why == ChuEnd::BareKing))
    }
}

impl Game for Chu {
    type Pos = ChuPosition;
    type Move = ChuMove;

    fn start(&self) -> ChuPosition {
        ChuPosition::start()
    }

    fn side_to_move(&self, pos: &ChuPosition) -> Side {
        pos.to_move()
    }

    fn legal_moves(&self, pos: &ChuPosition, out: &mut Vec<ChuMove>) {
        let start = out.len();
        moves::legal_moves_in(self.rules.profile, pos, out);
        self.keep_what_hachu_reads(pos, out, start);
    }

    fn play(&self, pos: &ChuPosition, mv: ChuMove) -> ChuPosition {
        moves::play(pos, mv)
    }

    fn legal_captures(&self, pos: &ChuPosition, out: &mut Vec<ChuMove>) {
        let start = out.len();
        moves::legal_captures_in(self.rules.profile, pos, out);
        self.keep_what_hachu_reads(pos, out, start);
    }

    fn outcome(&self, pos: &ChuPosition) -> Option<Outcome> {
        let ended = self.end(pos).map(|(winner, why)| {
            let reason = match why {
                // The winner took what the rules ask for: the royals, or
                // everything that counts but the king; or too little is
                // left for either side to win (lishogi: a draw).
                ChuEnd::RoyalsTaken | ChuEnd::BareKing | ChuEnd::TooLittleLeft => {
                    EndReason::CaptureTarget
                }
                ChuEnd::NoMoves => EndReason::NoMoves,
            };
            Outcome { winner, reason }
        });
        // The move number counts every ply from 1 at the start.
        let capped = self.move_cap.is_some_and(|cap| pos.move_number() > cap);
        ended.or_else(|| {
            capped.then(|| Outcome {
                winner: end::cutoff_winner(pos),
                reason: EndReason::MoveLimit,
            })
        })
    }

    /// The move cap is won on the JCSA points: the search still plays
    /// for a larger lead there (or a smaller deficit).
    fn won_on_margin(&self, outcome: Outcome) -> bool {
        outcome.reason == EndReason::MoveLimit
    }

    fn repetition_outcome(&self, _pos: &ChuPosition, count: u32) -> Option<Outcome> {
        (count >= REPETITION_DRAW).then_some(Outcome::draw(EndReason::Repetition))
    }

    fn forbidden_moves(&self, positions: &[ChuPosition], moves: &[ChuMove]) -> Vec<ChuMove> {
        let Some(pos) = positions.last() else {
            return Vec::new();
        };
        if self.rules.profile != Profile::Jcsa {
            return Vec::new();
        }
        // Only a move to a position already seen three times can be one
        // (and most games have none: no moves need generating).
        let mut counts: HashMap<u64, usize> = HashMap::new();
        for p in positions {
            *counts.entry(p.key()).or_default() += 1;
        }
        if counts.values().all(|&n| n < 3) {
            return Vec::new();
        }
        let seen = |key: u64| counts.get(&key).copied().unwrap_or(0);
        let mut suspects = Vec::new();
        self.legal_moves(pos, &mut suspects);
        suspects.retain(|&m| seen(moves::play(pos, m).key()) >= 3);
        if suspects.is_empty() {
            return suspects;
        }
        let history = ChuHistory::from_game(self.rules.profile, positions, moves);
        suspects.retain(|&m| history.must_change(m) == Some(pos.to_move()));
        suspects
    }

    fn history_outcome(
        &self,
        positions: &[ChuPosition],
        moves: &[ChuMove],
        occurrences: u32,
    ) -> Option<Outcome> {
        let pos = positions.last()?;
        match self.rules.profile {
            // 千日手: the fourth occurrence is a draw (the side that must
            // change cannot make it, so the other side did), and so is a
            // side that must change with no other move (repetition.rs).
            Profile::Jcsa if occurrences >= REPETITION_DRAW => {
                Some(Outcome::draw(EndReason::Repetition))
            }
            Profile::Jcsa => {
                let mut legal = Vec::new();
                self.legal_moves(pos, &mut legal);
                let forbidden = self.forbidden_moves(positions, moves);
                (!legal.is_empty() && legal.iter().all(|m| forbidden.contains(m)))
                    .then_some(Outcome::draw(EndReason::Repetition))
            }
            Profile::Lishogi if occurrences >= REPETITION_DRAW => {
                let winner = ChuHistory::from_game(self.rules.profile, positions, moves)
                    .repetition_result()?;
                Some(Outcome {
                    winner,
                    reason: EndReason::Repetition,
                })
            }
            Profile::Lishogi => None,
        }
    }

    fn hash(&self, pos: &ChuPosition) -> u64 {
        pos.key()
    }

    /// A mate by checks the probing solver proves where the enemy's royal
    /// is exposed ([`Chu::mate_probes`]). Not against a move cap, which the
    /// solver does not know. The solver's moves are the profile's: a mate
    /// that needs a promotion HaChu would not read is still believed here,
    /// and only the root's move is kept to [`Chu::hachu_promotions`].
    fn exact(&self, pos: &ChuPosition) -> Option<Exact> {
        if !self.mate_probes || self.move_cap.is_some() {
            return None;
        }
        let plies = super::probe::mate_in(self.rules.profile, pos)?;
        Some(Exact::WinIn {
            winner: pos.to_move(),
            plies,
        })
    }

    fn exact_min_depth(&self) -> i32 {
        super::probe::PROBE_MIN_DEPTH
    }

    /// Passing is never better than moving in 中将棋 (a side always has a
    /// harmless move among its pieces; the lion can even じっと), so the
    /// null-move test is sound here — except in check, where a pass loses
    /// the king and says nothing about the position.
    fn null_move(&self, pos: &ChuPosition) -> Option<ChuPosition> {
        (!super::end::royal_in_danger(pos, pos.to_move())).then(|| pos.passed())
    }

    fn in_check(&self, pos: &ChuPosition) -> bool {
        super::end::royal_in_danger(pos, pos.to_move())
    }

    fn evaluate(&self, pos: &ChuPosition) -> i32 {
        sign(pos.to_move()) * self.score_for_first(pos)
    }

    fn is_capture(&self, pos: &ChuPosition, mv: ChuMove) -> bool {
        mv.taken(pos).next().is_some()
    }

    fn capture_order(&self, pos: &ChuPosition, mv: ChuMove) -> i32 {
        let taken: i32 = mv
            .taken(pos)
            .map(|(_, p)| exchange::exchange_worth(p))
            .sum();
        let taker = pos.at(mv.from).map_or(0, |(_, p)| worth(p));
        16 * taken - taker
    }

    fn exchange(&self, pos: &ChuPosition, mv: ChuMove) -> Option<i32> {
        // Taking at least what the taker is worth cannot lose, whatever the
        // replies: the recaptures win back the taker at most.
        let taken: i32 = mv
            .taken(pos)
            .map(|(_, p)| exchange::exchange_worth(p))
            .sum();
        let taker = pos.at(mv.from).map(|(_, p)| {
            exchange::exchange_worth(Piece {
                promoted: p.promoted || mv.promote,
                ..p
            })
        });
        match taker {
            Some(taker) if taken >= taker => Some(taken - taker),
            _ => Some(exchange::exchange(pos, mv)),
        }
    }

    fn move_index(&self, mv: ChuMove) -> usize {
        mv.from.0 as usize * SQUARES + mv.to.0 as usize
    }

    fn move_index_bound(&self) -> usize {
        SQUARES * SQUARES
    }

    fn move_ends(&self, mv: ChuMove) -> (usize, usize) {
        (mv.from.0 as usize, mv.to.0 as usize)
    }

    fn move_path(&self, mv: ChuMove) -> Vec<usize> {
        std::iter::once(mv.from)
            .chain(mv.mid)
            .chain(std::iter::once(mv.to))
            .map(|sq| sq.0 as usize)
            .collect()
    }

    fn promotes(&self, mv: ChuMove) -> bool {
        mv.promote
    }

    fn input_path(&self, pos: &ChuPosition, mv: ChuMove) -> Option<Vec<usize>> {
        match mv.mid {
            // じっと is tapped on the piece itself (and confirmed).
            Some(_) if mv.is_jitto(pos) => Some(vec![mv.from.0 as usize; 2]),
            // A route through an empty square ends as the direct leap to
            // the same square does: the player taps that.
            Some(mid) if pos.at(mid).is_none() => None,
            _ => Some(self.move_path(mv)),
        }
    }

    fn move_text(&self, pos: &ChuPosition, mv: ChuMove) -> String {
        japanese_move(pos, mv)
    }
}

/// A move as the record on the play screen writes it, in Japanese
/// coordinates and without the previous move (so never 仝): `☗7八歩兵(←7九)`.
pub fn japanese_move(pos: &ChuPosition, mv: ChuMove) -> String {
    screen_move(pos, mv, None, Coords::Japanese)
}
