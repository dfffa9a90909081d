//! A finished race as it is kept and replayed, below the replay's screen
//! and its chart: the game kept when it ends (so that its card opens the
//! replay), the race after each throw of its log, each player's rank over
//! the throws, and each throw simulated again from its logged toss (or its
//! logged poses laid out, where the toss was not kept or lands otherwise).

use bevy::prelude::*;

use super::dice_view::picture_bodies;
use super::session::{LogEntry, MawariMatch};
use crate::rules::data::GameId;
use crate::rules::mawari::dice::{KomaDice, Throw, Toss};
use crate::rules::mawari::physics::{Quat as PQuat, V3};
use crate::rules::mawari::race::{Race, Rank};
use crate::rules::mawari::replay::{Logged, Replayed, ranks, replay};
use crate::shell::Screen;
use crate::shell::save::Store;

/// How a replayed throw's koma came to lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    /// Simulated again from its toss: the same poses as logged.
    Simulated,
    /// No toss was kept: the logged poses, laid out.
    Logged,
    /// Simulated again it lay otherwise: the logged poses, laid out.
    Differs,
}

/// A throw of the log as the replay shows it.
#[derive(Clone, Debug)]
pub struct ReplayThrow {
    pub throw: Throw,
    pub landing: Landing,
}

/// The finished game being replayed and where the replay stands.
#[derive(Resource, Clone, Debug)]
pub struct MawariReplay {
    /// The game as it ended.
    pub finished: MawariMatch,
    /// The race after each throw, as far as the log could be replayed.
    pub replayed: Replayed,
    /// Each player's rank after each throw (the chart's lines).
    pub ranks: Vec<Vec<Rank>>,
    /// The throws shown: the board is the race after this many.
    pub at: usize,
    /// Each throw once simulated again (made when first shown).
    pub throws: Vec<Option<ReplayThrow>>,
    /// Where もどる goes back to.
    pub back_to: Screen,
}

impl MawariReplay {
    pub fn new(finished: MawariMatch, back_to: Screen) -> Self {
        let start = start_of(&finished);
        let replayed = replay(
            &start,
            finished.log.iter().map(|e| Logged {
                player: e.player,
                value: e.value,
                events: &e.events,
            }),
        );
        MawariReplay {
            ranks: ranks(&replayed),
            throws: vec![None; finished.log.len()],
            finished,
            replayed,
            at: 0,
            back_to,
        }
    }

    /// The throws in the log.
    pub fn len(&self) -> usize {
        self.finished.log.len()
    }

    pub fn is_empty(&self) -> bool {
        self.finished.log.is_empty()
    }

    /// Whether the race after `k` throws could be replayed (the board
    /// shows it); past that only the log's words and poses are shown.
    pub fn board_known(&self, k: usize) -> bool {
        k <= self.replayed.throws()
    }

    /// The game as it stood after `k` throws (the race as far as it could
    /// be replayed).
    pub fn match_at(&self, k: usize) -> MawariMatch {
        let known = k.min(self.replayed.throws());
        let mut m = self.finished.clone();
        if let Some(race) = self.replayed.races.get(known) {
            m.race = race.clone();
        }
        m.log.truncate(k);
        m.quick = false;
        m
    }

    /// Throw `k` (counted from 1) simulated again, or its logged poses.
    pub fn landing(&mut self, dice: &KomaDice, k: usize) -> Option<&ReplayThrow> {
        let i = k.checked_sub(1)?;
        let entry = self.finished.log.get(i)?;
        if self.throws[i].is_none() {
            self.throws[i] = Some(simulate(dice, entry));
        }
        self.throws[i].as_ref()
    }
}

/// The race the first throw found: kept with the game, or (an older save)
/// each piece a 歩 on its corner, the draw's winner to throw.
fn start_of(m: &MawariMatch) -> Race {
    if let Some(s) = &m.start {
        return s.clone();
    }
    match Race::new(m.race.pieces.len(), m.race.rules) {
        Ok(mut r) => {
            r.play_on = m.race.play_on;
            if let Some(first) = m.draw.as_ref().and_then(|d| d.first) {
                r.turn = first;
            }
            r
        }
        Err(_) => m.race.clone(),
    }
}

/// Simulates a logged throw again; where that cannot be done or lands
/// otherwise, the logged poses are laid out side by side instead.
pub(crate) fn simulate(dice: &KomaDice, entry: &LogEntry) -> ReplayThrow {
    let laid_out = |landing| {
        let mut frame = [(V3::ZERO, PQuat::IDENTITY); 4];
        for (slot, body) in frame
            .iter_mut()
            .zip(picture_bodies(&dice.shape, &entry.poses))
        {
            *slot = body;
        }
        ReplayThrow {
            throw: Throw {
                toss: entry.toss.unwrap_or(Toss::natural(0)),
                frames: vec![frame],
                poses: entry.poses,
                value: entry.value,
                seconds: 0.0,
                settled: true,
                impacts: Vec::new(),
            },
            landing,
        }
    };
    let Some(toss) = entry.toss else {
        return laid_out(Landing::Logged);
    };
    let throw = dice.throw(toss, true);
    if throw.poses == entry.poses && throw.value == entry.value {
        ReplayThrow {
            throw,
            landing: Landing::Simulated,
        }
    } else {
        laid_out(Landing::Differs)
    }
}

/// The game just finished is kept, so that its card can open the replay.
pub(crate) fn keep_finished(store: &mut Store, m: &MawariMatch) {
    store.put(&GameId::Mawari.finished_key(), m);
}
