//! Whole games of まわり将棋 played out with simulated throws: what the
//! `yorimichi selfplay mawari` table counts (how games end, how long they
//! take). Every throw is the rigid-body simulation of [`super::dice`],
//! never a table of chances.

use super::dice::{KomaDice, ThrowValue, Toss};
use super::physics::SplitMix64;
use super::race::{Event, MawariRules, Race, RaceError};

/// A game is given up after this many throws (none has come near it).
pub const MAX_THROWS: u32 = 20_000;

/// How a game was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// A piece reached 王将 by the race: exact landings on the corners.
    Race,
    /// The winning throw was せんこ立ち.
    Senko,
    /// The winner rose to 王将 by winning a war (戦争).
    War,
    /// Everyone else was demoted out (歩の降格).
    LastOneLeft,
    /// No winner after `MAX_THROWS`.
    Unfinished,
}

impl Ending {
    pub const ALL: [Ending; 5] = [
        Ending::Race,
        Ending::Senko,
        Ending::War,
        Ending::LastOneLeft,
        Ending::Unfinished,
    ];
    pub fn id(self) -> &'static str {
        match self {
            Ending::Race => "race",
            Ending::Senko => "senko",
            Ending::War => "war",
            Ending::LastOneLeft => "last_one_left",
            Ending::Unfinished => "unfinished",
        }
    }
}

/// One game played out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub ending: Ending,
    pub winner: Option<usize>,
    /// Throws made, rethrows included.
    pub throws: u32,
}

/// How the last throw's events decided the game.
pub fn ending_of(value: ThrowValue, events: &[Event]) -> Ending {
    if events.iter().any(|e| matches!(e, Event::Out { .. })) {
        Ending::LastOneLeft
    } else if events.iter().any(|e| matches!(e, Event::WarEnd { .. })) {
        Ending::War
    } else if value == ThrowValue::Senko {
        Ending::Senko
    } else {
        Ending::Race
    }
}

/// Plays one game of `players` CPU players under `rules`, every throw a
/// natural toss simulated from a seed drawn from `seed`.
pub fn play(
    dice: &KomaDice,
    players: usize,
    rules: MawariRules,
    seed: u64,
) -> Result<GameRecord, RaceError> {
    let mut race = Race::new(players, rules)?;
    let mut rng = SplitMix64(seed);
    while race.throws < MAX_THROWS {
        let value = dice.throw(Toss::natural(rng.next_u64()), false).value;
        let events = race.apply(value);
        if race.is_over() {
            return Ok(GameRecord {
                ending: ending_of(value, &events),
                winner: race.winner,
                throws: race.throws,
            });
        }
    }
    Ok(GameRecord {
        ending: Ending::Unfinished,
        winner: None,
        throws: race.throws,
    })
}
