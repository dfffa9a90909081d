//! The contract every two-player game implements, so that one search, one
//! game record (undo, repetition, saves) and one CPU runner serve them all.

use std::fmt::Debug;

use serde::{Deserialize, Serialize};

/// The two sides of a two-player game. `First` moves first in the standard
/// setup (先手); which pieces that means is up to each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
    pub fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];
}

/// Why a game ended. The UI turns each into words (both languages).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    /// The winner captured the number of pieces the rules ask for.
    CaptureTarget,
    /// The winner kept a lead in captures through the opponent's turn.
    Lead,
    /// The loser had no legal move on their turn.
    NoMoves,
    /// The same position occurred too often (千日手).
    Repetition,
    /// The move limit was reached.
    MoveLimit,
    /// The loser resigned (投了).
    Resignation,
    /// The game's time ran out (中将棋's 60-minute cutoff, decided by the
    /// points on the board).
    TimeUp,
    /// The loser's device stayed away longer than the room allows
    /// (通信切れ, in a game played from two devices).
    Disconnected,
    /// The loser's clock ran out (時間切れ: a room's 持ち時間 and 秒読み
    /// spent, in a 中将棋 room with a clock).
    OutOfTime,
    /// まわり将棋's race is won: the winner reached 王将 first, or every
    /// other player went out.
    RaceWon,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Side>,
    pub reason: EndReason,
}

impl Outcome {
    pub fn win(side: Side, reason: EndReason) -> Self {
        Outcome {
            winner: Some(side),
            reason,
        }
    }
    pub fn draw(reason: EndReason) -> Self {
        Outcome {
            winner: None,
            reason,
        }
    }
}

/// A two-player, perfect-information game.
///
/// The implementing type holds the fixed things (board, rule options); the
/// position is plain data that is copied to make a move (copy-make), which
/// keeps undo and search simple and exact.
pub trait Game {
    type Pos: Clone + Debug;
    type Move: Copy + Eq + Debug;

