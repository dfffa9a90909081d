//! The game on a room's table, whatever the game: built from the room's
//! rules text and played move by move in each game's notation, every move
//! checked by the game's own rules. The server keeps one per room; each
//! device keeps its own and applies the room's moves through it.

use serde::{Deserialize, Serialize};

use crate::rules::chu::game::Chu;
use crate::rules::data::GameId;
use crate::rules::foxgeese::FoxGeese;
use crate::rules::game::{EndReason, Outcome, Side};
use crate::rules::hasami::Hasami;
use crate::rules::mawari::dice::{KomaDice, Toss};
use crate::rules::mawari::order::{FirstThrow, next_thrower, play_value};
use crate::rules::mawari::race::{MawariRules, Race, RaceText};
use crate::rules::musashi::Musashi;
use crate::rules::record::{GameRecord, RecordError};
use crate::rules::rulebook::Rulebook;

/// A game being played by seats: in a two-player game seat 0 moves first
/// (先手), seat 1 second; まわり将棋's seats are its players in order.
pub trait Table: Send + Sync {
    /// How many seats play.
    fn seats(&self) -> usize;
    /// The seat whose turn it is; none once the game is over.
    fn seat_to_move(&self) -> Option<u8>;
    /// The move a seat's message asks for, as the room keeps it: the same
    /// text in the board games; in まわり将棋 the thrower's gesture with
    /// the room's own random seed `lot` added (so that no device chooses
    /// how the koma fall).
    fn settle(&self, seat: u8, text: &str, lot: u64) -> Result<String, TableError> {
        let _ = (seat, lot);
        Ok(text.to_string())
    }
    /// Plays the move `text` (as [`Table::settle`] gave it) for `seat`.
    fn play(&mut self, seat: u8, text: &str) -> Result<(), TableError>;
    /// How the game ended, on the board or off it.
    fn result(&self) -> Option<TableResult>;
    /// Ends the game off the board (投了, 通信切れ, the cutoff); a finished
    /// game keeps its result.
    fn end(&mut self, result: TableResult);
    /// Whether a player may give the game up (投了): not in a race of
    /// several players, which goes on without them.
    fn resignable(&self) -> bool {
        true
    }
    /// Moves played so far.
    fn ply(&self) -> usize;
    /// Moves a device of the seat to move may send, in the game's
    /// notation (まわり将棋: a plain gesture).
    fn legal_texts(&self) -> Vec<String>;
    /// The move the server makes for a computer seat, from the random
    /// number `lot`; none in games whose computer plays on the device.
    fn computer_move(&self, lot: u64) -> Option<String> {
        let _ = lot;
        None
    }
    /// Milliseconds of play after which the game is cut off, if it is.
    fn time_limit_ms(&self) -> Option<u64> {
        None
    }
    /// Whether moves may be taken back (an accepted 待った).
    fn takes_back(&self) -> bool {
        false
    }
    /// Takes the last `plies` moves back.
    fn take_back(&mut self, plies: usize) -> Result<(), TableError> {
        let _ = plies;
        Err(TableError::Illegal)
    }
    /// The result if the time ran out now.
    fn time_up(&self) -> TableResult {
        TableResult {
            winner: None,
            reason: EndReason::TimeUp,
        }
    }
}

/// How a room's game ended: the winning seat (none for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableResult {
    pub winner: Option<u8>,
    pub reason: EndReason,
}

