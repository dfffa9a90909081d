//! A game in progress: the start position, every move, every position
//! reached, repetition counts, undo and resignation. Saves store the moves;
//! loading replays them through the rules, so a save can never put the game
//! into a position the rules could not reach.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::game::{EndReason, Game, Outcome, Side};

/// What playing a move reported, for notices and animations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayReport {
    /// How many times the new position has now occurred (1 = first time).
    pub occurrences: u32,
    pub outcome: Option<Outcome>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The game is already over.
    Finished,
    /// The move is not legal in the current position.
    Illegal(String),
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordError::Finished => write!(f, "the game is already over"),
            RecordError::Illegal(m) => write!(f, "illegal move {m}"),
        }
    }
}

impl std::error::Error for RecordError {}

#[derive(Clone, Debug)]
pub struct GameRecord<G: Game> {
    moves: Vec<G::Move>,
    positions: Vec<G::Pos>,
    hashes: Vec<u64>,
    counts: HashMap<u64, u32>,
    /// How the game ended off the board (投了, the time cutoff).
    ended: Option<Outcome>,
    /// What the game so far decides about the current position (中将棋's
    /// 千日手 looks back over the whole game), worked out once per
    /// position: the screens ask several times a frame. Emptied by every
    /// change; a record is always asked with the one game it is played in.
    judged: OnceLock<HistoryJudgement<G::Move>>,
}

/// [`Game::history_outcome`] and [`Game::forbidden_moves`] of a position.
#[derive(Clone, Debug)]
struct HistoryJudgement<M> {
    outcome: Option<Outcome>,
    forbidden: Vec<M>,
}

impl<G: Game> GameRecord<G> {
    pub fn new(game: &G) -> Self {
        Self::from_position(game, game.start())
    }

    pub fn from_position(game: &G, start: G::Pos) -> Self {
        let h = game.hash(&start);
        let mut counts = HashMap::new();
        counts.insert(h, 1);
        GameRecord {
            moves: Vec::new(),
            positions: vec![start],
            hashes: vec![h],
            counts,
            ended: None,
            judged: OnceLock::new(),
        }
    }

    /// The game-so-far rules about the current position, worked out on
    /// the first question after a change.
    fn judged(&self, game: &G) -> &HistoryJudgement<G::Move> {
        self.judged.get_or_init(|| HistoryJudgement {
            outcome: game.history_outcome(
                &self.positions,
                &self.moves,
                self.occurrences_of_current(),
            ),
            forbidden: game.forbidden_moves(&self.positions, &self.moves),
        })
    }

    /// Replays `moves` from `start` (a game begun from a set position).
    pub(crate) fn replay_from(
        game: &G,
        start: G::Pos,
        moves: &[G::Move],
    ) -> Result<Self, (usize, RecordError)> {
        let mut record = Self::from_position(game, start);
        for (i, &mv) in moves.iter().enumerate() {
            record.play(game, mv).map_err(|e| (i, e))?;
        }
        Ok(record)
    }

    pub fn current(&self) -> &G::Pos {
        self.positions
            .last()
            .expect("a record always holds its start position")
    }
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }
    pub fn positions(&self) -> &[G::Pos] {
        &self.positions
    }
    /// Hashes of every position so far, oldest first (for the search's
    /// repetition detection).
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }
    pub fn ply(&self) -> usize {
        self.moves.len()
    }
    pub fn occurrences_of_current(&self) -> u32 {
        self.hashes
            .last()
            .and_then(|h| self.counts.get(h))
            .copied()
            .unwrap_or(1)
    }

    pub fn outcome(&self, game: &G) -> Option<Outcome> {
        if let Some(outcome) = self.ended {
            return Some(outcome);
        }
        game.outcome(self.current())
            .or_else(|| self.judged(game).outcome)
    }

    /// Moves a rule about the game so far forbids now (中将棋's 千日手).
    pub fn forbidden_moves(&self, game: &G) -> Vec<G::Move> {
        self.judged(game).forbidden.clone()
    }

    /// The legal moves of the current position less those the game so far
    /// forbids.
    pub fn legal_moves(&self, game: &G) -> Vec<G::Move> {
        let mut moves = Vec::new();
        game.legal_moves(self.current(), &mut moves);
        let forbidden = &self.judged(game).forbidden;
        moves.retain(|m| !forbidden.contains(m));
        moves
    }

    pub(crate) fn is_legal(&self, game: &G, mv: G::Move) -> bool {
        self.legal_moves(game).contains(&mv)
    }

    pub fn play(&mut self, game: &G, mv: G::Move) -> Result<PlayReport, RecordError> {
        if self.outcome(game).is_some() {
            return Err(RecordError::Finished);
        }
        if !self.is_legal(game, mv) {
            return Err(RecordError::Illegal(format!("{mv:?}")));
        }
        let next = game.play(self.current(), mv);
        let h = game.hash(&next);
        let count = self.counts.entry(h).or_insert(0);
        *count += 1;
        let occurrences = *count;
        self.moves.push(mv);
        self.positions.push(next);
        self.hashes.push(h);
        self.judged = OnceLock::new();
        Ok(PlayReport {
            occurrences,
            outcome: self.outcome(game),
        })
    }

    /// Takes back the last move; false at the start.
    pub fn undo(&mut self) -> bool {
        if self.moves.is_empty() {
            return false;
        }
        self.ended = None;
        self.judged = OnceLock::new();
        self.moves.pop();
        self.positions.pop();
        if let Some(h) = self.hashes.pop()
            && let Some(c) = self.counts.get_mut(&h)
        {
            *c -= 1;
            if *c == 0 {
                self.counts.remove(&h);
            }
        }
        true
    }

    pub fn resign(&mut self, side: Side) {
        self.end(Outcome::win(side.opponent(), EndReason::Resignation));
    }

    /// Ends the game off the board (the time cutoff); a finished game keeps
    /// its result.
    pub fn end(&mut self, outcome: Outcome) {
        if self.ended.is_none() {
            self.ended = Some(outcome);
        }
    }
}
