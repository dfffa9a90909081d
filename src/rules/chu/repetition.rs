//! 千日手 under the JCSA rules as docs/rules/chushogi.md words them.
//!
//! The same position (board, side to move, 先獅子 square) for the fourth
//! time is a draw — but before that, one side must change its moves, and
//! that side may not play a move that makes a fourth occurrence. Which side
//! (looking at the moves since the repeated position first occurred):
//!
//! 1. the side that has given check (to the king or the 太子) with every
//!    one of its moves;
//! 2. else the side that has attacked an enemy piece with every one;
//! 3. else, if both sides have done nothing but じっと, the side that began;
//! 4. else the side about to make the fourth occurrence (the side to move).
//!
//! So a fourth occurrence is made either by the other side (say the checked
//! king steps back into a repeated position) or by the side that must
//! change when it has no other move: either way the game is drawn.
//!
//! The lishogi profile's rule is kept here too
//! ([`ChuHistory::repetition_result`]).
//!
//! Where the JCSA rules leave a point open, this module decides so:
//! - "Continuously" counts from the first occurrence of the position that
//!   would occur for the fourth time, up to and including the move asked
//!   about; a side must have moved at least once in that span.
//! - A rule names a side only if exactly one side fits it.
//! - The side with no move but the forbidden ones draws at once (it would
//!   make the fourth occurrence with its next move).

use super::Profile;
use super::moves::{ChuMove, legal_moves_in, pseudo_legal};
use super::pieces::Kind;
use super::position::ChuPosition;
use crate::rules::game::Side;

/// What one move did, as 千日手 asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveFacts {
    pub mover: Side,
    /// The mover now attacks the enemy king or 太子 (王手).
    pub check: bool,
    /// The mover now attacks some enemy piece.
    pub attack: bool,
    /// The move was a じっと (a lion's step out and back, taking nothing).
    pub jitto: bool,
    /// The piece that moved now attacks an enemy piece (lishogi's
    /// "attack", with check).
    pub piece_attack: bool,
}

impl MoveFacts {
    pub fn of(before: &ChuPosition, mv: ChuMove, after: &ChuPosition) -> MoveFacts {
        let mover = before.to_move();
        let jitto = mv.is_jitto(before);
        let mut moves = Vec::with_capacity(256);
        pseudo_legal(&after.with_side_to_move(mover), &mut moves);
        let mut check = false;
        let mut attack = false;
        let mut piece_attack = false;
        for m in &moves {
            for sq in [Some(m.to), m.mid].into_iter().flatten() {
                if let Some((side, piece)) = after.at(sq)
                    && side != mover
                {
                    attack = true;
                    check |= matches!(piece.kind(), Kind::King | Kind::Prince);
                    piece_attack |= m.from == mv.to;
                }
            }
        }
        MoveFacts {
            mover,
            check,
            attack,
            jitto,
            piece_attack,
        }
    }
}

/// The one side whose every move in `span` passes `test` (it moved at
/// least once), if exactly one side does.
fn only_side(span: &[MoveFacts], test: fn(&MoveFacts) -> bool) -> Option<Side> {
    let every = |side: Side| {
        let mut theirs = span.iter().filter(|f| f.mover == side).peekable();
        theirs.peek().is_some() && theirs.all(test)
    };
    match Side::BOTH.map(every) {
        [true, false] => Some(Side::First),
        [false, true] => Some(Side::Second),
        _ => None,
    }
}

/// A game so far, as 千日手 needs it: every position, the moves between
/// them and what each move did.
#[derive(Clone, Debug)]
pub struct ChuHistory {
    profile: Profile,
    positions: Vec<ChuPosition>,
    moves: Vec<ChuMove>,
    facts: Vec<MoveFacts>,
}

/// Where repeating the last cycle of moves leads ([`ChuHistory::cycle_ahead`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// The side that must change its moves.
    pub must_change: Side,
    /// The side whose move would make the fourth occurrence.
    pub fourth_by: Side,
}

impl ChuHistory {
    /// A game under the JCSA rules.
    pub fn new(start: ChuPosition) -> Self {
        Self::new_in(Profile::Jcsa, start)
    }

    /// A game under `profile`'s repetition rule: JCSA's (above), or
    /// lishogi's: the fourth occurrence ends the game — lost by the side
    /// whose every move since the first occurrence gave check or left the
    /// moved piece attacking an enemy piece (if only one side did), else
    /// drawn.
    pub fn new_in(profile: Profile, start: ChuPosition) -> Self {
        ChuHistory {
            profile,
            positions: vec![start],
            moves: Vec::new(),
            facts: Vec::new(),
        }
    }

    /// The history of a game already played: `positions` from the start
    /// (the current last) and the `moves` between them, taken as legal.
    pub(crate) fn from_game(
        profile: Profile,
        positions: &[ChuPosition],
        moves: &[ChuMove],
    ) -> Self {
        let facts = positions
            .windows(2)
            .zip(moves)
            .map(|(pair, &mv)| MoveFacts::of(&pair[0], mv, &pair[1]))
            .collect();
        ChuHistory {
            profile,
            positions: positions.to_vec(),
            moves: moves.to_vec(),
            facts,
        }
    }