impl TableResult {
    fn of(outcome: Outcome) -> TableResult {
        TableResult {
            winner: outcome.winner.map(seat_of),
            reason: outcome.reason,
        }
    }
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

/// How many seats `game` is played by.
pub fn seat_range(game: GameId) -> std::ops::RangeInclusive<usize> {
    match game {
        GameId::Mawari => 2..=4,
        _ => 2..=2,
    }
}

/// The table for `game` under the rules written in `rules` (RON, as a
/// save writes them; まわり将棋's as [`MawariTableRules`]).
pub fn open_table(game: GameId, rules: &str) -> Result<Box<dyn Table>, String> {
    match game {
        GameId::Hasami => Ok(Box::new(TwoPlayer::<Hasami>::open(rules)?)),
        GameId::FoxGeese => Ok(Box::new(TwoPlayer::<FoxGeese>::open(rules)?)),
        GameId::Musashi => Ok(Box::new(TwoPlayer::<Musashi>::open(rules)?)),
        GameId::ChuShogi => Ok(Box::new(TwoPlayer::<Chu>::open(rules)?)),
        GameId::Mawari => Ok(Box::new(MawariTable::open(rules)?)),
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
    fn seats(&self) -> usize {
        2
    }

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

    fn result(&self) -> Option<TableResult> {
        self.record.outcome(&self.game).map(TableResult::of)
    }

    fn end(&mut self, result: TableResult) {
        let outcome = match result.winner.and_then(side_of) {
            Some(side) => Outcome::win(side, result.reason),
            None => Outcome::draw(result.reason),
        };
        self.record.end(outcome);
    }

    fn ply(&self) -> usize {
        self.record.ply()
    }

    fn takes_back(&self) -> bool {
        true
    }

    fn take_back(&mut self, plies: usize) -> Result<(), TableError> {
        if self.result().is_some() {
            return Err(TableError::Finished);
        }
        if plies > self.record.ply() {
            return Err(TableError::Illegal);
        }
        for _ in 0..plies {
            self.record.undo();
        }
        Ok(())
    }

    fn time_limit_ms(&self) -> Option<u64> {
        G::TIME_LIMIT.map(|s| (s * 1000.0) as u64)
    }

    fn time_up(&self) -> TableResult {
        TableResult::of(self.game.time_up(self.record.current()))
    }

    fn legal_texts(&self) -> Vec<String> {
        if self.result().is_some() {
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

/// まわり将棋's rules as a room carries them: the race's rules and the
/// setup's choices that every device must share.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MawariTableRules {
    /// How many play (2–4): one seat each.
    pub players: usize,
    pub rules: MawariRules,
    /// Who throws first is drawn: each throws once, the highest first.
    pub draw_order: bool,
    /// Play on for places after the first is through.
    pub places: bool,
    /// Each seat's colour (an index of the app's colours), all different.
    pub colours: Vec<u8>,
    /// A position to start from (a race's text, as `--position` takes
    /// it); none for the corners.
    #[serde(default)]
    pub start: Option<String>,
    /// The seat that throws first from the corners when the order is not
    /// drawn: a room's next game passes it round.
    #[serde(default)]
    pub first: u8,
}

impl MawariTableRules {
    /// The race these rules begin, the same on the server and every
    /// device.
    pub fn race(&self) -> Result<Race, String> {
        let mut race = match &self.start {
            Some(text) => {
                let start = RaceText::parse(text)?;
                if start.pieces.len() != self.players {
                    return Err(format!(
                        "the start position has {} pieces for {} players",
                        start.pieces.len(),
                        self.players
                    ));
                }
                start.race(self.rules)
            }
            None => {
                let mut race = Race::new(self.players, self.rules).map_err(|e| e.0)?;
                if usize::from(self.first) >= self.players {
                    return Err("the first thrower is not one of the players".to_string());
                }
                race.turn = usize::from(self.first);
                race
            }
        };
        if self.places {
            race = race.playing_for_places();
        }
        Ok(race)
    }

    /// The draw for the first throw, if the room asks for one.
    pub fn draw(&self) -> Result<Option<FirstThrow>, String> {
        if self.draw_order {
            FirstThrow::new(self.players).map(Some)
        } else {
            Ok(None)
        }
    }
}

/// The rules of a room's next game, game number `number` (from 0): まわり
/// 将棋 from the corners passes the first throw on a seat each game;
/// every other game's rules are as they are.
pub fn next_game_rules(game: GameId, rules: &str, number: usize) -> Result<String, String> {
    if game != GameId::Mawari {
        return Ok(rules.to_string());
    }
    let mut table: MawariTableRules =
        ron::from_str(rules).map_err(|e| format!("the rules cannot be read: {e}"))?;
    if table.start.is_none() && !table.draw_order && table.players > 0 {
        table.first = (number % table.players) as u8;
    }
    ron::to_string(&table).map_err(|e| e.to_string())
}

/// How a device writes a throw: the direction and speed of the hand, no
/// seed (`hand <dir_x> <dir_y> <speed>`).
pub fn hand_text(dir_x: f64, dir_y: f64, speed: f64) -> String {
    format!("hand {dir_x} {dir_y} {speed}")
}

/// How the room writes a throw: the whole toss, seed included, from which
/// every device simulates the same fall (`toss <dir_x> <dir_y> <speed>
/// <seed>`).
pub fn toss_text(toss: &Toss) -> String {
    format!(
        "toss {} {} {} {}",
        toss.dir_x, toss.dir_y, toss.speed, toss.seed
    )
}

/// The largest size of a gesture's numbers: a drag is a few thousand
/// pixels a second at most.
const MAX_HAND: f64 = 1.0e6;

/// Reads a gesture's number: finite and of a hand's size.
fn hand_number(word: &str) -> Option<f64> {
    word.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && x.abs() <= MAX_HAND)
}

/// Reads a device's throw (`hand …`): the direction and speed.
fn read_hand(text: &str) -> Option<[f64; 3]> {
    match text.split_ascii_whitespace().collect::<Vec<_>>()[..] {
        ["hand", x, y, speed] => Some([hand_number(x)?, hand_number(y)?, hand_number(speed)?]),
        _ => None,
    }
}

/// Reads a room's throw (`toss …`).
pub fn read_toss(text: &str) -> Option<Toss> {
    match text.split_ascii_whitespace().collect::<Vec<_>>()[..] {
        ["toss", x, y, speed, seed] => Some(Toss {
            dir_x: hand_number(x)?,
            dir_y: hand_number(y)?,
            speed: hand_number(speed)?,
            seed: seed.parse().ok()?,
        }),
        _ => None,
    }
}

/// まわり将棋 played by its seats: the draw for the first throw when the
/// room asks for one, then the race. A player who sits a turn out is
/// passed at once, as every device does.
struct MawariTable {
    race: Race,
    draw: Option<FirstThrow>,
    dice: KomaDice,
    throws: usize,
    ended: Option<TableResult>,
}

/// The most turns passed in a row (every piece dead at once is revived by
/// the rules long before).
const MAX_SKIPS: usize = 16;

impl MawariTable {
    fn open(rules: &str) -> Result<Self, String> {
        let rules: MawariTableRules =
            ron::from_str(rules).map_err(|e| format!("the rules cannot be read: {e}"))?;
        let race = rules.race()?;
        let mut colours = rules.colours.clone();
        colours.sort_unstable();
        colours.dedup();
        if colours.len() != rules.players {
            return Err("each player needs a colour of their own".to_string());
        }
        Ok(MawariTable {
            race,
            draw: rules.draw()?,
            dice: KomaDice::new(),
            throws: 0,
            ended: None,
        })
    }

    fn drawing(&self) -> bool {
        self.draw.as_ref().is_some_and(|d| d.first.is_none())
    }
}

impl Table for MawariTable {
    fn seats(&self) -> usize {
        self.race.pieces.len()
    }

    fn seat_to_move(&self) -> Option<u8> {
        if self.ended.is_some() {
            return None;
        }
        next_thrower(&self.race, self.draw.as_ref()).map(|p| p as u8)
    }

    fn settle(&self, seat: u8, text: &str, lot: u64) -> Result<String, TableError> {
        match self.seat_to_move() {
            None => return Err(TableError::Finished),
            Some(to_move) if to_move != seat => return Err(TableError::NotYourTurn),
            Some(_) => {}
        }
        let [dir_x, dir_y, speed] = read_hand(text).ok_or(TableError::Illegal)?;
        Ok(toss_text(&Toss {
            dir_x,
            dir_y,
            speed,
            seed: lot,
        }))
    }

    fn play(&mut self, seat: u8, text: &str) -> Result<(), TableError> {
        match self.seat_to_move() {
            None => return Err(TableError::Finished),
            Some(to_move) if to_move != seat => return Err(TableError::NotYourTurn),
            Some(_) => {}
        }
        let toss = read_toss(text).ok_or(TableError::Illegal)?;
        let value = self.dice.throw(toss, false).value;
        play_value(&mut self.race, self.draw.as_mut(), value);
        self.throws += 1;
        for _ in 0..MAX_SKIPS {
            if self.race.is_over() || self.drawing() || !self.race.sits_out() {
                break;
            }
            self.race.skip_turn();
        }
        Ok(())
    }

    fn result(&self) -> Option<TableResult> {
        self.ended.or_else(|| {
            self.race.winner.map(|w| TableResult {
                winner: Some(w as u8),
                reason: EndReason::RaceWon,
            })
        })
    }

    fn end(&mut self, result: TableResult) {
        if self.result().is_none() {
            self.ended = Some(result);
        }
    }

    fn resignable(&self) -> bool {
        false
    }

    fn ply(&self) -> usize {
        self.throws
    }

    fn legal_texts(&self) -> Vec<String> {
        if self.result().is_some() {
            return Vec::new();
        }
        vec![hand_text(0.0, 1.0, 30.0)]
    }

    fn computer_move(&self, lot: u64) -> Option<String> {
        self.seat_to_move()?;
        Some(toss_text(&Toss::natural(lot)))
    }
}
