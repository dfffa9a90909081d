//! Who throws first (順番決め): each player throws the koma once, and the
//! highest throw goes first; those tied for the highest throw again, until
//! one is ahead. Play then goes round from that player in seat order.
//!
//! A throw counts its squares; せんこ立ち counts above any number, ばば
//! and a koma off the board below any.

use serde::{Deserialize, Serialize};

use super::dice::ThrowValue;
use super::race::{Event, Race};

/// What a throw counts in the draw.
pub fn draw_score(value: ThrowValue) -> u8 {
    match value {
        ThrowValue::Senko => u8::MAX,
        ThrowValue::Baba { .. } | ThrowValue::OffBoard => 0,
        ThrowValue::Move(n) => n,
    }
}

/// The draw for the first throw, in progress or decided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FirstThrow {
    /// Who throws in this round, in seat order.
    pub round: Vec<usize>,
    /// This round's throws so far: (player, score).
    pub scores: Vec<(usize, u8)>,
    /// The rounds thrown, each its (player, score) in order.
    pub rounds: Vec<Vec<(usize, u8)>>,
    /// Who goes first, once decided.
    pub first: Option<usize>,
}

impl FirstThrow {
    /// A draw among `players` players (2–4).
    pub fn new(players: usize) -> Result<FirstThrow, String> {
        if !(2..=4).contains(&players) {
            return Err(format!("まわり将棋 needs 2 to 4 players, not {players}"));
        }
        Ok(FirstThrow {
            round: (0..players).collect(),
            scores: Vec::new(),
            rounds: Vec::new(),
            first: None,
        })
    }

    /// Who throws next; `None` once it is decided.
    pub fn thrower(&self) -> Option<usize> {
        if self.first.is_some() {
            return None;
        }
        self.round.get(self.scores.len()).copied()
    }

    /// Takes the next throw. Once everyone in the round has thrown, the one
    /// highest goes first ([`Event::GoesFirst`]) or those tied for the
    /// highest make the next round ([`Event::DrawAgain`]).
    pub fn record(&mut self, value: ThrowValue) -> Vec<Event> {
        let Some(p) = self.thrower() else {
            return Vec::new();
        };
        self.scores.push((p, draw_score(value)));
        if self.scores.len() < self.round.len() {
            return Vec::new();
        }
        let best = self.scores.iter().map(|s| s.1).max().unwrap_or(0);
        let top: Vec<usize> = self
            .scores
            .iter()
            .filter(|s| s.1 == best)
            .map(|s| s.0)
            .collect();
        self.rounds.push(std::mem::take(&mut self.scores));
        if let [only] = top[..] {
            self.first = Some(only);
            vec![Event::GoesFirst { piece: only }]
        } else {
            let mut tied = [false; 4];
            for &q in &top {
                if let Some(t) = tied.get_mut(q) {
                    *t = true;
                }
            }
            self.round = top;
            vec![Event::DrawAgain { tied }]
        }
    }

    /// Every throw `player` has made in the draw, round by round.
    pub fn scores_of(&self, player: usize) -> Vec<u8> {
        self.rounds
            .iter()
            .chain(std::iter::once(&self.scores))
            .flat_map(|r| r.iter().filter(|s| s.0 == player).map(|s| s.1))
            .collect()
    }
}

/// Who throws next: in the draw for the first throw while it is being
/// thrown, else in the race.
pub fn next_thrower(race: &Race, draw: Option<&FirstThrow>) -> Option<usize> {
    match draw {
        Some(d) if d.first.is_none() => d.thrower(),
        _ => race.thrower(),
    }
}

/// Plays a throw's value: into the draw while it is being thrown (the
/// winner of the draw then has the race's first turn), else into the race.
pub fn play_value(race: &mut Race, draw: Option<&mut FirstThrow>, value: ThrowValue) -> Vec<Event> {
    match draw {
        Some(d) if d.first.is_none() => {
            let events = d.record(value);
            if let Some(first) = d.first {
                race.turn = first;
            }
            events
        }
        _ => race.apply(value),
    }
}
