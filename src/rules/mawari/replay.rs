//! A race played again from its log of throws: the race after each throw
//! (with everything it did, square by square), checked against what the
//! log says each throw did, and each player's rank over the throws (the
//! replay's chart).

use super::dice::ThrowValue;
use super::race::{Event, Race, Rank};

/// One throw of the log, as the replay needs it: who threw, what came up,
/// and the named events the log kept (the steps left out).
#[derive(Clone, Copy, Debug)]
pub struct Logged<'a> {
    pub player: usize,
    pub value: ThrowValue,
    pub events: &'a [Event],
}

/// The race replayed from its start.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    /// The race after each throw: `races[0]` before the first, `races[k]`
    /// after the k-th (and after the turns sat out that follow it).
    pub races: Vec<Race>,
    /// Everything the k+1-th throw did, steps and turns sat out included.
    pub events: Vec<Vec<Event>>,
}

impl Replayed {
    /// Throws replayed: fewer than the log's when a throw did not do what
    /// the log says (the replay stops there rather than show a race that
    /// was not played).
    pub fn throws(&self) -> usize {
        self.events.len()
    }
}

/// Passes every turn sat out (a dead player's) from here on, as the play
/// screen does between throws.
fn skip_dead(race: &mut Race, events: &mut Vec<Event>) {
    // A turn sat out passes the turn on: more than one round of it means
    // nobody can throw.
    for _ in 0..=race.pieces.len() {
        if race.is_over() || !race.sits_out() {
            return;
        }
        events.extend(race.skip_turn());
    }
}

/// Plays `log` from `start`, each throw checked: by the player whose turn
/// it is, and doing what the log says it did.
pub fn replay<'a>(start: &Race, log: impl IntoIterator<Item = Logged<'a>>) -> Replayed {
    let mut race = start.clone();
    skip_dead(&mut race, &mut Vec::new());
    let mut races = vec![race.clone()];
    let mut events = Vec::new();
    for logged in log {
        if race.thrower() != Some(logged.player) {
            break;
        }
        let mut did = race.apply(logged.value);
        let named: Vec<Event> = did
            .iter()
            .filter(|e| !matches!(e, Event::Step { .. }))
            .copied()
            .collect();
        if named != logged.events {
            break;
        }
        skip_dead(&mut race, &mut did);
        races.push(race.clone());
        events.push(did);
    }
    Replayed { races, events }
}

/// Each player's rank after each throw: `ranks[p][k]` after the k+1-th.
pub fn ranks(replayed: &Replayed) -> Vec<Vec<Rank>> {
    let players = replayed.races.first().map_or(0, |r| r.pieces.len());
    (0..players)
        .map(|p| {
            replayed
                .races
                .iter()
                .skip(1)
                .map(|r| r.pieces[p].rank)
                .collect()
        })
        .collect()
}

/// How high `rank` stands on the ladder: 0 for せんこ立ち up to 11 for
/// 王将 (the chart's height).
pub fn height(rank: Rank) -> usize {
    Rank::LADDER.iter().position(|&r| r == rank).unwrap_or(0)
}

/// The highest [`height`] there is.
pub const TOP: usize = Rank::LADDER.len() - 1;