    fn start(&self) -> Self::Pos;
    fn side_to_move(&self, pos: &Self::Pos) -> Side;
    /// Appends every legal move of the side to move to `out`.
    fn legal_moves(&self, pos: &Self::Pos, out: &mut Vec<Self::Move>);
    /// The position after `mv`, which must be legal.
    fn play(&self, pos: &Self::Pos, mv: Self::Move) -> Self::Pos;
    /// The result, if the game is over in `pos` (not counting repetition,
    /// which the game record tracks).
    fn outcome(&self, pos: &Self::Pos) -> Option<Outcome>;
    /// What it means that `pos` has now occurred `count` times.
    fn repetition_outcome(&self, pos: &Self::Pos, count: u32) -> Option<Outcome>;
    /// Whether an ending is won by a margin the search should still play
    /// for (a count of points), rather than outright: the winner then
    /// prefers a larger lead and the loser a smaller deficit.
    fn won_on_margin(&self, _outcome: Outcome) -> bool {
        false
    }
    /// Moves a rule about the game so far forbids in its last position
    /// (中将棋's 千日手: the side that must change may not make a position's
    /// fourth occurrence). `positions` holds every position of the game,
    /// the current last; `moves` the moves between them.
    fn forbidden_moves(&self, _positions: &[Self::Pos], _moves: &[Self::Move]) -> Vec<Self::Move> {
        Vec::new()
    }
    /// The result the game so far has reached by repetition; by default
    /// [`Game::repetition_outcome`] of the last position's count.
    fn history_outcome(
        &self,
        positions: &[Self::Pos],
        _moves: &[Self::Move],
        occurrences: u32,
    ) -> Option<Outcome> {
        self.repetition_outcome(positions.last()?, occurrences)
    }
    /// Zobrist key of the position, side to move included.
    fn hash(&self, pos: &Self::Pos) -> u64;
    /// Static value for the side to move, in hundredths of a piece.
    fn evaluate(&self, pos: &Self::Pos) -> i32;
    /// What a player who does not look for threats sees: material, room and
    /// shape, but not the capture the opponent has next. Weak levels and
    /// blunders judge by it, so their mistakes are the typical ones (a gap
    /// left open) rather than random moves. Games without such knowledge in
    /// `evaluate` need not tell the two apart.
    fn evaluate_plain(&self, pos: &Self::Pos) -> i32 {
        self.evaluate(pos)
    }
    /// What a player who judges as [`Game::evaluate`] does sees in a
    /// moment's inattention: the same judgement without the threats it
    /// would look for. An oversight of a level that otherwise reads well
    /// (`plain_blunders`) judges by it; by default it is the plain
    /// judgement.
    fn evaluate_oversight(&self, pos: &Self::Pos) -> i32 {
        self.evaluate_plain(pos)
    }
    /// What a master of the game sees that the ordinary judgement
    /// ([`Game::evaluate`]) underrates: only the strongest level judges by
    /// it, the others keep the plainer view their strength is measured
    /// with. Games without such knowledge need not tell the two apart.
    fn evaluate_expert(&self, pos: &Self::Pos) -> i32 {
        self.evaluate(pos)
    }
    /// Whether `mv` captures (searched first, and in quiescence).
    fn is_capture(&self, pos: &Self::Pos, mv: Self::Move) -> bool;
    /// Appends the legal moves that capture, in [`Game::legal_moves`]'s
    /// order: the capture search's moves. Games that can generate them
    /// without the quiet moves do so.
    fn legal_captures(&self, pos: &Self::Pos, out: &mut Vec<Self::Move>) {
        let start = out.len();
        self.legal_moves(pos, out);
        let mut index = 0;
        out.retain(|&mv| {
            index += 1;
            index <= start || self.is_capture(pos, mv)
        });
    }
    /// How promising a capture looks before it is searched: the worth of
    /// what it takes, less a little of the taker's (most valuable victim,
    /// least valuable attacker). Captures are tried best first; games whose
    /// pieces are all alike need not say.
    fn capture_order(&self, _pos: &Self::Pos, _mv: Self::Move) -> i32 {
        0
    }
    /// What a capture wins once the opponent's best recaptures on its
    /// square are counted (static exchange), in evaluation units; below
    /// zero it loses material. The search tries such captures after the
    /// sound ones and leaves them out of its capture search. `None` where
    /// the game does not judge exchanges (its captures cannot be answered
    /// on the same point, or every capture is worth the same). Only a loss
    /// is used as a number: for a capture that cannot lose, any value of
    /// zero or more will do (a bound found without playing the exchange
    /// out).
    fn exchange(&self, _pos: &Self::Pos, _mv: Self::Move) -> Option<i32> {
        None
    }
    /// A dense index for history tables, below [`Game::move_index_bound`].
    fn move_index(&self, mv: Self::Move) -> usize;
    fn move_index_bound(&self) -> usize;
    /// Where the moving piece starts and where it ends (for a multi-jump,
    /// the last landing point): what tutorials and the UI name a move by.
    fn move_ends(&self, mv: Self::Move) -> (usize, usize);
    /// Every point the moving piece touches, in order: where it starts,
    /// then each landing (two points for a plain step). The UI builds a
    /// move from taps along this path.
    fn move_path(&self, mv: Self::Move) -> Vec<usize> {
        let (from, to) = self.move_ends(mv);
        vec![from, to]
    }
    /// Whether `mv` promotes the moving piece (中将棋's 成り): a move
    /// with the same path that does not is another move. Games without
    /// promotion never do.
    fn promotes(&self, _mv: Self::Move) -> bool {
        false
    }
    /// The taps that make `mv` on the board, when they are not its path:
    /// `None` for a move the player makes by other taps (a route that ends
    /// the same as a direct move), and a pass (`[p, p]`) is tapped on the
    /// piece itself and confirmed.
    fn input_path(&self, _pos: &Self::Pos, mv: Self::Move) -> Option<Vec<usize>> {
        Some(self.move_path(mv))
    }
    /// Human-readable move text, e.g. `9九→9五`.
    fn move_text(&self, pos: &Self::Pos, mv: Self::Move) -> String;
    /// What exact knowledge (endgame tables) says about `pos`, if the game
    /// has any; the search trusts it over its own reading.
    fn exact(&self, _pos: &Self::Pos) -> Option<Exact> {
        None
    }
    /// The least depth still to read at which the search asks
    /// [`Game::exact`]: knowledge that costs a reading of its own is asked
    /// only where enough of the search stands below it to pay for it.
    fn exact_min_depth(&self) -> i32 {
        i32::MIN
    }
    /// `pos` with the turn passed to the other side, for the search's
    /// null-move test ("if I could pass and still stand well, this
    /// position needs no deeper look"). Only games where passing is never
    /// better than moving offer it (no zugzwang to speak of): `None` keeps
    /// the search exact.
    fn null_move(&self, _pos: &Self::Pos) -> Option<Self::Pos> {
        None
    }
    /// Whether the side to move's royal piece could be taken by the
    /// opponent's next move (check). A search that reduces late moves
    /// reads every move at full depth in check, and after a checking move.
    fn in_check(&self, _pos: &Self::Pos) -> bool {
        false
    }
    /// How `selfplay --stats` names `side` and what it counts of that
    /// side's moves: `"takeable"` (after the move the opponent can take
    /// one of its pieces at once) or, for a piece that cannot be taken,
    /// `"trap"` (the move walks into a trap; each game says which).
    fn stat_label(&self, side: Side) -> (&'static str, &'static str) {
        match side {
            Side::First => ("first", "takeable"),
            Side::Second => ("second", "takeable"),
        }
    }
    /// Whether `mv`, played by the side to move in `before` and giving
    /// `after`, is what [`Game::stat_label`] counts (a piece left
    /// takeable, a step into a trap). `None` where the game does not
    /// measure it.
    fn move_stat(&self, _before: &Self::Pos, _mv: Self::Move, _after: &Self::Pos) -> Option<bool> {
        None
    }
}

/// Whether the side to move in `pos` can take something at once (a legal
/// capture); false in a finished game.
pub fn capture_open<G: Game + ?Sized>(game: &G, pos: &G::Pos) -> bool {
    if game.outcome(pos).is_some() {
        return false;
    }
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    moves.into_iter().any(|m| game.is_capture(pos, m))
}

/// A position's game-theoretic value from exact tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Exact {
    /// `winner` forces the end in this many plies; the loser can hold out
    /// no longer.
    WinIn { winner: Side, plies: u16 },
    /// `winner` wins with best play, in no known number of plies (it
    /// survives for ever, and the repetition or move-limit rule ends it).
    Won { winner: Side },
}

/// Zobrist key number `i`: a fixed pseudo-random 64-bit value (SplitMix64),
/// the same on every platform and every run.
pub const fn zobrist(i: u64) -> u64 {
    let mut z = i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
