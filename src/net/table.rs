//! The game on a room's table, whatever the game: built from the room's
//! rules text and played move by move in each game's notation, every move
//! checked by the game's own rules. The server keeps one per room; each
//! device keeps its own and applies the room's moves through it.

use crate::rules::chu::game::Chu;
use crate::rules::data::GameId;
use crate::rules::foxgeese::FoxGeese;
use crate::rules::game::{Outcome, Side};
use crate::rules::hasami::Hasami;
use crate::rules::musashi::Musashi;
use crate::rules::record::{GameRecord, RecordError};
use crate::rules::rulebook::Rulebook;

/// A game being played by seats: seat 0 moves first (先手), seat 1 second.
pub trait Table: Send + Sync {
    /// The seat whose turn it is; none once the game is over.
    fn seat_to_move(&self) -> Option<u8>;
    /// Plays the move `text` (the game's notation) for `seat`.
    fn play(&mut self, seat: u8, text: &str) -> Result<(), TableError>;
    /// How the game ended, on the board or off it.
    fn outcome(&self) -> Option<Outcome>;
    /// Ends the game off the board (投了, 通信切れ); a finished game keeps
    /// its result.
    fn end(&mut self, outcome: Outcome);
    /// Moves played so far.
    fn ply(&self) -> usize;
    /// The legal moves of the seat to move, in the game's notation.
    fn legal_texts(&self) -> Vec<String>;
    /// Milliseconds of play after which the game is cut off, if it is.
    fn time_limit_ms(&self) -> Option<u64>;
    /// The result if the time ran out now.
    fn time_up(&self) -> Outcome;
}

/// Why a move was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// The game is over.
    Finished,
    /// Another seat is to move.
    NotYourTurn,
    /// No legal move is written so.
    Illegal,
}

/// The seat that plays `side`.
pub fn seat_of(side: Side) -> u8 {
    side.index() as u8
}

/// The side seat `seat` plays, in a two-player game.
pub fn side_of(seat: u8) -> Option<Side> {
    match seat {
        0 => Some(Side::First),
        1 => Some(Side::Second),
        _ => None,
    }
}

/// How many seats `game` is played by (まわり将棋: 2 to 4, not yet in
/// rooms).
pub fn seat_range(game: GameId) -> std::ops::RangeInclusive<usize> {
    match game {
        GameId::Mawari => 2..=4,
        _ => 2..=2,
    }
}

/// The table for `game` under the rules written in `rules` (RON, as a
/// save writes them).
pub fn open_table(game: GameId, rules: &str) -> Result<Box<dyn Table>, String> {
    match game {
        GameId::Hasami => Ok(Box::new(TwoPlayer::<Hasami>::open(rules)?)),
        GameId::FoxGeese => Ok(Box::new(TwoPlayer::<FoxGeese>::open(rules)?)),
        GameId::Musashi => Ok(Box::new(TwoPlayer::<Musashi>::open(rules)?)),
        GameId::ChuShogi => Ok(Box::new(TwoPlayer::<Chu>::open(rules)?)),
        GameId::Mawari => Err("まわり将棋 cannot be played in a room yet".to_string()),
    }
}

/// A two-player game and its record.
struct TwoPlayer<G: Rulebook> {
    game: G,
    record: GameRecord<G>,
}

impl<G: Rulebook> TwoPlayer<G> {
    fn open(rules: &str) -> Result<Self, String> {
        let rules: G::Rules =
            ron::from_str(rules).map_err(|e| format!("the rules cannot be read: {e}"))?;
        let game = G::create(&rules)?;
        let record = GameRecord::new(&game);
        Ok(TwoPlayer { game, record })
    }
}

impl<G> Table for TwoPlayer<G>
where
    G: Rulebook + Send + Sync,
    G::Pos: Send + Sync,
    G::Move: Send + Sync,
{
    fn seat_to_move(&self) -> Option<u8> {
        if self.record.outcome(&self.game).is_some() {
            return None;
        }
        Some(seat_of(self.game.side_to_move(self.record.current())))
    }

    fn play(&mut self, seat: u8, text: &str) -> Result<(), TableError> {
        match self.seat_to_move() {
            None => return Err(TableError::Finished),
            Some(to_move) if to_move != seat => return Err(TableError::NotYourTurn),
            Some(_) => {}
        }
        let legal = self.record.legal_moves(&self.game);
        let pos = self.record.current();
        let mv = self
            .game
            .read_notation(pos, &legal, text)
            .ok_or(TableError::Illegal)?;
        self.record.play(&self.game, mv).map_err(|e| match e {
            RecordError::Finished => TableError::Finished,
            RecordError::Illegal(_) => TableError::Illegal,
        })?;
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.record.outcome(&self.game)
    }

    fn end(&mut self, outcome: Outcome) {
        self.record.end(outcome);
    }

    fn ply(&self) -> usize {
        self.record.ply()
    }

    fn time_limit_ms(&self) -> Option<u64> {
        G::TIME_LIMIT.map(|s| (s * 1000.0) as u64)
    }

    fn time_up(&self) -> Outcome {
        self.game.time_up(self.record.current())
    }

    fn legal_texts(&self) -> Vec<String> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let pos = self.record.current();
        self.record
            .legal_moves(&self.game)
            .into_iter()
            .map(|mv| self.game.notation(pos, mv))
            .collect()
    }
}
