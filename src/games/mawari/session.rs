//! The match of まわり将棋: who sits where, the race, the log of throws,
//! and its save for 続きから.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::games::resume::Resumable;
use crate::rules::data::GameId;
use crate::rules::mawari::dice::{Pose, Throw, ThrowValue};
use crate::rules::mawari::physics::SplitMix64;
use crate::rules::mawari::race::{Event, MawariRules, Race};
use crate::shell::i18n::{Lang, T};

/// The players' colours by name, in seat order: 赤, 青, 緑, 紫.
pub(crate) const COLOUR_NAMES: [T; 4] =
    [T::MawariRed, T::MawariBlue, T::MawariGreen, T::MawariPurple];

/// Who sits at a place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seat {
    Person,
    Cpu,
}

/// One throw in the log: who threw, what came up, and what it did (the
/// square-by-square steps left out).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    pub player: usize,
    pub poses: [Pose; 4],
    pub value: ThrowValue,
    pub events: Vec<Event>,
}

/// A game of まわり将棋 in progress (what 続きから restores).
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MawariMatch {
    pub race: Race,
    pub seats: Vec<Seat>,
    pub log: Vec<LogEntry>,
    /// The seed source of the next throw.
    pub rng: u64,
    /// 早投げ: the throw is simulated but not shown.
    pub quick: bool,
    /// The setup it came from (for もう一度).
    pub preset: Option<String>,
}

impl MawariMatch {
    pub(crate) fn new(
        seats: Vec<Seat>,
        rules: MawariRules,
        quick: bool,
        preset: Option<String>,
        seed: u64,
    ) -> Result<Self, String> {
        let race = Race::new(seats.len(), rules).map_err(|e| e.0)?;
        Ok(MawariMatch {
            race,
            seats,
            log: Vec::new(),
            rng: seed,
            quick,
            preset,
        })
    }

    /// The seed of the next throw (and the source moves on).
    pub(crate) fn next_seed(&mut self) -> u64 {
        let mut r = SplitMix64(self.rng);
        let s = r.next_u64();
        self.rng = r.0;
        s
    }

    pub fn person_to_throw(&self) -> bool {
        self.race
            .thrower()
            .is_some_and(|p| self.seats.get(p) == Some(&Seat::Person))
    }

    /// A player's name: あなた when one person plays, else numbered.
    pub(crate) fn name(&self, player: usize, lang: Lang) -> String {
        let people = self.seats.iter().filter(|s| **s == Seat::Person).count();
        let colour = COLOUR_NAMES[player.min(3)].get(lang);
        match self.seats.get(player) {
            Some(Seat::Person) if people == 1 => T::MawariYou.get(lang).to_string(),
            Some(Seat::Cpu) => T::MawariCpuName.fill(lang, &[&colour]),
            _ => T::MawariPlayerName.fill(lang, &[&colour]),
        }
    }

    /// Plays a throw: the race moves on and the log grows. Returns the
    /// events for the animation.
    pub(crate) fn play(&mut self, throw: &Throw) -> Vec<Event> {
        let Some(player) = self.race.thrower() else {
            return Vec::new();
        };
        let events = self.race.apply(throw.value);
        self.log.push(LogEntry {
            player,
            poses: throw.poses,
            value: throw.value,
            events: events
                .iter()
                .filter(|e| !matches!(e, Event::Step { .. }))
                .copied()
                .collect(),
        });
        events
    }
}

impl Resumable for MawariMatch {
    const GAME: GameId = GameId::Mawari;
    type Save = MawariMatch;

    fn save(&self) -> impl Serialize + '_ {
        self
    }
    /// A save whose seats and pieces do not agree, or with too few or too
    /// many players, is refused.
    fn resume(save: MawariMatch) -> Result<Self, String> {
        let (seats, pieces) = (save.seats.len(), save.race.pieces.len());
        if seats != pieces || !(2..=4).contains(&seats) {
            return Err(format!("{seats} seats for {pieces} pieces"));
        }
        Ok(save)
    }
}