    /// lishogi: the result once the current position has occurred a
    /// fourth time (`Some(None)` for a draw).
    pub fn repetition_result(&self) -> Option<Option<Side>> {
        if self.profile != Profile::Lishogi {
            return None;
        }
        let key = self.current().key();
        if self.occurrences(key) < 4 {
            return None;
        }
        let first = self.positions.iter().position(|p| p.key() == key)?;
        let span = &self.facts[first..];
        Some(only_side(span, |f| f.check || f.piece_attack).map(Side::opponent))
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[ChuMove] {
        &self.moves
    }

    pub fn current(&self) -> &ChuPosition {
        self.positions
            .last()
            .unwrap_or_else(|| unreachable!("a history is never empty"))
    }

    /// Plays `mv`, which must be one of [`ChuHistory::legal_moves`].
    pub fn play(&mut self, mv: ChuMove) -> Result<(), String> {
        if !self.legal_moves().contains(&mv) {
            return Err(format!("{} is not a legal move here", mv.usi()));
        }
        let before = self.current().clone();
        let after = super::moves::play(&before, mv);
        self.facts.push(MoveFacts::of(&before, mv, &after));
        self.positions.push(after);
        self.moves.push(mv);
        Ok(())
    }

    /// Why 千日手 refuses `mv` (legal on the board) here, if it does
    /// (JCSA): the game is already drawn by a fourth occurrence, or `mv`
    /// would make one and its side is the one that must change its moves.
    pub fn refusal(&self, mv: ChuMove) -> Option<String> {
        if self.profile != Profile::Jcsa {
            return None;
        }
        let side = self.current().to_move();
        if self.occurrences(self.current().key()) >= 4 {
            return Some("the game is already drawn by 千日手 (a fourth occurrence)".to_string());
        }
        (self.must_change(mv) == Some(side)).then(|| {
            let name = match side {
                Side::First => "先手",
                Side::Second => "後手",
            };
            format!(
                "千日手: {name} must change its moves and may not make this position occur a fourth time"
            )
        })
    }

    /// Plays `mv` unless [`ChuHistory::refusal`] refuses it; `mv` must be
    /// legal on the board (as a reader that parsed it knows), which is not
    /// checked again.
    pub fn play_unless_refused(&mut self, mv: ChuMove) -> Result<(), String> {
        if let Some(why) = self.refusal(mv) {
            return Err(why);
        }
        let before = self.current().clone();
        let after = super::moves::play(&before, mv);
        self.facts.push(MoveFacts::of(&before, mv, &after));
        self.positions.push(after);
        self.moves.push(mv);
        Ok(())
    }

    /// How often the position `key` has occurred so far.
    pub fn occurrences(&self, key: u64) -> usize {
        self.positions.iter().filter(|p| p.key() == key).count()
    }

    /// If `mv` would make some position occur for the fourth time (or
    /// more), the side that must change its moves (JCSA; lishogi asks no
    /// one to change).
    pub fn must_change(&self, mv: ChuMove) -> Option<Side> {
        if self.profile != Profile::Jcsa {
            return None;
        }
        let before = self.current();
        let after = super::moves::play(before, mv);
        let key = after.key();
        if self.occurrences(key) + 1 < 4 {
            return None;
        }
        let first = self.positions.iter().position(|p| p.key() == key)?;
        let mut span: Vec<MoveFacts> = self.facts[first..].to_vec();
        span.push(MoveFacts::of(before, mv, &after));
        if let Some(side) = only_side(&span, |f| f.check) {
            return Some(side);
        }
        if let Some(side) = only_side(&span, |f| f.attack) {
            return Some(side);
        }
        if span.iter().all(|f| f.jitto) {
            // The じっと run may have begun before the span.
            let mut start = first;
            while start > 0 && self.facts[start - 1].jitto {
                start -= 1;
            }
            let began = self.facts.get(start).map_or(before.to_move(), |f| f.mover);
            return Some(began);
        }
        Some(before.to_move())
    }

    /// The legal moves less those 千日手 forbids (none once a fourth
    /// occurrence has drawn the game).
    pub fn legal_moves(&self) -> Vec<ChuMove> {
        let pos = self.current();
        let mut moves = Vec::new();
        if self.profile == Profile::Jcsa && self.occurrences(pos.key()) >= 4 {
            return moves;
        }
        legal_moves_in(self.profile, pos, &mut moves);
        moves.retain(|&m| self.must_change(m) != Some(pos.to_move()));
        moves
    }

    /// If both sides go on repeating the moves played since the current
    /// position last occurred, and that would make a fourth occurrence
    /// (JCSA): the side that must change its moves, and the side whose move
    /// would make the fourth occurrence (the same side: it may not; the
    /// other: the game is drawn). `None` until the current position has
    /// occurred three times, and under lishogi.
    pub fn cycle_ahead(&self) -> Option<Cycle> {
        if self.profile != Profile::Jcsa {
            return None;
        }
        let key = self.current().key();
        if self.occurrences(key) < 3 {
            return None;
        }
        let n = self.positions.len();
        let last = self.positions[..n - 1]
            .iter()
            .rposition(|p| p.key() == key)?;
        let mut ahead = self.clone();
        for &mv in &self.moves[last..] {
            let next = super::moves::play(ahead.current(), mv);
            if ahead.occurrences(next.key()) + 1 >= 4 {
                return Some(Cycle {
                    must_change: ahead.must_change(mv)?,
                    fourth_by: ahead.current().to_move(),
                });
            }
            ahead.play(mv).ok()?;
        }
        None
    }

    /// 千日手 (JCSA): the current position has occurred a fourth time, or
    /// the side to move has legal moves but every one would make a fourth
    /// occurrence that it is the side to avoid.
    pub fn is_repetition_draw(&self) -> bool {
        let pos = self.current();
        if self.profile == Profile::Jcsa && self.occurrences(pos.key()) >= 4 {
            return true;
        }
        let mut moves = Vec::new();
        legal_moves_in(self.profile, pos, &mut moves);
        !moves.is_empty()
            && moves
                .iter()
                .all(|&m| self.must_change(m) == Some(pos.to_move()))
    }
}
